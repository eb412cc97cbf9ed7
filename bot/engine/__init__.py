"""The game contract every Teahouse game implements.

A game is a deterministic state machine over string notation (see docs/architecture.md):

- ``new_game(seed, players, options, deck=None) -> State``
- ``state.to_act`` — the seats with a pending decision *now* (several at once for
  simultaneous decisions, claim windows and out-of-turn plays);
- ``state.legal_actions(seat)`` — action codes; ``state.apply(seat, code)`` validates and
  raises :class:`IllegalAction` with a readable reason, changing nothing on error;
- ``state.default_action(seat)`` — what a timeout does;
- ``state.view(seat | None)`` — exactly what that seat (None: a spectator) may see (a
  :class:`TableView`, which each game's view type extends);
- ``state.is_over``, ``state.scores``, ``state.result()``;
- ``replay(seed, players, options, log)`` rebuilds a state from its action log.

This package is pure: it imports neither ``discord`` nor ``PIL``.
"""

from bot.engine.core import (
    Event,
    IllegalAction,
    Result,
    State,
    replay_from,
    replayer,
)
from bot.engine.rng import make_rng, shuffled
from bot.engine.view import TableView

__all__ = [
    "Event",
    "IllegalAction",
    "Result",
    "State",
    "TableView",
    "make_rng",
    "replay_from",
    "replayer",
    "shuffled",
]
