"""Pillow renderers: a game's public view -> PNG. ``rendering.<game>.render(view, locale)`` when the
game has one, else a plain fallback card."""

from __future__ import annotations

import importlib
import json
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import font, png_bytes


def render_board(game_key: str, view: dict[str, Any], locale: str = "en", names: list[str] | None = None) -> bytes:
    """The game's board image; player ``names`` go to renderers that show them."""
    try:
        module = importlib.import_module(f"rendering.{game_key}")
    except ModuleNotFoundError:
        return render_fallback(view)
    if hasattr(module, "render_board"):
        return module.render_board(view, names=names, locale=locale)
    if hasattr(module, "render"):
        return module.render(view, locale=locale)
    return render_fallback(view)


def render_fallback(view: dict[str, Any]) -> bytes:
    """A plain card with the public view as text, for games without a renderer yet."""
    text = json.dumps(view, ensure_ascii=False, indent=1)[:3000]
    image = Image.new("RGB", (900, 60 + 16 * min(text.count("\n") + 1, 120)), (250, 247, 240))
    ImageDraw.Draw(image).multiline_text((20, 20), text, font=font(13), fill=(30, 30, 30))
    return png_bytes(image)
