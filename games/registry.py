"""The games the bot knows, each with every part it is made of. Adding a game is writing its parts and one
``GameEntry`` line here (see docs/adding-a-game.md); the bot reads these entries at start, and the contract
suite (tests/test_game_contract.py) checks every entry's parts and names the one that is missing.

Parts are named by import path, not imported, so this module stays in the ``games`` layer: the renderer
lives in ``rendering/`` and the cog in ``cogs/``, which may import the game but not the other way round.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core import AnyGame

Renderer = Callable[..., bytes]  # render_board(view, names=None, locale="en") -> PNG


@dataclass(frozen=True, slots=True)
class GameEntry:
    """Where each part of a game lives.

    - ``engine``: ``"module:attribute"`` of the ``Game`` object (``games/<key>/``).
    - ``renderer``: ``"module:function"``, ``render_board(view, names=None, locale="en") -> bytes`` (a PNG of a
      view: the spectators' for the board post, a seat's own for its private "My hand").
    - ``cog``: the discord.py extension (``cogs/<key>.py``) whose ``setup`` adds the game's typed shortcuts
      (``/trails place``...); ``None``: none (the panel and ``/game move`` play it).
    - ``catalogs``: the package whose ``locales/en.json`` and ``locales/ru.json`` hold the game's texts
      (``event.*``, ``error.*``, ``cmd.*`` for its commands, and the ``/game rules`` card: ``rules.summary``,
      ``rules.play``); the engine's package unless said otherwise.
    - ``presentation``: the module (``presentation/<key>.py``, pure: no discord) that tells a turn as plain
      data, ``flow(state, seat, chosen, locale)`` and ``narrate(events, names, locale)``
      (``presentation/core.py``); a game with it is played with the one panel (``cogs/panel.py``: a Take
      turn button under each board), whatever its ``cog``.
    - ``ai``: the module whose ``LEVELS`` maps AI levels (``easy``, ``normal``, ``hard``) to the game's own
      players (``games/ai.py``: ``Factory``); ``None``, or a level it leaves out: the generic players.
    """

    key: str
    engine: str
    renderer: str
    cog: str | None = None
    catalogs: str | None = None
    ai: str | None = None
    presentation: str | None = None

    @property
    def catalog_package(self) -> str:
        return self.catalogs or self.engine.partition(":")[0]


_ENTRIES: dict[str, GameEntry] = {entry.key: entry for entry in (
    GameEntry("trails", "games.trails:GAME", "rendering.trails:render_board", cog="cogs.trails", ai="games.trails.ai",
              presentation="presentation.trails"),
    GameEntry("deole", "games.deole:GAME", "rendering.deole:render_board", cog="cogs.deole", ai="games.deole.ai",
              presentation="presentation.deole"),
    GameEntry("maple", "games.maple:GAME", "rendering.maple:render_board", cog="cogs.maple", ai="games.maple.ai",
              presentation="presentation.maple"),
    GameEntry("dewan", "games.dewan:GAME", "rendering.dewan:render_board", cog="cogs.dewan", ai="games.dewan.ai",
              presentation="presentation.dewan"),
)}


def game_keys() -> list[str]:
    return list(_ENTRIES)


def entries() -> list[GameEntry]:
    return list(_ENTRIES.values())


def has(key: str) -> bool:
    return key in _ENTRIES


def entry(key: str) -> GameEntry:
    """The parts of the game registered under ``key``; ``KeyError`` if there is none."""
    return _ENTRIES[key]


def module_name(key: str) -> str:
    """The package that holds the game's catalogs (``locales/``)."""
    return _ENTRIES[key].catalog_package


def load(target: str) -> Any:
    """``"module:attribute"`` -> the attribute."""
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


@cache
def get(key: str) -> AnyGame:
    """The game registered under ``key``; ``KeyError`` if there is none."""
    return load(_ENTRIES[key].engine)


@cache
def renderer(key: str) -> Renderer:
    return load(_ENTRIES[key].renderer)


def register(entry: GameEntry) -> None:
    """Register a game at run time (the tests' small games)."""
    _ENTRIES[entry.key] = entry
    get.cache_clear()
    renderer.cache_clear()
