"""The games the bot knows. Adding a game is one line here: key -> "module:attribute"."""

from __future__ import annotations

import importlib
from functools import cache

from games.core import AnyGame

_GAMES: dict[str, str] = {
    "trails": "games.trails:GAME",
    "deole": "games.deole:GAME",
}


def game_keys() -> list[str]:
    return list(_GAMES)


def has(key: str) -> bool:
    return key in _GAMES


def module_name(key: str) -> str:
    """The module (normally the game's package) that holds the game; its ``locales/`` has its texts."""
    return _GAMES[key].partition(":")[0]


@cache
def get(key: str) -> AnyGame:
    """The game registered under ``key``; ``KeyError`` if there is none."""
    module_name, _, attribute = _GAMES[key].partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def register(key: str, target: str) -> None:
    """Register a game at run time (tests use this for their small games)."""
    _GAMES[key] = target
    get.cache_clear()
