"""Share payloads as hostile input: corruption, limits, fuzzing, and writing nothing.

A payload is text a stranger pastes, so every test here asks the same question:
does ``decode`` either return a preview or raise one of our located errors, and
never crash, hang, allocate without bound or touch the disk?
"""

from __future__ import annotations

import base64
import builtins
import contextlib
import io
import json
import os
import tempfile
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import share
from engine.cli import main
from engine.limits import MAX_DEPTH
from engine.limits import MAX_PAYLOAD_CHARS as MAX_TEXT_CHARS
from engine.limits import MAX_PAYLOAD_JSON_BYTES as MAX_JSON_BYTES
from engine.share import (
    MAX_ENTITIES,
    MAX_LEVELS,
    MAX_REPLAY_WORK,
    MAX_REPLAYS,
    MAX_SNAPSHOT_RECORDS,
)
from engine.share import checks as share_checks
from engine.share import codec as share_codec
from engine.share.codec import check_structure
from tests.engine.test_share import (
    armour,
    armour_bytes,
    canonical,
    chain_level,
    clock_level,
    demo_pack,
)

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def code_of(text: object) -> str:
    """The code of the error ``decode`` raises (the test fails if it returns)."""
    with pytest.raises(share.ShareError) as info:
        share.decode(text)  # type: ignore[arg-type]
    assert len(info.value.errors) == 1
    assert str(info.value).startswith("<share>")
    return info.value.errors[0].code


def decode_safely(text: str) -> share.SharePreview | None:
    """Decode; only a preview or our own located error is an acceptable outcome."""
    try:
        preview = share.decode(text)
    except engine.ValidationError as exc:  # ShareError is one
        problems = exc.errors
        preview = None
    else:
        problems = list(preview.problems)
    assert all(isinstance(p, engine.Problem) and p.code and p.message for p in problems)
    if preview is None:
        assert problems
        return None
    assert isinstance(preview, share.SharePreview)
    assert preview.ok == (not preview.problems)
    assert (preview.pack is not None) == preview.ok
    return preview


def full_payload() -> str:
    """A small payload using every part of the format: a pack, replays, a snapshot."""
    game = engine.Game(chain_level())
    game.step("R")
    return share.encode(
        engine.load_pack(demo_pack()), replays=[("chain", "RLR"), ("clock", "DR")], snapshot=game
    )


@pytest.fixture(scope="module")
def payload() -> str:
    return share.encode(engine.load_level(chain_level()), replays=["RL"])


# ----------------------------------------------------------------- corruption


def test_every_single_character_change_is_rejected(payload: str) -> None:
    """Exhaustive: every position, every base64url character and a few strangers."""
    original = share.decode(payload)
    assert original.ok
    strangers = " =.:+/\n\té\x00"
    changed = 0
    for index, old in enumerate(payload):
        for new in ALPHABET + strangers:
            if new == old:
                continue
            mutated = payload[:index] + new + payload[index + 1 :]
            try:
                preview = share.decode(mutated)
            except engine.ValidationError:
                changed += 1
                continue
            pytest.fail(f"changing character {index + 1} to {new!r} was accepted (ok={preview.ok})")
    assert changed == len(payload) * (len(ALPHABET) + len(strangers)) - sum(
        c in ALPHABET + strangers for c in payload
    )


def test_every_truncation_and_extension_is_rejected(payload: str) -> None:
    for end in range(len(payload)):
        with pytest.raises(engine.ValidationError):
            share.decode(payload[:end])
    for extra in ALPHABET:
        with pytest.raises(engine.ValidationError):
            share.decode(payload + extra)


def test_surrounding_whitespace_is_tolerated(payload: str) -> None:
    assert share.decode(f"  {payload}\r\n").ok


