"""Measuring text as Discord shows it inline: an image is scaled to about 550 px wide in the channel."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

from PIL import Image, ImageDraw

INLINE_WIDTH = 550


@contextmanager
def recorded_text() -> Iterator[list[tuple[str, int]]]:
    """Every text drawn meanwhile, with its font size in pixels."""
    drawn: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any,
             **kwargs: Any) -> None:
        drawn.append((str(text), int(getattr(font, "size", 10))))
        original(self, xy, text, fill, font, *args, **kwargs)

    with patch.object(ImageDraw.ImageDraw, "text", text):
        yield drawn


def smallest_inline_text(render: Callable[[], bytes]) -> tuple[float, str]:
    """(size in inline pixels, text) of the smallest non-blank text ``render`` draws on its PNG."""
    with recorded_text() as drawn:
        png = render()
    width = Image.open(io.BytesIO(png)).width
    scale = min(1.0, INLINE_WIDTH / width)  # Discord does not enlarge a narrow image
    size, text = min((size, text) for text, size in drawn if text.strip())
    return size * scale, text
