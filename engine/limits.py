"""Every size limit of the engine, in one place, each with the reason for its value.

Three kinds of limit live here:

* **format limits**: part of the pack format. The pydantic models use them, so the
  generated JSON Schemas (``schemas/*.schema.json``) carry them too, and a pack
  that passes them is valid everywhere;
* **reading limits**: how much of a file or a document is read or walked at all,
  so hostile or broken input costs bounded time and memory before any check runs;
* **payload limits**: a share payload is a stranger's text, checked the moment it
  is pasted (before its reader has decided anything), so it gets a tighter *work*
  budget than a file on the author's own disk. Those names start with
  ``MAX_PAYLOAD_`` so that a payload cap is never mistaken for a format cap.

docs/validation.md and docs/share-format.md list the values; docs/decisions.md
says why a payload may hold fewer levels than a pack file.
"""

from __future__ import annotations

# ------------------------------------------------------------------ format limits

#: Columns and rows of a level. Genre levels are under 40 wide; 128 keeps a whole
#: board readable on one screen at 8 px a cell and a cell index below 2**14.
MAX_GRID_SIZE = 128
#: Entities in one level: every cell of the largest board stacked more than once.
#: Real levels hold a few hundred; at about 80 µs of validation each in the worst
#: case, one level still validates in under two seconds.
MAX_ENTITIES = 20_000
#: Levels in one pack file. A file is the author's own: at about 0.8 ms for a
#: 60-entity level (bench/bench_validate.py) the largest pack loads in under ten
#: seconds, and the largest published level sets have a few hundred levels.
MAX_LEVELS = 10_000
#: Automata in one level. Each needs its own property word and all of them act on
#: every beat, so their number multiplies the cost of a turn; 64 is far beyond a
#: level a player could follow.
MAX_AUTOMATA = 64
#: Steps in one automaton pattern. Patterns are written by hand; 256 keeps
#: ``phase`` below 256 (one byte in snapshots and in the solver's state key).
MAX_PATTERN_STEPS = 256
#: Mechanics in one level. Only ``frail`` exists and it may appear once; 8 leaves
#: room for future mechanic types while bounding the list before it is walked.
MAX_MECHANICS = 8
#: Nouns a pack declares. The palette lists them all; Baba Is You itself has about
#: 200 kinds of object and the Keke classics use 11, so 1,000 never binds a real
#: pack, while a map of 700,000 nouns (4 GB in the editor) is refused unread.
MAX_NOUNS = 1_000
#: Entries of the frail mechanic's ``leaves`` map: it maps nouns to nouns, so as many as a pack
#: may declare.
MAX_LEAVES = MAX_NOUNS
#: Moves in a level's stored solution: a thousand times the longest human
#: solution of the Keke corpus (100 moves), so no real solution is ever refused,
#: while a tool replaying it from a file still finishes.
MAX_SOLUTION_LENGTH = 100_000
#: Reference solutions of one level (known solutions kept beside the intended one,
#: such as a longer human solution). Each is replayed by the lint like the intended
#: solution, under the same work budget; a handful is what a level's history holds
#: (the Keke classics keep at most one), 16 bounds the list before it is walked.
MAX_REFERENCES = 16
#: Largest entity id: a signed 32-bit integer, so tools in other languages (C#,
#: JavaScript typed arrays, SQLite) hold ids without loss.
MAX_ENTITY_ID = 2**31 - 1
#: Pack, level and automaton ids. An id becomes a file name on install and a label
#: in every problem: 64 stays readable on one line and far below every file
#: system's 255-byte name limit.
MAX_ID_LENGTH = 64
#: Word tokens (BABA, TICK). A word is drawn inside one cell; past 32 characters
#: it is unreadable at any zoom.
TOKEN_MAX_LENGTH = 32
#: Cue and sound names of automaton steps: short keys into an asset table.
MAX_CUE_NAME_LENGTH = 32
#: Titles and author names: one line in the level list and the window title.
MAX_TITLE_LENGTH = 200
#: A pack's description: a few paragraphs, shown in a tooltip or an about box.
MAX_DESCRIPTION_LENGTH = 5_000
#: A noun's glyph: drawn inside one cell, so one or two characters.
MAX_GLYPH_LENGTH = 2

# ----------------------------------------------------------------- reading limits

