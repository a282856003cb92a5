"""The editor's garbage-collector and interpreter policy, in one place.

Python runs one thread at a time, and its cyclic garbage collector pauses every
thread while it walks the heap. A large pack is millions of objects, so each rule
here keeps the window from standing still:

- :func:`share_interpreter_fairly`: a busy background thread hands the interpreter
  back to the UI thread within :data:`SWITCH_INTERVAL`;
- :func:`collector_paused`: a step of background work runs with the collector off,
  so its temporaries die young by reference counting and never push Python into a
  full pass over the whole heap;
- :func:`freeze_if_large`: what a step made that lives as long as the pack (what a
  save keeps, a check's reports) is frozen, never walked again;
- :func:`adopt_still`: an opened pack is frozen whole once adopted, after the pack
  it replaces is thawed and collected once; :func:`thaw` lets a closed window go.

The scheduler (:mod:`editor.tasks.scheduler`) and the work it runs are the only
users; nothing else in the editor calls ``gc`` or ``sys.setswitchinterval``.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Callable, Iterator

#: How long a thread may keep the interpreter while another waits for it. Python's
#: default, 5 ms, lets a busy task hold the UI thread back several milliseconds at
#: every timer tick and repaint. The UI thread gives the interpreter up at each call
#: into Qt and waits up to this long to get it back, many times in one repaint: at
#: 1 ms a save of 10,000 levels still held the window 18-29 ms (8-12 ms of its own
#: work); at 0.2 ms 13-18 ms, the save no slower.
SWITCH_INTERVAL = 0.0002


def share_interpreter_fairly() -> None:
    """Make a busy background thread hand the interpreter back within ``SWITCH_INTERVAL``."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


_paused = 0
_paused_lock = threading.Lock()


#: From how many levels a pack's long-lived data (the pack, what a save keeps, a check's
#: reports) is frozen for the collector (``gc.freeze``): below it a full collection is
#: short, and nothing cyclic should wait for the next open to be freed.
FREEZE_FROM_LEVELS = 1_000


def freeze_if_large(levels: int) -> None:
    """Freeze what a step over ``levels`` levels kept, if the pack is large.

    Call it at the end of a step under :func:`collector_paused` whose results live
    as long as the pack (what a save keeps, a check's reports and rows). Left young,
    the first collection after the step walks them all at once with the interpreter
    held (0.07-0.23 s on 10,000 levels, the window frozen meanwhile); frozen like the
    pack itself, they are never walked, and reference counting still frees them.
    """
    if levels >= FREEZE_FROM_LEVELS:
        gc.freeze()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Keep Python's cyclic garbage collector off during one step of a task.

    A step's temporaries live as long as the step, long enough for the young
    collections to promote them to the oldest generation; enough of them push
    Python into a full pass over the whole heap, which pauses every thread (the
    UI thread of a 1,000-level pack for a quarter of a second). With the collector
    off, they die young by reference counting and never reach it. Keep each step
    short: nothing cyclic is collected meanwhile. Nested and concurrent uses count.
    """
    global _paused
    with _paused_lock:
        _paused += 1
        if _paused == 1:
            gc.disable()
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0:
                gc.enable()


def adopt_still(replace: Callable[[], None]) -> None:
    """Replace the open pack, then keep the collector from walking it again and again.

    A pack lives as long as it is open, and a large one is millions of objects:
    each of Python's full collections walks them all and pauses the window (1.6 s
    during a save of 10,000 levels). Frozen (``gc.freeze``), they are never walked;
    what they free by reference counting is still freed. Only cycles among them
    wait: so the pack being replaced is thawed and collected first, once, while
    the author waits for the pack they asked for anyway.
    """
    thawed = gc.get_freeze_count() > 0
    gc.unfreeze()
    replace()
    if thawed:
        gc.collect()  # the replaced pack's cycles
    gc.freeze()


def thaw() -> None:
    """Let the collector walk everything again, when a window closes or is destroyed.

    A closed window's pack and widgets were frozen by :func:`adopt_still` while it
    was open; frozen, their cycles would never be freed, and every window a host
    (a test run, a script) builds and closes would stay in memory.
    """
    gc.unfreeze()
