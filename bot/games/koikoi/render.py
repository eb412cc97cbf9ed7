"""Koi-Koi table and hand images: pure functions of a view dict (see ``rules.py``).

Layout of the table (the viewer's seat at the bottom; a spectator sees seat 0 there):

    [opponent info][hand backs][captures: brights | animals | ribbons | plains]
    [round + stack][            board (2 rows of 8)             ]
    [             ][now      | last play      | last flip       ]
    [viewer   info][hand      ][captures: brights | animals | ribbons | plains]

The pieces both hanafuda games draw live in :mod:`bot.games.hanafuda.render`. The felt,
the panels and the empty capture slots form a cached base layer; a render copies it and
pastes cached card sprites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card, sort_cards
from bot.games.hanafuda.render import (
    CHOOSE_NOTE,
    HAND_CARD_W,
    LAST_MOVES,
    MATCH_TEXT,
    NO_MATCH_FILL,
    NO_MATCH_TEXT,
    RGB,
    TABLE_MIN_TEXT,
    HandNote,
    PasteCard,
    TableLayout,
    card_face,
    card_height,
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
    field_card_width,
    field_slots,
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
from bot.games.koikoi.rules import yaku_name
from bot.games.koikoi.views import KoiKoiView
from bot.i18n import DEFAULT_LOCALE, Text, normalize, ntext
from bot.i18n.text import commas
from bot.render.draw import GOLD, MATCH_GREEN, MUTED, WHITE, Draw, badge, fit_text, text_length
from bot.render.fonts import font

View = KoiKoiView

LAYOUT = TableLayout(
    width=790,
    height=690,
    strip_h=148,
    mid_h=236,
    # Width each class pile may use, sized for its largest realistic count (24 plains squeeze).
    class_width={BRIGHT: 86, ANIMAL: 104, RIBBON: 104, PLAIN: 104},
    pile_label_dy=10,
    pile_cards_dy=36,
    hand_cards_dy=36,
)
W, H = LAYOUT.width, LAYOUT.height
M = LAYOUT.margin
INFO_W = LAYOUT.info_w
TOP_Y, MID_Y, BOT_Y = LAYOUT.top_y, LAYOUT.mid_y, LAYOUT.bot_y
BOARD_CARD_W = LAYOUT.field_card_w
STACK_CARD_W = 80
NOW_W = 210  # the status band's "now" part; the last play and flip share the rest
KOIKOI_RED = (214, 48, 52)
PHASE_TURN = {
    "decide": Text("DECIDING", context="hanafuda"),
    "choose_flip": Text("CHOOSING", context="hanafuda"),
}
#: The capture piles' labels: ``光 Brights 3``.
PILE_LABELS = {
    BRIGHT: lambda n: Text("光 Brights {n}", n=n),
    ANIMAL: lambda n: Text("種 Animals {n}", n=n),
    RIBBON: lambda n: Text("短 Ribbons {n}", n=n),
    PLAIN: lambda n: Text("カス Plains {n}", n=n),
}

YAKU_KANJI = {
    "Kasu": "カス",
    "Tanzaku": "短冊",
    "Tane": "タネ",
    "Ino-Shika-Chō": "猪鹿蝶",
    "Akatan": "赤短",
    "Aotan": "青短",
    "Sankō": "三光",
    "Ame-Shikō": "雨四光",
    "Shikō": "四光",
    "Gokō": "五光",
}


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    return table_base(LAYOUT)


def _board_slots(n: int, cw: int) -> list[tuple[int, int]]:
    """Top-left corners for n board cards: two rows of 8 (more columns if needed)."""
    return field_slots(LAYOUT, n, cw)


def _board_card_width(n: int) -> int:
    return field_card_width(LAYOUT, n)


def _seats(view: View) -> tuple[int, int]:
    return seats_top_bottom(view)


# ----------------------------------------------------------------------------- pieces


def _paster(img: Image.Image, hl: Mapping[str, RGB | None], *, halo: bool = True) -> PasteCard:
    """Paste cards on ``img``, a highlighted one with a halo (loose) or a ring (fanned)."""

    def paste(code: str, width: int, xy: tuple[int, int]) -> None:
        paste_card(img, code, width, xy, hl.get(code), halo=halo)

    return paste


def _player_strip(
    img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, RGB | None], locale: str
) -> None:
    d = Draw(img)
    boxes = LAYOUT.strip_boxes(y)
    info = boxes["info"]
    x0, y0, x1, _ = info
    turn = turn_label(view, seat, PHASE_TURN)
    if turn:
        draw_turn_ring(d, info)
    role = Text("親 Dealer") if view.get("dealer") == seat else None
    draw_name_row(d, info, seat_name(view, seat), role, locale)

    # score row
    scores = view.get("scores") or [0, 0]
    label = say(locale, Text("Score", context="hanafuda"))
    d.text((x0 + 10, y0 + 50), label, font=font(14), fill=MUTED, anchor="lm")
    value_x = x0 + max(56, 18 + int(text_length(label, 14)))
    d.text((value_x, y0 + 50), str(scores[seat]), font=font(24, True), fill=GOLD, anchor="lm")
    if (view.get("koikoi") or [False, False])[seat] and not view.get("is_over"):
        badge(
            d,
            (x1 - 8, y0 + 41),
            say(locale, Text("こいこい Koi-Koi!")),
            13,
            fill=KOIKOI_RED,
            text_fill=WHITE,
            anchor="ra",
        )
    if turn:
        draw_turn_tab(d, info, turn, locale)
    _yaku_lines(d, view, seat, x0, y0 + 72, locale)
    draw_hand_slot(img, view, seat, boxes["hand"], LAYOUT.hand_cards_dy, locale)
    _captures(img, view, seat, y, hl, locale)


def _yaku_lines(
    d: ImageDraw.ImageDraw, view: View, seat: int, x0: int, ty: int, locale: str
) -> None:
    yaku = (view.get("yaku") or [[], []])[seat]
    points = (view.get("yaku_points") or [0, 0])[seat]
    if not yaku:
        text = say(locale, Text("No yaku yet"))
        d.text((x0 + 10, ty + 8), text, font=font(14), fill=(170, 180, 170), anchor="lm")
        return
    head = say(locale, ntext("Yaku  {points} pt", "Yaku  {points} pts", points, points=points))
    d.text((x0 + 10, ty + 8), head, font=font(15, True), fill=WHITE, anchor="lm")
    two_cols = len(yaku) > 3
    # English names get their kanji in front (三光 Sankō 6); other languages name them in
    # their own words only.
    kanji = normalize(locale) == DEFAULT_LOCALE and not two_cols
    lines = [
        f"{YAKU_KANJI.get(y['name'], '')} {y['name']} {y['points']}".strip()
        if kanji
        else f"{say(locale, yaku_name(y['name']))} {y['points']}"
        for y in yaku
    ]
    # Two columns: the first as wide as its lines, the second (long names) gets the rest.
    first_w = INFO_W - 20
    if two_cols:
        widest = max(text_length(line, TABLE_MIN_TEXT) for line in lines[:3])
        first_w = min(int(widest) + 12, (INFO_W - 20) // 2)
    col_x, col_w = [0, first_w], [first_w, INFO_W - 20 - first_w]
    for i, line in enumerate(lines[:6]):
        col, row = divmod(i, 3) if len(lines) > 3 else (0, i)
        text, size = fit_text(line, col_w[col] - 6, TABLE_MIN_TEXT, min_size=TABLE_MIN_TEXT)
        d.text(
            (x0 + 10 + col_x[col], ty + 28 + row * 17),
            text,
            font=font(size),
            fill=(236, 230, 200),
            anchor="lm",
        )


def _captures(
    img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, RGB | None], locale: str
) -> None:
    caps = (view.get("captures") or [[], []])[seat]
    piles: dict[str, list[str]] = {cls: [] for cls in CLASS_ORDER}
    for code in sort_cards(caps):
        piles[card(code).cls].append(code)
    labels = {cls: PILE_LABELS[cls](len(piles[cls])) for cls in piles}
    draw_capture_piles(img, LAYOUT, y, piles, labels, _paster(img, hl, halo=False), locale)


def _stack_column(img: Image.Image, view: View, locale: str) -> None:
    d = Draw(img)
    box = LAYOUT.side_box
    x0, y0, x1, _ = box
    cx = (x0 + x1) // 2
    title: str = Text(
        "Round {round} / {rounds}", round=view.get("round", 1), rounds=view.get("rounds", 6)
    )
    title, size = fit_text(say(locale, title), x1 - x0 - 12, 19, bold=True, min_size=14)
    d.text((cx, y0 + 20), title, font=font(size, True), fill=WHITE, anchor="mm")
    n = int(view.get("stack_count", 0))
    top = y0 + 44
    draw_stack_pile(img, cx, top, STACK_CARD_W, n, depth=min(4, (n + 5) // 6), locale=locale)
    label_y = top + card_height(STACK_CARD_W) + 24
    stack = say(locale, Text("Stack"))
    d.text((cx, label_y), stack, font=font(14, True), fill=MUTED, anchor="mm")
    history = view.get("history") or []
    if history and not view.get("is_over"):
        last = history[-1]
        players = view.get("players", ["?", "?"])
        winner = last.get("winner")
        if winner is None:
            text = Text("R{round}: draw", round=last["round"])
        else:
            text = Text(
                "R{round}: {name} +{points}",
                round=last["round"],
                name=players[winner],
                points=last["points"],
            )
        draw_side_note(d, box, text, bottom_gap=18, locale=locale)


def _board(img: Image.Image, view: View, hl: Mapping[str, RGB | None], locale: str) -> None:
    board = sort_cards(view.get("board") or [])
    empty = Text("The board is empty")
    draw_field(img, LAYOUT, board, _paster(img, hl), empty, locale=locale)


def _now_text(view: View, width: int) -> str:
    players = view.get("players", ["?", "?"])
    to_act = view.get("to_act") or []
    if view.get("is_over"):
        return Text("Match over", context="hanafuda")
    if not to_act:
        return Text("Waiting…", context="hanafuda")
    who = fit_text(str(players[to_act[0]]), width * 2 // 3, 16, bold=True, min_size=16)[0]
    pending = view.get("pending")
    phase = view.get("phase")
    if phase == "decide":
        points = pending["points"] if pending and "points" in pending else 0
        return ntext(
            "{name}: Koi-Koi or stop? ({points} pt)",
            "{name}: Koi-Koi or stop? ({points} pts)",
            points,
            name=who,
            points=points,
        )
    if phase == "choose_flip":
        return Text("{name}: choose what the flip takes", name=who)
    return Text("{name} to play", context="hanafuda", name=who)


def _status_band(img: Image.Image, view: View, locale: str) -> None:
    """Under the board: what the table waits for, then the pending flip (while its player
    chooses) and the last play and flip, side by side (the first two of those)."""
    now_box, *slots = LAYOUT.status_slots(NOW_W, 2)
    players = view.get("players", ["?", "?"])
    width = now_box[2] - now_box[0] - 20
    draw_now(Draw(img), now_box, _now_text(view, width), max_lines=3, locale=locale)
    pending = view.get("pending")
    plays = {"last_play": view.get("last_play"), "last_flip": view.get("last_flip")}
    moves = [(plays[key], title, colour) for key, title, colour in LAST_MOVES if plays[key]]
    if view.get("phase") == "choose_flip" and pending and "card" in pending and pending["card"]:
        x0, y0, _, _ = slots.pop(0)
        draw_pending_flip(img, x0, y0 + 8, pending["card"], locale)
    for box, (move, title, colour) in zip(slots, moves, strict=False):
        assert move is not None  # (moves holds the plays there are)
        who = players[move["seat"]] if move.get("seat") is not None else ""
        head = f"{say(locale, title)} · {who}"
        stays = Text("stays on\nthe board")
        paste = _paster(img, {})
        draw_last_move(img, box, box[1] + 8, head, colour, move, paste, stays, locale)


def _banner(img: Image.Image, view: View, locale: str) -> None:
    """The final result across the middle of the table."""
    players = view.get("players", ["?", "?"])
    scores = view.get("scores") or [0, 0]
    box = (M + 20, MID_Y + 6, W - M - 20, LAYOUT.bot_y - LAYOUT.gap - 6)
    d = draw_banner_panel(img, box)
    cx = (box[0] + box[2]) // 2
    if scores[0] == scores[1]:
        headline: str = Text("Tie  {a} – {b}", a=scores[0], b=scores[1])
    else:
        win = 0 if scores[0] > scores[1] else 1
        headline = Text(
            "{name} wins  {won} – {lost}", name=players[win], won=scores[win], lost=scores[1 - win]
        )
    headline, size = fit_text(
        say(locale, headline), box[2] - box[0] - 40, 34, bold=True, min_size=18
    )
    over = say(locale, Text("MATCH OVER", context="hanafuda"))
    d.text((cx, box[1] + 20), over, font=font(15, True), fill=MUTED, anchor="mm")
    d.text((cx, box[1] + 52), headline, font=font(size, True), fill=GOLD, anchor="mm")
    lines = []
    for h in view.get("history") or []:
        winner = h.get("winner")
        if winner is None:
            lines.append(Text("Round {round}: draw", round=h["round"]))
        else:
            names = commas([yaku_name(y["name"]) for y in h.get("yaku", [])])
            names = names or h.get("reason", "")
            lines.append(
                Text(
                    "Round {round}: {name} +{points}  ({yaku})",
                    round=h["round"],
                    name=players[winner],
                    points=h["points"],
                    yaku=names,
                )
            )
    draw_text_columns(
        d,
        lines,
        cx=cx,
        top=box[1] + 82,
        avail_w=box[2] - box[0] - 40,
        max_col_w=box[2] - box[0] - 40,
        size=15,
        line_h=19,
        max_rows=(box[3] - 10 - box[1] - 82) // 19,
        locale=locale,
    )


# ----------------------------------------------------------------------------- public


def render_table(view: View, locale: str = "en-US") -> Image.Image:
    """The public table image (790 x 690) for a Koi-Koi view."""
    img = _base().copy()
    hl = move_highlights(view)
    top, bottom = _seats(view)
    _player_strip(img, view, top, TOP_Y, hl, locale)
    _player_strip(img, view, bottom, BOT_Y, hl, locale)
    _stack_column(img, view, locale)
    _board(img, view, hl, locale)
    _status_band(img, view, locale)
    if view.get("is_over"):
        _banner(img, view, locale)
    return img


def _short_name(code: str) -> Text:
    c = card(code)
    if c.cls == RIBBON:
        return ribbon_short_name(code)
    if c.cls == PLAIN and code != "11p1":
        return Text("Plain")
    return c.name


def _hand_note(code: str, board_months: Mapping[int, int]) -> HandNote:
    """What a hand card would take from the board now."""
    month = card(code).month
    k = board_months.get(month, 0)
    if not k:
        return HandNote(Text("no match"), NO_MATCH_FILL, NO_MATCH_TEXT, size=12)
    text = takes_note(month, k) if k != 2 else CHOOSE_NOTE
    return HandNote(text, MATCH_GREEN, MATCH_TEXT, glow=True)


def render_hand(view: View, locale: str = "en-US") -> Image.Image:
    """The seat's own hand, large, with a marker on the cards that match a board card."""
    hand: Sequence[str] = view.get("hand") or []
    board_months: dict[int, int] = {}
    for code in view.get("board") or []:
        m = card(code).month
        board_months[m] = board_months.get(m, 0) + 1
    title = Text(
        "Your hand · Round {round} / {rounds}",
        round=view.get("round", 1),
        rounds=view.get("rounds", 6),
    )
    matches = sum(1 for c in hand if card(c).month in board_months)
    info = ntext(
        "{n} card · {matches} match the board",
        "{n} cards · {matches} match the board",
        len(hand),
        matches=matches,
    )
    img, _ = hand_sheet(len(hand), 560, 58, title, info, locale)
    if hand:
        notes = [_hand_note(c, board_months) for c in hand]
        names = [_short_name(c) for c in hand]
        draw_hand_cards(img, hand, notes, names, name_dy=44, locale=locale)
    return img


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every image of this game is encoded with (once per process)."""
    return png_palette_for(_base(), (LAYOUT.capture_card_w, LAYOUT.field_card_w))


__all__ = ["HAND_CARD_W", "card_face", "png_palette", "render_hand", "render_table"]
