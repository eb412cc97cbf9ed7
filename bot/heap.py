"""The bot's heap: full garbage collections on a timer, objects loaded at start kept out of
them, and freed memory handed back to the system now and then.

Every full garbage collection walks every object that can hold references: at 1,000 tables
each was a pause of 200–300 ms on this machine (the event loop stops; clicks wait for it),
and Python started one after every ten collections of its middle generation, every few
seconds when busy (measured with ``gc.callbacks``: nearly every callback over 20 ms was
one). :func:`manage_collections` takes them over: Python collects the young generations as
before, and :func:`collect_every` makes a full collection every ``FULL_COLLECTION_SECONDS``
(reference cycles left as garbage wait that long to be freed). A third of the objects walked
were the bot's own code and libraries, loaded at start and never freed: they are frozen out
of the collector's sight first.

Pictures (tens of KiB each), request bodies and JSON answers pass through the bot's
process by the hundred every second. When they are freed, C's allocator (glibc) keeps the
space for later, and pieces still in use scattered through its heap keep it from giving the
pages back: at 300 busy tables that was about 10 MiB held free (a third of the heap, a
tenth of the process). ``malloc_trim`` returns every whole free page to the system; the
bot calls it every ``TRIM_SECONDS``. Elsewhere than glibc (musl, macOS, Windows) there is
no such call and nothing is done.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import sys
from collections.abc import Callable
from functools import cache

log = logging.getLogger(__name__)

#: s between two full garbage collections in the bot's own process (see above). Each pause
#: is mostly the walk through the live objects; at 1,000 busy tables every 20 s gave the
#: best acknowledgements and memory measured (60 s: the garbage of a minute made each
#: pause longer and the process bigger; 300 s: far bigger).
FULL_COLLECTION_SECONDS = 20.0
#: A threshold the count of middle-generation collections never reaches.
_NEVER = 2**30

_managed = False


def manage_collections() -> bool:
    """Collect what start-up left over, keep every object alive now (modules, classes,
    functions, the bot's settings and clients: never freed) out of later collections, and
    leave full collections to :func:`collect_every`. Once per process (a second bot in the
    same process, as in tests, changes nothing more); True if it did."""
    global _managed
    if _managed:
        return False
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, _NEVER)
    _managed = True
    log.info(
        "start-up: %d objects kept out of garbage collections; a full one every %g s",
        gc.get_freeze_count(),
        FULL_COLLECTION_SECONDS,
    )
    return True


async def collect_every(seconds: float = FULL_COLLECTION_SECONDS) -> None:
    """A full garbage collection every ``seconds`` until cancelled."""
    while True:
        await asyncio.sleep(seconds)
        gc.collect()


#: s between two trims (a trim takes about a millisecond, outside the GIL).
TRIM_SECONDS = 20.0


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def can_trim() -> bool:
    """Whether this process's C library can give freed memory back (glibc)."""
    return _malloc_trim() is not None


def trim_heap() -> bool:
    """Give the C heap's free pages back to the system; True if any were."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False


async def trim_heap_every(seconds: float = TRIM_SECONDS) -> None:
    """Trim the heap every ``seconds`` until cancelled (nothing to do without glibc)."""
    if not can_trim():
        log.debug("no malloc_trim here: freed memory stays with the C library")
        return
    while True:
        await asyncio.sleep(seconds)
        trim_heap()
