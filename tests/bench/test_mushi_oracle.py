"""``python -m bench.mushi_oracle``: the oracle ``normal`` sees exactly the opponent's true
hand, on its own turns only, and the arena's fair ``_ask`` is back afterwards."""

from __future__ import annotations

import json
import random
from pathlib import Path

import bench.arena as arena
from bench import mushi_oracle
from bot.games.mushi import SPEC, ai
from bot.games.mushi.rules import MushiState


def _midhand() -> MushiState:
    state = SPEC.new_game("oracle|1", ["A", "B"], {})
    assert isinstance(state, MushiState)
    rng = random.Random(3)
    for _ in range(5):  # a few plays in: hands, a table and a stock with cards gone
        seat = state.to_act[0]
        state.apply(seat, SPEC.choose(state.view(seat), state.legal_actions(seat), rng))
    return state


def test_the_oracle_knows_the_opponents_hand_and_nothing_else() -> None:
    state = _midhand()
    seat = state.to_act[0]
    view = state.view(seat)
    held = state.hands[1 - seat]
    mushi_oracle._asking[0] = state
    try:
        pos = mushi_oracle.knowing(view)
    finally:
        mushi_oracle._asking[0] = None
    fair = ai._Position(view)
    assert pos.unseen == fair.unseen  # the same cards unseen: only their places are known
    assert pos.pool == len(held) == pos.opp_hand
    assert pos.sure_stock == frozenset(fair.unseen) - frozenset(held)
    by_month: dict[int, int] = {}
    for c in held:
        if c != ai.WILD:
            by_month[ai.MONTH[c]] = by_month.get(ai.MONTH[c], 0) + 1
    assert pos.unseen_by_month == by_month
    assert pos.wild_in_pool == (ai.WILD in held)
    # A month it holds is certain, one it does not hold impossible.
    for n in by_month.values():
        assert pos.p_opp_holds(n, pos.pool) == 1.0
    assert pos.p_opp_holds(0, pos.pool) == 0.0
    # So is each, whatever card the flip turns up: a flip comes from the stock, never from
    # the hand, so it changes nothing of what the hand holds.
    for flip in pos.sure_stock - {ai.WILD}:
        for month in {ai.MONTH[c] for c in fair.unseen if c != ai.WILD}:
            assert pos.p_holds(month, flip, wild=False) == (1.0 if month in by_month else 0.0)
        assert pos.p_holds(None, flip, wild=True) == (1.0 if ai.WILD in held else 0.0)


def test_a_run_writes_its_deals_and_restores_the_fair_ask(tmp_path: Path) -> None:
    out = tmp_path / "oracle.json"
    mushi_oracle.run(str(out), 1, 7, "greedy")
    assert arena._ask is mushi_oracle._fair_ask
    assert mushi_oracle._asking[0] is None  # no true state left behind after the run
    report = json.loads(out.read_text())
    assert report["variant"] == "oracle normal"
    assert [d[0] for d in report["per_deal"]] == [0]
