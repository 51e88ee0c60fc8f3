"""Déole sheet data: everything the rules text leaves to the printed sheets, designed by us.

The rules (the published rulebook, not in this repository) describe the turn, bonuses and scoring but not
the printed Exploration and Navigation sheets. The numbers below are our design; docs/games/deole.md
explains each choice. Coordinates are (row, column) on a square grid, row 0 at the north (blue) edge.
"""

from __future__ import annotations

# -- colours and compass ----------------------------------------------------------------------
WIND_COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "red")
CREW = "crew"
TRACKS: tuple[str, ...] = (*WIND_COLOURS, CREW)

DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")
STEP: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
# The edge each colour's wind blows from, i.e. the edge a ship heads to when it follows that wind.
EDGE_OF: dict[str, str] = {"blue": "N", "yellow": "E", "green": "S", "red": "W"}
COLOUR_OF_EDGE: dict[str, str] = {edge: colour for colour, edge in EDGE_OF.items()}

# Seats sit around the sheet; each player's colour is the edge facing them. Two players face each other.
SEAT_COLOURS: dict[int, tuple[str, ...]] = {
    2: ("blue", "green"),
    3: ("blue", "yellow", "green"),
    4: ("blue", "yellow", "green", "red"),
}

# -- Exploration sheet ------------------------------------------------------------------------
SIZE = 9  # 9x9 boxes: odd, so 3 ports and the island sit symmetrically on every side
PORT_INDICES: tuple[int, ...] = (1, 4, 7)  # along each edge (column for N/S edges, row for E/W edges)
ISLAND: frozenset[tuple[int, int]] = frozenset((r, c) for r in range(3, 6) for c in range(3, 6))
# The sea boxes along each side of the island; a ship lands on Éolia by tracing one of its own colour's.
COASTS: dict[str, tuple[tuple[int, int], ...]] = {
    "blue": ((2, 3), (2, 4), (2, 5)),
    "yellow": ((3, 6), (4, 6), (5, 6)),
    "green": ((6, 3), (6, 4), (6, 5)),
    "red": ((3, 2), (4, 2), (5, 2)),
}
# Diagonal to the island's corners: between the ports and the island, one per quadrant.
WRECKS: tuple[tuple[int, int], ...] = ((2, 2), (2, 6), (6, 6), (6, 2))


def rotate(box: tuple[int, int]) -> tuple[int, int]:
    """A quarter turn clockwise around the centre: maps the blue quadrant to the yellow one, etc."""
    row, col = box
    return col, SIZE - 1 - row


# Nine castaway symbols. Each sits on 4 boxes, one per quadrant (quarter-turn images of the first),
# so no colour is favoured by a roll.
CASTAWAY_SYMBOLS: tuple[str, ...] = ("anchor", "shell", "star", "fish", "gull", "bottle", "knot", "pearl", "compass")
_CASTAWAY_BASE: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, 3), (1, 4), (2, 0), (2, 1), (3, 1), (3, 0), (0, 4))


def _orbit(box: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    boxes = [box]
    for _ in range(3):
        boxes.append(rotate(boxes[-1]))
    return tuple(boxes)


CASTAWAY_BOXES: dict[str, tuple[tuple[int, int], ...]] = {
    symbol: _orbit(base) for symbol, base in zip(CASTAWAY_SYMBOLS, _CASTAWAY_BASE, strict=True)
}
# Annex grid: row = yellow die (1-6), column = red die (1-6) -> symbol index. 36 cells, each symbol 4 times.
ANNEX_GRID: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4, 5),
    (6, 7, 8, 0, 1, 2),
    (3, 4, 5, 6, 7, 8),
    (0, 1, 2, 3, 4, 5),
    (6, 7, 8, 0, 1, 2),
    (3, 4, 5, 6, 7, 8),
)


def depth(box: tuple[int, int], colour: str) -> int:
    """How far a box lies from a colour's edge (0 = the edge row)."""
    row, col = box
    return {"blue": row, "green": SIZE - 1 - row, "red": col, "yellow": SIZE - 1 - col}[colour]


# Exploration gauge: (minimum depth reached, points). The island spans depths 3-5.
GAUGE: tuple[tuple[int, int], ...] = ((8, 30), (6, 20), (4, 10), (2, 5))
SOLO_ISLAND_DEPTH_LIMIT = 4  # the solo island bonus needs the ship never to have reached the +10 zone

# -- Navigation sheet -------------------------------------------------------------------------
WIND_LENGTH = 7
CREW_LENGTH = 6
TRACK_LENGTH: dict[str, int] = {**{c: WIND_LENGTH for c in WIND_COLOURS}, CREW: CREW_LENGTH}
# Score printed under each Wind box: the last filled box counts.
WIND_SCORES: tuple[int, ...] = (1, 2, 4, 7, 11, 16, 22)
# Crew track signs (+1 / -1); wrecks may flip the boxes listed in CREW_FLIPPABLE (0-based), never the 3rd.
CREW_SIGNS: tuple[int, ...] = (-1, -1, -1, -1, -1, 1)
CREW_FLIPPABLE: tuple[int, ...] = (0, 1, 3, 4)
CREW_BONUS_BOX = 5  # the 6th box gives an immediate bonus
# Boxes (0-based) printing a rudder: placing there circles one more rudder of that track.
RUDDER_BOXES: dict[str, tuple[int, ...]] = {
    "blue": (2, 4),
    "yellow": (2, 4),
    "green": (2, 4),
    "red": (1, 3, 5),  # red starts without a rudder, so its boxes print one sooner and more often
    CREW: (1, 3),
}
START_RUDDERS: dict[str, int] = {"blue": 1, "yellow": 1, "green": 1, "red": 0, CREW: 0}
STAR_COLUMNS: tuple[int, ...] = (0, 1, 2, 3, 4)  # a completed column gives a bonus; none under the 6th
NO_CASTAWAY_BOX = 5  # "no bonus star can be placed in the 6th box of each track": no castaway there
BONUSES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")

# -- dice and rounds --------------------------------------------------------------------------
DICE_PER_COLOUR: dict[int, int] = {1: 4, 2: 5, 3: 6, 4: 7}
ROUNDS = 3
TURNS_PER_ROUND = 5

# -- placement modes --------------------------------------------------------------------------
MODES: tuple[str, ...] = (
    "even", "odd", "different", "ascending", "descending", "equal", "oscillating", "step", "low", "high",
)
FIRST_GAME_MODES: tuple[str, ...] = ("even", "odd", "different", "ascending", "descending")
SOLO_MODES: tuple[str, ...] = ("odd", "ascending", "equal", "oscillating", "step")
MODE_PRESETS: dict[str, tuple[str, ...]] = {
    "first": FIRST_GAME_MODES,
    "breeze": ("even", "odd", "low", "high", "different"),
    "trade": ("even", "high", "different", "ascending", "step"),
    "squall": ("odd", "low", "descending", "equal", "oscillating"),
    "tempest": ("ascending", "descending", "equal", "oscillating", "step"),
}
