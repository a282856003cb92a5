"""The soak test in CI: 2,000 random author actions over four seeds, invariants after each (issue 19).

``RULEGRID_SOAK_ACTIONS`` changes the budget; ``bench/bench_soak.py`` runs longer.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.editor.soak import Soak
from tests.support import PACKS_DIR

SEEDS = (11, 23, 37, 41)
BUDGET = int(os.environ.get("RULEGRID_SOAK_ACTIONS", "2000"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_random_author_actions_keep_every_invariant(make_window, dialogs, tmp_path, seed):
    pack = tmp_path / "tutorial.json"
    shutil.copy(PACKS_DIR / "tutorial.json", pack)
    window = make_window(pack)
    soak = Soak(window, dialogs, tmp_path, seed)
    soak.run(BUDGET // len(SEEDS))
    assert sum(soak.counts.values()) == BUDGET // len(SEEDS)
    assert soak.checks >= BUDGET // len(SEEDS)  # the history checked after every action
    assert soak.counts["paint"] > 0
