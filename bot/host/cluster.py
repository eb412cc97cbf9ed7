"""The in-memory state as a cache of the action log, which several processes may share.

An action is appended at the index of the state it was decided on; if another process
appended first the store refuses it, this process rebuilds from the log and refuses the
action (:class:`Conflict`). A driver also catches up with moves served elsewhere.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.engine import IllegalAction
from bot.host.base import HostBase
from bot.host.options import game_options
from bot.host.table import Table
from bot.store import StoreError

log = logging.getLogger(__name__)


class Conflict(IllegalAction):
    """The log moved on under this process (another one served the table): the action was
    decided on an older state and is not made."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason} Use your latest controls.")


class ClusterMixin(HostBase):
    async def _apply(self, table: Table, seat: int, code: str, source: str) -> list[Any]:
        """Apply one action and append it to the log before anything is shown.

        The in-memory state is a cache of the log: if the log has moved on (another process
        served a click of this table), the store refuses the append (its index is taken),
        this process rebuilds from the log and the action, decided on an older state, is
        refused with :class:`Conflict` (see :meth:`_store_actions`).
        """
        start = table.state.version
        events = table.state.apply(seat, code)
        await self._store_actions(table, start, source)
        return events

    async def _sync_with_log(self, table: Table) -> bool:
        """Apply what the log holds beyond this state; True if there was anything."""
        missed = await self.store.actions_since(table.id, table.state.version)
        if not missed:
            return False
        log.info("table %s: catching up %d action(s) from the log", table.id, len(missed))
        events: list[Any] = []
        try:
            for seat, code in missed:
                events += table.state.apply(seat, code)
        except IllegalAction:  # diverged: replay the whole log
            self._rebuild(table, await self.store.actions(table.id))
            events = []
        await self._after_change(table, events)
        return True

    def _rebuild(self, table: Table, actions: list[tuple[int, str]]) -> None:
        table.state = table.spec.replay(
            table.seed, [s.name for s in table.seats], game_options(table.options), actions
        )
        table.state.events.clear()
        table.events_shown = 0

    async def _store_actions(self, table: Table, start: int, source: str) -> None:
        """Append the actions applied since ``start`` to the store's log."""
        try:
            for index in range(start, table.state.version):
                seat, code = table.state.log[index]
                await self.store.append_action(table.id, index, seat, code, source)
        except Exception as error:
            actions = await self.store.actions(table.id)
            self._rebuild(table, actions)
            if isinstance(error, StoreError) and len(actions) > start:
                # Another writer took this index first: its action stands, ours is dropped.
                log.info("table %s: action %d was taken by another writer", table.id, start)
                await self._after_change(table, [])
                raise Conflict("Another move was made at this table just before yours.") from None
            log.exception("table %s: could not store actions; rebuilt from the log", table.id)
            raise
        table.wake_driver()
