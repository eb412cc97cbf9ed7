"""The Discord controls for a San Da Yi seat's pending decision (pure description)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.ui import Button, Controls, Option, Select, button_rows
from bot.games.sandayi.cards import (
    SUIT_NAME,
    SUIT_SYMBOL,
    SUITS,
    group,
    is_trump,
    label,
    points,
    sort_for_display,
)
from bot.games.sandayi.rules import describe


def _name(view: Mapping[str, Any], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return view["players"][seat]


def _bid_controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    bids = [c for c in legal if c.startswith("bid ")]
    high = view.get("high_bid")
    if high:
        holder = next(b["seat"] for b in reversed(view["bids"]) if b["bid"] == high)
        head = f"Highest bid: {high} by {_name(view, holder)}."
    else:
        head = "Nobody has bid yet."
    if bids:
        lo, hi = bids[0].split()[1], bids[-1].split()[1]
        ask = f"Bid {lo}" + (f"–{hi}" if hi != lo else "") + " or pass."
    else:
        ask = "You can only pass."
    buttons = [Button(describe(c), c, style="primary") for c in bids]
    buttons.append(Button("Pass", "pass", style="secondary"))
    prompt = (
        f"{head} {ask} The defenders need 105 − bid points; "
        "bids of 60/65 show the kitty to everyone."
    )
    return Controls(prompt=prompt, rows=tuple(button_rows(buttons)))


def _bury_controls(view: Mapping[str, Any]) -> Controls:
    hand = sort_for_display(view["hand"])
    left = view.get("to_bury") or len(hand) - 12
    options = []
    for card in hand:
        pts = points(card)
        note = f"{pts} points — buried points never count" if pts else None
        options.append(Option(label(card), card, note))
    cards = f"{left} card{'s' if left != 1 else ''}"
    select = Select(
        verb="bury",
        placeholder=f"Choose exactly {cards} to bury",
        options=tuple(options),
        min_values=left,
        max_values=left,
    )
    buried = view.get("buried") or []
    if buried:
        done = " ".join(label(c) for c in buried)
        head = f"You have buried {done}. Bury {left} more of your {len(hand)} cards face down"
    else:
        head = f"You declared at {view['bid']}. Bury {cards} of your {len(hand)} cards face down"
    prompt = head + "; then you will name trump (jokers and 2s are always trump)."
    return Controls(prompt=prompt, rows=(select,))


def _trump_controls(view: Mapping[str, Any]) -> Controls:
    hand = view["hand"]
    buttons = []
    for s in SUITS:
        count = sum(1 for c in hand if is_trump(c, s))
        buttons.append(
            Button(f"{SUIT_SYMBOL[s]} {SUIT_NAME[s]} ({count} trumps)", f"trump {s}", "primary")
        )
    return Controls(prompt="Name the trump suit.", rows=tuple(button_rows(buttons)))


def _play_controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    trump = view["trump"]
    cards = sort_for_display([c.split()[1] for c in legal], trump)
    trick = view["trick"]
    if trick:
        led = group(trick[0]["card"], trump)
        follow = "trumps" if led == "T" else f"{SUIT_SYMBOL[led]} {SUIT_NAME[led]}"
        head = f"Trick {view['tricks_played'] + 1}: follow {follow} if you can."
    else:
        head = f"Trick {view['tricks_played'] + 1}: you lead."
    points_line = f" Defenders have {view['defender_points']}/{view['target']} points."
    prompt = head + points_line + f" Trump: {SUIT_SYMBOL[trump]}."
    if len(cards) <= 25:
        buttons = [
            Button(label(c), f"play {c}", "danger" if is_trump(c, trump) else "primary")
            for c in cards
        ]
        return Controls(prompt=prompt, rows=tuple(button_rows(buttons)))
    options = tuple(Option(label(c), c) for c in cards[:25])
    return Controls(prompt=prompt, rows=(Select("play", "Choose a card", options),))


def controls(view: Mapping[str, Any], legal: Sequence[str]) -> Controls:
    """The controls for the seat's pending decision (none when it has nothing to do)."""
    if not legal:
        return Controls(prompt="Waiting for the other players.")
    phase = view["phase"]
    if phase == "bidding":
        return _bid_controls(view, legal)
    if phase == "bury":
        return _bury_controls(view)
    if phase == "trump":
        return _trump_controls(view)
    if phase == "play":
        return _play_controls(view, legal)
    return Controls(prompt="The match is over.")
