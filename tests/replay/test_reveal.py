"""The hands at the end of a deal, worked out from the log (``bot/replay/reveal.py``): at
the end of a match no next deal is dealt, so the final state's hands are the truth; before
any deal ended there is nothing to reveal; the cards a deal-ending play names leave its
player's hand, a Catfish's stated reading included."""

from __future__ import annotations

import pytest

from bot.engine import State
from bot.games import game_spec
from bot.replay.reveal import _without_played, last_deal_end
from tests.replay.helpers import SHORT, play

GAMES = ("koikoi", "mushi", "panda", "sandayi")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", ["r1", "r2"])
def test_the_last_deal_of_a_match_ends_with_the_final_hands(game: str, seed: str) -> None:
    state = play(game, seed)
    assert state.is_over
    end = last_deal_end(game, seed, state.players, SHORT[game], state.log)
    assert end is not None and end.index == len(state.log) - 1
    final = [game_spec(game).hand_of(state.view(s)) for s in range(state.num_seats)]
    assert [sorted(h) for h in end.hands] == [sorted(h) for h in final]


def test_nothing_is_revealed_before_a_deal_ends() -> None:
    state: State = game_spec("panda").new_game("r", ["A", "B", "C", "D"], {})
    for _ in range(6):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert last_deal_end("panda", "r", state.players, {}, state.log) is None


def test_a_deal_ending_play_takes_its_cards_from_the_hand() -> None:
    hand = ("5t", "5g", "catfish", "9r")
    assert _without_played(hand, "play 5t 5g catfish=5") == ("9r",)
    assert _without_played(("2p1", "3r"), "play 2p1 2p2") == ("3r",)  # a board target
    assert _without_played(hand, "pass") == hand
    assert _without_played(hand, "gift 1") == hand


def test_a_drawn_card_kept_apart_is_in_the_hand() -> None:
    spec = game_spec("mahjong")
    assert spec.hand_of({"hand": ["1b", "2b"], "drawn": "3b"}) == ["1b", "2b", "3b"]
    assert spec.hand_of({"hand": None}) == []
