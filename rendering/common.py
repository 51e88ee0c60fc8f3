"""Shared drawing helpers: the shipped fonts (Latin and Cyrillic), player colours, PNG encoding."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

# Player colours by seat, chosen to stay distinct for the common colour-vision deficiencies;
# renderers also draw a letter or shape so colour is never the only cue.
PLAYER_COLORS: dict[str, tuple[int, int, int]] = {
    "red": (213, 62, 79),
    "blue": (50, 136, 189),
    "green": (102, 189, 99),
    "yellow": (254, 224, 89),
    "black": (40, 40, 40),
    "purple": (153, 112, 171),
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


def fit_text(draw: ImageDraw.ImageDraw, text: str, face: Any, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels in ``face``."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"
