"""Déole (Деоль): roll-and-write sailing for 1 to 4 players."""

from games.deole.engine import DeoleGame, DeoleState

GAME = DeoleGame()

__all__ = ["GAME", "DeoleGame", "DeoleState"]
