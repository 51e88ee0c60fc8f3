"""Dewan content: realm tiles, layouts, the 55 terrain cards, the tribe board and the 24 story tiles.

Everything here is the project's design (``docs/games/dewan.md`` gives the reasons); the rules text prints
none of it. Codes: terrains ``B`` badlands, ``M`` mountain, ``D`` desert, ``F`` forest, ``W`` water, ``X`` the
neutral start hex; symbols ``fire``, ``berry`` and the resources ``art`` (artifact), ``pig`` (pigment),
``cry`` (crystal).
"""

from __future__ import annotations

LAND = ("B", "M", "D", "F")
TERRAINS = (*LAND, "W")
RESOURCES = ("art", "pig", "cry")
SYMBOLS = ("fire", "berry", *RESOURCES)

# Hex positions of a realm tile: 0 centre, then the ring counter-clockwise from east (pointy-top hexes,
# axial coordinates, y down).
OFFSETS = ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTIONS = OFFSETS[1:]

# tile -> (terrains of positions 0..6, berry positions, boundary symbols (position, position, kind))
REALM_TILES: dict[str, tuple[str, tuple[int, ...], tuple[tuple[int, int, str], ...]]] = {
    "S1": ("XFDMBWF", (2,), ((1, 2, "pig"), (4, 5, "cry"))),
    "S2": ("XDMBFWD", (6,), ((2, 3, "art"), (5, 6, "pig"))),
    "S3": ("XMBFDWM", (1,), ((1, 6, "cry"), (3, 4, "art"))),
    "S4": ("XBFDMWB", (3,), ((1, 2, "art"), (4, 5, "pig"))),
    "N1": ("WFBDMWB", (1, 6), ((0, 2, "art"), (0, 4, "pig"), (5, 6, "cry"))),
    "N2": ("MMWFDBD", (0,), ((0, 1, "cry"), (0, 5, "art"), (3, 4, "pig"))),
    "N3": ("FWWBMFD", (0, 3), ((0, 2, "pig"), (0, 6, "cry"), (4, 5, "art"))),
    "N4": ("DDBWFMM", (1, 6), ((0, 2, "art"), (0, 6, "pig"), (1, 6, "cry"))),
    "N5": ("BBMDWWF", (2,), ((0, 1, "pig"), (0, 3, "cry"), (5, 6, "art"))),
    "N6": ("WWDBFMF", (2, 5), ((0, 3, "art"), (0, 6, "pig"), (1, 2, "cry"))),
}
START_TILES = ("S1", "S2", "S3", "S4")
NEUTRAL_TILES = ("N1", "N2", "N3", "N4", "N5", "N6")

# players -> tiles by letter: (letter, lattice i, j, start tile?). Seat s gets start tile letter s.
# A tile at lattice (i, j) has its centre at axial (2i - j, i + 3j).
LAYOUTS: dict[int, tuple[tuple[str, int, int, bool], ...]] = {
    2: (("A", 1, -1, True), ("B", 0, 1, True), ("C", 0, 0, False), ("D", 1, 0, False)),
    3: (("A", 0, 0, True), ("B", 2, 0, True), ("C", 0, 2, True),
        ("D", 1, 0, False), ("E", 1, 1, False), ("F", 0, 1, False)),
    4: (("A", 1, -1, True), ("B", 2, 0, True), ("C", 0, 2, True), ("D", -1, 1, True),
        ("E", 0, 0, False), ("F", 1, 0, False), ("G", 1, 1, False), ("H", 0, 1, False)),
}


def _cards() -> dict[str, tuple[tuple[str, ...], str | None]]:
    cards: dict[str, tuple[tuple[str, ...], str | None]] = {}
    number = 1

    def add(terrains: tuple[str, ...], symbols: tuple[str | None, ...]) -> None:
        nonlocal number
        for symbol in symbols:
            cards[f"c{number:02d}"] = (terrains, symbol)
            number += 1

    for terrain in TERRAINS:  # c01-c25: one terrain, one symbol each
        add((terrain,), SYMBOLS)
    add(("B", "W"), ("fire", "berry", "art"))  # c26-c28
    add(("M", "W"), ("fire", "berry", "pig"))  # c29-c31
    add(("D", "W"), ("fire", "berry", "cry"))  # c32-c34
    add(("F", "W"), ("fire", "fire", "berry"))  # c35-c37
    for pair in (("B", "M"), ("B", "D"), ("B", "F"), ("M", "D"), ("M", "F"), ("D", "F")):  # c38-c55
        add(pair, (None, None, None))
    return cards


# card id -> (terrains, symbol or None)
CARDS: dict[str, tuple[tuple[str, ...], str | None]] = _cards()
CARD_IDS: tuple[str, ...] = tuple(CARDS)

# story tile id -> (requirements (terrain or resource codes), points, fire symbols)
STORIES: dict[str, tuple[tuple[str, ...], int, int]] = {
    "t01": (("F", "F"), 3, 0), "t02": (("D", "D"), 3, 0), "t03": (("M", "M"), 3, 0), "t04": (("B", "B"), 3, 0),
    "t05": (("F", "art"), 3, 1), "t06": (("D", "pig"), 3, 1), "t07": (("M", "cry"), 3, 1),
    "t08": (("B", "art"), 3, 1),
    "t09": (("F", "D", "M"), 5, 0), "t10": (("D", "M", "B"), 5, 0), "t11": (("M", "B", "F"), 5, 0),
    "t12": (("B", "F", "D"), 5, 0),
    "t13": (("art", "pig", "cry"), 6, 1), "t14": (("F", "F", "pig"), 5, 1), "t15": (("D", "D", "cry"), 5, 1),
    "t16": (("M", "M", "pig"), 5, 1),
    "t17": (("B", "B", "cry"), 5, 0), "t18": (("F", "D", "art"), 5, 0),
    "t19": (("B", "M", "D", "F"), 8, 0), "t20": (("F", "F", "D", "D"), 8, 1), "t21": (("M", "M", "B", "B"), 8, 1),
    "t22": (("F", "M", "pig", "pig"), 9, 0), "t23": (("D", "B", "cry", "cry"), 9, 0),
    "t24": (("M", "B", "art", "art"), 9, 0),
}
STORY_IDS: tuple[str, ...] = tuple(STORIES)

# The tribe board: 8 camp slots emptied left to right; odd slots give a story tile, even slots a tuck;
# slot 8 also shows 1 fire.
SLOTS = 8
SLOT_REWARDS: tuple[str, ...] = ("story", "tuck", "story", "tuck", "story", "tuck", "story", "tuck")
LAST_SLOT_FIRE = 1

ROW_SIZE = 6
STORY_DISPLAY = 5
STORY_PLACES = 5
START_HAND = 2

# Score pad
FIRE_MAJORITY = 4
GROUP_POINTS = 4
BERRY_POINTS = 2
BREAKDOWN = ("story", "fire", "fire_bonus", "groups", "berries")
