"""Pictures of levels and solutions: ``rulegrid-editor render`` (headless) and
File ▸ Export ▸ Level as PNG / Solution as GIF or APNG in the window."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import engine
from editor import app
from editor.dialogs.picture_form import PictureOptions
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.values import OBJECT, Pos, Stamp
from editor.views.pictures import Board, solution_of
from editor.views.theme import LIGHT
from tests.editor.play_driver import keys
from tests.editor.window_driver import trigger
from tests.support import grid_level

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = engine.load_pack(TUTORIAL_PACK)
FIRST = TUTORIAL.levels[0]  # first-steps: 9x7, solution RRRRRRUU


def render(*args: str) -> int:
    return app.main(["render", str(TUTORIAL_PACK), *args])


def rgba(hex_color: str, alpha: int = 255) -> tuple[int, int, int, int]:
    value = hex_color.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16), alpha)


def baba_cell(level: engine.Level = FIRST) -> tuple[int, int]:
    (baba,) = [e for e in level.entities if e.kind == "object" and e.noun == "BABA"]
    return baba.x, baba.y


def empty_cell(level: engine.Level = FIRST) -> tuple[int, int]:
    taken = {(e.x, e.y) for e in level.entities}
    return next(
        (x, y) for y in range(level.height) for x in range(level.width) if (x, y) not in taken
    )


# ------------------------------------------------------------------- render


def test_render_writes_a_png_of_the_expected_size_with_a_known_tile_colour(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "level.png"
    assert render("first-steps", "-o", str(out)) == 0
    assert capsys.readouterr().out == f"wrote {out} (288x224)\n"
    image = Image.open(out).convert("RGBA")
    assert image.size == (FIRST.width * 32, FIRST.height * 32) == (288, 224)
    x, y = baba_cell()
    # The left edge of the BABA block, clear of its border and its glyph: the noun's colour.
    assert image.getpixel((x * 32 + 6, y * 32 + 16)) == rgba(TUTORIAL.nouns["BABA"].color)
    ex, ey = empty_cell()
    assert image.getpixel((ex * 32 + 16, ey * 32 + 16)) == rgba(LIGHT.board)
    assert image.getpixel((ex * 32 + 31, ey * 32 + 16)) == rgba(LIGHT.grid)


def test_render_scale_and_transparent_background(tmp_path: Path) -> None:
    out = tmp_path / "big.png"
    assert render("1", "-o", str(out), "--scale", "2", "--transparent") == 0
    image = Image.open(out).convert("RGBA")
    assert image.size == (FIRST.width * 64, FIRST.height * 64)
    x, y = baba_cell()
    assert image.getpixel((x * 64 + 12, y * 64 + 32)) == rgba(TUTORIAL.nouns["BABA"].color)
    ex, ey = empty_cell()
    assert image.getpixel((ex * 64 + 32, ey * 64 + 32))[3] == 0
    assert image.getpixel((ex * 64 + 63, ey * 64 + 32))[3] == 0  # no grid either


def test_render_solution_gif_has_one_frame_per_move_plus_the_start(tmp_path: Path) -> None:
    out = tmp_path / "solution.gif"
    assert render("first-steps", "--solution", "-o", str(out)) == 0
    moves = FIRST.solution
    assert moves == "RRRRRRUU"
    gif = Image.open(out)
    assert gif.n_frames == len(moves) + 1
    durations = []
    for n in range(gif.n_frames):
        gif.seek(n)
        durations.append(gif.info["duration"])
    assert durations == [600] + [180] * (len(moves) - 1) + [1600]  # a hold on the won frame
    gif.seek(0)
    first = gif.convert("RGBA")
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGBA")
    x, y = baba_cell()
    at = (x * 32 + 6, y * 32 + 16)
    assert near(first.getpixel(at), rgba(TUTORIAL.nouns["BABA"].color))
    assert near(last.getpixel(at), rgba(LIGHT.board))  # BABA walked away


def near(got: object, want: tuple[int, int, int, int]) -> bool:
    """A GIF's palette lookup may shift a colour by a step or two per channel."""
    assert isinstance(got, tuple)
    return all(abs(a - b) <= 4 for a, b in zip(got, want, strict=True))


def test_render_solution_apng_and_other_moves(tmp_path: Path) -> None:
    out = tmp_path / "solution.png"
    assert render("first-steps", "--moves", "RRU", "-o", str(out)) == 0
    apng = Image.open(out)
    assert apng.n_frames == 4
    assert apng.size == (288, 224)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "-o", "x.png"], "no level 'nope' in this pack (levels: first-steps, "),
        (["first-steps", "-o", "x.jpg"], "pictures are written as .png or .gif"),
        (["first-steps", "-o", "x.png", "--scale", "20"], "the scale runs from 0.125 to 8"),
        (["first-steps", "-o", "x.gif", "--moves", "RXR"], "move 2 is 'X'"),
    ],
)
def test_render_bad_input_is_one_located_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert render(*args) == 1
    err = capsys.readouterr().err
    assert message in err
    assert len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_render_a_level_without_a_solution_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = tmp_path / "pack.json"
    doc = TUTORIAL.to_data()
    del doc["levels"][0]["solution"]
    engine.save_pack(doc, pack)
    assert app.main(["render", str(pack), "1", "--solution", "-o", str(tmp_path / "s.gif")]) == 1
    assert "level 'first-steps' has no solution to show" in capsys.readouterr().err


