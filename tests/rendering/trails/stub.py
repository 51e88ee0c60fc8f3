"""Use the fixture tile table as ``games.trails.tiles`` when the engine module is not in the tree yet."""

from __future__ import annotations

import importlib
import sys
import types


def install_tiles_stub() -> bool:
    """Returns True when the fixture had to stand in for the engine's tile table."""
    try:
        importlib.import_module("games.trails.tiles")
        return False
    except ImportError:
        pass
    from tests.rendering.trails import fixture_tiles

    if "games.trails" not in sys.modules:
        try:
            importlib.import_module("games.trails")
        except ImportError:
            package = types.ModuleType("games.trails")
            package.__path__ = []
            sys.modules["games.trails"] = package
    sys.modules["games.trails.tiles"] = fixture_tiles
    return True
