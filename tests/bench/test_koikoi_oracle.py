"""``python -m bench.koikoi_oracle``: the oracle's samples are the true hidden cards, on
its own turns only, and the fair functions are back afterwards."""

from __future__ import annotations

import json
import random
from pathlib import Path

import bench.arena as arena
from bench import koikoi_oracle
from bot.games.koikoi import SPEC, strong
from bot.games.koikoi.rules import KoiKoiState


def _midround() -> KoiKoiState:
    state = SPEC.new_game("oracle|1", ["A", "B"], {})
    assert isinstance(state, KoiKoiState)
    rng = random.Random(3)
    for _ in range(5):  # a few plays in: a hand, a board and a stack with cards gone
        seat = state.to_act[0]
        state.apply(seat, SPEC.choose(state.view(seat), state.legal_actions(seat), rng))
    return state


def test_the_oracles_samples_are_the_hidden_cards_as_they_lie() -> None:
    state = _midround()
    seat = state.to_act[0]
    view = state.view(seat)
    koikoi_oracle._TRUTH[0] = state
    try:
        koikoi_oracle._KIND[0] = "full"
        full = koikoi_oracle._oracle_deal_hidden(view, random.Random(1))
        koikoi_oracle._KIND[0] = "hand"
        hand = koikoi_oracle._oracle_deal_hidden(view, random.Random(1))
    finally:
        koikoi_oracle._TRUTH[0] = None
    opp = state.hands[1 - seat]
    assert full == [*opp, *state.stack]
    assert hand[: len(opp)] == opp and sorted(hand) == sorted(full)
    # Outside an oracle's turn the fair deal is used: a shuffle of the unseen cards.
    fair = koikoi_oracle._oracle_deal_hidden(view, random.Random(1))
    assert fair == strong.deal_hidden(view, random.Random(1))
    assert sorted(fair) == sorted(full) and fair != full


def test_a_run_writes_its_deals_and_restores_the_fair_functions(tmp_path: Path) -> None:
    out = tmp_path / "oracle.json"
    koikoi_oracle.main([str(out), "1", "7", "0", "full", "greedy"])
    assert strong.deal_hidden is koikoi_oracle._fair_deal_hidden
    assert arena._ask is koikoi_oracle._fair_ask
    report = json.loads(out.read_text())
    assert report["a"] == "oracle-full" and report["b"] == "greedy"
    assert [d[0] for d in report["per_deal"]] == [0]
