"""Where the window's panels sit: the default layout, View ▸ Reset Layout, and play's.

The default layout is made for the screens authors have, 1366×768 up: the side
columns run the window's full height (the Problems panel sits under the board
only), the left one holds Levels over Palette, the right one two tab groups,
Stack / Automata / FRAIL / Solver over Rules / History. Its sizes are worked
out from the window's size when the window first shows (or the layout is
reset): the level list gets at least 8 rows (12 on a 1080-pixel screen), the
upper right group the height the automata form and the solver panel need, the
Problems panel just its toolbar and a line while it is empty.

While playing, the board takes the room: every panel steps aside and comes back
as it was when play ends (Escape). A layout saved on quit is the editing one.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QDockWidget, QListView, QMainWindow, QStackedWidget, QToolBar

from editor.docks import DockRegistry

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
VERTICAL, HORIZONTAL = Qt.Orientation.Vertical, Qt.Orientation.Horizontal
#: The level list shows at least this many rows, and this many more per 78 pixels
#: of window height above 768 (12 at 1080), up to the most.
LEVEL_ROWS, MORE_ROWS_EVERY, MOST_LEVEL_ROWS = 8, 78, 16
#: The columns' widths: a share of the window's width, within these bounds (pixels).
LEFT_SHARE, LEFT_WIDTH = 0.235, (300, 360)
RIGHT_SHARE, RIGHT_WIDTH = 0.30, (420, 480)
#: The upper right group (automata, solver) takes this share of the right column's
#: height, and at least this many pixels; the lower one (rules) keeps the rest.
UPPER_SHARE, UPPER_LEAST = 0.56, 490
#: The Problems panel's height while it lists nothing, and while it lists problems.
PROBLEMS_EMPTY, PROBLEMS_LISTING = 112, 190


class WindowLayout:
    """Arranges ``window``'s docks (``docks``) and keeps the layout to save."""

    def __init__(
        self,
        window: QMainWindow,
        docks: DockRegistry,
        *,
        level_view: QListView,
        problems_pages: QStackedWidget,
        problems_empty_page: object,
        play_toolbars: list[QToolBar],
    ) -> None:
        self._window = window
        self._docks = docks
        self._level_view = level_view
        self._problems_pages = problems_pages
        self._problems_empty_page = problems_empty_page
        self._play_toolbars = play_toolbars
        self._default = QByteArray()
        self._before_play: QByteArray | None = None
        self._problems_height: int | None = None  # the height this layout last gave it
        for corner, area in (
            (Qt.Corner.TopLeftCorner, LEFT),
            (Qt.Corner.BottomLeftCorner, LEFT),
            (Qt.Corner.TopRightCorner, RIGHT),
            (Qt.Corner.BottomRightCorner, RIGHT),
        ):
            window.setCorner(corner, area)
        problems_pages.currentChanged.connect(lambda _i: self._fit_problems())

    # ------------------------------------------------------------ the default
    def capture_default(self) -> None:
        """Keep the arrangement the window was built with (areas, tabs, order) to reset to."""
        self._default = self._window.saveState()

    def reset(self) -> None:
        """View ▸ Reset Layout: every panel back in its default place and size."""
        if self._before_play is not None:
            self._before_play = None  # the reset layout is the one play returns to
        dismissed = {d for d in self._docks.ids() if d == "welcome" and self._docks[d].isHidden()}
        self._window.restoreState(self._default)
        for dock_id in self._docks.ids():
            dock = self._docks[dock_id]
            dock.setFloating(False)
            dock.setVisible(dock_id not in dismissed)  # a dismissed welcome stays away
        for dock_id in ("stackInspector", "rules"):
            self._docks[dock_id].raise_()
        self.size_docks()

    def size_docks(self) -> None:
        """Give the docks their default sizes for the window's present size."""
        window, d = self._window, self._docks
        width, height = window.width(), window.height()
        left = _within(round(width * LEFT_SHARE), LEFT_WIDTH)
        right = _within(round(width * RIGHT_SHARE), RIGHT_WIDTH)
        window.resizeDocks([d["levelList"], d["stackInspector"]], [left, right], HORIZONTAL)
        column = _column_height(window)
        upper = min(max(UPPER_LEAST, round(column * UPPER_SHARE)), column - 150)
        window.resizeDocks([d["stackInspector"], d["rules"]], [upper, column - upper], VERTICAL)
        self._problems_height = None
        self._fit_problems(force=True)
        self._activate()
        # the level list: its rows' height is known only now, once the view is laid out
        rows = _within(
            LEVEL_ROWS + max(0, height - 768) // MORE_ROWS_EVERY, (LEVEL_ROWS, MOST_LEVEL_ROWS)
        )
        view = self._level_view
        row = max(view.sizeHintForRow(0), view.fontMetrics().height() + 10)
        chrome = d["levelList"].height() - view.viewport().height()
        levels = chrome + rows * row + 2
        window.resizeDocks(
            [d["levelList"], d["palette"]], [levels, max(150, column - levels)], VERTICAL
        )
        self._activate()

    def _fit_problems(self, *, force: bool = False) -> None:
        """Small while empty, room for a few rows while listing; only while the author
        has not sized the panel by hand (its height is still the one given here)."""
        dock = self._docks["validation"]
        if dock.isFloating() or (not dock.isVisible() and not force):
            return
        given = self._problems_height  # None: a restored layout's size, the author's
        if not force and (given is None or abs(dock.height() - given) > 2):
            return  # the author's size
        empty = self._problems_pages.currentWidget() is self._problems_empty_page
        target = PROBLEMS_EMPTY if empty else PROBLEMS_LISTING
        self._window.resizeDocks([dock], [target], VERTICAL)
        self._activate()
        self._problems_height = dock.height()

    def _activate(self) -> None:
        layout = self._window.layout()
        if layout is not None:  # now, so what is measured next is placed
            layout.activate()

    # ------------------------------------------------------------------- play
    def set_playing(self, playing: bool) -> None:
        """While playing the board takes the room; afterwards the panels come back."""
        window = self._window
        if playing and self._before_play is None:
            self._before_play = window.saveState()
            for dock in window.findChildren(QDockWidget):
                dock.hide()
            for bar in self._play_toolbars:
                bar.hide()
        elif not playing and self._before_play is not None:
            state, self._before_play = self._before_play, None
            window.restoreState(state)

    def state_to_save(self) -> QByteArray:
        """The layout to keep for the next start: the editing one, also while playing."""
        return self._before_play if self._before_play is not None else self._window.saveState()


def _within(value: int, bounds: tuple[int, int]) -> int:
    return max(bounds[0], min(bounds[1], value))


def _column_height(window: QMainWindow) -> int:
    """The height the side columns share: the window less its menu, toolbars and status bar."""
    height = window.height()
    menu = window.menuWidget()
    if menu is not None:
        height -= menu.sizeHint().height()
    for bar in window.findChildren(QToolBar):
        if (
            bar.parent() is window
            and not bar.isHidden()
            and window.toolBarArea(bar) == Qt.ToolBarArea.TopToolBarArea
        ):
            height -= bar.sizeHint().height()
    status = window.statusBar()
    if status is not None and not status.isHidden():
        height -= status.sizeHint().height()
    return max(300, height)
