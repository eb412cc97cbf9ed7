"""Mushi table, hand and hand-summary images: pure functions of a view dict (``rules.py``).

Layout of the table (the viewer's seat at the bottom; a spectator sees seat 0 there):

    [opponent info][hand backs][captures: brights | animals | ribbons | junk  + points]
    [hand n/12, stock][            table (2 rows of 8)             ][now / last move]
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
from typing import Any

from PIL import Image

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card
from bot.games.hanafuda.render import (
    CLASS_COLOUR,
    CLASS_MARK,
    CLASS_WORD,
    EMPTY_PILE_COLOUR,
    LAST_MOVES,
    MATCH_TEXT,
    MONTH_KANJI,
    MOVE_CARD_W,
    NO_MATCH,
    HandNote,
    PasteCard,
    TableLayout,
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
    seat_name,
    seats_top_bottom,
    table_base,
    turn_label,
)
from bot.games.mushi.rules import (
    MONTH,
    WILD,
    capture_choices,
    card_label,
    card_points,
    sort_mushi,
    wild_targets,
)
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
)
from bot.render.fonts import font

View = Mapping[str, Any]

LAYOUT = TableLayout(
    width=1028,
    height=624,
    strip_h=156,
    mid_h=268,
    # Width each class pile may use, sized for its largest count (20 junk cards squeeze).
    class_width={BRIGHT: 122, ANIMAL: 150, RIBBON: 156, PLAIN: 190},
    pile_label_dy=10,
    pile_cards_dy=40,
    hand_cards_dy=36,
    field_card_w=66,
)
W, H = LAYOUT.width, LAYOUT.height
M = LAYOUT.margin
INFO_W = LAYOUT.info_w
TOP_Y, MID_Y, BOT_Y = LAYOUT.top_y, LAYOUT.mid_y, LAYOUT.bot_y
TABLE_BOX = LAYOUT.field_box
STOCK_CARD_W = 64
ASIDE_CARD_W = 30

WILD_COLOUR = (190, 120, 255)  # the wild card, wherever it is
WILD_TEXT = (30, 10, 50)
LOSS_RED = (236, 96, 88)
CLASS_WORD_MUSHI = {**CLASS_WORD, PLAIN: "Junk"}
PHASE_TURN = {"choose_flip": "CHOOSING"}


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    return table_base(LAYOUT)


# ----------------------------------------------------------------------------- pieces


def _paste_card(
    img: Image.Image,
    code: str,
    width: int,
    xy: tuple[int, int],
    hl: Mapping[str, tuple],
    *,
    halo: bool = True,
    wild_tag: bool = True,
) -> None:
    """Paste a card; a highlighted one gets a halo (loose cards) or a ring (fanned piles).

    The wild always gets its violet mark, so players can find it at a glance.
    """
    colour = hl.get(code)
    if code == WILD and colour is None:
        colour = WILD_COLOUR
    sprite = paste_card(img, code, width, xy, colour, halo=halo)
    if code == WILD and wild_tag and width >= 40:
        size = max(9, min(13, width // 6))
        badge(
            Draw(img),
            (xy[0] + sprite.width // 2, xy[1] + sprite.height - size - 8),
            "WILD",
            size,
            fill=WILD_COLOUR,
            text_fill=WILD_TEXT,
            anchor="ma",
        )


def _paster(
    img: Image.Image, hl: Mapping[str, tuple], *, halo: bool = True, wild_tag: bool = True
) -> PasteCard:
    def paste(code: str, width: int, xy: tuple[int, int]) -> None:
        _paste_card(img, code, width, xy, hl, halo=halo, wild_tag=wild_tag)

    return paste


def _player_strip(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
    d = Draw(img)
    boxes = LAYOUT.strip_boxes(y)
    info = boxes["info"]
    x0, y0, _, _ = info
    turn = turn_label(view, seat, PHASE_TURN)
    if turn:
        draw_turn_ring(d, info)
    elder = view.get("elder") == seat and not view.get("is_over")
    draw_name_row(d, info, seat_name(view, seat), "親 Elder" if elder else None)
    if turn:
        draw_turn_tab(d, info, turn)

    scores = view.get("scores") or [0, 0]
    total = scores[seat]
    d.text((x0 + 10, y0 + 50), "Match", font=font(14), fill=MUTED, anchor="lm")
    colour = GOLD if total >= 0 else LOSS_RED
    d.text((x0 + 60, y0 + 50), _signed(total), font=font(24, True), fill=colour, anchor="lm")

    points = (view.get("card_points") or [0, 0])[seat]
    d.text((x0 + 10, y0 + 80), "Card points", font=font(14), fill=MUTED, anchor="lm")
    d.text((x0 + 100, y0 + 80), str(points), font=font(20, True), fill=WHITE, anchor="lm")
    d.text((x0 + 140, y0 + 81), "/ 115", font=font(13), fill=(170, 180, 170), anchor="lm")

    combos = (view.get("combos") or [[], []])[seat]
    ty = y0 + 104
    if not combos:
        d.text(
            (x0 + 10, ty + 8), "No combination", font=font(13), fill=(160, 170, 160), anchor="lm"
        )
    for i, combo in enumerate(combos[:3]):
        line = f"★ {combo['name']} +{combo['value']}"
        text, size = fit_text(line, INFO_W - 20, 14, bold=True, min_size=10)
        d.text(
            (x0 + 10, ty + 8 + i * 17),
            text,
            font=font(size, True),
            fill=(255, 226, 120),
            anchor="lm",
        )
    draw_hand_slot(img, view, seat, boxes["hand"], LAYOUT.hand_cards_dy)
    _captures(img, view, seat, y, hl)


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−") if n else "0"


def _pile_label(cls: str, cards: Sequence[str]) -> str:
    """``短 Ribbons 2 · 10``: the class, its count and (when any) its card points."""
    pts = sum(card_points(c) for c in cards)
    return f"{CLASS_MARK[cls]} {CLASS_WORD_MUSHI[cls]} {len(cards)}" + (
        f" · {pts}" if cards else ""
    )


def _captures(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
    groups = (view.get("captures") or [{}, {}])[seat]
    piles = {cls: list(groups.get(cls, [])) for cls in CLASS_ORDER}
    labels = {cls: _pile_label(cls, cards) for cls, cards in piles.items()}
    paste = _paster(img, hl, halo=False, wild_tag=False)
    draw_capture_piles(img, LAYOUT, y, piles, labels, paste)


def _stock_column(img: Image.Image, view: View) -> None:
    d = Draw(img)
    box = LAYOUT.side_box
    x0, y0, x1, _ = box
    cx = (x0 + x1) // 2
    title = f"Hand {view.get('deal', 1)} / {view.get('deals', 12)}"
    d.text((cx, y0 + 20), title, font=font(19, True), fill=WHITE, anchor="mm")
    n = int(view.get("stock_count", 0))
    top = y0 + 42
    draw_stack_pile(img, cx, top, STOCK_CARD_W, n, depth=min(4, (n + 3) // 4))
    y = top + card_height(STOCK_CARD_W) + 22
    d.text((cx, y), "Stock", font=font(14, True), fill=MUTED, anchor="mm")
    aside = view.get("set_aside") or []
    if aside:
        y += 16
        d.text((cx, y), "Rain set aside", font=font(12, True), fill=WILD_COLOUR, anchor="mm")
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
            text = f"H{last['hand']}: 0 – 0"
        else:
            w = 0 if a > b else 1
            text = f"H{last['hand']}: {players[w]} +{last['scores'][w]}"
        draw_side_note(d, box, text, bottom_gap=16)


def _table(img: Image.Image, view: View, hl: Mapping[str, tuple]) -> None:
    x0, y0, x1, _ = TABLE_BOX
    duty = bool(view.get("wild_duty")) and not view.get("is_over")
    if duty:
        badge(
            Draw(img),
            ((x0 + x1) // 2, y0 + 8),
            "雷 The wild is on the table: the next flip must take it",
            14,
            fill=WILD_COLOUR,
            text_fill=WILD_TEXT,
            anchor="ma",
        )
    table = sort_mushi(view.get("table") or [])
    draw_field(
        img, LAYOUT, table, _paster(img, hl), "The table is empty", top_pad=30 if duty else 0
    )


def _now_text(view: View) -> str:
    players = view.get("players", ["?", "?"])
    to_act = view.get("to_act") or []
    if view.get("is_over"):
        return "Match over"
    if not to_act:
        return "Waiting…"
    who = fit_text(str(players[to_act[0]]), 120, 16, bold=True, min_size=16)[0]
    phase = view.get("phase")
    if phase == "choose_flip":
        return f"{who}: choose what the flip takes"
    return f"{who} to play"


def _status_column(img: Image.Image, view: View) -> None:
    box = LAYOUT.status_box
    x0, _, _, y1 = box
    players = view.get("players", ["?", "?"])
    y = draw_now(Draw(img), box, _now_text(view), max_lines=3)
    pending = view.get("pending") or {}
    choosing = view.get("phase") == "choose_flip"
    if choosing and pending.get("card"):
        y = draw_pending_flip(img, x0, y, pending["card"])
    paste = _paster(img, {}, wild_tag=False)
    for key, title, colour in LAST_MOVES:
        move = view.get(key)
        if not move or y + card_height(MOVE_CARD_W) + 20 > y1:
            continue
        if key == "last_flip" and choosing and not move.get("took"):
            continue  # the pending flip is shown above
        who = players[move["seat"]] if move.get("seat") is not None else ""
        kept = move["card"] == WILD and key == "last_flip" and not view.get("wild_duty")
        note = "kept by the\nyounger" if kept else "stays on\nthe table"
        y = draw_last_move(img, box, y, f"{title} · {who}", colour, move, paste, note)


def _hand_line(h: Mapping[str, Any], players: Sequence[str]) -> str:
    a, b = h["scores"]
    combos = [c["name"] for cs in h["combos"] for c in cs]
    extra = f", {', '.join(combos)}" if combos else ""
    pts = f"{h['card_points'][0]}–{h['card_points'][1]} pts{extra}"
    if a == b:
        return f"Hand {h['hand']}: 0 – 0  ({pts})"
    w = 0 if a > b else 1
    return f"Hand {h['hand']}: {players[w]} +{h['scores'][w]}  ({pts})"


def _banner(img: Image.Image, view: View) -> None:
    """The final result across the middle of the table."""
    players = view.get("players", ["?", "?"])
    scores = view.get("scores") or [0, 0]
    box = (M + 30, MID_Y + 14, W - M - 30, MID_Y + LAYOUT.mid_h - 14)
    d = draw_banner_panel(img, box)
    cx = (box[0] + box[2]) // 2
    if scores[0] == scores[1]:
        headline = f"Tie  {_signed(scores[0])} / {_signed(scores[1])}"
    else:
        win = 0 if scores[0] > scores[1] else 1
        headline = f"{players[win]} wins  {_signed(scores[win])} / {_signed(scores[1 - win])}"
    headline, size = fit_text(headline, box[2] - box[0] - 40, 32, bold=True, min_size=18)
    d.text((cx, box[1] + 22), "MATCH OVER", font=font(15, True), fill=MUTED, anchor="mm")
    d.text((cx, box[1] + 56), headline, font=font(size, True), fill=GOLD, anchor="mm")
    draw_text_columns(
        d,
        [_hand_line(h, players) for h in view.get("history") or []],
        cx=cx,
        top=box[1] + 88,
        avail_w=box[2] - box[0] - 40,
        max_col_w=470,
        size=14,
        line_h=21,
    )


# ----------------------------------------------------------------------------- public


def render_table(view: View, locale: str = "en-US") -> Image.Image:
    """The public table image (1028 x 624) for a Mushi view."""
    img = _base().copy()
    hl = move_highlights(view)
    top, bottom = seats_top_bottom(view)
    _player_strip(img, view, top, TOP_Y, hl)
    _player_strip(img, view, bottom, BOT_Y, hl)
    _stock_column(img, view)
    _table(img, view, hl)
    _status_column(img, view)
    if view.get("is_over"):
        _banner(img, view)
    return img


def _short_name(code: str) -> str:
    if card(code).cls == RIBBON:
        return ribbon_short_name(code)
    return card_label(code) if code == WILD else card_label(code).split(" (")[0]


def _hand_note(code: str, table: Sequence[str]) -> HandNote:
    """The note under a hand card: what it would take from the table now."""
    if code == WILD:
        n = len(wild_targets(table))
        if not n:
            return HandNote("no target", NO_MATCH.fill, NO_MATCH.text_fill)
        return HandNote(f"WILD · any of {n}", WILD_COLOUR, WILD_TEXT, glow=True)
    choices = capture_choices(code, table)
    took = choices[0]
    kanji = MONTH_KANJI[MONTH[code]]
    if len(choices) == 2:
        return HandNote("✓ choose 1 of 2", MATCH_GREEN, MATCH_TEXT, glow=True)
    if len(took) == 3:
        return HandNote(f"✓ {kanji} takes all 3", MATCH_GREEN, MATCH_TEXT, glow=True)
    if took:
        return HandNote(f"✓ {kanji} takes 1", MATCH_GREEN, MATCH_TEXT, glow=True)
    return NO_MATCH


def render_hand(view: View, locale: str = "en-US") -> Image.Image:
    """The seat's own hand, large, with what each card would take from the table now."""
    hand: Sequence[str] = view.get("hand") or []
    table: Sequence[str] = view.get("table") or []
    title = f"Your hand · Hand {view.get('deal', 1)} / {view.get('deals', 12)}"
    seat = view.get("seat")
    info = f"{len(hand)} cards"
    if seat in (0, 1):
        pts = (view.get("card_points") or [0, 0])[seat]
        info += f" · {pts} card points"
        if view.get("elder") == seat:
            info += " · 親 elder"
    img, _ = hand_sheet(len(hand), 600, 60, title, info)
    if hand:
        notes = [_hand_note(c, table) for c in hand]
        names = [f"{_short_name(c)} · {card_points(c)}" for c in hand]
        draw_hand_cards(img, hand, notes, names, name_dy=46)
    return img


