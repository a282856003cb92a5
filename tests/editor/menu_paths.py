"""Finding "Menu ▸ Entry" paths in texts and in the window's menus (help that is true)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtWidgets import QMenu, QMenuBar

from editor.views.keys import plain_text

ARROW = " ▸ "
#: A menu tree: each entry's name, and its own tree when it is a submenu (else None).
Tree = dict[str, "Tree | None"]


def menu_tree(bar: QMenuBar) -> Tree:
    def walk(menu: QMenu) -> Tree:
        tree: Tree = {}
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                tree[plain_text(sub.title())] = walk(sub)
            elif not action.isSeparator() and action.text():
                tree[plain_text(action.text())] = None
        return tree

    return {
        plain_text(top.menu().title()): walk(top.menu())
        for top in bar.actions()
        if isinstance(top.menu(), QMenu)
    }


def wrong_paths(text: str, tree: Tree) -> list[str]:
    """Every path in ``text`` that the menus do not have (as the text writes it)."""
    flat = re.sub(r"\s+", " ", text.replace("**", "").replace("`", ""))
    wrong: list[str] = []
    cursor = 0
    while (at := flat.find(ARROW, cursor)) >= 0:
        start = at
        while start > 0 and (flat[start - 1].isalnum() or flat[start - 1] == "&"):
            start -= 1
        root = flat[start:at]
        node = tree.get(root)
        cursor = at + len(ARROW)
        walked = root
        if not root:  # a separator the program joins paths with, not a path
            continue
        if not isinstance(node, dict):
            wrong.append(f"{flat[start : at + 40]}… (no menu {root!r})")
            continue
        while True:
            names = sorted(node, key=len, reverse=True)
            name = next((n for n in names if flat.startswith(n, cursor)), None)
            if name is None:
                wrong.append(f"{walked} ▸ {flat[cursor : cursor + 40]}…")
                break
            walked += f" ▸ {name}"
            cursor += len(name)
            child = node[name]
            if isinstance(child, dict) and flat.startswith(ARROW, cursor):
                node = child
                cursor += len(ARROW)
                continue
            break
    return wrong


def source_strings(folder: Path) -> Iterator[tuple[Path, str]]:
    """Every string literal of the Python files under ``folder`` that is not a docstring
    (what the program shows: labels, tooltips, messages, help)."""
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                body = node.body
                if (
                    body
                    and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                ):
                    docstrings.add(id(body[0].value))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and ARROW.strip() in node.value
            ):
                yield path, node.value
