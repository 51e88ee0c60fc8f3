"""Trails & Fortresses board renderer: ``render_board``, ``render_preview``, ``render_tile``, ``position_labels``."""

from rendering.trails.board import (
    TEXTS,
    board_image,
    position_labels,
    preview_image,
    render_board,
    render_preview,
)
from rendering.trails.sprites import render_tile

__all__ = [
    "TEXTS", "board_image", "position_labels", "preview_image", "render_board", "render_preview", "render_tile",
]
