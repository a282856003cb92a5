"""Default noun colours stay apart under the common forms of colour blindness."""

from __future__ import annotations

import itertools
import math

import pytest

import engine

# Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
SIMULATIONS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(color: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    rgb = [_linear(int(color[i : i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (
        max(0.0, min(1.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


@pytest.mark.parametrize("vision", SIMULATIONS)
def test_every_pair_of_default_colours_stays_apart(vision: str) -> None:
    matrix = SIMULATIONS[vision]
    closest = min(
        math.dist(_lab(a, matrix), _lab(b, matrix))
        for a, b in itertools.combinations(engine.NOUN_COLORS, 2)
    )
    assert closest >= 13, f"two default colours are only {closest:.1f} ΔE apart for {vision}"


def test_a_nouns_default_colour_is_stable_and_from_the_palette() -> None:
    assert engine.default_noun_color("GOOP") == engine.default_noun_color("GOOP")
    assert {engine.default_noun_color(f"N{i}") for i in range(200)} == set(engine.NOUN_COLORS)