def test_deflate_ambiguity_is_caught_by_the_tag() -> None:
    """Two zlib streams of the same JSON: the content's SHA-256 cannot tell them apart."""
    raw = canonical(share_codec.seal({"level": chain_level()}))
    fast, small = zlib.compress(raw, 1), zlib.compress(raw, 9)
    assert fast != small
    assert share.decode(armour_bytes(raw, compressed=fast)).ok  # each is valid when tagged
    swapped = fast + share_codec.tag(small)
    text = "rulegrid:1:" + base64.urlsafe_b64encode(swapped).rstrip(b"=").decode("ascii")
    assert code_of(text) == "bad-checksum"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("hello", "bad-prefix"),
        ("Rulegrid:1:AAAA", "bad-prefix"),
        ("rulegrid:x:AAAA", "bad-prefix"),
        ("rulegrid:2:AAAA", "unsupported-version"),
        ("rulegrid:1:AA AA", "bad-base64"),
        ("rulegrid:1:AAAA=", "bad-base64"),
        ("rulegrid:1:AAAAA", "bad-base64"),
        ("rulegrid:1:", "bad-checksum"),
        ("rulegrid:1:AAAAAAAAAAAAAAAAAAAA", "bad-checksum"),
    ],
)
def test_malformed_text(text: str, code: str) -> None:
    assert code_of(text) == code


def test_non_text_is_refused() -> None:
    assert code_of(b"rulegrid:1:AAAA") == "wrong-type"
    assert code_of(None) == "wrong-type"


def test_base64_errors_name_the_character() -> None:
    with pytest.raises(share.ShareError, match=r"character 13 \('\+'\) is not base64url"):
        share.decode("rulegrid:1:A+AA")


@pytest.mark.parametrize(
    ("stream", "code"),
    [
        (b"not zlib at all", "bad-compression"),
        (zlib.compress(b"{}")[:-3], "bad-compression"),
        (zlib.compress(b"{}") + b"extra", "bad-compression"),
    ],
)
def test_broken_compression(stream: bytes, code: str) -> None:
    assert code_of(armour_bytes(b"", compressed=stream)) == code


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"a": 1}', "not-canonical"),  # spaces
        (b'{"b":1,"a":2}', "not-canonical"),  # unsorted keys
        (b'{"a":1,"a":2}', "not-canonical"),  # duplicate keys
        (b'{"a":"\\u00e9"}', "not-canonical"),  # escaped instead of UTF-8
        (b'{"a":"\\ud800"}', "not-canonical"),  # a lone surrogate has no UTF-8
        (b'{"a":1e999}', "not-canonical"),  # infinity
        (b'{"a":NaN}', "invalid-json"),
        (b'{"a":' + b"1" * 5000 + b"}", "invalid-json"),  # integer too long to convert
        (b'{"a":"\xff"}', "invalid-json"),  # not UTF-8
        (b'{"a":', "invalid-json"),
        (b'{"a":"unterminated}', "invalid-json"),
        (b"[1]]", "invalid-json"),
        (b"[]", "wrong-type"),
        (b"{}", "missing-field"),
    ],
)
def test_json_that_is_not_a_canonical_object(raw: bytes, code: str) -> None:
    assert code_of(armour_bytes(raw)) == code


def test_envelope_fields_are_checked() -> None:
    level = chain_level()
    body = {"format": "rulegrid-share", "version": 1, "level": level}
    good = share_codec.digest(body)
    assert code_of(armour({**body, "sha256": "0" * 64}, checksum=False)) == "bad-checksum"
    assert code_of(armour({**body, "sha256": good.upper()}, checksum=False)) == "bad-checksum"
    assert code_of(armour({**body, "sha256": 7}, checksum=False)) == "bad-checksum"
    assert share.decode(armour({**body, "sha256": good}, checksum=False)).ok
    other = {**body, "format": "rulegrid-pack"}
    assert (
        code_of(armour({**other, "sha256": share_codec.digest(other)}, checksum=False))
        == "bad-value"
    )
    later = {**body, "version": 2}
    assert (
        code_of(armour({**later, "sha256": share_codec.digest(later)}, checksum=False))
        == "unsupported-version"
    )


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ({"level": chain_level(), "module": "pack.py"}, "unknown-field"),
        ({"level": chain_level(), "path": "/etc/passwd"}, "unknown-field"),
        ({"level": chain_level(), "pack": demo_pack()}, "bad-content"),
        ({"replays": []}, "bad-content"),
        ({"pack": demo_pack(), "nouns": {}}, "unknown-field"),
        ({"level": chain_level(), "replays": {"a": 1}}, "wrong-type"),
    ],
)
def test_envelope_shape_is_exact(content: dict[str, Any], code: str) -> None:
    assert code_of(armour(content)) == code


