"""The Keke map key, and reading one ASCII map into cells.

The key is the framework's own (``Keke_JS`` map legend): a lower-case letter is an
object, the same letter in upper case its noun word, digits are IS and the
properties, ``_`` is the border ring and ``.`` or a space is an empty cell. One
cell holds one character, so a Keke map never stacks.

A map is read in two passes so that errors come before anything else: the shape
and every character are checked first (a malformed map is the file's fault and is
always an error), then the cells are mapped, and characters we understand but
cannot play (KILL, MOVE, HOT, MELT, a border tile inside the map) are reported as
*unsupported* with their place, so the caller can skip the level or refuse the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.limits import MAX_GRID_SIZE

#: Object letters and the nouns they stand for; the upper-case letter is the noun's word.
NOUNS: dict[str, str] = {
    "b": "BABA",
    "s": "SKULL",
    "f": "FLAG",
    "o": "FLOOR",
    "a": "GRASS",
    "l": "LAVA",
    "r": "ROCK",
    "w": "WALL",
    "k": "KEKE",
    "g": "GOOP",
    "v": "LOVE",
}
#: Digits whose word Rulegrid plays the same way.
WORDS: dict[str, str] = {"1": "IS", "2": "YOU", "3": "WIN", "5": "PUSH", "6": "STOP", "0": "SINK"}
#: Digits for properties Rulegrid does not have.
LACKING: dict[str, str] = {"4": "KILL", "7": "MOVE", "8": "HOT", "9": "MELT"}
BORDER = "_"
EMPTY = "."
BLANKS = frozenset(". ")

#: Noun colours close to the framework's sprites; every noun gets a distinct one.
COLORS: dict[str, str] = {
    "BABA": "#d9396a",
    "SKULL": "#8e1d1d",
    "FLAG": "#ede285",
    "FLOOR": "#8a9a6b",
    "GRASS": "#5c8339",
    "LAVA": "#e49950",
    "ROCK": "#c29e46",
    "WALL": "#737373",
    "KEKE": "#e5533b",
    "GOOP": "#3e7688",
    "LOVE": "#eb91ca",
}

#: The longest side of a map as written: our largest grid plus the border ring.
MAX_MAP_SIDE = MAX_GRID_SIZE + 2
#: The most characters a map may hold (every row with a ``\r\n``), checked before any walk.
MAX_MAP_CHARS = MAX_MAP_SIDE * (MAX_MAP_SIDE + 2)


def token_of(char: str) -> tuple[str, str] | None:
    """``(kind, token)`` for a playable character, or None."""
    if char in NOUNS:
        return "object", NOUNS[char]
    if char.isupper() and char.lower() in NOUNS:
        return "word", NOUNS[char.lower()]
    if char in WORDS:
        return "word", WORDS[char]
    return None


def is_known(char: str) -> bool:
    return token_of(char) is not None or char in LACKING or char == BORDER or char in BLANKS


class MapError(ValueError):
    """A map that is not a Keke map at all; ``str()`` says where (row and column)."""


@dataclass(frozen=True, slots=True)
class Lacking:
    """A character of the key that Rulegrid cannot play, and where it stands."""

    character: str
    meaning: str
    row: int  # 1-based line of the map as written, ring included
    column: int  # 1-based column of the map as written
    cell: tuple[int, int]  # (x, y) in the imported grid


@dataclass(frozen=True, slots=True)
class KekeMap:
    """A map read into our coordinates: the ring dropped, one piece per cell."""

    width: int
    height: int
    pieces: tuple[tuple[str, str, int, int], ...]  # (kind, token, x, y), row-major
    lacking: tuple[Lacking, ...]


def read_map(text: str) -> KekeMap:
    """Read one map; raises :class:`MapError` naming the first bad row or character.

    The ring is dropped when every outer cell is ``_``; a map without a complete
    ring is read as it stands (the grid edge stops movement either way), and any
    ``_`` left inside is a fixed tile we cannot play.
    """
    if len(text) > MAX_MAP_CHARS:
        raise MapError(f"the map has {len(text):,} characters; at most {MAX_MAP_CHARS:,}")
    rows = text.replace("\r\n", "\n").split("\n")
    while rows and rows[-1] == "":
        rows.pop()
    if not rows:
        raise MapError("the map is empty")
    if len(rows) > MAX_MAP_SIDE:
        raise MapError(f"the map has {len(rows)} rows; at most {MAX_MAP_SIDE}")
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise MapError(
                f"row {number} has {len(row)} characters but row 1 has {width}; "
                "every row of a map must be as long as the first"
            )
    if width == 0:
        raise MapError("the map's rows are empty")
    if width > MAX_MAP_SIDE:
        raise MapError(f"the map has {width} columns; at most {MAX_MAP_SIDE}")
    for number, row in enumerate(rows, start=1):
        for column, char in enumerate(row, start=1):
            if not is_known(char):
                raise MapError(
                    f"row {number}, column {column}: unknown map character {char!r} "
                    "(not in the Keke key)"
                )
    ring = len(rows) >= 3 and width >= 3 and _has_ring(rows)
    inner = [row[1:-1] for row in rows[1:-1]] if ring else rows
    if ring and not inner[0]:
        raise MapError("the map has no cells inside its border ring")
    if len(inner) > MAX_GRID_SIZE or len(inner[0]) > MAX_GRID_SIZE:
        raise MapError(f"the map is larger than {MAX_GRID_SIZE}x{MAX_GRID_SIZE} inside its ring")
    offset = 1 if ring else 0
    pieces: list[tuple[str, str, int, int]] = []
    lacking: list[Lacking] = []
    for y, row in enumerate(inner):
        for x, char in enumerate(row):
            found = token_of(char)
            if found is not None:
                pieces.append((*found, x, y))
            elif char in LACKING or char == BORDER:
                meaning = LACKING.get(char, "a border tile inside the map")
                lacking.append(Lacking(char, meaning, y + 1 + offset, x + 1 + offset, (x, y)))
    return KekeMap(len(inner[0]), len(inner), tuple(pieces), tuple(lacking))


def _has_ring(rows: list[str]) -> bool:
    edge = rows[0] + rows[-1] + "".join(row[0] + row[-1] for row in rows)
    return set(edge) == {BORDER}


def write_map(width: int, height: int, cells: dict[tuple[int, int], str]) -> str:
    """The map text for ``cells`` (``(x, y) -> character``), ring included."""
    ring = BORDER * (width + 2)
    rows = [ring]
    for y in range(height):
        rows.append(BORDER + "".join(cells.get((x, y), EMPTY) for x in range(width)) + BORDER)
    rows.append(ring)
    return "\n".join(rows)


def character_of(kind: str, token: str) -> str | None:
    """The Keke character for a piece, or None when the key has none."""
    for letter, noun in NOUNS.items():
        if noun == token:
            return letter if kind == "object" else letter.upper()
    if kind == "word":
        for digit, word in WORDS.items():
            if word == token:
                return digit
    return None
