"""What the presenter hands the outbox, as frozen data: a change of a table becomes
**deliveries** (:meth:`bot.host.presenter.Presenter.plan`, which awaits nothing), and the
outbox carries them to Discord (:meth:`bot.host.outbox.Outbox.deliver`: the REST budget,
the render pool, click tokens, retries, the table message's coalesced edits).

- :class:`DmUpdate`: a seat's DM as a :class:`DmPlan` says (a new message or an edit;
  ``urgent``: the seat must act now, sent before the change is let go of);
- :class:`TableEdit`: the table message no longer shows the table (its updater edits it,
  several changes in one edit);
- :class:`ThreadPost`: a line in the table's thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from bot.host.budget import Priority
from bot.host.table import Seat, Table

if TYPE_CHECKING:
    import discord

    from bot.host.tokens import ClickToken


@dataclass(frozen=True)
class DmPlan:
    """What one refresh of a seat's DM shows, taken when it was planned."""

    number: int  #: ``Seat.dm_plans`` when planned
    locale: str
    content: str
    make_view: Callable[[], discord.ui.View] | None  #: builds its controls (None: none)
    hand_view: Mapping[str, Any]  #: what its picture draws
    hand_key: str
    priority: Priority  #: of its picture
    acting: bool  #: a decision the seat must make (comes as a new message)
    new_message: bool  #: a new message (else an edit of the seat's current DM)
    hand_changed: bool  #: the picture must be drawn (as the seat's DM was when planned)
    decision: int | None  #: the decision's fingerprint
    clicked: ClickToken | None  #: the click on the seat's DM that led here
    message_id: int | None  #: the seat's DM when planned


@dataclass(frozen=True)
class DmUpdate:
    """Send or edit seat ``seat``'s DM as ``plan`` says. ``urgent``: the table waits on the
    seat (its decision goes out before the change is let go of); otherwise it is drawn and
    sent after, at a lower priority (a mover's own hand: the next move need not wait)."""

    table_id: int
    seat: int
    plan: DmPlan
    urgent: bool


@dataclass(frozen=True)
class TableEdit:
    """The table message no longer shows the table: its updater edits it (coalescing the
    changes made meanwhile; see ``Presenter.table_updater``)."""

    table_id: int


@dataclass(frozen=True)
class ThreadPost:
    """A line in the table's thread (``text``: a ``Text``, said in the table's language, or
    a line already said in it); only the users in ``ping`` may be notified."""

    table_id: int
    text: str
    ping: tuple[int, ...] = ()
    priority: Priority = Priority.POST


#: What the outbox carries out.
Delivery: TypeAlias = DmUpdate | TableEdit | ThreadPost


class DmPlanner(Protocol):
    """Plans a seat's DM from the table as it is now (the presenter): the outbox asks for a
    fresh plan when it tries a DM again that failed for a passing reason."""

    def plan_dm(
        self, table: Table, seat: Seat, fresh: bool, via: discord.Interaction | None
    ) -> DmPlan | None: ...
