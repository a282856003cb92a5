"""Rulegrid's engine: the public API of docs/contract.md §3.

Pure Python (stdlib, pydantic, jsonschema): never imports Qt or the editor. The
editor and other tools import only the names in ``__all__``.
"""

from engine import share
from engine.colors import NOUN_COLORS, STARTER_NOUNS, default_noun_color
from engine.errors import (
    EngineError,
    Problem,
    RuleComplexityError,
    ValidationError,
    clipped,
    counted,
    quoted,
)
from engine.interop.keke import KekeImport, KekeReplay, KekeUnsupportedError, import_keke
from engine.interop.keke_export import KekeExport, KekeMisfit, export_keke
from engine.interop.keke_read import KekeUnsupported
from engine.limits import (
    LINT_WORK_BUDGET,
    MAX_ENTITIES,
    MAX_GRID_SIZE,
    MAX_ID_LENGTH,
    MAX_PACK_BYTES,
    MAX_PREVIEW_BEATS,
    PARSE_BUDGET,
    PICTURE_WORK_BUDGET,
    TOKEN_MAX_LENGTH,
)
from engine.lint import (
    LINT_CODES,
    LevelReport,
    PackReport,
    PlacedWarnings,
    check_pack,
    check_pack_sizes,
    declared_nouns,
    lint_work,
    report_level,
    report_levels,
)
from engine.mechanics import Mechanic, PaletteEntry
from engine.mechanics import unregister as unregister_mechanic
from engine.mechanics.frail import FRAIL, LeavesChain, leaves_chains, leaves_problems
from engine.model import (
    ID_PATTERN,
    Automaton,
    FrailMechanic,
    Level,
    MoveStep,
    NounStyle,
    ObjectEntity,
    Pack,
    WaitStep,
    WordEntity,
)
from engine.packs.load import load_pack, load_pack_document, module_digest, read_json_file
from engine.packs.save import dump_pack, dump_pack_chunks, save_pack, write_atomic
from engine.packs.shipped import (
    BundledPack,
    bundled_pack,
    bundled_pack_folder,
    bundled_packs,
    local_path,
    version,
)
from engine.packs.sizes import structure_problems
from engine.packs.validate import load_level
from engine.play.analysis import (
    LevelAnalysis,
    LevelReader,
    RuleEffect,
    analyze_level,
    check_level,
)
from engine.play.board import Direction
from engine.play.events import TurnEvent
from engine.play.game import Game
from engine.play.ghost import AutomatonPath, PathStep
from engine.play.hints import RuleHint, StackChoice
from engine.play.replay import SolutionCheck, check_solution, format_moves, parse_moves, replay
from engine.play.work import WorkBudget, WorkBudgetError, budgeted, one_turn
from engine.rules import Rule
from engine.share.codec import ShareError
from engine.solve.search import (
    SolveBudget,
    SolveProgress,
    SolveResult,
    SolveStatus,
    Strategy,
    default_memory_budget,
    format_bytes,
    solve,
)
from engine.solve.verify import (
    LevelVerdict,
    VerdictStatus,
    VerifySettings,
    verdict_key,
    verify_level,
)
from engine.tokens import (
    BASE_PROPERTIES,
    OPERATORS,
    TOKEN_PATTERN,
    Vocabulary,
    WordRole,
    register_mechanic,
)

__all__ = [
    "BASE_PROPERTIES",
    "FRAIL",
    "ID_PATTERN",
    "LINT_CODES",
    "LINT_WORK_BUDGET",
    "MAX_ENTITIES",
    "MAX_GRID_SIZE",
    "MAX_ID_LENGTH",
    "MAX_PACK_BYTES",
    "MAX_PREVIEW_BEATS",
    "NOUN_COLORS",
    "OPERATORS",
    "PARSE_BUDGET",
    "PICTURE_WORK_BUDGET",
    "STARTER_NOUNS",
    "TOKEN_MAX_LENGTH",
    "TOKEN_PATTERN",
    "Automaton",
    "AutomatonPath",
    "BundledPack",
    "Direction",
    "EngineError",
    "FrailMechanic",
    "Game",
    "KekeExport",
    "KekeImport",
    "KekeMisfit",
    "KekeReplay",
    "KekeUnsupported",
    "KekeUnsupportedError",
    "LeavesChain",
    "Level",
    "LevelAnalysis",
    "LevelReader",
    "LevelReport",
    "LevelVerdict",
    "Mechanic",
    "MoveStep",
    "NounStyle",
    "ObjectEntity",
    "Pack",
    "PackReport",
    "PaletteEntry",
    "PathStep",
    "PlacedWarnings",
    "Problem",
    "Rule",
    "RuleComplexityError",
    "RuleEffect",
    "RuleHint",
    "ShareError",
    "SolutionCheck",
    "SolveBudget",
    "SolveProgress",
    "SolveResult",
    "SolveStatus",
    "StackChoice",
    "Strategy",
    "TurnEvent",
    "ValidationError",
    "VerdictStatus",
    "VerifySettings",
    "Vocabulary",
    "WaitStep",
    "WordEntity",
    "WordRole",
    "WorkBudget",
    "WorkBudgetError",
    "analyze_level",
    "budgeted",
    "bundled_pack",
    "bundled_pack_folder",
    "bundled_packs",
    "check_level",
    "check_pack",
    "check_pack_sizes",
    "check_solution",
    "clipped",
    "counted",
    "declared_nouns",
    "default_memory_budget",
    "default_noun_color",
    "dump_pack",
    "dump_pack_chunks",
    "export_keke",
    "format_bytes",
    "format_moves",
    "import_keke",
    "leaves_chains",
    "leaves_problems",
    "lint_work",
    "load_level",
    "load_pack",
    "load_pack_document",
    "local_path",
    "module_digest",
    "one_turn",
    "parse_moves",
    "quoted",
    "read_json_file",
    "register_mechanic",
    "replay",
    "report_level",
    "report_levels",
    "save_pack",
    "share",
    "solve",
    "structure_problems",
    "unregister_mechanic",
    "verdict_key",
    "verify_level",
    "version",
    "write_atomic",
]
