"""``Look``: everything that decides how entities are drawn, with one change signal.

The theme, the pack's noun styles (colour, glyph) and the current level's mechanic
words (FRAIL when the level opted in, automaton properties) all change how tiles
look. They used to be pushed into the renderer from three places, and a noun added
to the pack did not recolour the canvas. Now the look follows the session itself
and emits ``changed`` once per change; the renderer drops its pictures when the
look's revision moves, and every view repaints on ``changed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from editor.connections import Connections
from editor.values import NounSpec
from editor.views.theme import Theme

if TYPE_CHECKING:  # the documents are not loaded to draw a picture (``rulegrid-editor render``)
    from editor.documents.level import LevelDocument
    from editor.documents.pack import PackDocument
    from editor.documents.session import Session


class Look(QObject):
    """The theme, noun styles and mechanic words the renderer and views draw with."""

    changed = Signal()

    def __init__(self, theme: Theme, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._theme = theme
        self._nouns: dict[str, NounSpec] = {}
        self._glyphs: dict[str, str] = {}
        self._automaton_properties: frozenset[str] = frozenset()
        self._frail = False
        self._revision = 0
        self._pack_links = Connections()
        self._level_links = Connections()
        self._pack: PackDocument | None = None
        self._level: LevelDocument | None = None

    # ----------------------------------------------------------------- reading
    @property
    def theme(self) -> Theme:
        return self._theme

    @property
    def nouns(self) -> Mapping[str, NounSpec]:
        return self._nouns

    def glyph(self, noun: str) -> str:
        """The letters on the noun's objects: its own glyph, or one that no other noun shares."""
        return self._glyphs.get(noun) or noun[:1]

    @property
    def automaton_properties(self) -> frozenset[str]:
        return self._automaton_properties

    @property
    def frail(self) -> bool:
        """Whether the current level opted into the FRAIL mechanic."""
        return self._frail

    @property
    def revision(self) -> int:
        """Grows with every change: caches keyed on it can never show an old look."""
        return self._revision

    # ----------------------------------------------------------------- setting
    def set_theme(self, theme: Theme) -> None:
        if theme != self._theme:
            self._theme = theme
            self._bump()

    def set_nouns(self, nouns: Mapping[str, NounSpec]) -> None:
        if dict(nouns) != self._nouns:
            self._nouns = dict(nouns)
            self._glyphs = distinct_glyphs(self._nouns)
            self._bump()

    def set_level_words(self, automaton_properties: frozenset[str], frail: bool) -> None:
        if (automaton_properties, frail) != (self._automaton_properties, self._frail):
            self._automaton_properties, self._frail = automaton_properties, frail
            self._bump()

    def follow(self, session: Session) -> None:
        """Keep the nouns and mechanic words in step with the session's pack and level."""
        session.pack_changed.connect(self._on_pack_changed)
        session.level_changed.connect(self._on_level_changed)
        if session.pack is not None:
            self._on_pack_changed(session.pack)
        self._on_level_changed(session.level)

    # ----------------------------------------------------------------- slots
    def _on_pack_changed(self, pack: PackDocument) -> None:
        self._pack = pack
        self._pack_links.follow([(pack.nouns_changed, self._read_nouns)])
        self._read_nouns()

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._level = level
        self._level_links.follow(
            [] if level is None else [(level.authored_changed, self._on_authored_changed)]
        )
        self._read_level_words()

    def _on_authored_changed(self, key: str) -> None:
        if key in ("automata", "mechanics"):
            self._read_level_words()

    def _read_nouns(self) -> None:
        if self._pack is not None:
            self.set_nouns(self._pack.nouns)

    def _read_level_words(self) -> None:
        level = self._level
        if level is None:
            self.set_level_words(frozenset(), False)
        else:
            self.set_level_words(level.automaton_properties(), level.has_frail())

    def _bump(self) -> None:
        self._revision += 1
        self.changed.emit()


def distinct_glyphs(nouns: Mapping[str, NounSpec]) -> dict[str, str]:
    """Glyphs that tell nouns apart when they share a first letter.

    A noun's own glyph wins. Otherwise a noun whose first letter is its own keeps
    that letter; nouns that share one get it plus a later letter of their name, the
    first that no other noun of the group took (GOOP "GO", GRASS "GR"; LAVA "LA",
    LOVE "LO"), so colour is never the only difference on the board.
    """
    glyphs = {name: spec.glyph for name, spec in nouns.items() if spec.glyph}
    groups: dict[str, list[str]] = {}
    for name in sorted(nouns):
        if name not in glyphs and name:
            groups.setdefault(name[0], []).append(name)
    taken = set(glyphs.values())
    for first, names in groups.items():
        if len(names) == 1 and first not in taken:
            glyphs[names[0]] = first
            taken.add(first)
            continue
        for name in names:
            options = [first + letter for letter in name[1:] if letter.isalnum()]
            glyph = next((g for g in options if g not in taken), name[:3])
            glyphs[name] = glyph
            taken.add(glyph)
    return glyphs
