"""A save killed at any moment leaves the old pack or the new one, whole (issue 19 item 8).

A child process saves a large pack through ``engine.save_pack`` and is killed with
SIGKILL after a random delay, 50 times from a fixed seed. After each kill the file
on disk must be exactly the old text or exactly the new text: never a mixture,
never empty, never missing.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

import engine
from tests.support import pack_document


def _big_pack(tag: str, levels: int = 40, per_level: int = 400) -> dict[str, object]:
    document = pack_document(
        *[
            {
                "id": f"{tag}-{n}",
                "width": 64,
                "height": 64,
                "entities": [
                    {"id": i + 1, "kind": "object", "noun": "ROCK", "x": i % 64, "y": i // 64}
                    for i in range(per_level)
                ],
            }
            for n in range(levels)
        ]
    )
    document["title"] = f"pack {tag}"
    return document


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork to start a saving child cheaply")
def test_a_save_killed_at_random_moments_leaves_the_old_or_the_new_pack(tmp_path: Path) -> None:
    target = tmp_path / "pack.json"
    texts = {tag: engine.dump_pack(_big_pack(tag)) for tag in ("old", "new")}
    start = time.perf_counter()
    engine.save_pack(_big_pack("new"), tmp_path / "timing.json")
    one_save = time.perf_counter() - start  # kill anywhere from before to just after a save
    rng = random.Random(19)
    outcomes = {"old": 0, "new": 0}
    for _ in range(50):
        target.write_text(texts["old"], encoding="utf-8")
        pid = os.fork()
        if pid == 0:  # the child: save the new pack, then leave without cleanup
            try:
                engine.save_pack(_big_pack("new"), target)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0, one_save * 1.5))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        on_disk = target.read_text(encoding="utf-8")
        matches = [tag for tag, text in texts.items() if on_disk == text]
        assert matches, f"a mixture of {len(on_disk)} characters after a kill"
        outcomes[matches[0]] += 1
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in {"pack.json", "timing.json"}]
    assert outcomes["old"], outcomes  # the kills landed before the rename ...
    assert outcomes["new"], outcomes  # ... and after it
    # A killed save may leave its hidden temporary file, never anything under another name.
    assert all(n.startswith(".pack.json.") and n.endswith(".tmp") for n in leftovers), leftovers
