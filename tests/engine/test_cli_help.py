"""``rulegrid COMMAND --help`` is plain text for a terminal, not the docstrings' reST."""

from __future__ import annotations

import argparse
import re

import pytest

from engine.cli import build_parser, main
from engine.cli.common import plain_help

#: What reStructuredText marks look like in a docstring.
REST = re.compile(r"``|:(func|class|mod|meth|data|attr|exc):`|`_\b|^\.\. ", re.MULTILINE)


def commands() -> list[list[str]]:
    """Every subcommand (and sub-subcommand) of ``rulegrid``, as the words that name it."""
    found: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append([*words, name])
                    walk(sub, [*words, name])

    walk(build_parser(), [])
    return found


def test_every_command_is_found() -> None:
    names = {" ".join(words) for words in commands()}
    assert {"verify", "solve", "validate", "share export", "share import"} <= names


@pytest.mark.parametrize("words", commands(), ids=" ".join)
def test_help_is_plain_text(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*words, "--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: rulegrid")
    assert REST.search(text) is None, REST.search(text)


def test_verify_help_reads_its_docstring_without_marks(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "rulegrid verify PACK [--jobs N] [--json]: is every level of a pack release-ready?" in text
    )
    assert "checked by verify_level (the same checks" in text


def test_plain_help_takes_out_roles_and_literals() -> None:
    doc = "Run ``rulegrid x`` with\n:func:`~engine.solve.verify.verify_level` and :class:`Pack`.\n\nMore."
    assert plain_help(doc) == "Run rulegrid x with verify_level and Pack.\n\nMore."
