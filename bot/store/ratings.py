"""openskill (Plackett-Luce) rating updates for one finished match; pure, no database."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate leaderboards sort by (as openskill's ``ordinal()``)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat of the match as the rating system sees it. Several seats may share a
    ``player`` (all AI seats are one pseudo-player)."""

    player: Hashable
    team: int
    place: int


def rate_match(
    entries: Sequence[Entry], current: Mapping[Any, tuple[float, float]]
) -> dict[Hashable, tuple[float, float]]:
    """New ``(mu, sigma)`` for every player of the match.

    Teams are ranked by their best place (lower is better; equal places are a draw). A player
    missing from ``current`` starts at the model's default. A player holding several seats is
    rated once per seat from the same prior and gets the mean of those updates. Returns ``{}``
    when there is nothing to learn: fewer than two teams or fewer than two distinct players.
    """
    team_ids = sorted({e.team for e in entries})
    if len(team_ids) < 2 or len({e.player for e in entries}) < 2:
        return {}
    teams: list[list[Entry]] = [[e for e in entries if e.team == t] for t in team_ids]
    ranks: list[float] = [min(e.place for e in team) for team in teams]

    def prior(player: Hashable) -> PlackettLuceRating:
        mu, sigma = current.get(player, (DEFAULT_MU, DEFAULT_SIGMA))
        return MODEL.rating(mu=mu, sigma=sigma)

    rated = MODEL.rate([[prior(e.player) for e in team] for team in teams], ranks=ranks)

    updates: dict[Hashable, list[tuple[float, float]]] = defaultdict(list)
    for team, new_team in zip(teams, rated, strict=True):
        for entry, new in zip(team, new_team, strict=True):
            updates[entry.player].append((new.mu, new.sigma))
    return {
        player: (fmean(mu for mu, _ in news), fmean(sigma for _, sigma in news))
        for player, news in updates.items()
    }
