"""Pillow renderers: a game's view -> PNG, by the renderer its registry entry names."""

from __future__ import annotations

import importlib
import json
from typing import Any

from PIL import Image, ImageDraw

from games import registry
from rendering.common import font, png_bytes


def render_board(game_key: str, view: dict[str, Any], locale: str = "en", names: list[str] | None = None) -> bytes:
    """The game's board image (or a seat's private one, from its view); player ``names`` are shown."""
    return registry.renderer(game_key)(view, names=names, locale=locale)


def render_details(game_key: str, view: dict[str, Any], locale: str = "en",
                   names: list[str] | None = None) -> list[tuple[str, bytes]]:
    """More public images after the board, as (file name, PNG): what a phone's first image leaves out (e.g.
    Déole's Navigation sheets). The game's renderer module provides them as ``render_details(view, names=None,
    locale="en")``; none by default."""
    module = importlib.import_module(registry.entry(game_key).renderer.partition(":")[0])
    details = getattr(module, "render_details", None)
    if details is None or details is render_details:  # a renderer of this module (the tests' text card)
        return []
    return list(details(view, names=names, locale=locale))


def render_text_card(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> bytes:
    """A plain card with the view as text: the renderer of the tests' small games."""
    text = json.dumps(view, ensure_ascii=False, indent=1)[:3000]
    image = Image.new("RGB", (900, 60 + 16 * min(text.count("\n") + 1, 120)), (250, 247, 240))
    ImageDraw.Draw(image).multiline_text((20, 20), text, font=font(13), fill=(30, 30, 30))
    return png_bytes(image)