#: Bytes read from one pack file. A pack at the level limit with ordinary levels
#: (60 entities, one 60-byte line each) is about 36 MB; reading stops one byte
#: past this, so a huge file costs bounded memory (only regular files are read).
MAX_PACK_BYTES = 64 * 2**20
#: Fields of one record (a pack, a level, an entity, a step...). The largest has 9;
#: every other field is an error, so a record with more than 32 is refused as a
#: whole (one problem) instead of having each unknown field reported.
MAX_RECORD_FIELDS = 32
#: Problems one check lists. Past it a checker keeps counting (or, for schema
#: errors, which cost about 70 µs each to explain, only notes which levels fail),
#: and one more problem says how many were left out: a million faults must not cost
#: a million records, gigabytes and three million printed lines. An author fixes
#: problems from the top; a thousand is more than one sitting's worth.
MAX_PROBLEMS = 1_000
#: Nesting of a JSON document. A pack nests 7 deep (pack, levels, level, automata,
#: automaton, pattern, step) and a share payload 9; 32 is far above any real
#: document and far below Python's recursion limit, so no recursive walk overflows.
MAX_DEPTH = 32
#: Numbers in a document handed over from Python: beyond ±2**63 no value can be
#: meant (every bound of the format is far smaller), and huge ints cost quadratic
#: time to convert to text.
MAX_MAGNITUDE = 2**63
#: Units of rule reading one board may cost: a unit is one word the parser puts in
#: a candidate path, a sentence or a rule record, so it bounds both the search and
#: the size of the rule list (engine/rules.py). Every Keke level needs at most 48,
#: a 64x64 board of three-word sentences across and down 21,210: the budget is
#: 12 times that. Stacked words can make the count exponential; the parser counts
#: before it builds, and a board at the budget reads in about 0.2 s
#: (docs/decisions.md, bench/bench_hostile.py).
PARSE_BUDGET = 250_000
#: Units of rule reading the initial boards of one pack may cost together. Each
#: board fits :data:`PARSE_BUDGET`, but a megabyte of small boards near it would
#: take a minute to check; validation only counts (about 0.1 µs a unit), so this is
#: half a second at most. Ten thousand Keke-sized levels need 480,000; 235 boards
#: as dense as the 64x64 one above still fit.
PACK_PARSE_BUDGET = 5_000_000

#: Units of rule reading restoring one snapshot may cost: every position of its
#: history is read (positions with the same words once). Ten boards at the parse
#: budget, about two seconds; a thousand-move history of a Keke level needs
#: about 50,000.
SNAPSHOT_PARSE_BUDGET = 10 * PARSE_BUDGET

# ----------------------------------------------------------------- payload limits

#: Characters of payload text. Payloads are pasted through clipboards and chat;
#: 8 MiB carries the largest payload the other limits allow with room to spare.
MAX_PAYLOAD_CHARS = 8 * 2**20
#: Bytes of a payload's inflated JSON: what a pack file may hold (a payload is a
#: pack), enforced while inflating so a compression bomb stops here.
MAX_PAYLOAD_JSON_BYTES = MAX_PACK_BYTES
#: ``{`` plus ``[`` bytes in a payload's JSON. An entity is one object, so the
#: entity limit needs 60,000; 150,000 leaves room for levels, steps and records.
#: With the next limit it bounds the parser's memory, which bytes alone do not.
MAX_PAYLOAD_CONTAINERS = 150_000
#: ``,`` plus ``:`` bytes in a payload's JSON: about nine per entity at the entity
#: limit, with the same headroom.
MAX_PAYLOAD_VALUES = 1_500_000
#: Levels in one payload. Tighter than :data:`MAX_LEVELS` on purpose: a payload is
#: validated and replayed as soon as it is pasted, so its work must end in
#: seconds, while a file of 10,000 levels is the author's own and may take longer.
MAX_PAYLOAD_LEVELS = 1_000
#: Entities over all levels of one payload: about 80 µs of validation each, so
#: validation ends within about five seconds.
MAX_PAYLOAD_ENTITIES = 60_000
#: Replay records in one payload (one per level at the level limit).
MAX_PAYLOAD_REPLAYS = 1_000
#: Replay work in one payload: the sum over records of (moves + 1) x the level's
#: entities. At about 11 µs per entity-move, re-running every replay takes at most
#: about 1.7 s: a payload of a few kilobytes must not cost more than that (it was
#: 1,000,000, eleven seconds, until issue 20). Every solution of the 113 Keke
#: classics needs 62,397. Since issue 39 a level's entities count once more for each
#: of its automata (each may move all of them every beat), so this count, made
#: before any replay runs, refuses 64 automata over 19,000 carriers at once; the
#: replays then run under :data:`MAX_PAYLOAD_WORK`.
MAX_PAYLOAD_REPLAY_WORK = 150_000
#: Units of rule reading (see :data:`PARSE_BUDGET`) a payload's replays and
#: snapshot may cost together. Every position they reach is read, so a level that
#: fits the parse budget could still be pushed into costly boards thousands of
#: times; at about a microsecond a unit this is half a second. Replaying every
#: solution of the 113 Keke classics needs 47,205.
MAX_PAYLOAD_PLAY_UNITS = 500_000
#: Positions plus entity records of a payload's snapshot (current and history):
#: restoring one costs about what validating an entity does, like the entity limit.
MAX_PAYLOAD_SNAPSHOT_RECORDS = 60_000

