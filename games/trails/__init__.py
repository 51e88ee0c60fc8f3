"""Trails & Fortresses (key ``trails``): the tile-laying game with River, Inns & Cathedrals and
Traders & Builders."""
