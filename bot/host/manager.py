"""The host: one :class:`TableHost` lives on the bot; cogs parse commands and call it, and
every component click arrives here through the dynamic items of :mod:`bot.host.components`.

It is assembled from one mixin per concern, each a module a reader can take on its own:

- :mod:`bot.host.lobby` — ``/<game> new``, the lobby's buttons, quotas, expiry;
- :mod:`bot.host.lifecycle` — starting a table, loading one from the log (restore, a click
  for a table run elsewhere), its tasks, closing;
- :mod:`bot.host.clicks` — action clicks, out-of-turn batches, Show my hand, I'm back;
- :mod:`bot.host.driver` — AI seats, deadlines and timeouts, a table left to AIs;
- :mod:`bot.host.presenter` — after a change: prompts, deadlines, DMs, the table message,
  posts, images;
- :mod:`bot.host.recovery` — Discord's failure modes around the thread and table message
  (archived, deleted, permissions taken away);
- :mod:`bot.host.finish` — results and the announcement, abort, retiring a table;
- :mod:`bot.host.cluster` — the state as a cache of the shared log (catch-up, conflicts);
- :mod:`bot.host.hints` — the Hint button for newcomers, and which matches are rated;
- :mod:`bot.host.spectate` — the Spectate button and the deal summaries (hands revealed).

Order of work on an action: validate in memory (fast, so the interaction is acknowledged at
once), apply to the state, append to the store's action log, and only then show anything.
"""

from __future__ import annotations

from bot.host.clicks import ClicksMixin
from bot.host.cluster import ClusterMixin, Conflict
from bot.host.driver import DriverMixin
from bot.host.finish import FinishMixin
from bot.host.hints import HintsMixin
from bot.host.lifecycle import LifecycleMixin
from bot.host.lobby import LobbyMixin, derived_seed
from bot.host.options import game_options
from bot.host.presenter import PresenterMixin
from bot.host.recovery import RecoveryMixin
from bot.host.replies import report_error
from bot.host.spectate import SpectateMixin


class TableHost(
    LobbyMixin,
    LifecycleMixin,
    ClicksMixin,
    HintsMixin,
    SpectateMixin,
    DriverMixin,
    PresenterMixin,
    RecoveryMixin,
    FinishMixin,
    ClusterMixin,
):
    """Game-agnostic hosting of lobbies and tables on Discord (see the module docstring).

    Public: :meth:`open_lobby`, :meth:`on_lobby`, :meth:`on_action`, :meth:`on_show_hand`,
    :meth:`on_reclaim`, :meth:`on_hint`, :meth:`on_spectate`, :meth:`abort`, :meth:`table`,
    :meth:`table_in_channel`, :meth:`restore`, :meth:`start_restore`, :meth:`close`,
    :meth:`guarded`, and ``tables``.
    """


__all__ = ["Conflict", "TableHost", "derived_seed", "game_options", "report_error"]