def test_render_runs_with_no_display(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    env["PYTHONPATH"] = str(ROOT)
    out = tmp_path / "clockwork.gif"
    command = [sys.executable, "-m", "editor", "render", str(TUTORIAL_PACK), "clockwork"]
    done = subprocess.run(
        [*command, "--solution", "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert Image.open(out).n_frames == len(TUTORIAL.levels[6].solution or "") + 1


def test_a_pack_named_render_still_opens_as_dot_slash_render() -> None:
    assert app.parse_args(["./render"]).pack == "./render"
    assert app.default_pack("./render") == Path("render")
    with pytest.raises(SystemExit) as done:
        app.main(["render", "--help"])
    assert done.value.code == 0


# --------------------------------------------------------------- the window


def test_export_level_as_png_draws_what_render_draws(make_window, dialogs, tmp_path: Path) -> None:
    window: MainWindow = make_window(TUTORIAL_PACK)
    dialogs.picture = PictureOptions(tmp_path / "from-window.png", 1.0, False)
    trigger(window, "actionExportLevelPicture")
    assert dialogs.asked == [("picture", (False, "first-steps.png"))]
    assert window.statusBar().currentMessage() == "Saved from-window.png (288x224)"
    assert render("first-steps", "-o", str(tmp_path / "from-render.png")) == 0
    ours = Image.open(tmp_path / "from-window.png").convert("RGBA")
    theirs = Image.open(tmp_path / "from-render.png").convert("RGBA")
    assert ours.tobytes() == theirs.tobytes()  # one way of drawing tiles


def test_export_solution_animation_from_the_window(make_window, dialogs, tmp_path: Path) -> None:
    window: MainWindow = make_window(TUTORIAL_PACK)
    dialogs.picture = PictureOptions(tmp_path / "walk.gif", 0.5, True)
    trigger(window, "actionExportSolutionAnimation")
    gif = Image.open(tmp_path / "walk.gif")
    assert gif.n_frames == len("RRRRRRUU") + 1
    assert gif.size == (FIRST.width * 16, FIRST.height * 16)
    assert window.statusBar().currentMessage() == "Saved walk.gif (9 frames)"


def test_export_solution_animation_of_a_level_without_solution_asks_nothing(
    make_window, dialogs
) -> None:
    window: MainWindow = make_window()  # an untitled pack: its level has no solution
    trigger(window, "actionExportSolutionAnimation")
    assert dialogs.asked == []
    assert (
        window.statusBar().currentMessage().startswith("Level 'level-1' has no solution to animate")
    )


# ------------------------------------------------------------- stack order


def stacked_level() -> dict[str, Any]:
    """ROCK lies on FLAG in the list, but has the smaller id: ascending ids would put
    FLAG on top. The editor writes such a level when an author moves a ROCK onto a
    FLAG placed later."""
    rows = ["BABA IS YOU . . .", "baba . . flag+rock . .", "FLAG IS WIN . . ."]
    level = grid_level(rows, "stacked", solution="RRR")
    flag, rock = (e for e in level["entities"] if e.get("noun") in ("FLAG", "ROCK"))
    flag["id"], rock["id"] = rock["id"], flag["id"]
    return level


def stacked_pack(tmp_path: Path) -> Path:
    nouns = {
        "BABA": {"color": "#d9396a"},
        "FLAG": {"color": "#ede285"},
        "ROCK": {"color": "#c29e46"},
    }
    pack = {"format": "rulegrid-pack", "version": 1, "id": "s", "title": "S", "nouns": nouns}
    path = tmp_path / "stacked.json"
    path.write_text(json.dumps({**pack, "levels": [stacked_level()]}), encoding="utf-8")
    return path


def test_a_solution_gif_starts_with_the_png_render_pixel_for_pixel(tmp_path: Path) -> None:
    """One stack order: the GIF's first frame is the level's PNG after palette reduction."""
    pack = stacked_pack(tmp_path)
    png, gif = tmp_path / "level.png", tmp_path / "solution.gif"
    assert app.main(["render", str(pack), "stacked", "-o", str(png)]) == 0
    assert app.main(["render", str(pack), "stacked", "--solution", "-o", str(gif)]) == 0
    animation = Image.open(gif)
    animation.seek(0)
    palette = Image.new("P", (1, 1))
    palette.putpalette(animation.getpalette() or [])
    reduced = Image.open(png).convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
    first = animation.convert("RGB")
    assert ImageChops.difference(reduced.convert("RGB"), first).getbbox() is None
    rock_body = (3 * 32 + 24, 1 * 32 + 5)  # the top tile, clear of chip, glyph and edge
    assert near(first.convert("RGBA").getpixel(rock_body), rgba("#c29e46"))


def test_canvas_play_and_every_picture_stack_a_cell_alike(
    make_window, settings, tmp_path: Path
) -> None:
    settings.reduced_motion = True
    window: MainWindow = make_window(stacked_pack(tmp_path))
    assert window.level is not None
    level = engine.load_pack(stacked_pack(tmp_path)).levels[0]
    canvas = Board.of_document(window.level).cells
    assert canvas[Pos(3, 1)] == (Stamp(OBJECT, "FLAG"), Stamp(OBJECT, "ROCK"))
    assert Board.of_level(level).cells == canvas  # PNG and thumbnails
    solution = solution_of(level, "RRR")
    assert solution.boards[0].cells == canvas  # the GIF's first frame
    trigger(window, "actionPlay")
    record = window.play_view._record
    assert record is not None
    assert dict(record.frames[0].looks()) == dict(canvas)
    keys(window, "RRR")  # BABA walks onto the stack: it arrives on top
    for turn, board in enumerate(solution.boards):
        assert dict(record.frames[turn].looks()) == dict(board.cells), turn
    assert solution.boards[-1].cells[Pos(3, 1)][-1] == Stamp(OBJECT, "BABA")
