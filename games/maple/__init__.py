"""Maple Valley (Кленовая долина): friends, walks, supplies, favors and festivities for 1 to 5 players."""

from games.maple.engine import MapleGame, MapleState

GAME = MapleGame()

__all__ = ["GAME", "MapleGame", "MapleState"]
