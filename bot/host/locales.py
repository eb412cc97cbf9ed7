"""Who reads which language: each user's Discord locale as of their last interaction.

Every interaction carries its user's client language (``interaction.locale``): private
answers use it directly. A DM is sent between clicks, with no interaction of its reader at
hand, so the host remembers each user's last locale — in memory, for the click path, and
in the store (``user_locales``), for a restart or another process. Seeing a user's locale
costs nothing when it is the one remembered; a new one is written in the background (the
click is not held for it), several users' changes in one write.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping

from bot.i18n import normalize
from bot.store import Store

log = logging.getLogger(__name__)

#: Users whose locale is kept in memory (the least recently seen are forgotten first; the
#: store still knows them).
CACHE_LIMIT = 100_000


class LocaleMemory:
    """Users' remembered locales: a bounded cache in front of the store."""

    def __init__(self, store: Store, limit: int = CACHE_LIMIT) -> None:
        self.store = store
        self.limit = limit
        self._known: dict[int, str] = {}
        #: Changes not written yet (user -> locale), and the task writing them.
        self._pending: dict[int, str] = {}
        self._writer: asyncio.Task[None] | None = None

    def get(self, user_id: int | None) -> str | None:
        """The user's remembered locale, if this process knows it."""
        return None if user_id is None else self._known.get(user_id)

    def remember(self, user_id: int, locale: object) -> str:
        """The user spoke in ``locale`` (normalised to one of ``bot.i18n.LOCALES``): remember
        it, and write it to the store if it changed. Returns the normalised locale."""
        loc = normalize(locale)
        known = self._known.pop(user_id, None)
        self._keep(user_id, loc)  # most recently seen last
        if known != loc:
            self._pending[user_id] = loc
            if self._writer is None or self._writer.done():
                self._writer = asyncio.get_running_loop().create_task(
                    self._write(), name="user-locales-writer"
                )
        return loc

    def _keep(self, user_id: int, loc: str) -> None:
        self._known[user_id] = loc
        while len(self._known) > self.limit:
            del self._known[next(iter(self._known))]

    async def load(self, user_ids: Iterable[int | None], *, refresh: bool = False) -> None:
        """Read from the store the locales of these users this process does not know (all of
        them with ``refresh``: another process may have seen them since), except those
        whose change is still being written from here."""
        wanted = {u for u in user_ids if u is not None and u not in self._pending}
        if not refresh:
            wanted -= set(self._known)
        if not wanted:
            return
        self.learn(await self.store.user_locales(wanted))

    def learn(self, found: Mapping[int, str]) -> None:
        """Locales read from the store (user → locale, as another process stored them):
        remembered, except those whose change is still being written from here."""
        for user_id, loc in found.items():
            if user_id not in self._pending:
                self._known.pop(user_id, None)
                self._keep(user_id, normalize(loc))

    async def _write(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            try:
                await self.store.set_user_locales(batch)
            except asyncio.CancelledError:
                self._forget(batch)
                raise
            except Exception as e:
                # Not remembered in the store: forget it here too, so the user's next
                # interaction writes it again.
                log.warning("could not store %d user locale(s): %r", len(batch), e)
                self._forget(batch)

    def _forget(self, batch: dict[int, str]) -> None:
        for user_id, loc in batch.items():
            if self._known.get(user_id) == loc and user_id not in self._pending:
                del self._known[user_id]

    async def flush(self, timeout: float = 1.0) -> None:
        """Wait (a bounded time) for the changes being written: at shutdown."""
        writer = self._writer
        if writer is not None and not writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(writer), timeout)
            except TimeoutError:
                writer.cancel()


__all__ = ["CACHE_LIMIT", "LocaleMemory"]
