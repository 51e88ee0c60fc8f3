"""Dewan (Деван): camps on a hex map, terrain cards and story tiles, for 2 to 4 players."""

from games.dewan.engine import DewanGame, DewanState

GAME = DewanGame()

__all__ = ["GAME", "DewanGame", "DewanState"]
