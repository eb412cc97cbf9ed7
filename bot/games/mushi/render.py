"""Mushi table, hand and hand-summary images: pure functions of a view dict (``rules.py``).

Layout of the table (the viewer's seat at the bottom; a spectator sees seat 0 there):

    [opponent info][hand backs][captures: brights | animals | ribbons | junk  + points]
    [hand n/12, stock][            table (2 rows of 8)             ]
    [                ][now      | last play      | last flip       ]
    [viewer   info][hand      ][captures: brights | animals | ribbons | junk  + points]

The wild card (Willow lightning) wears a violet halo and a WILD tag wherever it lies; when
it waits on the table a banner says that the next flip must take it. The pieces both
hanafuda games draw live in :mod:`bot.games.hanafuda.render`. The felt, the panels and the
empty capture slots form a cached base layer; a render copies it and pastes cached card
sprites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card
from bot.games.hanafuda.deal import chain_semicolon
from bot.games.hanafuda.render import (
    CHOOSE_NOTE,
    CLASS_COLOUR,
    EMPTY_PILE_COLOUR,
    LAST_MOVES,
    MATCH_TEXT,
    NO_MATCH,
    RGB,
    TABLE_MIN_TEXT,
    HandNote,
    PasteCard,
    TableLayout,
    card_face,
    card_height,
    card_image,
    draw_banner_panel,
    draw_capture_piles,
    draw_field,
    draw_hand_cards,
    draw_hand_slot,
    draw_last_move,
    draw_name_row,
    draw_now,
    draw_pending_flip,
    draw_side_note,
    draw_stack_pile,
    draw_text_columns,
    draw_turn_ring,
    draw_turn_tab,
    hand_sheet,
    move_highlights,
    paste_card,
    png_palette_for,
    ribbon_short_name,
    say,
    seat_name,
    seats_top_bottom,
    table_base,
    takes_note,
    turn_label,
)
from bot.games.mushi.rules import (
    MONTH,
    WILD,
    capture_choices,
    card_label,
    card_points,
    combination_name,
    leftover_reason,
    sort_mushi,
    wild_targets,
)
from bot.games.mushi.views import HandRecord, MushiView
from bot.i18n import Text, ntext
from bot.i18n.text import commas
from bot.render.draw import (
    GOLD,
    MATCH_GREEN,
    MUTED,
    WHITE,
    Draw,
    badge,
    felt,
    fit_text,
    panel,
    paste_with_shadow,
    text_length,
    wrap_text,
)
from bot.render.fonts import font

View = MushiView

LAYOUT = TableLayout(
    width=790,
    height=722,
    strip_h=156,
    mid_h=256,
    # Width each class pile may use, sized for its largest count (20 junk cards squeeze).
    class_width={BRIGHT: 86, ANIMAL: 104, RIBBON: 104, PLAIN: 104},
    # A label with its points ("短 Ribbons 4 · 20") takes two rows above its pile.
    pile_label_dy=8,
    pile_cards_dy=50,
    hand_cards_dy=36,
)
W, H = LAYOUT.width, LAYOUT.height
M = LAYOUT.margin
INFO_W = LAYOUT.info_w
TOP_Y, MID_Y, BOT_Y = LAYOUT.top_y, LAYOUT.mid_y, LAYOUT.bot_y
TABLE_BOX = LAYOUT.field_box
STOCK_CARD_W = 64
ASIDE_CARD_W = 30
NOW_W = 210  # the status band's "now" part; the last play and flip share the rest
WILD_TAG_MIN_W = 52  # narrower cards keep the wild's halo without its tag

WILD_COLOUR = (190, 120, 255)  # the wild card, wherever it is
WILD_TEXT = (30, 10, 50)
LOSS_RED = (236, 96, 88)
PHASE_TURN = {"choose_flip": Text("CHOOSING", context="hanafuda")}
#: The capture piles' labels, ``短 Ribbons 2``, and with their card points, ``短 Ribbons 2 · 10``.
PILE_LABELS = {
    BRIGHT: lambda n: Text("光 Brights {n}", n=n),
    ANIMAL: lambda n: Text("種 Animals {n}", n=n),
    RIBBON: lambda n: Text("短 Ribbons {n}", n=n),
    PLAIN: lambda n: Text("カス Junk {n}", n=n),
}
PILE_POINT_LABELS = {
    BRIGHT: lambda n, pts: Text("光 Brights {n} · {points}", n=n, points=pts),
    ANIMAL: lambda n, pts: Text("種 Animals {n} · {points}", n=n, points=pts),
    RIBBON: lambda n, pts: Text("短 Ribbons {n} · {points}", n=n, points=pts),
    PLAIN: lambda n, pts: Text("カス Junk {n} · {points}", n=n, points=pts),
}


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    return table_base(LAYOUT)


# ----------------------------------------------------------------------------- pieces


def _paste_card(
    img: Image.Image,
    code: str,
    width: int,
    xy: tuple[int, int],
    hl: Mapping[str, RGB | None],
    *,
    halo: bool = True,
    wild_tag: bool = True,
    locale: str = "en-US",
) -> None:
    """Paste a card; a highlighted one gets a halo (loose cards) or a ring (fanned piles).

    The wild always gets its violet mark, so players can find it at a glance.
    """
    colour = hl.get(code)
    if code == WILD and colour is None:
        colour = WILD_COLOUR
    sprite = paste_card(img, code, width, xy, colour, halo=halo)
    if code == WILD and wild_tag and width >= WILD_TAG_MIN_W:
        size = TABLE_MIN_TEXT
        tag, size = fit_text(say(locale, Text("WILD")), width - 8, size, bold=True, min_size=size)
        badge(
            Draw(img),
            (xy[0] + sprite.width // 2, xy[1] + sprite.height - size - 8),
            tag,
            size,
            fill=WILD_COLOUR,
            text_fill=WILD_TEXT,
            anchor="ma",
        )


def _paster(
    img: Image.Image,
    hl: Mapping[str, RGB | None],
    *,
    halo: bool = True,
    wild_tag: bool = True,
    locale: str = "en-US",
) -> PasteCard:
    def paste(code: str, width: int, xy: tuple[int, int]) -> None:
        _paste_card(img, code, width, xy, hl, halo=halo, wild_tag=wild_tag, locale=locale)

    return paste


def _player_strip(
    img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, RGB | None], locale: str
) -> None:
    d = Draw(img)
    boxes = LAYOUT.strip_boxes(y)
    info = boxes["info"]
    x0, y0, _, _ = info
    turn = turn_label(view, seat, PHASE_TURN)
    if turn:
        draw_turn_ring(d, info)
    elder = view.get("elder") == seat and not view.get("is_over")
    draw_name_row(d, info, seat_name(view, seat), Text("親 Elder") if elder else None, locale)
    if turn:
        draw_turn_tab(d, info, turn, locale)

    scores = view.get("scores") or [0, 0]
    total = scores[seat]
    label = say(locale, Text("Match", context="mushi score"))
    d.text((x0 + 10, y0 + 50), label, font=font(14), fill=MUTED, anchor="lm")
    colour = GOLD if total >= 0 else LOSS_RED
    value_x = x0 + max(60, 18 + int(text_length(label, 14)))
    d.text((value_x, y0 + 50), _signed(total), font=font(24, True), fill=colour, anchor="lm")

    points = (view.get("card_points") or [0, 0])[seat]
    label = say(locale, Text("Card points", context="mushi"))
    d.text((x0 + 10, y0 + 80), label, font=font(14), fill=MUTED, anchor="lm")
    value_x = x0 + max(100, 18 + int(text_length(label, 14)))
    d.text((value_x, y0 + 80), str(points), font=font(20, True), fill=WHITE, anchor="lm")
    d.text((value_x + 40, y0 + 81), "/ 115", font=font(13), fill=(170, 180, 170), anchor="lm")

    combos = (view.get("combos") or [[], []])[seat]
    ty = y0 + 104
    if not combos:
        text = say(locale, Text("No combination"))
        d.text((x0 + 10, ty + 8), text, font=font(13), fill=(160, 170, 160), anchor="lm")
    for i, combo in enumerate(combos[:3]):
        line = f"★ {say(locale, combination_name(combo['name']))} +{combo['value']}"
        text, size = fit_text(line, INFO_W - 20, 14, bold=True, min_size=TABLE_MIN_TEXT)
        d.text(
            (x0 + 10, ty + 8 + i * 17),
            text,
            font=font(size, True),
            fill=(255, 226, 120),
            anchor="lm",
        )
    draw_hand_slot(img, view, seat, boxes["hand"], LAYOUT.hand_cards_dy, locale)
    _captures(img, view, seat, y, hl, locale)


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−") if n else "0"


def _pile_label(cls: str, cards: Sequence[str]) -> Text:
    """``短 Ribbons 2 · 10``: the class, its count and (when any) its card points."""
    if not cards:
        return PILE_LABELS[cls](0)
    return PILE_POINT_LABELS[cls](len(cards), sum(card_points(c) for c in cards))


def _captures(
    img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, RGB | None], locale: str
) -> None:
    groups = (view.get("captures") or [{}, {}])[seat]
    piles = {cls: list(groups.get(cls, [])) for cls in CLASS_ORDER}
    labels = {cls: _pile_label(cls, cards) for cls, cards in piles.items()}
    paste = _paster(img, hl, halo=False, wild_tag=False)
    draw_capture_piles(img, LAYOUT, y, piles, labels, paste, locale)


def _stock_column(img: Image.Image, view: View, locale: str) -> None:
    d = Draw(img)
    box = LAYOUT.side_box
    x0, y0, x1, _ = box
    cx = (x0 + x1) // 2
    title: str = Text(
        "Hand {hand} / {hands}", hand=view.get("deal", 1), hands=view.get("deals", 12)
    )
    title, size = fit_text(say(locale, title), x1 - x0 - 12, 19, bold=True, min_size=14)
    d.text((cx, y0 + 20), title, font=font(size, True), fill=WHITE, anchor="mm")
    n = int(view.get("stock_count", 0))
    top = y0 + 42
    draw_stack_pile(img, cx, top, STOCK_CARD_W, n, depth=min(4, (n + 3) // 4), locale=locale)
    y = top + card_height(STOCK_CARD_W) + 22
    stock = say(locale, Text("Stock"))
    d.text((cx, y), stock, font=font(14, True), fill=MUTED, anchor="mm")
    aside = view.get("set_aside") or []
    if aside:
        y += 16
        text, size = fit_text(
            say(locale, Text("Rain set aside")), x1 - x0 - 8, 14, True, TABLE_MIN_TEXT
        )
        d.text((cx, y), text, font=font(size, True), fill=WILD_COLOUR, anchor="mm")
        step = ASIDE_CARD_W + 4
        ax = cx - (len(aside) * step - 4) // 2
        for i, code in enumerate(aside):
            paste_with_shadow(
                img, card_image(code, ASIDE_CARD_W), (ax + i * step, y + 10), offset=(1, 1)
            )
    history = view.get("history") or []
    if history and not view.get("is_over"):
        last = history[-1]
        players = view.get("players", ["?", "?"])
        a, b = last["scores"]
        if a == b:
            text = Text("H{hand}: 0 – 0", hand=last["hand"])
        else:
            w = 0 if a > b else 1
            text = Text(
                "H{hand}: {name} +{points}",
                hand=last["hand"],
                name=players[w],
                points=last["scores"][w],
            )
        draw_side_note(d, box, text, bottom_gap=16, locale=locale)


def _table(img: Image.Image, view: View, hl: Mapping[str, RGB | None], locale: str) -> None:
    x0, y0, x1, _ = TABLE_BOX
    duty = bool(view.get("wild_duty")) and not view.get("is_over")
    if duty:
        text = say(locale, Text("雷 The wild is on the table: the next flip must take it"))
        text, size = fit_text(text, x1 - x0 - 30, 14, bold=True, min_size=TABLE_MIN_TEXT)
        badge(
            Draw(img),
            ((x0 + x1) // 2, y0 + 8),
            text,
            size,
            fill=WILD_COLOUR,
            text_fill=WILD_TEXT,
            anchor="ma",
        )
    table = sort_mushi(view.get("table") or [])
    paste = _paster(img, hl, locale=locale)
    empty = Text("The table is empty")
    draw_field(img, LAYOUT, table, paste, empty, top_pad=30 if duty else 0, locale=locale)


def _now_text(view: View) -> str:
    players = view.get("players", ["?", "?"])
    to_act = view.get("to_act") or []
    if view.get("is_over"):
        return Text("Match over", context="hanafuda")
    if not to_act:
        return Text("Waiting…", context="hanafuda")
    who = fit_text(str(players[to_act[0]]), 120, 16, bold=True, min_size=16)[0]
    phase = view.get("phase")
    if phase == "choose_flip":
        return Text("{name}: choose what the flip takes", name=who)
    return Text("{name} to play", context="hanafuda", name=who)


def _status_band(img: Image.Image, view: View, locale: str) -> None:
    """Under the table: what it waits for, then the pending flip (while its player
    chooses) and the last play and flip, side by side (the first two of those)."""
    now_box, *slots = LAYOUT.status_slots(NOW_W, 2)
    players = view.get("players", ["?", "?"])
    draw_now(Draw(img), now_box, _now_text(view), max_lines=3, locale=locale)
    pending = view.get("pending")
    choosing = view.get("phase") == "choose_flip"
    if choosing and pending and pending["card"]:
        x0, y0, _, _ = slots.pop(0)
        draw_pending_flip(img, x0, y0 + 8, pending["card"], locale)
    paste = _paster(img, {}, wild_tag=False)
    moves = []
    plays = {"last_play": view.get("last_play"), "last_flip": view.get("last_flip")}
    for key, title, colour in LAST_MOVES:
        move = plays[key]
        if not move or (key == "last_flip" and choosing and not move.get("took")):
            continue  # the pending flip is shown instead
        moves.append((key, title, colour, move))
    for box, (key, title, colour, move) in zip(slots, moves, strict=False):
        who = players[move["seat"]] if move.get("seat") is not None else ""
        kept = move["card"] == WILD and key == "last_flip" and not view.get("wild_duty")
        note = Text("kept by the\nyounger") if kept else Text("stays on\nthe table")
        head = f"{say(locale, title)} · {who}"
        draw_last_move(img, box, box[1] + 8, head, colour, move, paste, note, locale)


def _hand_line(h: HandRecord, players: Sequence[str]) -> Text:
    a, b = h["scores"]
    combos = commas([combination_name(c["name"]) for cs in h["combos"] for c in cs])
    first, second = h["card_points"]
    if combos:
        pts = Text(
            "{first}–{second} pts, {combinations}",
            first=first,
            second=second,
            combinations=combos,
        )
    else:
        pts = Text("{first}–{second} pts", first=first, second=second)
    if a == b:
        return Text("Hand {hand}: 0 – 0  ({points})", hand=h["hand"], points=pts)
    w = 0 if a > b else 1
    return Text(
        "Hand {hand}: {name} +{score}  ({points})",
        hand=h["hand"],
        name=players[w],
        score=h["scores"][w],
        points=pts,
    )


def _banner(img: Image.Image, view: View, locale: str) -> None:
    """The final result across the middle of the table."""
    players = view.get("players", ["?", "?"])
    scores = view.get("scores") or [0, 0]
    box = (M + 20, MID_Y + 6, W - M - 20, LAYOUT.bot_y - LAYOUT.gap - 6)
    d = draw_banner_panel(img, box)
    cx = (box[0] + box[2]) // 2
    if scores[0] == scores[1]:
        headline: str = Text("Tie  {a} / {b}", a=_signed(scores[0]), b=_signed(scores[1]))
    else:
        win = 0 if scores[0] > scores[1] else 1
        headline = Text(
            "{name} wins  {won} / {lost}",
            name=players[win],
            won=_signed(scores[win]),
            lost=_signed(scores[1 - win]),
        )
    headline, size = fit_text(
        say(locale, headline), box[2] - box[0] - 40, 32, bold=True, min_size=18
    )
    over = say(locale, Text("MATCH OVER", context="hanafuda"))
    d.text((cx, box[1] + 22), over, font=font(15, True), fill=MUTED, anchor="mm")
    d.text((cx, box[1] + 56), headline, font=font(size, True), fill=GOLD, anchor="mm")
    draw_text_columns(
        d,
        [_hand_line(h, players) for h in view.get("history") or []],
        cx=cx,
        top=box[1] + 88,
        avail_w=box[2] - box[0] - 40,
        max_col_w=box[2] - box[0] - 40,
        size=14,
        line_h=19,
        max_rows=(box[3] - 10 - box[1] - 88) // 19,
        locale=locale,
    )


# ----------------------------------------------------------------------------- public


def render_table(view: View, locale: str = "en-US") -> Image.Image:
    """The public table image (790 x 722) for a Mushi view."""
    img = _base().copy()
    hl = move_highlights(view)
    top, bottom = seats_top_bottom(view)
    _player_strip(img, view, top, TOP_Y, hl, locale)
    _player_strip(img, view, bottom, BOT_Y, hl, locale)
    _stock_column(img, view, locale)
    _table(img, view, hl, locale)
    _status_band(img, view, locale)
    if view.get("is_over"):
        _banner(img, view, locale)
    return img


def _short_name(code: str) -> str:
    if card(code).cls == RIBBON:
        return ribbon_short_name(code)
    return card_label(code) if code == WILD else card(code).name


def _hand_note(code: str, table: Sequence[str]) -> HandNote:
    """The note under a hand card: what it would take from the table now."""
    if code == WILD:
        n = len(wild_targets(table))
        if not n:
            return HandNote(Text("no target"), NO_MATCH.fill, NO_MATCH.text_fill)
        return HandNote(Text("WILD · any of {n}", n=n), WILD_COLOUR, WILD_TEXT, glow=True)
    choices = capture_choices(code, table)
    took = choices[0]
    if len(choices) == 2:
        return HandNote(CHOOSE_NOTE, MATCH_GREEN, MATCH_TEXT, glow=True)
    if took:
        return HandNote(takes_note(MONTH[code], len(took)), MATCH_GREEN, MATCH_TEXT, glow=True)
    return NO_MATCH


def render_hand(view: View, locale: str = "en-US") -> Image.Image:
    """The seat's own hand, large, with what each card would take from the table now."""
    hand: Sequence[str] = view.get("hand") or []
    table: Sequence[str] = view.get("table") or []
    title = Text(
        "Your hand · Hand {hand} / {hands}", hand=view.get("deal", 1), hands=view.get("deals", 12)
    )
    seat = view.get("seat")
    info = ntext("{n} card", "{n} cards", len(hand), context="hanafuda")
    if seat in (0, 1):
        pts = (view.get("card_points") or [0, 0])[seat]
        if view.get("elder") == seat:
            info = ntext(
                "{n} card · {points} card points · 親 elder",
                "{n} cards · {points} card points · 親 elder",
                len(hand),
                points=pts,
            )
        else:
            info = ntext(
                "{n} card · {points} card points",
                "{n} cards · {points} card points",
                len(hand),
                points=pts,
            )
    img, _ = hand_sheet(len(hand), 600, 60, title, info, locale)
    if hand:
        notes = [_hand_note(c, table) for c in hand]
        names = [f"{say(locale, _short_name(c))} · {card_points(c)}" for c in hand]
        draw_hand_cards(img, hand, notes, names, name_dy=46, locale=locale)
    return img


