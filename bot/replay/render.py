"""Pictures of a replay step (Pillow, through each game's own renderer; no Discord).

A step is drawn as the game's spectator table, then — when a deal ended with that step and
the game draws deal summaries — that summary, then (``reveal``: a finished match) every
seat's hand face up, then a caption band saying which step it is and what just happened.
``replay_png`` is what the render pool runs: it keeps the last few :class:`Replayer` s of
its process, so stepping through one match rebuilds nothing but the step.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.engine.view import TableView
from bot.games import game_spec, game_title
from bot.i18n import gettext, ngettext
from bot.render.charts import drawable
from bot.render.draw import (
    FELT_GREEN,
    GOLD,
    MUTED,
    PAPER,
    WHITE,
    Draw,
    draw_text,
    felt,
    fit_text,
    panel,
)
from bot.render.encode import to_png
from bot.render.fonts import font
from bot.replay.core import Replayer, ReplayRecord, to_json

log = logging.getLogger(__name__)

MARGIN = 12
NAME_W = 170
ROW_H = 92
CAPTION_SIZE = 18
#: The smallest text of the hands panel: a long name is ellipsized rather than shrunk below
#: it (10 px at Discord's ~550 px inline preview of a 760 px deal-end picture).
MIN_TEXT = 14


def hands_panel(
    game: str, views: Sequence[Mapping[str, Any]], width: int, locale: str = "en-US"
) -> Image.Image:
    """Every seat's hand face up: one row per seat (name, then its cards, overlapping
    when they do not fit); its words in ``locale``."""
    spec = game_spec(game)
    sprite = spec.renderers().card_face
    height = MARGIN * 2 + 30 + ROW_H * len(views)
    img = felt((width, height), FELT_GREEN).copy()
    title = gettext(locale, "Hands, face up")
    inner = panel(img, (MARGIN, MARGIN, width - MARGIN, height - MARGIN), title=title)
    d = Draw(img)
    y = inner[1] + 4
    x0 = inner[0] + NAME_W
    room = inner[2] - x0 - 4
    for view in views:
        seat = view.get("seat")
        players = view.get("players") or []
        name = players[seat] if isinstance(seat, int) and seat < len(players) else "?"
        label, size = fit_text(drawable(str(name), bold=True), NAME_W - 16, 20, True, MIN_TEXT)
        draw_text(
            d, (inner[0] + 8, y + ROW_H // 2 - 12), label, size, WHITE, bold=True, anchor="lm"
        )
        cards = spec.hand_of(view)
        count, csize = fit_text(
            ngettext(locale, "{n} card", "{n} cards", len(cards)), NAME_W - 16, 15, False, MIN_TEXT
        )
        draw_text(d, (inner[0] + 8, y + ROW_H // 2 + 12), count, csize, MUTED, anchor="lm")
        faces = []
        for code in cards:
            try:
                faces.append(sprite(code))
            except Exception:  # an unknown code: skip the card, keep the picture
                log.warning("no sprite for %s card %r", game, code)
        if faces:
            cw = faces[0].width
            step = min(cw + 4, (room - cw) / max(1, len(faces) - 1)) if len(faces) > 1 else cw
            for i, face in enumerate(faces):
                top = y + (ROW_H - face.height) // 2
                img.paste(face, (int(x0 + i * step), top), face if face.mode == "RGBA" else None)
        else:
            empty = gettext(locale, "no cards in hand")
            draw_text(d, (x0, y + ROW_H // 2), empty, 16, MUTED, anchor="lm")
        y += ROW_H
    return img


#: A run of characters that breaks only at spaces (Latin words, numbers, codes), a run of
#: spaces, or one character of a script that breaks between any two (kana, CJK, hangul).
_TOKEN = re.compile(r"[^\s\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+|\s+|.", re.DOTALL)
#: Characters a line does not start with (closing brackets and punctuation, small kana,
#: the prolonged sound mark): they stay at the end of the line before.
_NO_START = set(
    "、。，．,.！？!?：；:;）」』】〉》〕］｝)]}・ーゃゅょっぁぃぅぇぉャュョッァィゥェォ…"
)


def _split_long(token: str, width: int, fnt: Any) -> list[str]:
    """A token wider than the line cut into pieces that fit (a very long code or name)."""
    pieces, piece = [], ""
    for ch in token:
        if piece and fnt.getlength(piece + ch) > width:
            pieces.append(piece)
            piece = ""
        piece += ch
    return [*pieces, piece] if piece else pieces


def _wrap(text: str, width: int, size: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels: broken at spaces, and between any
    two characters of Japanese, Chinese and Korean (not before closing punctuation)."""
    fnt = font(size)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _TOKEN.findall(paragraph):
            if token.isspace():
                if line and fnt.getlength(line + token) <= width:
                    line += token
                elif line:
                    lines.append(line)
                    line = ""
                continue
            if not line or fnt.getlength(line + token) <= width or token in _NO_START:
                line += token
                continue
            lines.append(line.rstrip())
            line = ""
            if fnt.getlength(token) > width:
                *full, token = _split_long(token, width, fnt)
                lines += full
            line = token
        if line and fnt.getlength(line) > width and " " not in line:
            *full, line = _split_long(line, width, fnt)
            lines += full
        lines.append(line.rstrip())
    return lines


