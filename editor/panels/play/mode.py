"""``PlayMode``: switching the window between editing and test-play.

The window's central widget is a stack of the canvas and the play view. Playing
shows the play view and locks what edits: the tools, the edit and level actions,
undo and redo, the palette and the stack inspector, so nothing paints while a
game runs. Escape (or Back to Editing) shows the canvas again, untouched: it was
only hidden, so its level, zoom, selection and the pack's history are as left.

Locking remembers nothing but "locked": on unlock each action is enabled again,
except undo and redo, which take their state from the undo group (an edit made
while playing, such as "Use as intended solution", can be undone at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QUndoGroup
from PySide6.QtWidgets import QSizePolicy, QStackedWidget, QWidget

from editor.documents.session import Session
from editor.panels.play.playback import Playback
from editor.panels.play.view import PlayView
from editor.settings import EditorSettings
from editor.views.canvas import GridCanvas
from editor.views.tiles import TileRenderer

#: Actions that change documents (or the tool) and so are off while playing.
LOCKED_WHILE_PLAYING = (
    "actionCut",
    "actionPaste",
    "actionDelete",
    "actionSelectAll",
    "actionDeselect",
    "actionAddLevel",
    "actionDuplicateLevel",
    "actionRenameLevel",
    "actionDeleteLevel",
    "actionMoveLevelUp",
    "actionMoveLevelDown",
    "actionLevelProperties",
    "actionAddNoun",
    "actionNounStyle",
    "actionPackProperties",
)
UNDO_ACTIONS = ("actionUndo", "actionRedo")


class PlayMode(QObject):
    """Owns the central stack and the lock; the play view decides when play starts and ends."""

    def __init__(
        self,
        session: Session,
        renderer: TileRenderer,
        settings: EditorSettings,
        canvas: GridCanvas,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self._session = session
        self.canvas = canvas
        self.view = PlayView(session, renderer, settings)
        # The play view takes the canvas's place at the canvas's size: its own minimum
        # size must never push the docks aside (the canvas would refit and lose its zoom).
        self.view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.stage = QStackedWidget(parent)
        self.stage.setObjectName("centralStage")
        self.stage.addWidget(canvas)
        self.stage.addWidget(self.view)
        self._actions: dict[str, QAction] = {}
        self._widgets: list[QWidget] = []
        self._undo_group: QUndoGroup | None = None
        self.view.playing_changed.connect(self._on_playing_changed)

    def lock_while_playing(
        self,
        actions: Mapping[str, QAction],
        extra_ids: Iterable[str],
        widgets: Iterable[QWidget],
        undo_group: QUndoGroup,
    ) -> None:
        """Name what to lock: the window's actions, more action ids (the tools), widgets."""
        ids = (*LOCKED_WHILE_PLAYING, *UNDO_ACTIONS, *extra_ids)
        self._actions = {i: actions[i] for i in ids if i in actions}
        self._widgets = list(widgets)
        self._undo_group = undo_group
        for name in UNDO_ACTIONS:
            if name in self._actions:
                self._actions[name].changed.connect(self._keep_undo_locked)

    # ------------------------------------------------------------ handlers
    def play(self) -> None:
        """``actionPlay`` (F5): play the current level; while playing, restart it as it is now."""
        self.view.start()

    def play_solution(self) -> Playback | None:
        """Play the level's stored ``solution`` back step by step."""
        level = self._session.level
        moves = level.authored("solution") if level is not None else None
        if not isinstance(moves, str) or not moves:
            self._session.message.emit(
                "This level has no intended solution yet: win it and use your moves."
            )
            return None
        try:
            return self.view.play_moves(moves, title="Intended solution")
        except (ValueError, RuntimeError) as exc:
            self._session.message.emit(f"Cannot play the intended solution: {exc}")
            return None

    def set_reduced_motion(self, on: bool) -> None:
        self.view.set_reduced_motion(on)

    # --------------------------------------------------------------- slots
    def _on_playing_changed(self, playing: bool) -> None:
        self.stage.setCurrentWidget(self.view if playing else self.canvas)
        for action in self._actions.values():
            action.setEnabled(not playing)
        for widget in self._widgets:
            widget.setEnabled(not playing)
        if not playing and self._undo_group is not None:
            if "actionUndo" in self._actions:
                self._actions["actionUndo"].setEnabled(self._undo_group.canUndo())
            if "actionRedo" in self._actions:
                self._actions["actionRedo"].setEnabled(self._undo_group.canRedo())
            self.canvas.setFocus(Qt.FocusReason.OtherFocusReason)

    def _keep_undo_locked(self) -> None:
        """The undo group re-enables its actions on every push; not while playing."""
        if not self.view.playing:
            return
        for name in UNDO_ACTIONS:
            action = self._actions.get(name)
            if action is not None and action.isEnabled():
                action.setEnabled(False)
