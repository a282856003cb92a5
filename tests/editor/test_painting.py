"""Painters end with the paint, whatever keeps the painting function's frame alive."""

from __future__ import annotations

import sys
from types import FrameType

from editor.values import OBJECT, Pos, Stamp
from tests.editor.window_driver import click, use


def test_a_kept_frame_does_not_leave_a_painter_active(make_window, qtlog) -> None:
    """A traceback, debugger or sampling profiler can hold a paint function's frame after it
    returns; a painter freed only with the frame stays active on the window's backing
    store, which Qt reports ("endPaint() called with active painter") and may crash on."""
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(1, 1))
    kept: list[FrameType] = []

    def keep(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code.co_name == "paintEvent":
            kept.append(frame)

    sys.setprofile(keep)
    try:
        window.canvas.grab()
    finally:
        sys.setprofile(None)
    assert kept, "the canvas was not painted"
    messages = [r.message for r in qtlog.records]
    assert not [m for m in messages if "active painter" in m or "Painter" in m]
    kept.clear()
