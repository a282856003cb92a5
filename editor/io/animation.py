"""Writing pictures: PNG, animated GIF and APNG, through Pillow.

Qt draws the frames; Pillow encodes them (a well-kept encoder rather than one of
our own). Files are written whole or not at all (``engine.write_atomic``).

A GIF has at most 256 colours, so every frame is mapped to ONE palette made from
a sample of the frames (the most frequent colours: the tiles' own), without
dithering: colours stay true and do not shimmer between frames. A GIF has no partial
transparency, so GIFs are always drawn on the themed background.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from PIL import Image
from PySide6.QtGui import QImage

import engine

Format = Literal["png", "gif", "apng"]
#: Frames sampled for the GIF palette (first, last and evenly between).
PALETTE_SAMPLES = 8


def format_for(path: Path, *, animated: bool) -> Format:
    """The format a file name asks for: ``.gif``, or ``.png`` (APNG when animated).

    Raises:
        ValueError: another extension.
    """
    suffix = path.suffix.lower()
    if suffix == ".gif":
        return "gif"
    if suffix in (".png", ".apng"):
        return "apng" if animated else "png"
    raise ValueError(f"{path.name}: pictures are written as .png or .gif")


def to_pil(image: QImage) -> Image.Image:
    """An RGBA copy of a Qt image (straight, not premultiplied, alpha)."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    data = bytes(rgba.constBits())
    return Image.frombuffer(
        "RGBA", (rgba.width(), rgba.height()), data, "raw", "RGBA", rgba.bytesPerLine(), 1
    ).copy()


def encode(
    frames: Sequence[QImage], durations: Sequence[int] = (), *, kind: Format = "png"
) -> bytes:
    """The file's bytes: one PNG, or an animation of ``frames`` (looping forever)."""
    if not frames:
        raise ValueError("no frames to write")
    images = [to_pil(frame) for frame in frames]
    out = io.BytesIO()
    if kind == "png":
        images[0].save(out, "PNG", optimize=True)
        return out.getvalue()
    times = list(durations) or [100] * len(images)
    if kind == "apng":
        images[0].save(
            out,
            "PNG",
            save_all=True,
            append_images=images[1:],
            duration=times,
            loop=0,
            disposal=0,
            blend=0,
        )
        return out.getvalue()
    palette = _palette(images)
    indexed = [
        image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE) for image in images
    ]
    indexed[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=times,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


def _palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame: the 256 most frequent colours of a strip of samples.

    Tiles are flat colours, so the most frequent colours are exactly the tile and
    board colours (a GIF keeps them true); only rare anti-aliased edge pixels map
    to their nearest neighbour.
    """
    count = len(images)
    step = max(1, PALETTE_SAMPLES - 1)
    picks = sorted({round(i * (count - 1) / step) for i in range(PALETTE_SAMPLES)})
    width, height = images[0].size
    strip = Image.new("RGB", (width, height * len(picks)))
    for row, index in enumerate(picks):
        strip.paste(images[index].convert("RGB"), (0, row * height))
    found = strip.getcolors(strip.width * strip.height) or []
    common = [color for _, color in sorted(found, key=lambda pair: -pair[0])[:256]]
    flat = [int(channel) for color in common if isinstance(color, tuple) for channel in color]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + flat[:3] * (256 - len(common)))
    return palette


def write(path: Path, data: bytes) -> Path:
    """Write a picture file whole or not at all (replacing an older one)."""
    return engine.write_atomic(path, data)
