"""``solverPanel``: solve the current level off the UI thread, and see the pack check.

``actionSolve`` (Ctrl+R) solves the current level in a worker process
(:class:`~editor.tasks.solve.SolveRunner`, at the editor's own priority, its worker
started before the first Solve) with the panel's options — shortest (breadth-first)
or fast (best-first), and the budget: states, seconds and memory — showing live
progress (states, depth, what is proved, the rate per CPU second of the worker) and
a Cancel that is honoured at once. The result says status, length, states and
time, and what is proved: a search stopped by its budget says "no solution in 30
moves or fewer" and which budget to raise; what earlier searches of the same
content proved (the panel's own, the pack check's) is combined with it. The
properties ``status`` and ``moves`` follow docs/contract.md section 7. A result remembers the
level as it was solved and turns *stale* as soon as the level differs (an undo back
to it makes it fresh again).

A solution plays on the board through a :class:`SolutionPlayer` — the play view's
playback (play, pause, step, scrub) — and "Use as intended solution" stores it as
the level's ``solution`` (one undoable edit).
Below, the background pack check of this level (:mod:`editor.panels.solver.check`)
and the pack curve. Results are kept per level, so switching levels and back shows
each level's last solve; a solve keeps running when the author looks elsewhere.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from PySide6.QtCore import Property, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.panels.solver.check import LevelCheckView, PackCurveBox
from editor.panels.solver.outcome import SolveOutcome, describe, solve_content
from editor.settings import EditorSettings
from editor.tasks.scheduler import Priority, scheduler
from editor.tasks.solve import SolveRunner
from editor.tasks.solve_pack import PackVerifier
from editor.views.look import Look


class SolutionPlayer(Protocol):
    """Where solutions play: the play view (``play_moves`` returns its playback)."""

    def play_moves(self, moves: str, *, title: str) -> object: ...


STRATEGIES = (
    ("Shortest (breadth-first)", engine.Strategy.BFS),
    ("Fast (best-first)", engine.Strategy.BEST_FIRST),
)
DEFAULT_BUDGET = 1_000_000
DEFAULT_SECONDS = 60  # as rulegrid solve; 0 is "no limit"
MIB = 2**20
#: The solver's worker is started once the window is built and the author has not
#: edited for this long (not during the first paint, nor between two edits: spawning
#: it stops the UI thread 20 ms, and its start-up takes a core for about a second).
WARM_DELAY_MS = 1_500
#: The pack curve is drawn again this long after the last of a burst of statuses.
CURVE_DELAY_MS = 120


class SolverPanel(QWidget):
    """The solver dock's widget (objectName ``solverPanel``)."""

    status_changed = Signal()
    moves_changed = Signal()

    def __init__(
        self,
        session: Session,
        verifier: PackVerifier,
        player: SolutionPlayer,
        look: Look,
        runner: SolveRunner | None = None,
        parent: QWidget | None = None,
        *,
        store: EditorSettings | None = None,
    ) -> None:
        """``store`` keeps the pack check's time budget between sessions."""
        super().__init__(parent)
        self.setObjectName("solverPanel")
        self.setAccessibleName("solverPanel")
        self.session = session
        self.verifier = verifier
        self.player = player
        self.look = look
        self.runner = runner if runner is not None else SolveRunner(parent=self)
        self.store = store
        self._outcomes: dict[LevelDocument, SolveOutcome] = {}
        self._running: LevelDocument | None = None
        self._level_links = Connections()
        self._build()
        # Many edits or statuses in a burst: one look each, a pass (or 120 ms) later.
        self._stale_job = scheduler().job(self, Priority.INPUT, self._recheck_stale)
        self._curve_job = scheduler().job(self, Priority.INPUT, self._refresh_curve)
        self._warming = scheduler().job(self, Priority.BACKGROUND, self.runner.warm, name="warm")
        self.runner.progressed.connect(self._on_runner_progressed)
        self.runner.finished.connect(self._on_runner_finished)
        self.runner.cancelled.connect(lambda: self._end_running("cancelled"))
        self.runner.failed.connect(self._on_runner_failed)
        verifier.status_changed.connect(self._on_verifier_status_changed)
        verifier.order_changed.connect(self._curve_later)
        session.level_changed.connect(self._on_session_level_changed)
        session.pack_changed.connect(self._on_session_pack_changed)
        look.changed.connect(self._on_look_changed)
        self._on_session_level_changed(session.level)
        self._warming.start(WARM_DELAY_MS)

    def shutdown(self) -> None:
        """Stop the solver's worker (the window is closing)."""
        self.runner.shutdown()

    # -------------------------------------------------------- docs/contract.md section 7
    def _get_status(self) -> str:
        outcome = self._outcome()
        if outcome is None or outcome.status == "failed":
            return "idle"
        return outcome.status

    def _get_moves(self) -> str:
        outcome = self._outcome()
        result = outcome.result if outcome is not None else None
        return (
            result.moves
            if result is not None and outcome is not None and outcome.status == "solved"
            else ""
        )

    def _get_stale(self) -> bool:
        outcome = self._outcome()
        return outcome is not None and outcome.stale

    status = Property(str, _get_status, notify=status_changed)
    moves = Property(str, _get_moves, notify=moves_changed)
    stale = Property(bool, _get_stale, notify=status_changed)

    @property
    def last_progress(self) -> engine.SolveProgress | None:
        """The latest progress report of the current level's solve."""
        outcome = self._outcome()
        return None if outcome is None else outcome.progress

    @property
    def result(self) -> engine.SolveResult | None:
        """The current level's last solve result (``None`` while running or never solved)."""
        outcome = self._outcome()
        return None if outcome is None else outcome.result

    # ------------------------------------------------------------- actions
    def solve(self) -> None:
        """Solve the current level with the panel's options (``actionSolve``)."""
        level = self.session.level
        if level is None:
            return
        strategy = engine.Strategy(self.strategy.currentData())
        budget = self.budget.value()
        seconds = float(self.seconds.value()) or None
        memory = self.memory.value() * MIB
        content = solve_content(level)
        outcome = SolveOutcome(strategy, budget, content, seconds=seconds, memory=memory)
        earlier = self._outcomes.get(level)
        if earlier is not None and earlier.content == content:
            outcome.learn(earlier.lower_bound(), earlier.best())
        status = self.verifier.status(level)
        if status is not None and status.state == "done" and status.verdict is not None:
            verdict = status.verdict  # about the level as it is: the same content
            d = verdict.difficulty
            outcome.learn(verdict.lower_bound, None if d is None else d.length)
        self._outcomes[level] = outcome
        self._running = level
        self.runner.start(level.to_data(), strategy, budget, seconds, memory)
        self._refresh()

    def cancel(self) -> None:
        """Stop the running solve (``actionCancelSolve``); its result is dropped."""
        self.runner.cancel()

    def play_solution(self) -> None:
        """Step through the solution on the board, in the play view's playback."""
        outcome = self._outcome()
        if outcome is not None and outcome.result is not None and not outcome.stale:
            self._play(outcome.result.moves, "Solver solution")

    def _play(self, moves: str, title: str) -> None:
        try:
            self.player.play_moves(moves, title=title)
        except (ValueError, RuntimeError) as exc:  # the level cannot be played now
            self.session.message.emit(f"Cannot play the {title.lower()}: {exc}")

    def use_as_intended(self) -> None:
        """Store the solution as the level's ``solution``: one undoable edit."""
        level, moves = self.session.level, self._get_moves()
        outcome = self._outcome()
        if level is not None and moves and outcome is not None and not outcome.stale:
            level.set_authored("solution", moves, text="Use Solver Solution as Intended")

    # ------------------------------------------------------------ building
    def _build(self) -> None:
        self.solve_button = QPushButton("Solve", self)
        self.solve_button.setObjectName("solverSolveButton")
        self.solve_button.setToolTip("Solve the current level (Ctrl+R)")
        self.solve_button.clicked.connect(self.solve)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("solverCancelButton")
        self.cancel_button.setAccessibleDescription("Stop the solve that is running")
        self.cancel_button.clicked.connect(self.cancel)
        self.strategy = QComboBox(self)
        self.strategy.setObjectName("solverStrategy")
        self.strategy.setAccessibleName("solverStrategy")
        for text, strategy in STRATEGIES:
            self.strategy.addItem(text, str(strategy))
        self.strategy.setToolTip(
            "Shortest: breadth-first, proves the shortest solution or that none exists.\n"
            "Fast: best-first, finds a solution sooner on big levels, not always the shortest."
        )
        self.budget = QSpinBox(self)
        self.budget.setObjectName("solverBudget")
        self.budget.setAccessibleName("solverBudget")
        self.budget.setRange(1_000, 50_000_000)
        self.budget.setSingleStep(100_000)
        self.budget.setValue(DEFAULT_BUDGET)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSuffix(" states")
        self.budget.setToolTip("Give up after expanding this many positions")
        self.seconds = QSpinBox(self)
        self.seconds.setObjectName("solverSeconds")
        self.seconds.setAccessibleName("solverSeconds")
        self.seconds.setRange(0, 24 * 3600)
        self.seconds.setSingleStep(30)
        self.seconds.setValue(DEFAULT_SECONDS)
        self.seconds.setSuffix(" s")
        self.seconds.setSpecialValueText("no limit")
        self.seconds.setToolTip("Give up after this many seconds (0: no limit)")
        self.memory = QSpinBox(self)
        self.memory.setObjectName("solverMemory")
        self.memory.setAccessibleName("solverMemory")
        self.memory.setRange(16, 1 << 20)
        self.memory.setSingleStep(256)
        self.memory.setValue(max(16, engine.default_memory_budget() // MIB))
        self.memory.setGroupSeparatorShown(True)
        self.memory.setSuffix(" MiB")
        self.memory.setToolTip(
            "Give up when the search holds this much memory (default: a quarter of the "
            "memory available, at most 768 MiB). Each move of search depth needs about "
            "twice the memory of the one before."
        )
        self.progress = QProgressBar(self)
        self.progress.setObjectName("solverProgressBar")
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(6)
        self.progress_label = _label("solverProgress")
        self.headline = _label("solverResult")
        headline_font = QFont(self.headline.font())
        headline_font.setBold(True)
        self.headline.setFont(headline_font)
        self.details = _label("solverDetails")
        self.moves_label = _label("solverMoves")
        self.moves_label.setFont(QFont("monospace"))
        self.stale_label = _label("solverStale")
        self.stale_label.setText(
            "Stale: the level changed since this solve. Solve again to update."
        )
        self.stale_label.setStyleSheet("color: #b76e00;")
        self.play_button = QPushButton("Play on board", self)
        self.play_button.setObjectName("solverPlayButton")
        self.play_button.setToolTip("Step through this solution on the board")
        self.play_button.clicked.connect(self.play_solution)
        self.use_button = QPushButton("Use as intended", self)
        self.use_button.setObjectName("solverUseButton")
        self.use_button.setToolTip(
            "Store this solution as the level's intended solution (undoable)"
        )
        self.use_button.clicked.connect(self.use_as_intended)
        self.check_view = LevelCheckView(self.look.theme, self)
        self.check_view.play_shortcut.connect(lambda moves: self._play(moves, "Shortcut"))
        if self.store is not None:
            self.check_view.check_seconds.setValue(self.store.check_seconds)
        self._on_check_seconds_changed(self.check_view.check_seconds.value())
        self.check_view.check_seconds.valueChanged.connect(self._on_check_seconds_changed)
        self.curve_box = PackCurveBox(self.verifier, self.look.theme, self)
        self.curve_box.curve.level_clicked.connect(self._on_curve_level_clicked)

        buttons = QHBoxLayout()
        buttons.addWidget(self.solve_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.strategy, 1)  # the search beside the buttons that run it
        options = QFormLayout()
        options.setContentsMargins(0, 0, 0, 0)
        # The three budgets share a row (their suffixes say which is which): the
        # panel fits a 1366x768 window's right column without scrolling.
        limits = QHBoxLayout()
        for box, stretch, least in (
            (self.budget, 5, 120),
            (self.seconds, 3, 64),
            (self.memory, 4, 84),
        ):
            box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            box.setMinimumWidth(least)
            limits.addWidget(box, stretch)
        options.addRow("Stop at", limits)
        actions = QHBoxLayout()
        actions.addWidget(self.play_button)
        actions.addWidget(self.use_button)
        actions.addStretch(1)
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(6, 6, 6, 6)
        column.setSpacing(4)
        column.addLayout(buttons)
        column.addLayout(options)
        column.addWidget(self.headline)
        column.addWidget(self.progress)
        column.addWidget(self.progress_label)
        column.addWidget(self.details)
        column.addWidget(self.moves_label)
        column.addWidget(self.stale_label)
        column.addLayout(actions)
        column.addWidget(self.check_view)
        column.addWidget(self.curve_box, 1)
        scroll = QScrollArea(self)
        scroll.setAccessibleName("Solver panel")
        scroll.setAccessibleDescription("The solver's options, result, pack check and pack curve")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    # ------------------------------------------------------------- showing
    def _outcome(self) -> SolveOutcome | None:
        level = self.session.level
        return None if level is None else self._outcomes.get(level)

    def _refresh(self) -> None:
        outcome = self._outcome()
        running = outcome is not None and outcome.status == "running"
        self.solve_button.setEnabled(self.session.level is not None)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        self.stale_label.setVisible(outcome is not None and outcome.stale)
        solved = outcome is not None and outcome.status == "solved" and outcome.result is not None
        fresh = solved and outcome is not None and not outcome.stale
        self.play_button.setEnabled(bool(fresh))
        self.use_button.setEnabled(bool(fresh) and self._get_moves() != "")
        headline, details, moves, progress = describe(outcome)
        self.headline.setText(headline)
        self.details.setText(details)
        self.moves_label.setText(moves)
        self.moves_label.setVisible(bool(moves))
        self.progress_label.setText(progress)
        self.progress_label.setVisible(bool(progress))
        self.details.setVisible(bool(details))
        if running and outcome is not None:
            self.progress.setRange(0, outcome.budget)
            self.progress.setValue(outcome.progress.states if outcome.progress else 0)
        self.status_changed.emit()
        self.moves_changed.emit()

    def _refresh_check(self) -> None:
        level = self.session.level
        status = self.verifier.status(level) if level is not None else None
        self.check_view.show_status(level, status)

    def _refresh_curve(self) -> None:
        self.curve_box.refresh(self.session.level)

    # --------------------------------------------------------------- slots
    def _on_session_level_changed(self, level: LevelDocument | None) -> None:
        self._level_links.follow(
            []
            if level is None
            else [
                (level.cells_changed, lambda _cells: self._on_level_edited()),
                (level.properties_changed, self._on_level_edited),
                (level.authored_changed, lambda _key: self._on_level_edited()),
            ]
        )
        self._recheck_stale()
        self._refresh_check()
        self._curve_later()

    def _on_level_edited(self) -> None:
        self._stale_job.start()
        if self._warming.is_due():  # not yet started: it waits for the author to pause
            self._warming.start(WARM_DELAY_MS)

    def _curve_later(self) -> None:
        self._curve_job.start(CURVE_DELAY_MS)

    def _on_session_pack_changed(self, _pack: object) -> None:
        self.runner.cancel(quiet=True)
        self._running = None
        self._outcomes.clear()
        self._refresh()

    def _on_verifier_status_changed(self, level: LevelDocument) -> None:
        if level is self.session.level:
            self._refresh_check()
        self._curve_later()

    def _on_look_changed(self) -> None:
        self.check_view.set_theme(self.look.theme)
        self.curve_box.curve.set_theme(self.look.theme)
        self._refresh_check()

    def _on_check_seconds_changed(self, seconds: int) -> None:
        """The pack check's time budget: every level is checked under it (stopped ones again)."""
        if self.store is not None:
            self.store.check_seconds = seconds
        settings = self.verifier.settings
        if settings.timeout != float(seconds):
            self.verifier.set_settings(replace(settings, timeout=float(seconds)))

    def _on_curve_level_clicked(self, index: int) -> None:
        pack = self.session.pack
        if pack is not None and 0 <= index < pack.level_count():
            self.session.set_level(pack.level_at(index))

    def _recheck_stale(self) -> None:
        level, outcome = self.session.level, self._outcome()
        if level is not None and outcome is not None:
            outcome.stale = solve_content(level) != outcome.content
        self._refresh()

    def _on_runner_progressed(self, progress: engine.SolveProgress) -> None:
        outcome = self._outcomes.get(self._running) if self._running is not None else None
        if outcome is None:
            return
        outcome.progress = progress
        if self._running is self.session.level:
            self._refresh()

    def _on_runner_finished(self, result: engine.SolveResult) -> None:
        outcome = self._outcomes.get(self._running) if self._running is not None else None
        if outcome is not None:
            outcome.result = result
        self._end_running(str(result.status))

    def _on_runner_failed(self, message: str) -> None:
        outcome = self._outcomes.get(self._running) if self._running is not None else None
        if outcome is not None:
            outcome.error = message.strip().splitlines()[-1] if message.strip() else "failed"
        self._end_running("failed")

    def _end_running(self, status: str) -> None:
        outcome = self._outcomes.get(self._running) if self._running is not None else None
        if outcome is not None:
            outcome.status = status
        self._running = None
        self._recheck_stale()


_LABELS = {
    "solverProgress": (
        "Solver progress",
        "States searched, depth, what is proved and the rate per CPU second while a solve runs",
    ),
    "solverResult": ("Solver result", "The outcome of the last solve of this level"),
    "solverDetails": ("Solver details", "Length, states searched and time of the last solve"),
    "solverMoves": ("Solution moves", "The solution found, as U, D, L and R moves"),
    "solverStale": ("Stale result", "Says when the level changed after the solve"),
}


def _label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    title, description = _LABELS[name]
    label.setAccessibleName(title)
    label.setAccessibleDescription(description)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
