"""bot.host.cluster.TableLog.publish (a table session's publishing): what a change made
goes to the subscribers — the deal summaries, the new decisions' deadlines, the presenter,
the results, in that order — with the public events the change added (issue 28)."""

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
        # (the seat it named, and those whose decision or hand changed)
        assert 0 in outcome.changed and outcome.table is table
        assert table.state.events == [] and table.events_shown == 0
        assert table.recent == expected[-4:]  # the presenter was handed the same events


async def test_the_subscribers_are_in_the_order_of_their_effects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A deal's summary is posted before the next deal's prompts, whose clocks start once
    it is out; the results are written only once the presenter has shown the change."""
    async with alice_and_bob(tmp_path) as (host, _):
        subscribers = host.log._subscribers
        assert len(subscribers) == 4
        assert subscribers[0] == host.spectate.on_outcome
        assert subscribers[1].__name__ == "start_clocks"  # (bot.host.session.clocks)
        assert subscribers[2:] == [host.presenter.show, host.results.on_outcome]
