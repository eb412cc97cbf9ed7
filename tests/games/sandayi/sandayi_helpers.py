"""Stacked decks and small drivers for the San Da Yi tests."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from bot.engine.core import Event
from bot.games import sandayi
from bot.games.sandayi.cards import DECK, SUIT_SYMBOL, is_card, label
from bot.games.sandayi.rules import SanDaYiState

PLAYERS = ["Ann", "Bob", "Cai", "Dee"]


def stack(hands: Mapping[int, Sequence[str]] | None = None, kitty: Sequence[str] = ()) -> list[str]:
    """A deck (top first) that deals the given cards to the given seats and kitty; the rest
    of the 54 cards fill the gaps in deck order. Card i of the deck goes to seat i % 4."""
    hands = {s: list(c) for s, c in (hands or {}).items()}
    used = [c for cs in hands.values() for c in cs] + list(kitty)
    assert len(used) == len(set(used)), "a card is stacked twice"
    rest = [c for c in DECK if c not in used]
    full = {s: hands.get(s, []) for s in range(4)}
    for s in range(4):
        while len(full[s]) < 12:
            full[s].append(rest.pop(0))
    full_kitty = list(kitty) + rest[: 6 - len(kitty)]
    deck = [full[i % 4][i // 4] for i in range(48)] + full_kitty
    assert sorted(deck) == sorted(DECK)
    return deck


def new(
    deck: Sequence[str] | Sequence[Sequence[str]] | None = None,
    seed: int | str = 1,
    **options: object,
) -> SanDaYiState:
    return sandayi.new_game(seed, PLAYERS, options or None, deck=deck)


def play_out(
    state: SanDaYiState,
    policy: Callable[[SanDaYiState, int, list[str]], str] | None = None,
    until_hand_end: bool = True,
) -> None:
    """Play (the rest of) the current hand: ``policy`` picks a code, default the first legal."""
    hand = state.hand_no
    history = len(state.history)
    while not state.is_over and (len(state.history) == history or not until_hand_end):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        code = policy(state, seat, legal) if policy else legal[0]
        state.apply(seat, code)
        if state.hand_no != hand and until_hand_end:
            break


def card_strings(obj: object) -> set[str]:
    """Every string anywhere in a view that is a card code (except settlement case codes
    such as "3C", which are spelt like cards)."""
    out: set[str] = set()
    if isinstance(obj, str):
        if is_card(obj):
            out.add(obj)
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            if k != "case":
                out |= card_strings(k) | card_strings(v)
    elif isinstance(obj, Iterable):
        for v in obj:
            out |= card_strings(v)
    return out


def hidden_from(state: SanDaYiState, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) must not see now."""
    hidden: set[str] = set()
    for s in range(4):
        if s != seat:
            hidden |= set(state.hands[s])
    if state.declarer is None:
        hidden |= set(state.kitty)
    else:
        if seat != state.declarer:
            hidden |= set(state.buried)
        if state.kitty_public:
            hidden -= set(state.kitty)  # shown face up to everyone (rule 7)
    return hidden


def random_policy(rng: random.Random) -> Callable[[SanDaYiState, int, list[str]], str]:
    return lambda state, seat, legal: rng.choice(legal)


_LABEL_TO_CARD = {label(c): c for c in DECK}
_LABEL = re.compile(
    r"(?:10|[2-9JQKA])[" + "".join(SUIT_SYMBOL.values()) + r"]|Big joker|Small joker"
)


def event_cards(event: Event) -> set[str]:
    """Every card an event names: codes in its data, labels (``Q♠``) in its text."""
    return card_strings(event.data) | {_LABEL_TO_CARD[m] for m in _LABEL.findall(event.text)}


def revealed_by(
    before_declarer: int | None, state: SanDaYiState, seat: int | None, code: str
) -> set[str]:
    """The cards that the action ``code`` (just applied) shows ``seat``: a played card;
    the kitty when the bidding ends (to everyone for 60/65, else to the declarer)."""
    words = code.split()
    out = {words[1]} if words[0] == "play" else set()
    if before_declarer is None and state.declarer is not None:
        if state.kitty_public or seat == state.declarer:
            out |= set(state.kitty)
    return out