def test_code_and_trusted_module_markers_are_only_ever_data() -> None:
    """No field can carry code: the schema forbids every unknown key, nothing is run."""
    doc = demo_pack(trusted=True)
    doc["levels"][0]["build"] = "__import__('os').system('echo pwned')"
    preview = share.decode(armour({"pack": doc}))
    assert {(p.pointer, p.code) for p in preview.problems} == {
        ("/trusted", "unknown-field"),
        ("/levels/0/build", "unknown-field"),
    }
    title = "__import__('os').remove('/')"
    preview = share.decode(armour({"pack": demo_pack(title=title)}))
    assert preview.ok
    assert preview.pack is not None
    assert preview.pack.title == title


def test_control_characters_in_titles_are_shown_escaped() -> None:
    preview = share.decode(armour({"pack": demo_pack(title="evil\x1b[2Jtitle\r")}))
    assert preview.summary.title == "evil\\x1b[2Jtitle\\r"


def test_inputs_that_trip_the_engine_validators_are_refused_not_raised() -> None:
    """Inputs that made engine validators raise something other than a
    ValidationError (found by the fuzz tests); a payload carrying them is refused."""
    pack = demo_pack()
    pack["levels"][0]["entities"][0]["kind"] = []  # unhashable discriminator
    level = clock_level()
    snapshot = engine.Game(level).snapshot()
    snapshot["current"]["entities"][0]["noun"] = [1]  # unhashable noun
    cases = [
        ({"pack": pack}, "/levels/0"),
        (
            {"pack": demo_pack(nouns={**demo_pack()["nouns"], "rock": {"color": "#000000"}})},
            "/nouns",
        ),
        ({"level": level, "nouns": {"rock": {"color": "#000000"}}}, "/nouns"),
        ({"level": level, "snapshot": snapshot}, "/snapshot"),
    ]
    for content, where in cases:
        preview = share.decode(armour(content))
        assert not preview.ok
        assert preview.pack is None
        # located where the engine can tell; a validator that crashed cannot, so says so
        assert all(
            p.pointer.startswith(where) or p.code == "checker-error" for p in preview.problems
        )
        with pytest.raises(share.ShareError):
            preview.install("/nonexistent", confirm=False)


# ----------------------------------------------------------------- limits