#: The score sheet is laid out for Discord's inline preview (~550 px wide): one column
#: ``SUMMARY_W`` wide, no text under ``SUMMARY_MIN_TEXT`` (9.2 px at 550).
SUMMARY_W = 720
SUMMARY_CARD_W = 40
SUMMARY_MIN_TEXT = 12
SUMMARY_LINE_H = 20  # a line of the formula or of the leftovers note


def _summary_lines(text: str, width: int, size: int, max_lines: int) -> list[str]:
    """``text`` on at most ``max_lines`` lines of ``width`` (the last ellipsized)."""
    lines = wrap_text(text, width, size)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [fit_text(line, width, size, min_size=SUMMARY_MIN_TEXT)[0] for line in lines]


def render_deal_summary(view: View, locale: str = "en-US") -> Image.Image | None:
    """The score sheet of the last finished hand (``view["history"][-1]``), or None."""
    history = view.get("history") or []
    if not history:
        return None
    h = history[-1]
    players = view.get("players", ["?", "?"])
    ch = card_height(SUMMARY_CARD_W)
    row_h = 26 + ch + 12
    formulas = []
    for seat in (0, 1):
        score = h["scores"][seat]
        pts = h["card_points"][seat]
        parts = [f"({pts} − 115)"]
        parts += [
            f"+ {say(locale, combination_name(c['name']))} {c['value']}" for c in h["combos"][seat]
        ]
        parts += [
            f"− {say(locale, combination_name(c['name']))} {c['value']}"
            for c in h["combos"][1 - seat]
        ]
        formula = " ".join(parts) + f" = {_signed(score)}"
        formulas.append(_summary_lines(formula, SUMMARY_W - 56, 15, 2))
    notes = [
        Text(
            "{card} → {name} ({why})",
            card=card_label(x["card"]),
            name=players[x["seat"]],
            why=leftover_reason(x["why"]),
        )
        for x in h.get("leftovers", [])
    ]
    left_over: list[str] = []
    if notes:
        text = say(locale, Text("Left on the table: {notes}", notes=chain_semicolon(notes)))
        left_over = _summary_lines(text, SUMMARY_W - 40, 14, 3)
    blocks_h = [44 + len(formulas[s]) * SUMMARY_LINE_H + 2 * row_h + 4 for s in (0, 1)]
    height = 94 + sum(blocks_h) + 10 + len(left_over) * SUMMARY_LINE_H + 16
    img = felt((SUMMARY_W, height)).convert("RGB")
    d = Draw(img)
    title: str = Text(
        "Hand {hand} / {hands} — score sheet", hand=h["hand"], hands=view.get("deals", 12)
    )
    title, title_size = fit_text(say(locale, title), SUMMARY_W - 40, 22, True, 16)
    d.text((20, 16 + 22 - title_size), title, font=font(title_size, True), fill=WHITE)
    elder = say(locale, Text("親 elder: {name}", name=players[h["elder"]]))
    elder, elder_size = fit_text(elder, SUMMARY_W - 40, 15, min_size=SUMMARY_MIN_TEXT)
    d.text((20, 50), elder, font=font(elder_size), fill=MUTED)
    y = 84
    for seat in (0, 1):
        box = (16, y, SUMMARY_W - 16, y + blocks_h[seat])
        panel(img, box)
        x0, y0, x1, _ = box
        score = h["scores"][seat]
        score_text = _signed(score)
        score_w = int(text_length(score_text, 26, True))
        name, size = fit_text(str(players[seat]), x1 - x0 - 48 - score_w, 20, True, 15)
        d.text((x0 + 12, y0 + 20), name, font=font(size, True), fill=WHITE, anchor="lm")
        colour = GOLD if score >= 0 else LOSS_RED
        d.text((x1 - 12, y0 + 20), score_text, font=font(26, True), fill=colour, anchor="rm")
        ly = y0 + 40
        for line in formulas[seat]:
            d.text((x0 + 12, ly), line, font=font(15), fill=(236, 230, 200))
            ly += SUMMARY_LINE_H
        groups = h["captures"][seat]
        for i, cls in enumerate(CLASS_ORDER):
            col, row = i % 2, i // 2
            gx = x0 + 12 + col * ((x1 - x0) // 2)
            gy = ly + 6 + row * row_h
            cards = list(groups.get(cls, []))
            label = PILE_POINT_LABELS[cls](len(cards), sum(card_points(c) for c in cards))
            badge(
                d,
                (gx, gy),
                say(locale, label),
                14,
                fill=CLASS_COLOUR[cls] if cards else EMPTY_PILE_COLOUR,
                text_fill=WHITE,
            )
            avail = (x1 - x0) // 2 - 30 - SUMMARY_CARD_W
            step = min(SUMMARY_CARD_W + 3, avail / max(1, len(cards) - 1))
            for j, code in enumerate(cards):
                _paste_card(
                    img,
                    code,
                    SUMMARY_CARD_W,
                    (round(gx + j * step), gy + 24),
                    {},
                    halo=False,
                    wild_tag=False,
                )
        y += blocks_h[seat] + 10
    for line in left_over:
        d.text((20, y + 6), line, font=font(14), fill=MUTED)
        y += SUMMARY_LINE_H
    return img


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every image of this game is encoded with (once per process)."""
    return png_palette_for(
        _base(),
        (LAYOUT.capture_card_w, LAYOUT.field_card_w),
        extra=(WILD_COLOUR, WILD_TEXT, LOSS_RED),
    )


__all__ = ["card_face", "png_palette", "render_deal_summary", "render_hand", "render_table"]