# ----------------------------------------------------------- Keke level files
#: Bytes of a Keke Competition level file: the largest published one is 0.2 MiB.
MAX_KEKE_FILE_BYTES = 8 * 2**20
#: Levels in one Keke file: the largest published set has 200.
MAX_KEKE_LEVELS = 2_000
#: Moves in one recorded Keke solution: the longest published one has 240.
MAX_KEKE_SOLUTION = 10_000
#: Replays are the costly part of an import. A move costs about 5 µs per entity on
#: the board plus the turn's fixed cost (about ten entities' worth), so the sum over
#: levels of moves x (entities + 10) bounds an import's time: 4,000,000 is 20-30 s;
#: the largest published file needs 540,000.
MAX_KEKE_REPLAY_WORK = 4_000_000

# ----------------------------------------------------------------- preview limits

#: Beats an automaton preview looks ahead (``Game.preview_automata``). A pattern
#: repeats, so past its length a preview only retraces; 64 covers every pattern
#: an author can follow on screen.
MAX_PREVIEW_BEATS = 64
#: Carriers one preview walks, over all automata: each walk costs up to
#: ``beats`` push chains, so this bounds a preview of any board to milliseconds.
MAX_PREVIEW_CARRIERS = 64

# ------------------------------------------------------------------- work budgets
# Running the rules is counted in work units (engine.play.work): one entity handled
# by one phase of a turn, weighted so a unit costs under a microsecond on every board
# measured (0.1-0.9 µs, docs/benchmarks.md). A check that
# plays turns for a stranger or for an author runs under a total and a cap per turn;
# past either it stops with one located line (docs/validation.md, "Work budgets").

#: Units every turn costs whatever its size: building the event and the next frame
#: and asking whether the player still controls an object cost about what twenty
#: entities do.
TURN_WORK_BASE = 20
#: Units one turn may cost under any budget (a quarter of a raised total when that
#: is more): about a second. A turn of bench/bench_turn.py's 64x64 boards (5,000
#: entities, a walker, a clock) needs 100-140 units; 5,000 objects the player moves walking
#: together 87,000, 19,906 of them 350,000; 64 automata over 19,000 carriers 26
#: million, which took 16 s before it was counted.
TURN_WORK_CAP = 1_000_000
#: Units ``rulegrid play`` may spend on one move string by default (``--budget``):
#: about two seconds of turns, as much again to print their events. A 1 KB level
#: plays about 36,000 moves; every Keke solution together needs 151,212.
PLAY_WORK_BUDGET = 2_000_000
#: Moves in one ``rulegrid play`` string: as many as a stored solution may have.
MAX_PLAY_MOVES = MAX_SOLUTION_LENGTH
#: Units the lint may spend replaying intended solutions: per level, and in all for
#: one check of a pack (``rulegrid validate --lint --budget``, the editor's
#: ``work/lint_budget`` setting). About two seconds; every solution of the 113 Keke
#: classics together needs 151,212.
LINT_WORK_BUDGET = 2_000_000
#: Units a payload's replays may cost when they are run (the count before they run
#: is :data:`MAX_PAYLOAD_REPLAY_WORK`): about half a second, fixed, because a payload
#: is a stranger's and is checked the moment it is pasted; encoding runs each
#: replay under the same budget. The 113 Keke solutions need 151,212.
MAX_PAYLOAD_WORK = 500_000
#: Units the editor's solution pictures (an animated GIF or APNG of the intended
#: solution, ``rulegrid-editor render --solution``) may spend replaying it: as much
#: as the lint may, since it replays the same moves. A turn in the play view is
#: bounded by :data:`TURN_WORK_CAP` alone (about a second on the UI thread, where a
#: hostile level's turn took 19 s).
PICTURE_WORK_BUDGET = LINT_WORK_BUDGET

# ------------------------------------------------------------ trusted pack folders
#: Python files one trusted pack folder may hold: trust pins each (engine.packs.trusted),
#: and a folder with more (a virtual environment, a checkout) is refused, not walked.
#: A generated pack needs ``pack.py`` and a few helpers.
MAX_TRUSTED_FILES = 1_000

# ------------------------------------------------------- pack file pre-scan (issue 39)

#: ``{`` plus ``[`` bytes in a pack file, counted before it is parsed
#: (:mod:`engine.packs.jsonscan`): a two-byte ``{}`` becomes a 64-byte dictionary,
#: so a 64 MiB file of them was 1.6 GB before any check ran. A pack at the level
#: limit with ordinary levels holds about 620,000, one entity-dense enough to fill
#: the byte cap about 1,000,000.
MAX_PACK_CONTAINERS = 1_200_000
#: ``,`` plus ``:`` bytes in a pack file, counted with the containers: every value
#: but the first of a container costs one, and no value costs the parser more
#: than about 60 bytes, so with the containers the parse stays under 1 GB. An
#: entity needs ten; a pack at the level limit with ordinary levels about 6,100,000.
MAX_PACK_VALUES = 8_000_000
