"""Scoring of a Panda hand (rules 15-18) as small named units.

Each unit returns :class:`ScoreLine` items (name, team, points); a hand's score for a team
is the sum of its lines. Teams: 0 = seats 0+2, 1 = seats 1+3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.panda.cards import card_points
from bot.games.panda.views import ScoreLine as ScoreLineView
from bot.i18n.text import Text

TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
DOUBLE_VICTORY_POINTS = 200
CALL_POINTS = 100
KINGDOM_POINTS = 100


def team_of(seat: int) -> int:
    return seat % 2


@dataclass(frozen=True)
class ScoreLine:
    name: str  # a Text: the renderers and the deal-end line say it in each language
    team: int
    points: int
    detail: str = ""

    def as_dict(self) -> ScoreLineView:
        return {"name": self.name, "team": self.team, "points": self.points, "detail": self.detail}


def is_double_victory(out: Sequence[int]) -> bool:
    """Two partners out first and second (rule 15a)."""
    return len(out) >= 2 and team_of(out[0]) == team_of(out[1])


def card_points_lines(
    out: Sequence[int], piles: Sequence[Sequence[str]], hands: Sequence[Sequence[str]]
) -> list[ScoreLine]:
    """Card points (rules 16-17): the last player's hand goes to the opposing team and
    their won tricks to the first player out. Anyone else still holding cards (a hand
    ended by a Kingdom, option) gives them to the opposing team too."""
    pile_of = [list(p) for p in piles]
    holders = [s for s in range(4) if hands[s]]
    if len(holders) == 1 and out:
        last = holders[0]
        pile_of[out[0]].extend(pile_of[last])
        pile_of[last] = []
    team_points = [0, 0]
    for s in range(4):
        team_points[team_of(s)] += card_points(pile_of[s])
    given = [0, 0]
    for s in holders:
        given[1 - team_of(s)] += card_points(hands[s])
    lines = []
    for t in (0, 1):
        detail = (
            Text("won tricks + {points} from the hand left over", points=given[t])
            if given[t]
            else Text("won tricks")
        )
        lines.append(ScoreLine(Text("Card points"), t, team_points[t] + given[t], detail))
    return lines


def double_victory_lines(out: Sequence[int]) -> list[ScoreLine]:
    winner = team_of(out[0])
    return [
        ScoreLine(Text("Double victory"), winner, DOUBLE_VICTORY_POINTS, Text("out 1st and 2nd")),
        ScoreLine(Text("Double victory"), 1 - winner, 0, Text("card points not counted")),
    ]


def call_lines(calls: Sequence[bool], out: Sequence[int], names: Sequence[str]) -> list[ScoreLine]:
    """±100 per Panda call: +100 only if that caller went out first (rule 18)."""
    lines = []
    for s in range(4):
        if calls[s]:
            made = bool(out) and out[0] == s
            lines.append(
                ScoreLine(
                    Text("Panda call"),
                    team_of(s),
                    CALL_POINTS if made else -CALL_POINTS,
                    Text("{name} went out first", name=names[s])
                    if made
                    else Text("{name} did not go out first", name=names[s]),
                )
            )
    return lines


def kingdom_lines(first_kingdom: int | None, names: Sequence[str]) -> list[ScoreLine]:
    if first_kingdom is None:
        return []
    return [
        ScoreLine(
            Text("Kingdom"),
            team_of(first_kingdom),
            KINGDOM_POINTS,
            Text("laid by {name}", name=names[first_kingdom]),
        )
    ]


def score_hand(
    out: Sequence[int],
    piles: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    calls: Sequence[bool],
    first_kingdom: int | None,
    names: Sequence[str],
) -> tuple[list[ScoreLine], list[int]]:
    """All score lines of a finished hand and the two team totals for it."""
    lines = (
        double_victory_lines(out)
        if is_double_victory(out)
        else card_points_lines(out, piles, hands)
    )
    lines += call_lines(calls, out, names) + kingdom_lines(first_kingdom, names)
    totals = [sum(x.points for x in lines if x.team == t) for t in (0, 1)]
    return lines, totals