SUMMARY_W = 1000
SUMMARY_CARD_W = 46


def render_deal_summary(view: View, locale: str = "en-US") -> Image.Image | None:
    """The score sheet of the last finished hand (``view["history"][-1]``), or None."""
    history = view.get("history") or []
    if not history:
        return None
    h = history[-1]
    players = view.get("players", ["?", "?"])
    ch = card_height(SUMMARY_CARD_W)
    row_h = 26 + ch + 12
    block_h = 44 + 2 * row_h + 8
    height = 70 + 2 * block_h + 50
    img = felt((SUMMARY_W, height)).convert("RGB")
    d = Draw(img)
    d.text(
        (20, 18),
        f"Hand {h['hand']} / {view.get('deals', 12)} — score sheet",
        font=font(22, True),
        fill=WHITE,
    )
    elder = players[h["elder"]]
    d.text((SUMMARY_W - 20, 24), f"親 elder: {elder}", font=font(15), fill=MUTED, anchor="ra")
    y = 64
    for seat in (0, 1):
        box = (16, y, SUMMARY_W - 16, y + block_h)
        panel(img, box)
        x0, y0, x1, _ = box
        name, size = fit_text(str(players[seat]), 300, 20, bold=True, min_size=12)
        d.text((x0 + 12, y0 + 20), name, font=font(size, True), fill=WHITE, anchor="lm")
        score = h["scores"][seat]
        d.text(
            (x1 - 12, y0 + 20),
            _signed(score),
            font=font(26, True),
            fill=GOLD if score >= 0 else LOSS_RED,
            anchor="rm",
        )
        pts = h["card_points"][seat]
        combos = h["combos"][seat]
        against = h["combos"][1 - seat]
        parts = [f"({pts} − 115)"]
        parts += [f"+ {c['name']} {c['value']}" for c in combos]
        parts += [f"− {c['name']} {c['value']}" for c in against]
        formula = " ".join(parts) + f" = {_signed(score)}"
        formula, size = fit_text(formula, x1 - x0 - 360, 15, min_size=10)
        d.text((x0 + 330, y0 + 20), formula, font=font(size), fill=(236, 230, 200), anchor="lm")
        groups = h["captures"][seat]
        for i, cls in enumerate(CLASS_ORDER):
            col, row = i % 2, i // 2
            gx = x0 + 12 + col * ((x1 - x0) // 2)
            gy = y0 + 44 + row * row_h
            cards = list(groups.get(cls, []))
            word = CLASS_WORD_MUSHI[cls]
            label = f"{CLASS_MARK[cls]} {word} {len(cards)} · {sum(card_points(c) for c in cards)}"
            badge(
                d,
                (gx, gy),
                label,
                13,
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
        y += block_h + 10
    notes = []
    for x in h.get("leftovers", []):
        who = players[x["seat"]]
        notes.append(f"{card_label(x['card'])} → {who} ({x['why']})")
    if notes:
        text, size = fit_text(
            "Left on the table: " + "; ".join(notes), SUMMARY_W - 40, 14, min_size=10
        )
        d.text((20, y + 12), text, font=font(size), fill=MUTED)
    return img


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every image of this game is encoded with (once per process)."""
    return png_palette_for(_base(), (LAYOUT.capture_card_w, LAYOUT.field_card_w))


__all__ = ["render_deal_summary", "render_hand", "render_table"]
