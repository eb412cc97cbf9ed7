"""Replay pictures: every game's step draws the table, the hands face up and the caption;
the offline CLI writes one PNG per step or one GIF of a deal."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.games import GAME_NAMES
from bot.replay.__main__ import main
from bot.replay.core import Replayer, to_json
from bot.replay.render import caption, hands_panel, render_step, replay_png
from tests.replay.helpers import play, record_of


@pytest.fixture(scope="module", params=GAME_NAMES)
def replayer(request) -> Replayer:
    return Replayer(record_of(play(request.param, f"render-{request.param}")))


def test_a_revealed_step_adds_every_hand_below_the_table(replayer: Replayer) -> None:
    step = replayer.last // 2
    hidden = render_step(replayer, step, reveal=False)
    shown = render_step(replayer, step, reveal=True)
    # the table's width (Koi-Koi's and Mushi's, 790 px, are the narrowest)
    assert shown.width == hidden.width >= 790
    assert shown.height > hidden.height + 100 * replayer.final.num_seats
    png = replay_png(replayer.record, step)
    assert Image.open(io.BytesIO(png)).size == shown.size


def test_the_step_that_ends_a_deal_shows_its_summary(replayer: Replayer) -> None:
    end = next(i + 1 for i, s in enumerate(replayer.steps) if s.deal_end)
    before = render_step(replayer, end - 1, reveal=False)
    after = render_step(replayer, end, reveal=False)
    if replayer.spec.renderers().render_deal_summary is not None:
        assert after.height > before.height + 150
    else:  # no summary panel: only the caption may take more lines (card names are long)
        assert after.width == before.width and after.height < before.height + 150


def test_the_hands_panel_and_caption_draw_names_with_emoji_and_kana() -> None:
    views = [
        {"seat": 0, "players": ["Ann 🌸", "さくら"], "hand": ["1b", "3b"]},
        {"seat": 1, "players": ["Ann 🌸", "さくら"], "hand": []},
    ]
    panel = hands_panel("koikoi", views, 900)
    assert panel.size[0] == 900 and panel.size[1] > 150
    band = caption("Koi-Koi · step 1", "さくら 🎉: play 1b\nAnn takes the Crane", 900)
    assert band.width == 900
    # Two lines of text make a taller band than one.
    assert band.height > caption("x", "one line", 900).height


def test_the_cli_writes_every_step_of_a_hand_and_a_gif(tmp_path, capsys) -> None:
    state = play("koikoi", "cli")
    path = tmp_path / "match.json"
    path.write_text(to_json(record_of(state)), encoding="utf-8")
    rp = Replayer(record_of(state))
    hand = rp.hands[1]
    out = tmp_path / "steps"
    assert main([str(path), "--out", str(out), "--hand", str(hand.number)]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == [f"step-{s:04d}.png" for s in range(hand.first_step, hand.last_step + 1)]
    assert Image.open(out / files[0]).format == "PNG"
    assert main([str(path), "--out", str(out), "--gif", "--hand", str(hand.number)]) == 0
    gif = Image.open(out / f"koikoi-hand-{hand.number}.gif")
    assert gif.n_frames == hand.last_step - hand.first_step + 1
    assert main([str(path), "--hand", "99"]) == 2
    assert "no hand 99" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert main([str(bad)]) == 2


def test_the_cli_answers_malformed_files_without_a_traceback(tmp_path, capsys) -> None:
    """``scores: [null]``, JSON nested 100,000 deep: a line saying what is wrong, exit 2."""
    doc = json.loads(to_json(record_of(play("koikoi", "cli-bad"))))
    doc["result"] = {"scores": [None], "places": [1]}
    nulls = tmp_path / "nulls.json"
    nulls.write_text(json.dumps(doc), encoding="utf-8")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for path, says in ((nulls, "result.scores"), (deep, "nested too deeply")):
        assert main([str(path), "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err


def test_fitting_a_long_name_measures_only_what_fits(monkeypatch) -> None:
    """``fit_text`` of a name thousands of characters long measures prefixes up to about
    twice what fits, not the whole name a character at a time (8,000 characters took
    12 s): ten times the name, the same measuring."""
    from bot.render import draw

    measured = [0]
    real_font = draw.font

    class Counting:
        def __init__(self, inner) -> None:
            self.inner = inner

        def getlength(self, text: str, *args, **kwargs) -> float:
            measured[0] += len(text)
            return self.inner.getlength(text, *args, **kwargs)

    monkeypatch.setattr(draw, "font", lambda *a, **k: Counting(real_font(*a, **k)))
    counts = []
    for n in (8_000, 80_000):
        draw.fit_text.cache_clear()
        draw.text_length.cache_clear()
        measured[0] = 0
        fitted, size = draw.fit_text("さくら Ann " * (n // 8), 300, 20, True)
        assert fitted.endswith("…") and draw.text_length(fitted, size, True) <= 300
        counts.append(measured[0])
    assert counts[0] == counts[1] < 2_000
    draw.fit_text.cache_clear()
    draw.text_length.cache_clear()
    assert draw.fit_text("Ann", 300, 20, True) == ("Ann", 20)


def test_the_cli_draws_a_match_with_a_very_long_name(tmp_path) -> None:
    record = record_of(play("koikoi", "cli-long"))
    doc = json.loads(to_json(record))
    doc["players"][0]["name"] = "さくら" * 2_700  # 8,100 characters
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    hand = Replayer(record).hands[0]
    out = tmp_path / "steps"
    assert main([str(path), "--out", str(out), "--hand", str(hand.number)]) == 0
    assert len(list(out.iterdir())) == hand.last_step - hand.first_step + 1
