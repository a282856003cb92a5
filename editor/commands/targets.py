"""What commands write to, as protocols.

Commands hold before/after data and call a document's ``write_*`` methods. They
name the documents by these protocols rather than importing them, so the
documents can import the commands without a cycle (documents build commands;
commands never need the document classes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from editor.values import LevelProperties, NounSpec, PackProperties, Pos, Stack


class LevelTarget(Protocol):
    """A level document, as its commands see it."""

    @property
    def properties(self) -> LevelProperties: ...

    def stack_at(self, pos: Pos) -> Stack: ...

    def cells(self) -> Mapping[Pos, Stack]: ...

    def authored(self, key: str) -> Any: ...

    def write_cells(self, changes: Mapping[Pos, Stack]) -> None: ...

    def write_properties(
        self, props: LevelProperties, cells: Mapping[Pos, Stack] | None
    ) -> None: ...

    def write_authored(self, key: str, value: Any) -> None: ...

    def unshown(self) -> tuple[Any, ...]: ...

    def write_unshown(self, records: tuple[Any, ...]) -> None: ...


class PackTarget(Protocol):
    """A pack document, as its commands see it. Levels are opaque to pack commands."""

    @property
    def properties(self) -> PackProperties: ...

    def level_id_at(self, index: int) -> str: ...

    def level_at(self, index: int) -> object: ...

    def write_insert_level(self, index: int, level: Any) -> None: ...

    def write_remove_level(self, index: int) -> None: ...

    def write_move_level(self, source: int, target: int) -> None: ...

    def write_noun(self, name: str, spec: NounSpec | None) -> None: ...

    def noun_style(self, name: str) -> tuple[NounSpec, Any]: ...

    def write_noun_style(self, name: str, spec: NounSpec, kept: Any) -> None: ...

    def write_properties(self, props: PackProperties) -> None: ...
