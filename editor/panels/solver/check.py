"""The solver panel's view of the pack check: this level's verdict and the pack curve.

:class:`LevelCheckView` shows what the background verification knows about the
current level — its status in one sentence, whether the intended solution still
wins (and where it stops: "move 7 (R) is blocked"), a shortcut with a button to
play it, and the difficulty. :class:`PackCurveBox` is the pack curve with its
measure. Both only read the :class:`~editor.tasks.solve_pack.PackVerifier`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.documents.level import LevelDocument
from editor.panels.solver.chart import MEASURES, CurvePoint, PackCurve
from editor.settings import DEFAULT_CHECK_SECONDS, MAX_CHECK_SECONDS
from editor.tasks.solve_pack import LevelStatus, PackVerifier
from editor.views.theme import Theme
from editor.views.verdict_style import STATUS_MEANINGS, status_color


class LevelCheckView(QGroupBox):
    """The current level in the pack check (the same verdict as the level list)."""

    play_shortcut = Signal(str)  # the shortcut's moves

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__("Pack check of this level", parent)
        self.setObjectName("solverLevelCheck")
        self._theme = theme
        self._shortcut = ""
        self.status = _label("solverCheckStatus", bold=True)
        self.intended = _label("solverCheckIntended")
        self.shortcut = _label("solverCheckShortcut")
        self.difficulty = _label("solverCheckDifficulty")
        self.hint = _label("solverCheckHint")
        self.play_button = QPushButton("Play shortcut", self)
        self.play_button.setObjectName("solverPlayShortcut")
        self.play_button.setToolTip("Play the shorter solution the solver found on the board")
        self.play_button.clicked.connect(lambda: self.play_shortcut.emit(self._shortcut))
        # the pack check's time budget for each level (the setting its messages name)
        self.check_seconds = QSpinBox(self)
        self.check_seconds.setObjectName("solverCheckSeconds")
        self.check_seconds.setAccessibleName("Pack check time budget")
        self.check_seconds.setAccessibleDescription("Seconds the pack check searches each level")
        self.check_seconds.setRange(1, MAX_CHECK_SECONDS)
        self.check_seconds.setSingleStep(30)
        self.check_seconds.setValue(DEFAULT_CHECK_SECONDS)
        self.check_seconds.setSuffix(" s a level")
        self.check_seconds.setKeyboardTracking(False)  # one change when typing ends
        self.check_seconds.setToolTip(
            "How long the background check searches each level before it says "
            "'unknown within budget'. Raising it checks again the levels it stopped."
        )
        row = QHBoxLayout()
        row.addWidget(self.shortcut, 1)
        row.addWidget(self.play_button)
        budget = QHBoxLayout()
        budget.addWidget(QLabel("Time budget", self))
        budget.addWidget(self.check_seconds)
        budget.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setSpacing(3)
        layout.addWidget(self.status)
        layout.addWidget(self.intended)
        layout.addLayout(row)
        layout.addWidget(self.difficulty)
        layout.addWidget(self.hint)
        layout.addLayout(budget)
        self.show_status(None, None)

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme

    def show_status(self, level: LevelDocument | None, status: LevelStatus | None) -> None:
        if level is not None and status is None:
            status = LevelStatus("checking")  # just added: the verifier has not seen it yet
        if level is None or status is None:
            self.status.setText("No level")
            for label in (self.intended, self.shortcut, self.difficulty, self.hint):
                label.setText("")
            self.play_button.setVisible(False)
            return
        kind = status.kind
        color = status_color(kind, self._theme).name()
        self.status.setText(f'<span style="color:{color}">●</span> {_escape(status.long_text())}')
        self.status.setToolTip(STATUS_MEANINGS.get(kind, ""))
        verdict = status.verdict if status.state == "done" else None
        check = status.check or (verdict.intended if verdict is not None else None)
        solution = level.authored("solution")
        if not isinstance(solution, str):
            self.intended.setText("Intended solution: none (set one from a solve or in play)")
        elif check is None:
            self.intended.setText(f"Intended solution: {len(solution)} moves — replaying…")
        elif check.wins:
            self.intended.setText(f"Intended solution: {check.message}")
        else:
            self.intended.setText(f"Intended solution broken: {check.message}")
        self._shortcut = verdict.shortcut if verdict is not None and verdict.shortcut else ""
        if self._shortcut and verdict is not None and verdict.intended is not None:
            self.shortcut.setText(
                f"Shortcut: {len(self._shortcut)} moves vs. intended {verdict.intended.played} — "
                f"{self._shortcut}"
            )
        else:
            self.shortcut.setText("")
        self.shortcut.setVisible(bool(self._shortcut))
        self.play_button.setVisible(bool(self._shortcut))
        stopped = verdict.stopped_by_budget if verdict is not None else None
        open_ended = verdict is not None and verdict.words not in ("proved shortest", "broken")
        self.hint.setText(HINTS.get(stopped or "", "") if open_ended else "")
        self.hint.setVisible(bool(self.hint.text()))
        d = verdict.difficulty if verdict is not None else None
        bound = (verdict.lower_bound or 0) if verdict is not None else 0
        if d is None:
            open_ = verdict is not None and verdict.status == "unknown"
            known = f"Difficulty: at least {bound} moves" if open_ and bound > 1 else ""
            self.difficulty.setText("Difficulty: not measured yet" if verdict is None else known)
        else:
            states = "—" if d.states is None else f"{d.states:,} states"
            proof = (
                ", shortest" if d.shortest else f", shortest at least {bound}" if bound > 1 else ""
            )
            rules = "rule change" if d.rule_changes == 1 else "rule changes"
            self.difficulty.setText(
                f"Difficulty: {d.length} moves{proof} · {states} · {d.rule_changes} {rules}"
            )


class PackCurveBox(QGroupBox):
    """The pack curve and the measure it shows; follows the verifier."""

    def __init__(self, verifier: PackVerifier, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__("Pack curve", parent)
        self.setObjectName("solverPackCurveBox")
        self._verifier = verifier
        self.measure = QComboBox(self)
        self.measure.setObjectName("solverCurveMeasure")
        self.measure.setAccessibleName("Pack curve measure")
        self.measure.setAccessibleDescription("What the pack curve shows for each level")
        for key, text in MEASURES.items():
            self.measure.addItem(text, key)
        self.curve = PackCurve(theme, self)
        self.measure.currentIndexChanged.connect(
            lambda _i: self.curve.set_measure(str(self.measure.currentData()))
        )
        layout = QVBoxLayout(self)
        layout.setSpacing(2)
        layout.addWidget(self.measure, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.curve, 1)
        self._current: LevelDocument | None = None
        self._stale = False
        self._shown = True  # false while its dock is behind another tab

    def set_shown(self, shown: bool) -> None:
        """Whether the dock holding the curve can be seen (``visibilityChanged``)."""
        self._shown = shown
        if shown and self._stale:
            self.refresh(self._current)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh(self._current)

    def refresh(self, current: LevelDocument | None) -> None:
        """Redraw from the verifier's statuses, or, while hidden, when next shown.

        A point per level: on a 10,000-level pack that is tens of milliseconds on the
        UI thread, redone as statuses stream in; a curve nobody sees need not pay it.
        """
        self._current = current
        if not (self._shown and self.isVisible()):
            self._stale = True
            return
        self._stale = False
        points = []
        for level, status in self._verifier.statuses():
            verdict = status.verdict if status.state == "done" else None
            d = verdict.difficulty if verdict is not None else None
            # a bound says something where the shortest length is open: not unsolvable
            open_ = verdict is not None and verdict.status in (UNKNOWN, SOLVED, BROKEN, SHORTCUT)
            bound = verdict.lower_bound if open_ and verdict is not None else None
            points.append(
                CurvePoint(
                    level.title or level.level_id,
                    status.kind,
                    None if d is None else d.length,
                    None if d is None else d.states,
                    None if d is None else d.rule_changes,
                    status.long_text(),
                    level is current,
                    None if d is not None and d.shortest else bound,
                )
            )
        self.curve.set_points(points)


#: What to raise when a budget stopped the pack check of a level.
HINTS = {
    "timeout": "Raise the time budget below to check it longer.",
    "memory": "Solve it above with more Memory to search further.",
    "max-states": "Solve it above with a larger Budget to search further.",
}
UNKNOWN, SOLVED = engine.VerdictStatus.UNKNOWN, engine.VerdictStatus.SOLVED
BROKEN, SHORTCUT = engine.VerdictStatus.BROKEN, engine.VerdictStatus.SHORTCUT

_LABELS = {
    "solverCheckIntended": ("Intended solution check", "Whether the stored solution still wins"),
    "solverCheckShortcut": ("Pack check", "This level's verified status in the pack"),
    "solverCheckDifficulty": ("Difficulty", "Solution length, states and rule changes"),
    "solverCheckHint": ("Budget hint", "Which budget to raise when one stopped the check"),
}


def _label(name: str, *, bold: bool = False) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    if name in _LABELS:
        label.setAccessibleName(_LABELS[name][0])
        label.setAccessibleDescription(_LABELS[name][1])
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
