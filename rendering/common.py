"""Shared drawing helpers: the shipped fonts (Latin and Cyrillic), player colours, PNG encoding."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

# Player colours by seat: the Okabe-Ito palette (black lifted a little), which keeps every pair at least 12
# CIEDE2000 apart for normal vision and under simulated protanopia, deuteranopia and tritanopia (tested in
# tests/rendering/test_colour_vision.py). Renderers also draw an initial or a shape: colour is never the only cue.
PLAYER_COLORS: dict[str, tuple[int, int, int]] = {
    "red": (213, 94, 0),  # vermilion
    "blue": (0, 114, 178),
    "green": (0, 158, 115),  # bluish green
    "yellow": (240, 228, 66),
    "black": (40, 40, 40),
    "purple": (204, 121, 167),  # reddish purple
}
COLOR_ORDER: tuple[str, ...] = tuple(PLAYER_COLORS)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def png_bytes(image: Image.Image, optimize: bool = False) -> bytes:
    """Encode as PNG; compress_level 6 by default keeps encoding fast for large boards."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=optimize, compress_level=6)
    return buffer.getvalue()


def flat(image: Image.Image) -> Image.Image:
    """A flat drawing in 255 colours: nothing visible is lost and the PNG encodes several times faster."""
    return image.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def flat_png(image: Image.Image) -> bytes:
    """PNG of the flattened image at compression level 1 (a third faster than level 6, ~40% more bytes)."""
    buffer = io.BytesIO()
    flat(image).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def fit_text(draw: ImageDraw.ImageDraw, text: str, face: Any, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels in ``face``."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


RGB = tuple[int, int, int]
HEADER_HEIGHT = 44  # px of the one-line header on top of every board (readable at 550 px wide)


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour`` (relative luminance)."""
    r, g, b = colour
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


def seat_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: RGB,
              letter: str) -> None:
    """A seat's mark: a disc of its colour with a dark rim and the player's initial, so that colour is never
    the only cue (colour-blind players read the letter)."""
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=(20, 20, 20),
                 width=max(1, round(radius / 6)))
    face = font(max(8, round(radius * 1.25)), bold=True)
    draw.text((x, y), letter[:1].upper() or "?", font=face, fill=text_on(colour), anchor="mm")


def header_strip(width: int, text: str, mark: tuple[RGB, str] | None = None, detail: str = "",
                 background: RGB = (250, 247, 240), foreground: RGB = (25, 25, 25),
                 scale: float = 1.0) -> Image.Image:
    """The one-line header every board starts with: ``mark`` (the colour and initial of the seat to move),
    ``text`` in bold (who is to move, or the result) and ``detail`` after it (what the last player did and
    scored), cut to the width. ``scale`` multiplies every size, for an image wider than it is seen inline
    (a board 1,100 px wide shown 550 px wide wants ``scale=2`` to keep 18 px text)."""
    height = round(HEADER_HEIGHT * scale)
    image = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(image)
    x = 10 * scale
    if mark is not None:
        seat_mark(draw, (x + 14 * scale, height / 2), 14 * scale, mark[0], mark[1])
        x += 36 * scale
    bold, plain = font(round(20 * scale), bold=True), font(round(18 * scale))
    head = fit_text(draw, text, bold, width - x - 10 * scale)
    draw.text((x, height / 2), head, font=bold, fill=foreground, anchor="lm")
    x += draw.textlength(head, font=bold)
    if detail and x < width - 60 * scale:
        draw.text((x, height / 2), fit_text(draw, "  ·  " + detail, plain, width - x - 10 * scale), font=plain,
                  fill=foreground, anchor="lm")
    draw.line((0, height - 1, width, height - 1), fill=(200, 195, 185), width=max(1, round(scale)))
    return image
