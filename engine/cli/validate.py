"""``rulegrid validate PATH... [--lint] [--json] [--trust]``: whole-pack validation for authors and CI.

Every path is validated, even after one fails, so one run lists every problem.
Problems go to standard output, one per line (or one JSON list with ``--json``) so
tools can read them; the summary goes to standard error. Exit 0 when every pack
is valid, 1 otherwise.

``--lint`` adds the warnings of :mod:`engine.lint` (docs/validation.md lists the
codes), through :func:`engine.lint.check_pack`, the check the editor's Problems
panel runs: a warning line starts with ``warning:``, and each JSON record gains a
``severity`` (``"error"`` or ``"warning"``). Warnings alone never fail the run.
``--budget`` sets the work the lint may spend replaying intended solutions
(engine.play.work); past it, one ``solution-unchecked`` warning says where.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.cli.common import work_units
from engine.errors import TOO_MANY_PROBLEMS, Problem, ValidationError, counted
from engine.limits import LINT_WORK_BUDGET
from engine.lint import check_pack
from engine.packs.load import load_pack, read_pack_document


def register(sub: Any) -> None:
    parser = sub.add_parser("validate", help="validate packs; exit 1 listing every problem")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="pack .json files or pack folders")
    parser.add_argument("--json", action="store_true", help="print a JSON list of problem records")
    parser.add_argument(
        "--lint",
        action="store_true",
        help="also report warnings: valid packs that are probably not what you meant",
    )
    parser.add_argument(
        "--trust", action="store_true", help="run the pack.py of these folders (you trust them)"
    )
    parser.add_argument(
        "--budget",
        type=work_units,
        default=LINT_WORK_BUDGET,
        metavar="UNITS",
        help="units of work the lint may spend replaying each pack's intended solutions "
        f"(default {LINT_WORK_BUDGET:,}; see docs/validation.md, 'Work budgets')",
    )
    parser.set_defaults(run=run)


def one_line(text: str) -> str:
    """A problem on exactly one line, whatever field names the document used."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def checked(
    path: str, *, trust: bool, lint: bool, budget: int = LINT_WORK_BUDGET
) -> tuple[list[Problem], list[Problem]]:
    """The errors and (with ``lint``) the warnings of one pack path (``budget``: the lint's work)."""
    if not lint:
        try:
            load_pack(path, trust=trust)
        except ValidationError as exc:
            return list(exc.errors), []
        return [], []
    try:
        doc, name = read_pack_document(Path(path), trust=trust)
    except ValidationError as exc:
        return list(exc.errors), []
    report = check_pack(doc, name=name, lint_budget=budget)
    return list(report.errors), list(report.warnings)


def run(args: argparse.Namespace) -> int:
    records: list[tuple[Problem, str]] = []
    failed = 0
    for path in args.paths:
        errors, warnings = checked(path, trust=args.trust, lint=args.lint, budget=args.budget)
        records += [(p, "error") for p in errors] + [(p, "warning") for p in warnings]
        failed += bool(errors)
    if args.json:
        out = [
            {**p.to_dict(), "severity": severity} if args.lint else p.to_dict()
            for p, severity in records
        ]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for problem, severity in records:
            prefix = "warning: " if severity == "warning" else ""
            print(prefix + one_line(str(problem)))
    print(summary(records, failed, len(args.paths), lint=args.lint), file=sys.stderr)
    return 1 if failed else 0


def summary(records: list[tuple[Problem, str]], failed: int, total: int, *, lint: bool) -> str:
    """The last line: ``3 errors in 2 of 3 packs, 1 warning`` or ``2 packs valid``.

    A list cut at its limit ends with one ``too-many-problems`` record, which is
    not an error of its own: the count says that more were left out.
    """
    warned = sum(1 for _, severity in records if severity == "warning")
    notes = f", {counted(warned, 'warning')}" if lint else ""
    if not failed:
        return f"{counted(total, 'pack')} valid{notes}"
    errors = [p for p, severity in records if severity == "error"]
    listed = sum(1 for p in errors if p.code != TOO_MANY_PROBLEMS)
    more = " (and more not listed)" if len(errors) > listed else ""
    return f"{counted(listed, 'error')}{more} in {failed} of {counted(total, 'pack')}{notes}"
