"""bot.host.cluster.TableLog.publish: what a change made goes to the log's subscribers —
the deal summaries, the presenter, the results, in that order — with the public events
the change added (issue 28)."""

from __future__ import annotations

from bot.host.intents import Outcome
from tests.host.test_presenter import alice_and_bob


async def test_an_outcome_carries_the_public_events_since_the_last_and_the_state_drops_them(
    tmp_path,
) -> None:  # type: ignore[no-untyped-def]
    """Two moves made before one outcome is published (as a catch-up from the log does):
    the outcome holds the public events of both, in order, and the state keeps none."""
    async with alice_and_bob(tmp_path, record=True) as (host, table):
        heard: list[Outcome] = []

        async def listen(outcome: Outcome) -> None:
            heard.append(outcome)

        host.log.subscribe(listen)
        async with table.lock:
            for _ in range(2):
                (mover,) = table.state.to_act
                await host.log.commit(table, mover, table.state.legal_actions(mover)[0], "player")
            expected = [e.text for e in table.state.visible_events(None, table.events_shown)]
            assert expected  # (the moves said something in public)
            await host.log.publish(Outcome(table, changed=frozenset([0])))
        (outcome,) = heard
        assert [e.text for e in outcome.events] == expected
        assert outcome.changed == frozenset([0]) and outcome.table is table
        assert table.state.events == [] and table.events_shown == 0
        assert table.recent == expected[-4:]  # the presenter was handed the same events


async def test_the_subscribers_are_in_the_order_of_their_effects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A deal's summary is posted before the next deal's prompts; the results are written
    only once the presenter has shown the change."""
    async with alice_and_bob(tmp_path) as (host, _):
        assert host.log._subscribers == [
            host.spectate.on_outcome,
            host.presenter.show,
            host.results.on_outcome,
        ]
