"""Trails & Fortresses (key ``trails``): the tile-laying game with River, Inns & Cathedrals and
Traders & Builders. ``GAME`` is the engine registered in ``games.registry``."""

from games.trails.actions import Confirm, Figure, Place, Undo
from games.trails.engine import GAME, TrailsGame, TrailsState

__all__ = ["GAME", "Confirm", "Figure", "Place", "TrailsGame", "TrailsState", "Undo"]
