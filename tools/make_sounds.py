"""Synthesise the beat sounds in ``resources/sounds/`` (16-bit mono WAV, 22,050 Hz).

Run: ``python tools/make_sounds.py`` writes every sound; ``--check`` compares the
shipped files with what this script makes and exits 1 when one differs by more
than one step of a sample (libm may round a sine differently on another machine).

Every sample comes from the formulas below (sines, a seeded noise generator,
envelopes): no recording is involved, so the sounds are Rulegrid's own work
under the project's licence. They are short (15-350 ms) and small (about 1-16 KB
each) because a beat comes every turn and test-play should stay quick to hear.
The editor maps the names authors use most to these files and plays ``beat``
for a step that names no sound (``editor/panels/play/sound.py``).

This lives in ``tools/`` rather than ``bench/`` because it builds shipped files.
"""

from __future__ import annotations

import argparse
import io
import math
import random
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "resources" / "sounds"
RATE = 22_050
PEAK = 0.5  # of full scale: leaves room when two beats overlap
FULL = 32_767

Signal = Callable[[float], float]


def _sine(freq: float) -> Signal:
    return lambda t: math.sin(2 * math.pi * freq * t)


def _sweep(start: float, end: float, length: float) -> Signal:
    """A sine whose pitch glides from ``start`` to ``end`` Hz over ``length`` seconds."""
    k = (end - start) / length

    def signal(t: float) -> float:
        return math.sin(2 * math.pi * (start * t + k * t * t / 2))

    return signal


def _noise(seed: int, smooth: int = 1) -> Signal:
    """White noise from a seeded generator, averaged over ``smooth`` samples (darker)."""
    rng = random.Random(seed)
    values = [rng.uniform(-1.0, 1.0) for _ in range(RATE)]
    if smooth > 1:
        values = [sum(values[max(0, i - smooth + 1) : i + 1]) / smooth for i in range(RATE)]
        top = max(abs(v) for v in values) or 1.0
        values = [v / top for v in values]
    return lambda t: values[int(t * RATE) % RATE]


def _decay(rate: float) -> Signal:
    return lambda t: math.exp(-rate * t)


def _render(length: float, signal: Signal, envelope: Signal) -> list[int]:
    """Samples of ``signal * envelope``, with 2 ms fades from and to silence (no click)."""
    count = round(length * RATE)
    fade = round(0.002 * RATE)
    raw = [signal(n / RATE) * envelope(n / RATE) for n in range(count)]
    top = max(abs(v) for v in raw) or 1.0
    samples = []
    for n, value in enumerate(raw):
        edge = min(1.0, n / fade, (count - 1 - n) / fade)
        samples.append(round(value / top * PEAK * FULL * edge))
    return samples


def _mix(*parts: tuple[float, Signal]) -> Signal:
    return lambda t: sum(weight * part(t) for weight, part in parts)


def _swell(length: float) -> Signal:
    """Up then down (a breath of air), peaking at a third of the length."""
    return lambda t: math.sin(math.pi * min(1.0, (t / length) ** 0.6)) ** 2


#: name -> (length in seconds, signal, envelope). ``beat`` is the default sound.
SOUNDS: dict[str, tuple[float, Signal, Signal]] = {
    "beat": (0.09, _mix((1.0, _sweep(740, 520, 0.09)), (0.25, _sine(1480))), _decay(45)),
    "tick": (0.035, _mix((1.0, _sine(2400)), (0.5, _noise(1))), _decay(140)),
    "tock": (0.06, _mix((1.0, _sine(1180)), (0.4, _sine(2950)), (0.3, _noise(2))), _decay(90)),
    "step": (0.08, _mix((1.0, _noise(3, smooth=6)), (0.6, _sweep(190, 110, 0.08))), _decay(55)),
    "click": (0.015, _noise(4), _decay(300)),
    "pop": (0.07, _sweep(900, 280, 0.07), _decay(35)),
    "blip": (
        0.07,
        lambda t: math.copysign(1.0, math.sin(2 * math.pi * 880 * t)) * 0.6,
        lambda t: 1.0 if t < 0.05 else math.exp(-120 * (t - 0.05)),
    ),
    "chime": (
        0.35,
        _mix((1.0, _sine(1046.5)), (0.45, _sine(2888)), (0.2, _sine(5650))),
        _decay(11),
    ),
    "thud": (0.14, _mix((1.0, _sweep(120, 55, 0.14)), (0.3, _noise(5, smooth=12))), _decay(28)),
    "buzz": (
        0.16,
        lambda t: ((110 * t) % 1.0) * 2 - 1 + 0.5 * math.sin(2 * math.pi * 220 * t),
        lambda t: 1.0 if t < 0.12 else math.exp(-80 * (t - 0.12)),
    ),
    "whoosh": (0.22, _noise(6, smooth=4), _swell(0.22)),
    "rest": (0.05, _sine(440), _decay(80)),
}


def samples(name: str) -> list[int]:
    length, signal, envelope = SOUNDS[name]
    return _render(length, signal, envelope)


def wav_bytes(values: list[int]) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(values)}h", *values))
    return buffer.getvalue()


def read_samples(path: Path) -> list[int]:
    """The samples of a 16-bit mono WAV file at :data:`RATE` (else ``ValueError``)."""
    with wave.open(str(path), "rb") as source:
        if (source.getnchannels(), source.getsampwidth(), source.getframerate()) != (1, 2, RATE):
            raise ValueError(f"{path.name}: not 16-bit mono at {RATE} Hz")
        frames = source.readframes(source.getnframes())
    return list(struct.unpack(f"<{len(frames) // 2}h", frames))


def differs(path: Path, name: str) -> bool:
    """Whether the file is not what :func:`samples` makes (one step of rounding allowed)."""
    if not path.is_file():
        return True
    try:
        shipped = read_samples(path)
    except (ValueError, EOFError, wave.Error):
        return True
    made = samples(name)
    if len(shipped) != len(made):
        return True
    return any(abs(a - b) > 1 for a, b in zip(shipped, made, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    if args.check:
        stale = [n for n in SOUNDS if differs(FOLDER / f"{n}.wav", n)]
        extra = sorted(p.name for p in FOLDER.glob("*.wav") if p.stem not in SOUNDS)
        for name in stale:
            print(f"{name}.wav differs from what tools/make_sounds.py makes")
        for name in extra:
            print(f"{name} is not made by tools/make_sounds.py")
        return 1 if stale or extra else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in SOUNDS:
        data = wav_bytes(samples(name))
        (FOLDER / f"{name}.wav").write_bytes(data)
        print(f"{name}.wav: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
