"""The Discord controls for a San Da Yi seat's pending decision (pure description).

Every word is a :class:`~bot.i18n.text.Text`: the host says it in the player's language."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.ui import Button, Controls, Option, Select, button_rows
from bot.games.sandayi.cards import (
    SUIT_NAME,
    SUIT_SYMBOL,
    SUITS,
    card_list,
    group,
    is_trump,
    label,
    points,
    sort_for_display,
)
from bot.games.sandayi.rules import PASS, describe
from bot.games.sandayi.views import SanDaYiView
from bot.i18n.text import Text, ntext


def _name(view: SanDaYiView, seat: int | None) -> str:
    if seat is None:
        return Text("nobody")
    return view["players"][seat]


def _bid_controls(view: SanDaYiView, legal: Sequence[str]) -> Controls:
    bids = [c for c in legal if c.startswith("bid ")]
    high = view.get("high_bid")
    if high:
        holder = next(b["seat"] for b in reversed(view["bids"]) if b["bid"] == high)
        head = Text("Highest bid: {bid} by {name}.", bid=high, name=_name(view, holder))
    else:
        head = Text("Nobody has bid yet.")
    if bids:
        lo, hi = bids[0].split()[1], bids[-1].split()[1]
        if hi != lo:
            ask = Text("Bid {low}–{high} or pass.", low=lo, high=hi)
        else:
            ask = Text("Bid {low} or pass.", low=lo)
    else:
        ask = Text("You can only pass.")
    buttons = [Button(describe(c), c, style="primary") for c in bids]
    buttons.append(Button(PASS, "pass", style="secondary"))
    prompt = Text(
        "{head} {ask} The defenders need 105 − bid points; bids of 60/65 show the kitty to "
        "everyone.",
        head=head,
        ask=ask,
    )
    return Controls(prompt=prompt, rows=tuple(button_rows(buttons)))


def _bury_controls(view: SanDaYiView) -> Controls:
    hand = sort_for_display(view["hand"] or [])
    left = view.get("to_bury") or len(hand) - 12
    options = []
    for card in hand:
        pts = points(card)
        note = Text("{n} points — buried points never count", n=pts) if pts else None
        options.append(Option(label(card), card, note))
    select = Select(
        verb="bury",
        placeholder=ntext(
            "Choose exactly {n} card to bury", "Choose exactly {n} cards to bury", left
        ),
        options=tuple(options),
        min_values=left,
        max_values=left,
    )
    buried = view.get("buried") or []
    if buried:
        prompt = Text(
            "You have buried {cards}. Bury {left} more of your {total} cards face down; "
            "then you will name trump (jokers and 2s are always trump).",
            cards=card_list(buried),
            left=left,
            total=len(hand),
        )
    else:
        prompt = ntext(
            "You declared at {bid}. Bury {n} card of your {total} cards face down; "
            "then you will name trump (jokers and 2s are always trump).",
            "You declared at {bid}. Bury {n} cards of your {total} cards face down; "
            "then you will name trump (jokers and 2s are always trump).",
            left,
            bid=view["bid"],
            total=len(hand),
        )
    return Controls(prompt=prompt, rows=(select,))


def _trump_controls(view: SanDaYiView) -> Controls:
    hand = view["hand"] or []
    buttons = []
    for s in SUITS:
        count = sum(1 for c in hand if is_trump(c, s))
        text = ntext(
            "{symbol} {suit} ({n} trump)",
            "{symbol} {suit} ({n} trumps)",
            count,
            symbol=SUIT_SYMBOL[s],
            suit=SUIT_NAME[s],
        )
        buttons.append(Button(text, f"trump {s}", "primary"))
    return Controls(prompt=Text("Name the trump suit."), rows=tuple(button_rows(buttons)))


def _play_controls(view: SanDaYiView, legal: Sequence[str]) -> Controls:
    trump = view["trump"]
    assert trump is not None  # (tricks are played once trump is named)
    cards = sort_for_display([c.split()[1] for c in legal], trump)
    trick = view["trick"]
    n = view["tricks_played"] + 1
    if trick:
        led = group(trick[0]["card"], trump)
        if led == "T":
            head = Text("Trick {n}: follow trumps if you can.", n=n)
        else:
            head = Text(
                "Trick {n}: follow {symbol} {suit} if you can.",
                n=n,
                symbol=SUIT_SYMBOL[led],
                suit=SUIT_NAME[led],
            )
    else:
        head = Text("Trick {n}: you lead.", n=n)
    prompt = Text(
        "{head} Defenders have {points}/{target} points. Trump: {symbol}.",
        head=head,
        points=view["defender_points"],
        target=view["target"],
        symbol=SUIT_SYMBOL[trump],
    )
    if len(cards) <= 25:
        buttons = [
            Button(label(c), f"play {c}", "danger" if is_trump(c, trump) else "primary")
            for c in cards
        ]
        return Controls(prompt=prompt, rows=tuple(button_rows(buttons)))
    options = tuple(Option(label(c), c) for c in cards[:25])
    return Controls(prompt=prompt, rows=(Select("play", Text("Choose a card"), options),))


def controls(view: SanDaYiView, legal: Sequence[str]) -> Controls:
    """The controls for the seat's pending decision (none when it has nothing to do)."""
    if not legal:
        return Controls(prompt=Text("Waiting for the other players."))
    phase = view["phase"]
    if phase == "bidding":
        return _bid_controls(view, legal)
    if phase == "bury":
        return _bury_controls(view)
    if phase == "trump":
        return _trump_controls(view)
    if phase == "play":
        return _play_controls(view, legal)
    return Controls(prompt=Text("The match is over."))