def caption(head: str, text: str, width: int, max_lines: int = 8) -> Image.Image:
    """A band with the step's heading (gold) and what happened (wrapped)."""
    clean = "\n".join(drawable(line, fallback="") for line in text.split("\n"))
    room = width - 4 * MARGIN
    lines = _wrap(clean, room, CAPTION_SIZE)
    if len(lines) > max_lines:
        last, _ = fit_text(lines[max_lines - 1] + " …", room, CAPTION_SIZE, min_size=CAPTION_SIZE)
        lines = lines[: max_lines - 1] + [last]
    height = MARGIN * 2 + 34 + (CAPTION_SIZE + 8) * len(lines) + 6
    img = felt((width, height), FELT_GREEN).copy()
    panel(img, (MARGIN, MARGIN // 2, width - MARGIN, height - MARGIN // 2))
    d = Draw(img)
    heading, size = fit_text(drawable(head, bold=True, fallback=""), room, 20, True)
    draw_text(d, (2 * MARGIN, MARGIN + 6), heading, size, GOLD, bold=True)
    y = MARGIN + 36
    for line in lines:
        draw_text(d, (2 * MARGIN, y), line, CAPTION_SIZE, PAPER)
        y += CAPTION_SIZE + 8
    return img


def step_heading(rp: Replayer, step: int, locale: str = "en-US") -> str:
    """The caption's heading: game, table, step and deal (a hand, or a round where the
    game's deals are rounds)."""
    hand = rp.hand_of(step).number
    fields = {"game": game_title(rp.record.game, locale), "step": step, "last": rp.last}
    table = rp.record.table_id
    rounds = rp.spec.deal_word == "round"
    if table is None:
        if rounds:
            return gettext(
                locale, "{game} · step {step} / {last} · round {round}", round=hand, **fields
            )
        return gettext(locale, "{game} · step {step} / {last} · hand {hand}", hand=hand, **fields)
    if rounds:
        return gettext(
            locale,
            "{game} #{table} · step {step} / {last} · round {round}",
            table=table,
            round=hand,
            **fields,
        )
    return gettext(
        locale,
        "{game} #{table} · step {step} / {last} · hand {hand}",
        table=table,
        hand=hand,
        **fields,
    )


def render_step(rp: Replayer, step: int, *, reveal: bool, locale: str = "en-US") -> Image.Image:
    """The picture of ``step``: table, deal summary (if a deal just ended), every hand
    (``reveal``) and the caption, every word in ``locale``."""
    step = rp.clamp(step)
    renderers = rp.spec.renderers()
    state = rp.state_at(step)
    names = [drawable(n, bold=True) for n in state.players]
    spectator = _named(state.view(None), names)
    parts = [renderers.render_table(spectator, locale=locale).convert("RGB")]
    if step > 0 and rp.steps[step - 1].deal_end:
        summary_fn = renderers.render_deal_summary
        summary = summary_fn(spectator, locale=locale) if summary_fn is not None else None
        if summary is not None:
            parts.append(summary.convert("RGB"))
    width = max(p.width for p in parts)
    if reveal:
        views = [_named(state.view(seat), names) for seat in range(state.num_seats)]
        parts.append(hands_panel(rp.record.game, views, width, locale))
    parts.append(caption(step_heading(rp, step, locale), rp.describe(step, locale), width))
    height = sum(p.height for p in parts)
    out = felt((width, height), FELT_GREEN).copy()
    y = 0
    for p in parts:
        out.paste(p, ((width - p.width) // 2, y))
        y += p.height
    return out


def _named(view: TableView, names: list[str]) -> TableView:
    """The view with player names the font can draw (emoji dropped: no empty boxes)."""
    view["players"] = names
    return view


# ----- the render pool's entry point ---------------------------------------------------

_CACHE: OrderedDict[str, tuple[Replayer, threading.Lock]] = OrderedDict()
_CACHE_SIZE = 8
_CACHE_LOCK = threading.Lock()


def record_key(record: ReplayRecord) -> str:
    """A digest of everything that defines a replay (the same match gives the same key)."""
    return hashlib.sha256(to_json(record, indent=None).encode()).hexdigest()


def _entry(record: ReplayRecord, key: str | None) -> tuple[Replayer, threading.Lock]:
    key = key or record_key(record)
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is not None:
            _CACHE.move_to_end(key)
            return entry
    entry = (Replayer(record), threading.Lock())
    with _CACHE_LOCK:
        entry = _CACHE.setdefault(key, entry)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return entry


def replayer_for(record: ReplayRecord, key: str | None = None) -> Replayer:
    """A :class:`Replayer` for ``record``, kept among this process's last few."""
    return _entry(record, key)[0]


def replay_png(
    record: ReplayRecord,
    step: int,
    reveal: bool = True,
    key: str | None = None,
    locale: str = "en-US",
) -> bytes:
    """PNG bytes of one step in ``locale`` (what the bot sends; safe to call from several
    threads). The kept replayers are the match's states, the same in every language."""
    rp, lock = _entry(record, key)
    with lock:  # a Replayer steps one state forward and back: one step at a time
        image = render_step(rp, step, reveal=reveal, locale=locale)
    return encode(rp.record.game, image)


def encode(game: str, image: Image.Image) -> bytes:
    """PNG bytes on the game's fixed palette (the step is the game's own art and felt)."""
    palette = game_spec(game).renderers().png_palette
    return to_png(image, palette=palette() if palette is not None else True)


def replay_gif(
    rp: Replayer, steps: Sequence[int], *, reveal: bool, ms: int = 900, locale: str = "en-US"
) -> bytes:
    """One animated GIF of ``steps`` (e.g. every step of a deal)."""
    frames = [render_step(rp, s, reveal=reveal, locale=locale) for s in steps]
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    padded = []
    for f in frames:
        canvas = felt((width, height), FELT_GREEN).copy()
        canvas.paste(f, (0, 0))
        padded.append(canvas.quantize(256, method=Image.Quantize.FASTOCTREE))
    buf = io.BytesIO()
    padded[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=padded[1:],
        duration=ms,
        loop=0,
        optimize=False,
    )
    return buf.getvalue()
