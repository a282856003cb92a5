"""``MainWindow``: assembles the canvas, docks, menus, toolbars and status bar.

It holds no level logic: editing lives in the documents and tools, files in
``PackFiles``, questions in the injected ``Dialogs``. Panels register through
``self.docks`` so later ones (rules, automata, play, solver) plug in the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QShowEvent,
    QUndoGroup,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMenu,
    QToolBar,
    QUndoView,
    QWidget,
)

from editor.actions import (
    AUTOMATA_ACTIONS,
    EDIT_ACTIONS,
    EXPORT_MENU,
    FILE_ACTIONS,
    HELP_ACTIONS,
    LEVEL_ACTIONS,
    PLAY_ACTIONS,
    RULES_VIEW_ACTIONS,
    SHARE_ACTIONS,
    SOLVER_ACTIONS,
    SOUND_ACTIONS,
    VALIDATION_ACTIONS,
    VIEW_ACTIONS,
    ActionSpec,
    build_actions,
    decorate,
)
from editor.connections import Connections
from editor.dialogs.questions import Dialogs, QtDialogs
from editor.docks import DockRegistry
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.io.clipboard import release_clipboard
from editor.io.files import PackFiles
from editor.io.keke_import import KekeImporter
from editor.io.recovery import Autosaver, RecoveryStore, offer_recovery
from editor.level_actions import LevelActions
from editor.panels.automata.panel import AutomataPanel
from editor.panels.frail.panel import FrailPanel
from editor.panels.play.mode import PlayMode
from editor.panels.play.page import KEYS as PLAY_KEYS
from editor.panels.rules.panel import RulesPanel
from editor.panels.share.sharing import Sharing
from editor.panels.solver.panel import SolverPanel
from editor.panels.validation.jump import open_problem_field
from editor.panels.validation.panel import ValidationPanel
from editor.resources import TUTORIAL_PACK, icon
from editor.settings import SOUND_VOLUMES, EditorSettings
from editor.tasks.analysis import AnalysisService
from editor.tasks.collector import thaw
from editor.tasks.move_zero import MoveZeroFollower
from editor.tasks.solve_cache import VerdictCache
from editor.tasks.solve_pack import PackVerifier
from editor.tasks.validation import PackValidator
from editor.tools import (
    BrushTool,
    EraserTool,
    FillTool,
    PickerTool,
    RectangleTool,
    SelectTool,
    Tool,
)
from editor.values import Pos
from editor.views.canvas import GridCanvas
from editor.views.help import (
    HelpDialog,
    WelcomePanel,
    about_html,
    getting_started_html,
    shortcuts_html,
)
from editor.views.inspector import StackInspector
from editor.views.keys import menu_entries, shown_keys
from editor.views.level_list import LevelListPanel
from editor.views.look import Look
from editor.views.palette import PaletteWidget
from editor.views.theme import Theme, apply_theme, theme_named
from editor.views.tiles import TileRenderer
from editor.window_layout import WindowLayout

if TYPE_CHECKING:
    from editor.views.command_palette import CommandPalette

APP_NAME = "Rulegrid Editor"


class MainWindow(QMainWindow):
    """The editor window. ``MainWindow(pack_path=None)`` starts with a new untitled pack."""

    def __init__(
        self,
        pack_path: str | Path | None = None,
        *,
        settings: EditorSettings | None = None,
        dialogs: Dialogs | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowIcon(icon("rulegrid"))
        self.settings = settings if settings is not None else EditorSettings.for_user()
        self.dialogs: Dialogs = dialogs if dialogs is not None else QtDialogs()
        self.session = Session(self)
        self.look = Look(theme_named(self.settings.theme), self)
        self.look.follow(self.session)
        self.renderer = TileRenderer(self.look)
        self.undo_group = QUndoGroup(self)
        self.validator = PackValidator(self.session, self)  # the Problems panel's, and saves'
        files = (self.session, self.settings, self.dialogs, self.show_message)
        self.files = PackFiles(self, *files, validator=self.validator)
        self.recovery = RecoveryStore(self.settings.data_folder / "recovery")
        self.autosaver = Autosaver(self.session, self.recovery, parent=self)

        self.canvas = GridCanvas(self.session, self.renderer, self)
        self.play = PlayMode(self.session, self.renderer, self.settings, self.canvas, self)
        self.play_view = self.play.view
        self.setCentralWidget(self.play.stage)  # the canvas, or the play view while playing
        self.tools: list[Tool] = [
            BrushTool(self.session),
            EraserTool(self.session),
            RectangleTool(self.session),
            FillTool(self.session),
            PickerTool(self.session),
            SelectTool(self.session),
        ]
        self.select_tool = next(t for t in self.tools if isinstance(t, SelectTool))
        self.level_list = LevelListPanel(self.session)
        self.palette_panel = PaletteWidget(self.session, self.renderer)
        self.inspector = StackInspector(self.session, self.renderer)
        self.validation_panel = ValidationPanel(self.session, self.canvas, validator=self.validator)
        self.validation_panel.validator.lint_budget = self.settings.lint_budget
        self.history = QUndoView(self.undo_group)
        self.history.setObjectName("history")
        self.history.setAccessibleName("History")
        self.history.setAccessibleDescription(
            "Every edit of the pack, oldest first; select an entry to go back to it"
        )
        self.history.setEmptyLabel("<opened>")
        self.analysis = AnalysisService(self.session, self)
        self.rules_panel = RulesPanel(self.analysis, self.canvas, self.session, self.renderer)
        self.verifier = PackVerifier(self.session, VerdictCache.for_user(), parent=self)
        self.level_list.show_statuses(self.verifier)
        self.solver_panel = SolverPanel(
            self.session, self.verifier, self.play_view, self.look, store=self.settings
        )
        self.move_zero = MoveZeroFollower(self.session, self.analysis, self)
        self.automata_panel = AutomataPanel(self.session, self.move_zero, self.canvas)
        self.frail_panel = FrailPanel(self.session, self.move_zero, self.dialogs, self.canvas)
        self.level_actions = LevelActions(
            session=self.session,
            dialogs=self.dialogs,
            parent=self,
            select_tool=self.select_tool,
            inspector=self.inspector,
            level_list=self.level_list,
            canvas=self.canvas,
            activate_select=lambda: self.activate_tool(self.select_tool),
            show_message=self.show_message,
        )
        self.keke_importer = KekeImporter(
            self,
            session=self.session,
            dialogs=self.dialogs,
            files=self.files,
            show_message=self.show_message,
        )
        self.sharing = Sharing(
            self,
            session=self.session,
            dialogs=self.dialogs,
            files=self.files,
            renderer=self.renderer,
            theme=lambda: self.look.theme,
            show_message=self.show_message,
        )
        self.setAcceptDrops(True)  # a dropped payload (text or file) opens its preview

        self.actions_by_id: dict[str, QAction] = {}
        self._build_actions()
        self._build_menus_and_toolbars()
        self._build_docks()
        self._build_status_bar()

        self._pack_links = Connections()
        self.session.pack_changed.connect(self._on_session_pack_changed)
        self.session.level_changed.connect(self._on_session_level_changed)
        self.session.message.connect(self.show_message)
        self.canvas.hovered.connect(self._on_canvas_hovered)
        self.canvas.zoom_changed.connect(lambda pct: self._zoom_label.setText(f"{pct} %"))
        self.palette_panel.add_noun_requested.connect(self.level_actions.add_noun)
        self.palette_panel.chosen.connect(self.canvas.setFocus)

        self.keke_importer.busy_changed.connect(
            lambda busy: self.actions_by_id["actionImportKeke"].setEnabled(not busy)
        )
        self.destroyed.connect(release_clipboard)  # a window that is never closed, too
        self.destroyed.connect(thaw)  # and its objects can be collected
        self.session.release_pack_with(self)

        self._fit_screen(1280, 820)
        self._restore_window()
        self.actions_by_id["actionDarkTheme"].setChecked(self.settings.theme == "dark")
        self.actions_by_id["actionHighContrast"].setChecked(self.settings.theme == "contrast")
        self.actions_by_id["actionShowGrid"].setChecked(self.settings.show_grid)
        self._apply_theme()
        self.activate_tool(self.tools[0])
        if pack_path is None or not self.files.open_path(pack_path, ask_first=False):
            self.session.set_pack(PackDocument.untitled())
        QTimer.singleShot(0, self._offer_recovery)  # once the window is up

    # ------------------------------------------------------------ public API
    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 8000)

    def show_help(self, page: str) -> HelpDialog:
        """Open a help page ("gettingStarted", "shortcuts" or "about"), non-modal."""
        titles = {
            "gettingStarted": "Getting Started",
            "shortcuts": "Keyboard Shortcuts",
            "about": "About Rulegrid",
        }
        dialog = self.findChild(HelpDialog, page) or HelpDialog(titles[page], page, self)
        if page == "gettingStarted":
            dialog.set_html(getting_started_html(dialog.browser, self.renderer, self.key_name))
        elif page == "shortcuts":
            entries = menu_entries(self.menuBar())
            in_menus = {id(action) for _path, action in entries}
            others = [a for a in self.actions() if id(a) not in in_menus]
            dialog.set_html(shortcuts_html(entries, others, PLAY_KEYS))
        else:
            dialog.set_html(about_html())
        dialog.show()
        dialog.raise_()
        return dialog

    def key_name(self, action_id: str) -> str:
        """The key of the window's action ``action_id`` as help names it ("" if none)."""
        action = self.findChild(QAction, action_id)
        keys = shown_keys(action) if action is not None else []
        return keys[0] if keys else ""

    def show_command_palette(self) -> CommandPalette:
        """Ctrl+Shift+P: find an action of the menus by name and run it."""
        from editor.views.command_palette import CommandPalette  # on first use: not at start

        palette = self.findChild(CommandPalette, "commandPalette")
        if palette is None:
            palette = CommandPalette(self.menuBar(), self)
            palette.said.connect(self.show_message)
        palette.open_palette()
        return palette

    def activate_tool(self, tool: Tool) -> None:
        self.canvas.set_tool(tool)
        self.actions_by_id[tool.action_id].setChecked(True)
        self._tool_label.setText(tool.name)

    def tool(self, tool_type: type[Tool]) -> Tool:
        return next(t for t in self.tools if isinstance(t, tool_type))

    @property
    def pack(self) -> PackDocument:
        assert self.session.pack is not None
        return self.session.pack

    @property
    def level(self) -> LevelDocument | None:
        return self.session.level

    @property
    def theme(self) -> Theme:
        return self.look.theme

    # ----------------------------------------------------------- assembling
    def _build_actions(self) -> None:
        la, files, canvas = self.level_actions, self.files, self.canvas
        handlers = {
            "actionNewPack": files.new_pack,
            "actionOpenPack": files.open_dialog,
            "actionOpenPackFolder": lambda: files.open_dialog(folder=True),
            "actionImportKeke": lambda: self.keke_importer.start(),
            "actionSave": files.save,
            "actionSaveAs": files.save_as,
            "actionSaveAsFolder": lambda: files.save_as(folder=True),
            "actionRestoreBackup": files.restore_backup,
            "actionTrustedFolders": lambda: self.dialogs.manage_trusted_folders(
                self, self.settings
            ),
            "actionGettingStarted": lambda: self.show_help("gettingStarted"),
            "actionShortcuts": lambda: self.show_help("shortcuts"),
            "actionAbout": lambda: self.show_help("about"),
            "actionPackProperties": la.edit_pack_properties,
            "actionQuit": self.close,
            "actionCut": la.cut,
            "actionCopy": la.copy,
            "actionPaste": la.paste,
            "actionDelete": la.delete,
            "actionSelectAll": la.select_all,
            "actionDeselect": lambda: self.select_tool.select(None),
            "actionZoomIn": canvas.zoom_in,
            "actionZoomOut": canvas.zoom_out,
            "actionZoomFit": canvas.fit,
            "actionZoomActual": canvas.zoom_actual,
            "actionFocusCanvas": self._focus_canvas,
            "actionShowGrid": self._on_show_grid_toggled,
            "actionDarkTheme": self._on_dark_theme_toggled,
            "actionHighContrast": self._on_high_contrast_toggled,
            "actionAddLevel": la.add_level,
            "actionDuplicateLevel": la.duplicate_level,
            "actionRenameLevel": la.rename_level,
            "actionDeleteLevel": la.delete_level,
            "actionMoveLevelUp": lambda: la.move_level(-1),
            "actionMoveLevelDown": lambda: la.move_level(+1),
            "actionPreviousLevel": lambda: la.step_level(-1),
            "actionNextLevel": lambda: la.step_level(+1),
            "actionLevelProperties": la.edit_level_properties,
            "actionAddNoun": la.add_noun,
            "actionNounStyle": la.edit_noun_style,
            "actionSolve": self.solver_panel.solve,
            "actionCancelSolve": self.solver_panel.cancel,
            "actionPlay": self.play.play,
            "actionPlaySolution": self.play.play_solution,
            "actionReducedMotion": lambda: self.play.set_reduced_motion(
                self.actions_by_id["actionReducedMotion"].isChecked()
            ),
            "actionSound": lambda: self.play_view.set_sound(
                self.actions_by_id["actionSound"].isChecked()
            ),
            **self._sound_volume_handlers(),
            **self.rules_panel.action_handlers(lambda name: self.actions_by_id[name]),
            "actionGhostPreview": lambda: self.automata_panel.set_ghost_visible(
                self.actions_by_id["actionGhostPreview"].isChecked()
            ),
            **self.sharing.handlers(),
            "actionValidate": self._validate,
            "actionResetLayout": lambda: self.window_layout.reset(),
            "actionCommandPalette": self.show_command_palette,
        }
        self.actions_by_id.update(
            build_actions(
                self,
                FILE_ACTIONS
                + EDIT_ACTIONS
                + VIEW_ACTIONS
                + RULES_VIEW_ACTIONS
                + LEVEL_ACTIONS
                + PLAY_ACTIONS
                + SOUND_ACTIONS
                + SOLVER_ACTIONS
                + VALIDATION_ACTIONS
                + HELP_ACTIONS
                + SHARE_ACTIONS
                + AUTOMATA_ACTIONS,
                handlers,
            )
        )
        self.actions_by_id["actionZoomIn"].setShortcuts(
            [QKeySequence("Ctrl+="), QKeySequence("Ctrl++")]
        )
        undo = self.undo_group.createUndoAction(self, "&Undo")
        redo = self.undo_group.createRedoAction(self, "&Redo")
        decorate(
            undo,
            ActionSpec(
                "actionUndo", "Undo", QKeySequence.StandardKey.Undo, "undo", "Undo the last edit"
            ),
        )
        decorate(
            redo,
            ActionSpec(
                "actionRedo", "Redo", QKeySequence.StandardKey.Redo, "redo", "Redo the edit"
            ),
        )
        if QKeySequence("Ctrl+Y") not in redo.shortcuts():  # the other common redo key
            redo.setShortcuts([*redo.shortcuts(), QKeySequence("Ctrl+Y")])
        self.actions_by_id["actionUndo"], self.actions_by_id["actionRedo"] = undo, redo
        group = QActionGroup(self)
        for tool in self.tools:
            action = QAction(tool.name, self)
            decorate(
                action,
                ActionSpec(
                    tool.action_id, tool.name, tool.shortcut, tool.icon_name, tool.tip, True
                ),
            )
            action.setActionGroup(group)
            action.triggered.connect(lambda _c=False, t=tool: self.activate_tool(t))
            self.actions_by_id[tool.action_id] = action
        for action in self.actions_by_id.values():
            self.addAction(action)  # shortcuts work even with menus and toolbars hidden
        self.actions_by_id["actionReducedMotion"].setChecked(self.settings.reduced_motion)
        self.actions_by_id["actionSound"].setChecked(self.settings.sound_enabled)
        volumes = QActionGroup(self)
        for v in SOUND_VOLUMES:
            self.actions_by_id[f"actionSoundVolume{v}"].setActionGroup(volumes)
        nearest = min(SOUND_VOLUMES, key=lambda v: abs(v - self.settings.sound_volume))
        self.actions_by_id[f"actionSoundVolume{nearest}"].setChecked(True)

    def _build_menus_and_toolbars(self) -> None:
        a = self.actions_by_id
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._add(file_menu, "actionNewPack", "actionOpenPack", "actionOpenPackFolder")
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.setObjectName("menuRecent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._add(file_menu, "actionInstalledPacks", None, "actionImportShare")
        self._add(file_menu, "actionImportShareFile")
        self._add(file_menu.addMenu("&Import"), "actionImportKeke")
        self._add(file_menu.addMenu("&Export"), *EXPORT_MENU)
        self._add(
            file_menu,
            None,
            "actionSave",
            "actionSaveAs",
            "actionSaveAsFolder",
            "actionRestoreBackup",
            None,
            "actionPackProperties",
            "actionValidate",
            None,
            "actionQuit",
        )
        edit = bar.addMenu("&Edit")
        self._add(
            edit,
            "actionUndo",
            "actionRedo",
            None,
            "actionCut",
            "actionCopy",
            "actionPaste",
            "actionDelete",
            None,
            "actionSelectAll",
            "actionDeselect",
            None,
            "actionTrustedFolders",
        )
        view = bar.addMenu("&View")
        self._add(
            view,
            "actionZoomIn",
            "actionZoomOut",
            "actionZoomFit",
            "actionZoomActual",
            "actionFocusCanvas",
            None,
            "actionShowGrid",
            "actionDarkTheme",
            "actionHighContrast",
            "actionReducedMotion",
            "actionSound",
        )
        volume_menu = view.addMenu("Sound &Volume")
        volume_menu.setObjectName("menuSoundVolume")
        self._add(volume_menu, *(f"actionSoundVolume{v}" for v in SOUND_VOLUMES))
        view.aboutToShow.connect(self._show_sound_problem)
        self._add(
            view,
            None,
            "actionDimUnusedWords",
            "actionPropertyOverlay",
            "actionGhostPreview",
            None,
        )
        self.panels_menu = view.addMenu("&Panels")
        self.panels_menu.setObjectName("menuPanels")
        self._add(view, "actionResetLayout", None, "actionCommandPalette")
        tools_menu = bar.addMenu("&Tools")
        for tool in self.tools:
            tools_menu.addAction(a[tool.action_id])
        level = bar.addMenu("&Level")
        self._add(
            level,
            "actionAddLevel",
            "actionDuplicateLevel",
            "actionRenameLevel",
            "actionDeleteLevel",
            None,
            "actionMoveLevelUp",
            "actionMoveLevelDown",
            "actionPreviousLevel",
            "actionNextLevel",
            None,
            "actionLevelProperties",
            "actionAddNoun",
            "actionNounStyle",
            None,
            "actionSolve",
            "actionCancelSolve",
        )
        self._add(bar.addMenu("&Play"), "actionPlay", "actionPlaySolution")
        self.help_menu = bar.addMenu("&Help")
        self._add(self.help_menu, "actionGettingStarted", "actionShortcuts", None, "actionAbout")
        main = QToolBar("Main", self)
        main.setObjectName("mainToolBar")
        main.setIconSize(QSize(20, 20))
        for name in (
            "actionNewPack",
            "actionOpenPack",
            "actionSave",
            None,
            "actionUndo",
            "actionRedo",
            None,
            "actionZoomOut",
            "actionZoomIn",
            "actionZoomFit",
            None,
            "actionPlay",
        ):
            main.addSeparator() if name is None else main.addAction(a[name])
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, main)
        self.tools_toolbar = tools = QToolBar("Tools", self)
        tools.setObjectName("toolsToolBar")
        tools.setIconSize(QSize(22, 22))
        for tool in self.tools:
            tools.addAction(a[tool.action_id])
        self.addToolBar(Qt.ToolBarArea.LeftToolBarArea, tools)

    def _add(self, menu: QMenu, *names: str | None) -> None:
        for name in names:
            menu.addSeparator() if name is None else menu.addAction(self.actions_by_id[name])

    def _build_docks(self) -> None:
        a = self.actions_by_id
        self.docks = DockRegistry(self, self.panels_menu, home=self._focus_canvas)
        self.level_list.add_toolbar_actions(
            [
                a["actionAddLevel"],
                a["actionDuplicateLevel"],
                a["actionDeleteLevel"],
                None,
                a["actionMoveLevelUp"],
                a["actionMoveLevelDown"],
                None,
                a["actionLevelProperties"],
            ]
        )
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        add = self.docks.add
        levels = add(
            "levelList",
            "Levels",
            self.level_list,
            left,
            shortcut="Alt+1",
            focus=self.level_list.view,
        )
        self.level_list.filter_bar.summary_changed.connect(
            lambda text: levels.setWindowTitle(f"Levels — {text}" if text else "Levels")
        )
        add("palette", "Palette", self.palette_panel, left, shortcut="Alt+2")
        # the right column: Stack, Automata, FRAIL, Solver over Rules, History (window_layout)
        add("stackInspector", "Stack", self.inspector, right, shortcut="Alt+3")
        add("rules", "Rules", self.rules_panel, right, shortcut="Alt+5")
        add("history", "History", self.history, right, tabify_with="rules", shortcut="Alt+4")
        problems = add(
            "validation",
            "Problems",
            self.validation_panel,
            Qt.DockWidgetArea.BottomDockWidgetArea,
            shortcut="Alt+6",
        )
        self.validation_panel.add_action(a["actionValidate"])
        self.validation_panel.title_changed.connect(problems.setWindowTitle)
        self.validation_panel.problem_activated.connect(
            lambda level_id, pointer: open_problem_field(self, level_id, pointer)
        )
        self.play.lock_while_playing(
            self.actions_by_id,
            [tool.action_id for tool in self.tools],
            [self.palette_panel, self.inspector],
            self.undo_group,
        )
        for dock_id, title, panel, key in (
            ("automata", "Automata", self.automata_panel, "Alt+7"),
            ("frail", "FRAIL", self.frail_panel, "Alt+8"),
            ("solver", "Solver", self.solver_panel, "Alt+9"),
        ):
            add(dock_id, title, panel, right, tabify_with="stackInspector", shortcut=key)
        # Behind another tab, the pack curve (a point per level) is drawn when shown.
        self.docks["solver"].visibilityChanged.connect(self.solver_panel.curve_box.set_shown)
        self.docks["stackInspector"].raise_()
        self.docks["rules"].raise_()
        self.automata_panel.use_ghost_action(a["actionGhostPreview"])
        if not self.settings.welcomed:
            self._add_welcome(right)
        self.window_layout = WindowLayout(
            self,
            self.docks,
            level_view=self.level_list.view,
            problems_pages=self.validation_panel.pages,
            problems_empty_page=self.validation_panel.empty,
            play_toolbars=[self.tools_toolbar],
        )
        self.window_layout.capture_default()
        self.play_view.playing_changed.connect(self.window_layout.set_playing)

    def _focus_canvas(self) -> None:
        self.canvas.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if self.canvas.cursor_cell is None and self.level is not None:
            self.canvas.set_cursor_cell(self.canvas.hovered_cell or Pos(0, 0))

    def _add_welcome(self, area: Qt.DockWidgetArea) -> None:
        """The first start's welcome panel, until the author dismisses it ("Got it")."""
        welcome = WelcomePanel(self.renderer, self.session, self.key_name, TUTORIAL_PACK)
        dock = self.docks.add("welcome", "Welcome", welcome, area, tabify_with="stackInspector")
        dock.raise_()  # the first thing a new author reads

        def dismiss() -> None:
            self.settings.welcomed = True
            dock.close()

        welcome.dismissed.connect(dismiss)

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self._cell_label = QLabel(self)
        self._cell_label.setObjectName("statusCell")
        self._tool_label = QLabel(self)
        self._zoom_label = QLabel(self)
        self._zoom_label.setObjectName("statusZoom")
        status.addPermanentWidget(self._cell_label)
        status.addPermanentWidget(self._tool_label)
        status.addPermanentWidget(self._zoom_label)
        problems = QLabel(self)
        problems.setObjectName("statusProblems")
        self.validation_panel.summary_changed.connect(problems.setText)
        status.addPermanentWidget(problems)

    # ----------------------------------------------------------------- slots
    def _validate(self) -> None:
        """F7: show the Problems panel and check the whole pack again."""
        self.docks["validation"].show()
        self.docks["validation"].raise_()
        self.validation_panel.validator.check_all()

    def _on_session_pack_changed(self, pack: PackDocument) -> None:
        for stack in self.undo_group.stacks():
            self.undo_group.removeStack(stack)
        self.undo_group.addStack(pack.undo_stack)
        self.undo_group.setActiveStack(pack.undo_stack)
        self._pack_links.follow(
            [
                (pack.dirty_changed, self._update_title),
                (pack.properties_changed, self._update_title),
            ]
        )
        self._update_title()

    def _on_session_level_changed(self, _level: LevelDocument | None) -> None:
        self._on_canvas_hovered(self.canvas.hovered_cell)  # the readout names this level's cell
        self._update_title()

    def _on_canvas_hovered(self, pos: Pos | None) -> None:
        level = self.level
        if pos is None or level is None:
            self._cell_label.setText("")
            return
        stack = level.stack_at(pos)
        names = ", ".join(
            p.token if p.kind == "word" else p.token.lower() for p in reversed(stack[-4:])
        )
        more = "…" if len(stack) > 4 else ""
        self._cell_label.setText(
            f"({pos.x}, {pos.y})  {len(stack)}: {names}{more}" if stack else f"({pos.x}, {pos.y})"
        )

    def _sound_volume_handlers(self) -> dict[str, Callable[[], None]]:
        return {f"actionSoundVolume{v}": partial(self._on_sound_volume, v) for v in SOUND_VOLUMES}

    def _on_sound_volume(self, percent: int) -> None:
        if self.actions_by_id[f"actionSoundVolume{percent}"].isChecked():
            self.play_view.set_sound_volume(percent)

    def _show_sound_problem(self) -> None:
        """View ▸ Sound names why beats are not heard, when that is known."""
        problem = self.play_view.sounds.problem() if self.settings.sound_enabled else None
        self.actions_by_id["actionSound"].setText(f"&Sound ({problem})" if problem else "&Sound")

    def _on_show_grid_toggled(self) -> None:
        show = self.actions_by_id["actionShowGrid"].isChecked()
        self.settings.show_grid = show
        self.canvas.set_show_grid(show)

    def _on_dark_theme_toggled(self) -> None:
        self._choose_theme("dark", self.actions_by_id["actionDarkTheme"].isChecked())

    def _on_high_contrast_toggled(self) -> None:
        self._choose_theme("contrast", self.actions_by_id["actionHighContrast"].isChecked())

    def _choose_theme(self, name: str, on: bool) -> None:
        """Dark and high contrast exclude each other; neither is the light theme."""
        if on == (self.settings.theme == name):
            return
        self.settings.theme = name if on else "light"
        for action_id, theme in (("actionDarkTheme", "dark"), ("actionHighContrast", "contrast")):
            action = self.actions_by_id[action_id]
            action.blockSignals(True)
            action.setChecked(self.settings.theme == theme)
            action.blockSignals(False)
        self._apply_theme()

    def _apply_theme(self) -> None:
        """Theme the application's widgets; the look repaints the tiles (one signal)."""
        theme = theme_named(self.settings.theme)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, theme)
        self.look.set_theme(theme)
        self.canvas.set_show_grid(self.settings.show_grid)

    def _update_title(self, *_: object) -> None:
        pack = self.session.pack
        if pack is None:
            return
        self.setWindowTitle(
            f"{pack.properties.title or pack.properties.pack_id} — {pack.display_name()}[*] — {APP_NAME}"
        )
        self.setWindowModified(pack.is_dirty())

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.settings.recent_packs
        for path in recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _c=False, p=path: self.files.open_path(p))
        if not recent:
            self.recent_menu.addAction("No recent packs").setEnabled(False)

    # --------------------------------------------------------- window state
    def _restore_window(self) -> None:
        geometry, state = self.settings.window_geometry, self.settings.window_state
        if not geometry.isEmpty():
            self.restoreGeometry(geometry)
        self._default_layout_pending = state.isEmpty() or not self.restoreState(state)

    def _fit_screen(self, width: int, height: int) -> None:
        """The first window's size: as asked, within the screen's free area (1366×768 too)."""
        screen = self.screen()
        room = screen.availableGeometry() if screen is not None else None
        if room is not None and not room.isEmpty():
            width, height = min(width, room.width()), min(height, room.height())
        self.resize(width, height)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._default_layout_pending:  # dock sizes only take once the window has its size
            self._default_layout_pending = False
            self.window_layout.size_docks()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.sharing.importer.drag_enter(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.sharing.importer.drop(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.maybe_keep_changes():
            event.ignore()
            return
        self.settings.window_geometry = self.saveGeometry()
        self.settings.window_state = self.window_layout.state_to_save()
        self.settings.sync()
        release_clipboard()  # what this window copied must not outlive it (PySide6 exit crash)
        thaw()  # the pack was frozen for the collector while open; now it may go
        self.autosaver.discard()  # a clean exit leaves no recovery file
        self.recovery.close()  # nor its owner lock
        self.solver_panel.shutdown()
        self.verifier.shutdown()
        event.accept()

    def _offer_recovery(self) -> None:
        offer_recovery(self.recovery, self.dialogs, self, self.session)
