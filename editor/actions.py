"""The window's actions as a table: stable ids (the QAction objectNames), text,
shortcut, icon and tip in one place.

``build_actions`` turns the table into QActions and wires each to its handler;
it raises when a handler is missing, so no menu entry can silently do nothing.
Tooltips always show the shortcut.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from editor.resources import icon
from editor.settings import SOUND_VOLUMES
from editor.views.keys import note_platform_keys

Shortcut = QKeySequence.StandardKey | str | None


@dataclass(frozen=True, slots=True)
class ActionSpec:
    id: str  # the QAction's objectName; stable, tests and later panels use it
    text: str
    shortcut: Shortcut = None
    icon: str = ""
    tip: str = ""
    checkable: bool = False


SK = QKeySequence.StandardKey

FILE_ACTIONS = (
    ActionSpec("actionNewPack", "&New Pack", SK.New, "new", "Start a new, untitled pack"),
    ActionSpec("actionOpenPack", "&Open Pack…", SK.Open, "open", "Open a pack file (.json)"),
    ActionSpec(
        "actionOpenPackFolder",
        "Open Pack &Folder…",
        "Ctrl+Shift+O",
        "open-folder",
        "Open a pack folder holding pack.json",
    ),
    ActionSpec(
        "actionImportKeke",
        "&Keke Levels…",
        "",
        "",
        "Open a Keke AI Competition level file (or ASCII map) as a new pack",
    ),
    ActionSpec("actionSave", "&Save", SK.Save, "save", "Save the pack (written atomically)"),
    ActionSpec(
        "actionSaveAs", "Save &As…", "Ctrl+Shift+S", "", "Save the pack to a new .json file"
    ),
    ActionSpec(
        "actionSaveAsFolder",
        "Save As F&older…",
        "",
        "",
        "Save the pack as a folder holding pack.json",
    ),
    ActionSpec(
        "actionRestoreBackup",
        "Restore &Backup…",
        "",
        "",
        "Open a version of this pack that an earlier save kept",
    ),
    ActionSpec(
        "actionPackProperties", "Pack &Properties…", "", "properties", "Pack id, title and author"
    ),
    ActionSpec("actionQuit", "&Quit", SK.Quit, "", "Close the editor"),
)
EDIT_ACTIONS = (
    ActionSpec("actionCut", "Cu&t", SK.Cut, "", "Cut the selected region"),
    ActionSpec(
        "actionTrustedFolders",
        "&Trusted Pack Folders…",
        "",
        "",
        "Pack folders whose pack.py may run; revoke trust here",
    ),
    ActionSpec("actionCopy", "&Copy", SK.Copy, "copy", "Copy the selected region"),
    ActionSpec(
        "actionPaste",
        "&Paste",
        SK.Paste,
        "paste",
        "Paste a region: it follows the pointer until you click",
    ),
    ActionSpec("actionDelete", "&Delete", SK.Delete, "", "Clear every stack in the selection"),
    ActionSpec("actionSelectAll", "Select &All", SK.SelectAll, "", "Select the whole level"),
    ActionSpec("actionDeselect", "Deselect", "Ctrl+Shift+A", "", "Drop the selection"),
)
VIEW_ACTIONS = (
    ActionSpec(
        "actionZoomIn", "Zoom &In", SK.ZoomIn, "zoom-in", "Zoom in (or turn the mouse wheel)"
    ),
    ActionSpec(
        "actionZoomOut", "Zoom &Out", SK.ZoomOut, "zoom-out", "Zoom out (or turn the mouse wheel)"
    ),
    ActionSpec(
        "actionZoomFit", "&Fit Level", "Ctrl+0", "zoom-fit", "Zoom so the whole level is visible"
    ),
    ActionSpec("actionZoomActual", "&Actual Size", "Ctrl+1", "", "32 pixels a cell"),
    ActionSpec(
        "actionFocusCanvas",
        "Go to the &Board",
        "Alt+0",
        "",
        "Keyboard focus on the board: arrows move the cell cursor, Enter or Space paints",
    ),
    ActionSpec("actionShowGrid", "Show &Grid", "Ctrl+G", "", "Draw grid lines", checkable=True),
    ActionSpec(
        "actionDarkTheme",
        "&Dark Theme",
        "Ctrl+Shift+T",
        "",
        "Switch between light and dark",
        checkable=True,
    ),
    ActionSpec(
        "actionHighContrast",
        "&High Contrast",
        "Ctrl+Shift+H",
        "",
        "Black on white with strong outlines, for low vision or a bright room",
        checkable=True,
    ),
    ActionSpec(
        "actionResetLayout",
        "&Reset Layout",
        "",
        "",
        "Every panel back in its default place and size, for this window's size",
    ),
    ActionSpec(
        "actionCommandPalette",
        "&Command Palette…",
        "Ctrl+Shift+P",
        "",
        "Find any action by name and run it with Enter; its key is shown beside it",
    ),
)
#: View toggles of the rules panel (docs/editor.md, "Rules panel").
RULES_VIEW_ACTIONS = (
    ActionSpec(
        "actionDimUnusedWords",
        "Dim &Unused Words",
        "Ctrl+Shift+U",
        "",
        "Dim every word that forms no rule at move 0, as the game does",
        checkable=True,
    ),
    ActionSpec(
        "actionPropertyOverlay",
        "&Property Overlay",
        "Ctrl+Shift+B",
        "",
        "Badges on objects for what they are at move 0 (YOU, WIN, STOP …)",
        checkable=True,
    ),
)
#: The automata panel's view toggle (docs/editor.md, "Automata and FRAIL").
AUTOMATA_ACTIONS = (
    ActionSpec(
        "actionGhostPreview",
        "&Ghost Preview",
        "Ctrl+Shift+G",
        "",
        "Show where automaton carriers go next, against the board as it stands",
        checkable=True,
    ),
)
LEVEL_ACTIONS = (
    ActionSpec(
        "actionAddLevel",
        "&Add Level",
        "Ctrl+Shift+N",
        "add-level",
        "Add an empty level after this one",
    ),
    ActionSpec(
        "actionDuplicateLevel", "D&uplicate Level", "Ctrl+D", "duplicate", "Copy this level"
    ),
    ActionSpec("actionRenameLevel", "&Rename Level", "F2", "", "Edit the level's title"),
    ActionSpec(
        "actionDeleteLevel",
        "De&lete Level",
        "Ctrl+Shift+Del",
        "delete",
        "Remove this level (undo brings it back)",
    ),
    ActionSpec("actionMoveLevelUp", "Move Level &Up", "Alt+Up", "up", "Play this level earlier"),
    ActionSpec(
        "actionMoveLevelDown", "Move Level Do&wn", "Alt+Down", "down", "Play this level later"
    ),
    ActionSpec(
        "actionPreviousLevel", "&Previous Level", "Ctrl+PgUp", "", "Edit the previous level"
    ),
    ActionSpec("actionNextLevel", "&Next Level", "Ctrl+PgDown", "", "Edit the next level"),
    ActionSpec(
        "actionLevelProperties",
        "Level &Properties…",
        "Ctrl+I",
        "properties",
        "Id, title, author and size (with a resize anchor)",
    ),
    ActionSpec(
        "actionAddNoun",
        "Add &Noun…",
        "Ctrl+K",
        "add-noun",
        "Add a noun (name and colour) to the pack",
    ),
    ActionSpec(
        "actionNounStyle",
        "Noun &Style…",
        "",
        "",
        "Colour and glyph of the noun picked in the palette",
    ),
)

VALIDATION_ACTIONS = (
    ActionSpec(
        "actionValidate",
        "&Validate Pack",
        "F7",
        "validate",
        "Check the whole pack now: every error, and the lint warnings (the Problems panel)",
    ),
)

PLAY_ACTIONS = (
    ActionSpec(
        "actionPlay", "&Play Level", "F5", "play", "Test-play this level (F5 again restarts)"
    ),
    ActionSpec(
        "actionPlaySolution",
        "Play &Intended Solution",
        "Shift+F5",
        "",
        "Play the level's stored solution back step by step",
    ),
    ActionSpec(
        "actionReducedMotion",
        "&Reduced Motion",
        "",
        "",
        "Test-play applies each turn at once: no slides, fades or flashes",
        checkable=True,
    ),
)

SOUND_ACTIONS = (
    ActionSpec(
        "actionSound",
        "&Sound",
        "",
        "",
        "Play a sound on each automaton beat in test-play and playback (kept when turned off)",
        checkable=True,
    ),
    *(
        ActionSpec(
            f"actionSoundVolume{percent}",
            f"{percent}%",
            "",
            "",
            f"Play beat sounds at {percent}% volume",
            checkable=True,
        )
        for percent in SOUND_VOLUMES
    ),
)

SOLVER_ACTIONS = (
    ActionSpec(
        "actionSolve",
        "&Solve Level",
        "Ctrl+R",
        "solve",
        "Solve the current level in the background (Solver panel)",
    ),
    ActionSpec("actionCancelSolve", "&Cancel Solve", "Ctrl+Shift+R", "", "Stop the running solve"),
)


EXPORT_SHARE_ACTIONS = (
    ActionSpec(
        "actionExportShare",
        "&Level to Clipboard",
        "Ctrl+Shift+E",
        "copy",
        "Copy this level as a share payload (without its solution)",
    ),
    ActionSpec(
        "actionExportShareLevelSolution",
        "Level with Solution to Clipboard",
        "",
        "",
        "Copy this level and its solution (with a replay record importers check)",
    ),
    ActionSpec("actionExportSharePack", "&Pack to Clipboard", "", "", "Copy the whole pack"),
    ActionSpec(
        "actionExportSharePackSolutions",
        "Pack with Solutions to Clipboard",
        "",
        "",
        "Copy the whole pack with every level's solution",
    ),
    ActionSpec("actionExportShareLevelFile", "Level to File…", "", "", "Save a level payload"),
    ActionSpec(
        "actionExportShareLevelSolutionFile",
        "Level with Solution to File…",
        "",
        "",
        "Save a level payload with its solution",
    ),
    ActionSpec("actionExportSharePackFile", "Pack to File…", "", "", "Save a pack payload"),
    ActionSpec(
        "actionExportSharePackSolutionsFile",
        "Pack with Solutions to File…",
        "",
        "",
        "Save a pack payload with every level's solution",
    ),
    ActionSpec(
        "actionExportLevelPicture",
        "Level as P&NG…",
        "",
        "",
        "Save a picture of this level (choose a scale and a themed or transparent background)",
    ),
    ActionSpec(
        "actionExportSolutionAnimation",
        "&Solution as GIF or APNG…",
        "",
        "",
        "Animate this level's solution: the start, one frame per move, a hold on the end",
    ),
)
IMPORT_SHARE_ACTIONS = (
    ActionSpec(
        "actionImportShare",
        "Import Shared &Payload…",
        "Ctrl+Shift+I",
        "paste",
        "Preview the payload on the clipboard (or choose a payload file), then install or open it",
    ),
    ActionSpec(
        "actionImportShareFile",
        "Import Shared Payload from F&ile…",
        "",
        "",
        "Preview a payload file, then install or open it",
    ),
)
LIBRARY_ACTIONS = (
    ActionSpec(
        "actionInstalledPacks",
        "Installed Pac&ks…",
        "",
        "",
        "The packs installed from shared payloads: open or remove one",
    ),
)


SHARE_ACTIONS = EXPORT_SHARE_ACTIONS + IMPORT_SHARE_ACTIONS + LIBRARY_ACTIONS
#: File ▸ Export, top to bottom (``None``: a separator).
EXPORT_MENU = (
    "actionExportShare",
    "actionExportShareLevelSolution",
    "actionExportSharePack",
    "actionExportSharePackSolutions",
    None,
    "actionExportShareLevelFile",
    "actionExportShareLevelSolutionFile",
    "actionExportSharePackFile",
    "actionExportSharePackSolutionsFile",
    None,
    "actionExportLevelPicture",
    "actionExportSolutionAnimation",
)


HELP_ACTIONS = (
    ActionSpec(
        "actionGettingStarted",
        "&Getting Started",
        SK.HelpContents,
        "",
        "The author's loop: new pack, paint, rules, play, solve, problems, save, share",
    ),
    ActionSpec(
        "actionShortcuts",
        "&Keyboard Shortcuts",
        "Ctrl+/",
        "",
        "Every action that has a key, from the actions themselves",
    ),
    ActionSpec("actionAbout", "&About Rulegrid", "", "", "Versions of Rulegrid, Python and Qt"),
)


def shortcut_text(shortcut: Shortcut) -> str:
    if shortcut is None or shortcut == "":
        return ""
    return QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)


def decorate(action: QAction, spec: ActionSpec) -> None:
    """Apply a spec to an action (also used for Qt-made actions such as undo/redo)."""
    action.setObjectName(spec.id)
    if spec.shortcut is not None and spec.shortcut != "":
        if isinstance(spec.shortcut, str):
            action.setShortcut(QKeySequence(spec.shortcut))
        else:
            action.setShortcuts(spec.shortcut)
            note_platform_keys(action, spec.shortcut)
    if spec.icon:
        action.setIcon(icon(spec.icon))
    keys = shortcut_text(spec.shortcut)
    plain = spec.text.replace("&", "").rstrip("…")
    head = f"{plain} ({keys})" if keys else plain
    action.setToolTip(f"{head}\n{spec.tip}" if spec.tip else head)
    action.setStatusTip(spec.tip or plain)
    action.setCheckable(spec.checkable)


def build_actions(
    parent: QWidget, specs: tuple[ActionSpec, ...], handlers: Mapping[str, Callable[[], object]]
) -> dict[str, QAction]:
    actions: dict[str, QAction] = {}
    for spec in specs:
        if spec.id not in handlers:
            raise KeyError(f"no handler for action {spec.id}")
        action = QAction(spec.text, parent)
        decorate(action, spec)
        handler = handlers[spec.id]
        if spec.checkable:
            action.toggled.connect(lambda _checked, h=handler: h())
        else:
            action.triggered.connect(lambda _checked=False, h=handler: h())
        actions[spec.id] = action
    return actions