def _bomb(size: int, fill: bytes = b"\0") -> bytes:
    """A zlib stream inflating to ``size`` bytes, built without holding them."""
    compressor = zlib.compressobj(9)
    chunk = fill * 2**20
    parts = [compressor.compress(chunk) for _ in range(size // len(chunk))]
    return b"".join(parts) + compressor.flush()


@pytest.mark.parametrize("fill", [b"\0", b"[0,"])
def test_a_compression_bomb_stops_at_the_limit(fill: bytes) -> None:
    stream = _bomb(2 * MAX_JSON_BYTES, fill)
    text = armour_bytes(b"", compressed=stream)
    assert len(text) < MAX_TEXT_CHARS
    tracemalloc.start()
    try:
        assert code_of(text) == "too-large"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MAX_JSON_BYTES + 16 * 2**20  # never the whole 128 MiB


def test_payload_text_length_is_limited() -> None:
    assert code_of("rulegrid:1:" + "A" * MAX_TEXT_CHARS) == "too-large"


def test_deep_nesting_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("json.loads must not see this document")

    deep = b"[" * 100_000 + b"]" * 100_000
    text = armour_bytes(deep)
    monkeypatch.setattr(share_codec.json, "loads", never)
    assert code_of(text) == "too-deep"


def test_nesting_depth_limit_is_exact() -> None:
    check_structure(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    check_structure(b'{"a":' * (MAX_DEPTH - 1) + b"[]" + b"}" * (MAX_DEPTH - 1))
    with pytest.raises(share.ShareError, match="deeper than"):
        check_structure(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    with pytest.raises(share.ShareError, match="deeper than"):
        check_structure(b"[[]," * (MAX_DEPTH + 1) + b"0" + b"]" * (MAX_DEPTH + 1))


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    check_structure(b'["' + b"[" * 1000 + b'\\"[[[", "\\\\", "]]]]"]')
    title = "[" * 199 + "\\"
    preview = share.decode(share.encode(engine.load_pack(demo_pack(title=title))))
    assert preview.ok
    assert preview.summary.title == title


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[" * 10 + b"]" * 9, "do not balance"),
        (b"][", "do not balance"),
        (b'["open', "not terminated"),
        (b"[{}" * 200_000, "objects/arrays"),
        (b"[" + b"0," * 2_600_000 + b"0]", "values"),
    ],
)
def test_structure_limits(raw: bytes, message: str) -> None:
    with pytest.raises(share.ShareError, match=message):
        check_structure(raw)


@pytest.fixture
def no_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits must refuse a payload before any validator or replay runs."""

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("validation ran on a payload over the limits")

    for name in ("pack_problems", "load_level", "run_replay"):
        monkeypatch.setattr(share_checks, name, never)
    monkeypatch.setattr(engine.Game, "from_snapshot", never)


@pytest.mark.usefixtures("no_validation")
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({"pack": demo_pack(levels=[{}] * (MAX_LEVELS + 1))}, "levels"),
        (
            {"pack": demo_pack(levels=[{"entities": [{}] * (MAX_ENTITIES // 2 + 1)}] * 2)},
            "entities",
        ),
        ({"level": chain_level(), "replays": [{}] * (MAX_REPLAYS + 1)}, "replays"),
        (
            {
                "level": chain_level(),
                "replays": [
                    {
                        "level": "chain",
                        "moves": "R" * (MAX_REPLAY_WORK // len(chain_level()["entities"])),
                    }
                ],
            },
            "entity-moves",
        ),
        (
            {"level": chain_level(), "snapshot": {"history": [{}] * MAX_SNAPSHOT_RECORDS}},
            "snapshot",
        ),
    ],
)
def test_work_limits_are_checked_before_validation(content: dict[str, Any], message: str) -> None:
    with pytest.raises(share.ShareError, match=message):
        share.decode(armour(content))


def test_encode_refuses_what_decode_would_refuse() -> None:
    level = engine.load_level(chain_level())
    with pytest.raises(share.ShareError, match="entity-moves"):
        share.encode(level, replays=["RL" * (MAX_REPLAY_WORK // len(level.entities) // 2)])


# ----------------------------------------------------------------- fuzzing

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@pytest.mark.timeout(300)
@FUZZ
@given(
    st.one_of(
        st.text(max_size=300),
        st.from_regex(r"rulegrid:1:[A-Za-z0-9_-]{0,400}", fullmatch=True),
    )
)
def test_fuzz_random_text(text: str) -> None:
    decode_safely(text)


@pytest.mark.timeout(300)
@FUZZ
@given(st.data())
def test_fuzz_mutated_payloads(data: st.DataObject) -> None:
    original = data.draw(st.sampled_from([FULL_PAYLOAD, LEVEL_PAYLOAD]))
    text = original
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(text)))
        char = data.draw(st.sampled_from(ALPHABET + " :=\n\x00é"))
        how = data.draw(st.sampled_from(["replace", "insert", "delete"]))
        tail = text[index + 1 :] if how != "insert" else text[index:]
        text = text[:index] + ("" if how == "delete" else char) + tail
    preview = decode_safely(text)
    assert preview is None or text.strip() == original  # only whitespace around is ignored


@pytest.mark.timeout(300)
@FUZZ
@given(st.binary(max_size=400))
def test_fuzz_inflated_bytes(raw: bytes) -> None:
    """Correctly tagged and compressed: reaches the structure checks and the parser."""
    decode_safely(armour_bytes(raw))


@pytest.mark.timeout(300)
@FUZZ
@given(
    st.one_of(
        json_values,
        st.fixed_dictionaries({"level": json_values}),
        st.fixed_dictionaries({"pack": json_values}),
        st.fixed_dictionaries(
            {"level": st.just(chain_level()), "replays": st.lists(json_values, max_size=3)}
        ),
        st.fixed_dictionaries({"level": st.just(clock_level()), "snapshot": json_values}),
        st.fixed_dictionaries({"level": st.just(clock_level()), "nouns": json_values}),
    )
)
def test_fuzz_sealed_json_documents(content: Any) -> None:
    """Garbage with a correct checksum: only validation stands between it and install."""
    decode_safely(
        armour(content) if isinstance(content, dict) else armour_bytes(canonical(content))
    )


def _paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*here, index))


@pytest.mark.timeout(300)
@FUZZ
@given(st.data())
def test_fuzz_mutated_documents(data: st.DataObject) -> None:
    """A real payload with one value replaced or removed, then sealed again."""
    document = json.loads(json.dumps(FULL_DOCUMENT))
    paths = [p for p in _paths(document) if p and p[0] != "sha256"]
    path = data.draw(st.sampled_from(paths))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        parent[path[-1]] = data.draw(json_values)
    elif isinstance(parent, dict):
        del parent[path[-1]]
    else:
        del parent[path[-1]]
    content = {k: v for k, v in document.items() if k not in ("sha256", "format", "version")}
    preview = decode_safely(armour(content))
    if preview is not None and preview.ok and preview.snapshot is not None:
        preview.restore().step("R")


FULL_PAYLOAD = full_payload()
LEVEL_PAYLOAD = share.encode(engine.load_level(clock_level()), replays=["RD"])
FULL_DOCUMENT = share_codec.from_text(FULL_PAYLOAD)


# ----------------------------------------------------------------- writing nothing


def _tree(root: Path) -> dict[str, tuple[int, int, bytes]]:
    out = {}
    for path in sorted(root.rglob("*")):
        stat = path.lstat()
        content = path.read_bytes() if path.is_file() else b""
        out[str(path.relative_to(root))] = (stat.st_mode, stat.st_mtime_ns, content)
    return out


@contextlib.contextmanager
def no_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Make every way of writing a file fail loudly, and record the attempts."""
    attempts: list[str] = []
    real_open, real_os_open = builtins.open, os.open
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax+"):
            attempts.append(f"open({file!r}, {mode!r})")
            raise AssertionError(f"write attempted: {file}")
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & write_flags:
            attempts.append(f"os.open({path!r})")
            raise AssertionError(f"write attempted: {path}")
        return real_os_open(path, flags, *args, **kwargs)

    def refuse(name: str) -> Any:
        def call(*args: Any, **_kwargs: Any) -> None:
            attempts.append(f"{name}{args!r}")
            raise AssertionError(f"{name} attempted")

        return call

    with monkeypatch.context() as patch:
        patch.setattr(builtins, "open", guarded_open)
        patch.setattr(io, "open", guarded_open)
        patch.setattr(os, "open", guarded_os_open)
        for name in (
            "replace",
            "rename",
            "link",
            "symlink",
            "mkdir",
            "makedirs",
            "unlink",
            "remove",
        ):
            patch.setattr(os, name, refuse(f"os.{name}"))
        patch.setattr(tempfile, "mkstemp", refuse("tempfile.mkstemp"))
        yield attempts


def test_decode_and_an_unconfirmed_install_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    target = tmp_path / "target"
    target.mkdir()
    (target / "other.json").write_text("{}", encoding="utf-8")
    before = _tree(tmp_path)
    text = full_payload()
    with no_writes(monkeypatch) as attempts:
        preview = share.decode(text)
        assert preview.ok
        assert preview.replays
        assert preview.install(target, confirm=False) is None
        assert preview.install(tmp_path / "new", confirm=False) is None
        assert preview.install_path(target) == target / "demo.json"
        preview.restore()
        assert main(["share", "import", text]) == 0
        assert main(["share", "import", text, "--into", str(target)]) == 0
    assert attempts == []
    assert "would install to" in capsys.readouterr().out
    assert _tree(tmp_path) == before


def test_the_guard_catches_a_real_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The write-nothing test above can fail: a confirmed install trips the guard."""
    preview = share.decode(full_payload())
    with no_writes(monkeypatch) as attempts, pytest.raises(AssertionError):
        preview.install(tmp_path, confirm=True)
    assert attempts
