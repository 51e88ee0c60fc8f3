"""The Trails & Fortresses tile set: every tile type with its geometry, parsed from ``data/tiles.txt``.

Geometry conventions (shared by the engine, the notation and the renderer):

* Edges ``EDGE_N, EDGE_E, EDGE_S, EDGE_W = 0, 1, 2, 3``. A tile rotated by ``r`` quarter turns clockwise
  shows its unrotated edge ``e`` at side ``(e + r) % 4``.
* Half-edges 0..7 = Nw, Ne, En, Es, Se, Sw, Ws, Wn (clockwise round the tile); rotation ``r`` maps half
  ``h`` to ``(h + 2r) % 8``. Half ``h`` of a tile touches half :func:`facing_half` of the neighbour.
* Feature references ``"city:<i>"``, ``"road:<i>"``, ``"field:<i>"``, ``"monastery"``: ``i`` indexes the
  UNROTATED segment tuple of the tile type, whatever the rotation on the board.

The data file is a packaged copy of the project's researched compact notation (origin in its header).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

EDGE_N, EDGE_E, EDGE_S, EDGE_W = 0, 1, 2, 3
EDGE_NAMES = "NESW"
HALF_NAMES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
GOODS = ("honey", "grain", "flax")
EXPANSIONS = ("river", "inns", "traders")  # the base set is always in play

# The reference sheet uses the public goods names; this game calls them honey/grain/flax.
_GOODS_FROM_REFERENCE = {"wine": "honey", "grain": "grain", "cloth": "flax"}
_EXPANSION_BY_PREFIX = {"BA": "base", "RI": "river", "IC": "inns", "TB": "traders"}


@dataclass(frozen=True, slots=True)
class CitySegment:
    edges: tuple[int, ...]
    pennants: int
    cathedral: bool
    goods: str | None  # honey | grain | flax


@dataclass(frozen=True, slots=True)
class RoadSegment:
    edges: tuple[int, ...]  # one edge: the road ends on this tile
    inn: bool


@dataclass(frozen=True, slots=True)
class FieldSegment:
    halves: tuple[int, ...]  # () = an inner field that never connects to another tile
    cities: tuple[int, ...]  # indexes of the city segments of the same tile this field borders


@dataclass(frozen=True, slots=True)
class TileType:
    id: str
    count: int
    expansion: str  # "base" | "river" | "inns" | "traders"
    edges: str  # 4 chars N,E,S,W unrotated: C city, R road, F field, ~ river
    cities: tuple[CitySegment, ...]
    roads: tuple[RoadSegment, ...]
    rivers: tuple[tuple[int, ...], ...]
    fields: tuple[FieldSegment, ...]
    monastery: bool
    start: bool  # the base start tile (one of its copies starts on the table)
    spring: bool
    lake: bool

    def feature_refs(self) -> list[str]:
        """Every feature reference of this type, in the canonical order cities, roads, fields, monastery."""
        refs = [f"city:{i}" for i in range(len(self.cities))]
        refs += [f"road:{i}" for i in range(len(self.roads))]
        refs += [f"field:{i}" for i in range(len(self.fields))]
        if self.monastery:
            refs.append("monastery")
        return refs


def rotate_edge(edge: int, rot: int) -> int:
    return (edge + rot) % 4


def rotate_half(half: int, rot: int) -> int:
    return (half + 2 * rot) % 8


def facing_half(half: int) -> int:
    """The half-edge of the neighbouring tile that touches ``half`` (Nw-Sw, Ne-Se, En-Wn, Es-Ws)."""
    edge, side = divmod(half, 2)
    return 2 * ((edge + 2) % 4) + (1 - side)


def rotated_edges(tile: TileType, rot: int) -> str:
    """The edge string N,E,S,W of ``tile`` as it lies after ``rot`` clockwise quarter turns."""
    return "".join(tile.edges[(side - rot) % 4] for side in range(4))


def feature_sides(tile_id: str, rot: int, feature: str) -> list[int]:
    """The sides (0..3 = N, E, S, W) that ``feature`` of tile ``tile_id`` touches once the tile is turned ``rot``
    clockwise quarter turns, sorted; empty for an abbey and for a meadow inside the tile. ``ValueError`` for a
    feature the tile does not have."""
    tile = TILE_TYPES[tile_id]
    if feature not in tile.feature_refs():
        raise ValueError(f"{tile_id} has no feature {feature!r}")
    kind, _sep, index = feature.partition(":")
    if kind == "monastery":
        return []
    if kind == "field":
        return sorted({(half // 2 + rot) % 4 for half in tile.fields[int(index)].halves})
    segment = tile.cities[int(index)] if kind == "city" else tile.roads[int(index)]
    return sorted({(edge + rot) % 4 for edge in segment.edges})


def _edges(text: str) -> tuple[int, ...]:
    return tuple(EDGE_NAMES.index(ch) for ch in text)


def _parse_city(text: str) -> CitySegment:
    goods = None
    if "$" in text:
        text, _, raw = text.partition("$")
        goods = _GOODS_FROM_REFERENCE[raw]
    cathedral = "*" in text
    pennants = text.count("+")
    return CitySegment(_edges(text.replace("+", "").replace("*", "")), pennants, cathedral, goods)


def _parse_road(text: str) -> RoadSegment:
    return RoadSegment(_edges(text.replace("@", "")), "@" in text)


def _parse_field(text: str) -> FieldSegment:
    halves_text, _, cities_text = text.partition(">")
    halves = () if halves_text == "()" else tuple(HALF_NAMES.index(h) for h in halves_text.split("."))
    cities = tuple(int(c) for c in cities_text.split(",")) if cities_text else ()
    return FieldSegment(halves, cities)


def _split(column: str) -> list[str]:
    return [part for part in column.split(";") if part]


def parse_line(line: str) -> TileType:
    tile_id, count, edges, cities, roads, rivers, fields, flags = line.split("|")
    flag_set = {flag.strip() for flag in flags.split(",") if flag.strip()}
    return TileType(
        id=tile_id,
        count=int(count),
        expansion=_EXPANSION_BY_PREFIX[tile_id[:2]],
        edges=edges,
        cities=tuple(_parse_city(part) for part in _split(cities)),
        roads=tuple(_parse_road(part) for part in _split(roads)),
        rivers=tuple(_edges(part) for part in _split(rivers)),
        fields=tuple(_parse_field(part) for part in _split(fields)),
        monastery="monastery" in flag_set,
        start="start=1" in flag_set,
        spring="spring" in flag_set,
        lake="lake" in flag_set,
    )


def _check(tile: TileType) -> None:
    """The invariants of the notation: each edge belongs to the segment kind its letter says, each
    half of a non-city edge to exactly one field."""
    owners: dict[int, str] = {}
    for kind, segments in (("C", tile.cities), ("R", tile.roads)):
        for segment in segments:
            for edge in segment.edges:
                assert edge not in owners, (tile.id, edge)
                owners[edge] = kind
    for river in tile.rivers:
        for edge in river:
            owners[edge] = "~"
    for edge, letter in enumerate(tile.edges):
        assert owners.get(edge, "F") == letter, (tile.id, edge)
    halves = [h for field in tile.fields for h in field.halves]
    assert len(halves) == len(set(halves)), tile.id
    expected = {h for edge, letter in enumerate(tile.edges) if letter != "C" for h in (2 * edge, 2 * edge + 1)}
    assert set(halves) == expected, tile.id
    for field in tile.fields:
        assert all(0 <= c < len(tile.cities) for c in field.cities), tile.id


def _load() -> dict[str, TileType]:
    text = resources.files("games.trails").joinpath("data", "tiles.txt").read_text(encoding="utf-8")
    tiles: dict[str, TileType] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        tile = parse_line(line)
        _check(tile)
        tiles[tile.id] = tile
    return tiles


TILE_TYPES: dict[str, TileType] = _load()

START_TILE_ID = next(t.id for t in TILE_TYPES.values() if t.start)
SPRING_TILE_ID = next(t.id for t in TILE_TYPES.values() if t.spring)
LAKE_TILE_ID = next(t.id for t in TILE_TYPES.values() if t.lake)


def set_size(expansion: str) -> int:
    """Physical tiles of one set (the base set counts its start tile)."""
    return sum(t.count for t in TILE_TYPES.values() if t.expansion == expansion)
