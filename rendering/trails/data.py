"""Access to the engine's tile table (imported lazily so the renderer loads even before a game starts)."""

from __future__ import annotations

from typing import Any


def tile_types() -> dict[str, Any]:
    from games.trails.tiles import TILE_TYPES

    return TILE_TYPES
