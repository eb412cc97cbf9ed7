"""Replay pictures: every game's step draws the table, the hands face up and the caption;
the offline CLI writes one PNG per step or one GIF of a deal."""

from __future__ import annotations

import io

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
    assert shown.width == hidden.width >= 1000
    assert shown.height > hidden.height + 100 * replayer.final.num_seats
    png = replay_png(replayer.record, step)
    assert Image.open(io.BytesIO(png)).size == shown.size


def test_the_step_that_ends_a_deal_shows_its_summary(replayer: Replayer) -> None:
    end = next(i + 1 for i, s in enumerate(replayer.steps) if s.deal_end)
    before = render_step(replayer, end - 1, reveal=False)
    after = render_step(replayer, end, reveal=False)
    from bot.games import render_module

    if hasattr(render_module(replayer.record.game), "render_deal_summary"):
        assert after.height > before.height + 150
    else:
        assert after.size == before.size


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
