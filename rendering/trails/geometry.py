"""Where things are on one tile: shapes of cities, roads, rivers and buildings, and figure anchors.

Everything is in unit coordinates of the UNROTATED tile (x to the east, y to the south, 0..1), worked out
from the tile data alone. A tile is drawn unrotated and the sprite is turned; points are turned with
``rotate_point``. Field areas are not drawn as shapes: they are whatever the other features leave free,
and a small label grid finds them (one connected area per field segment) to place farmers.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, overload

from PIL import Image, ImageDraw

from rendering.trails.data import tile_types

Point = tuple[float, float]

CENTRE: Point = (0.5, 0.5)
EDGE_MID: tuple[Point, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
# Half-edges Nw,Ne,En,Es,Se,Sw,Ws,Wn: midpoints of each half, clockwise from the north-west corner.
HALF_MID: tuple[Point, ...] = (
    (0.25, 0.0), (0.75, 0.0), (1.0, 0.25), (1.0, 0.75), (0.75, 1.0), (0.25, 1.0), (0.0, 0.75), (0.0, 0.25),
)
# Corner after half-edge h when h is odd: Ne->NE corner, Es->SE, Sw->SW, Wn->NW.
CORNER_AFTER_HALF: dict[int, Point] = {1: (1.0, 0.0), 3: (1.0, 1.0), 5: (0.0, 1.0), 7: (0.0, 0.0)}

ROAD_WIDTH = 0.12
RIVER_WIDTH = 0.15
WALL_WIDTH = 0.045


def rotate_point(p: Point, rot: int) -> Point:
    """Turn a unit point by ``rot`` quarter turns clockwise about the tile centre."""
    x, y = p
    for _ in range(rot % 4):
        x, y = 1.0 - y, x
    return (x, y)


def bezier(p0: Point, control: Point, p1: Point, steps: int = 18) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p0[0] + b * control[0] + c * p1[0], a * p0[1] + b * control[1] + c * p1[1]))
    return out


def point_along(path: list[Point], fraction: float) -> Point:
    """The point at ``fraction`` of the polyline's length."""
    lengths = [((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 for a, b in zip(path, path[1:], strict=False)]
    target = sum(lengths) * fraction
    for (a, b), length in zip(zip(path, path[1:], strict=False), lengths, strict=True):
        if target <= length and length > 0:
            t = target / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        target -= length
    return path[-1]


def _control_for_mid(p0: Point, mid: Point, p1: Point) -> Point:
    # A quadratic Bezier passes through 0.25*p0 + 0.5*c + 0.25*p1 at t=0.5; solve for c.
    return (2 * mid[0] - 0.5 * (p0[0] + p1[0]), 2 * mid[1] - 0.5 * (p0[1] + p1[1]))


def _curve(p0: Point, mid: Point, p1: Point) -> list[Point]:
    return bezier(p0, _control_for_mid(p0, mid, p1), p1)


def _rotated(points: list[Point], rot: int) -> list[Point]:
    return [rotate_point(p, rot) for p in points]


@dataclass
class CityShape:
    polygon: list[Point]
    walls: list[list[Point]]  # the city's inner border (never the tile edge)
    anchor: Point  # where a knight stands
    emblem_slots: list[Point]  # where pennant, cathedral and goods icons go


@dataclass
class PathShape:
    path: list[Point]
    anchor: Point = CENTRE


@dataclass
class TileLayout:
    cities: list[CityShape] = field(default_factory=list)
    roads: list[PathShape] = field(default_factory=list)
    rivers: list[PathShape] = field(default_factory=list)
    spikes: list[list[Point]] = field(default_factory=list)  # walls that split fields at a corner
    junction: Point | None = None  # a house where several road ends meet
    monastery: Point | None = None
    spring: Point | None = None
    lake: Point | None = None
    inns: list[tuple[Point, Point]] = field(default_factory=list)  # (spot beside the road, road direction)
    fields: list[Point] = field(default_factory=list)  # farmer anchors by field segment index

    def anchor(self, feature: str) -> Point:
        """Unit point (unrotated) for a feature reference such as ``city:0`` or ``monastery``."""
        kind, _, index = feature.partition(":")
        if kind == "monastery":
            return self.monastery or CENTRE
        table: dict[str, list[Any]] = {"city": self.cities, "road": self.roads, "field": self.fields}
        item = table[kind][int(index)]
        return item if isinstance(item, tuple) else item.anchor


def _city_shape(edges: tuple[int, ...], crowded: bool) -> CityShape:
    """Canonical shape for the edge pattern, turned into place. ``crowded`` = other cities on the tile."""
    edge_set = set(edges)
    if len(edge_set) == 4:
        square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        return CityShape(square, [], CENTRE, [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8)])
    if len(edge_set) == 3:
        missing = ({0, 1, 2, 3} - edge_set).pop()
        rot = (missing - 2) % 4  # canonical: N, E, W with the field bite at S
        wall = _curve((1.0, 1.0), (0.5, 0.64), (0.0, 1.0))
        polygon = [(0.0, 0.0), (1.0, 0.0), *wall]
        return CityShape(
            _rotated(polygon, rot), [_rotated(wall, rot)], rotate_point((0.5, 0.36), rot),
            _rotated([(0.16, 0.22), (0.84, 0.22), (0.16, 0.6)], rot),
        )
    if len(edge_set) == 2 and (edges[0] - edges[1]) % 2 == 0:
        rot = 0 if edge_set == {1, 3} else 1  # canonical band W-E
        # A band leaves a lens of field on each side; thinner where a separate city sits on that side.
        north_depth = 0.26
        south_depth = 0.38 if crowded else 0.26
        top = _curve((0.0, 0.0), (0.5, north_depth), (1.0, 0.0))
        bottom = _curve((1.0, 1.0), (0.5, 1.0 - south_depth), (0.0, 1.0))
        return CityShape(
            _rotated(top + bottom, rot), [_rotated(top, rot), _rotated(bottom, rot)],
            rotate_point((0.5, (north_depth + 1.0 - south_depth) / 2), rot),
            _rotated([(0.2, 0.36), (0.8, 0.64), (0.8, 0.36)], rot),
        )
    if len(edge_set) == 2:
        rot = next(r for r in range(4) if {r, (r + 3) % 4} == edge_set)  # canonical corner N-W
        depth = 0.38 if crowded else 0.43
        wall = _curve((1.0, 0.0), (depth, depth), (0.0, 1.0))
        polygon = [(0.0, 0.0), *wall]
        return CityShape(
            _rotated(polygon, rot), [_rotated(wall, rot)], rotate_point((0.29, 0.29), rot),
            _rotated([(0.12, 0.12), (0.62, 0.11), (0.11, 0.62)], rot),
        )
    rot = edges[0]  # canonical cap on the north edge
    depth = 0.22 if crowded else 0.28
    wall = _curve((1.0, 0.0), (0.5, depth), (0.0, 0.0))
    polygon = [(0.0, 0.0), *wall]
    return CityShape(
        _rotated(polygon, rot), [_rotated(wall, rot)], rotate_point((0.5, depth * 0.42), rot),
        _rotated([(0.2, 0.06), (0.8, 0.06), (0.5, 0.06)], rot),
    )


def _through_path(edges: tuple[int, ...]) -> list[Point]:
    """A road or river joining two edges: straight across, or a bend that keeps clear of the centre."""
    a, b = EDGE_MID[edges[0]], EDGE_MID[edges[1]]
    if (edges[0] - edges[1]) % 2 == 0:
        return [a, CENTRE, b]
    corner = (a[0] + b[0] - 0.5, a[1] + b[1] - 0.5)  # the tile corner between the two edges
    control = (0.5 + 0.2 * (corner[0] - 0.5), 0.5 + 0.2 * (corner[1] - 0.5))
    return bezier(a, control, b)


def _stub_path(edge: int, end: Point, via_centre: bool) -> list[Point]:
    start = EDGE_MID[edge]
    if via_centre and end != CENTRE:
        return bezier(start, CENTRE, end)
    return bezier(start, ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), end, steps=10)


def _nearest_free(anchor: Point, taken: list[Point], path: list[Point]) -> Point:
    """Slide a road figure along its road when the middle is already used (crossings, bridges)."""
    for fraction in (0.5, 0.3, 0.7, 0.2):
        candidate = point_along(path, fraction) if fraction != 0.5 else anchor
        if all((candidate[0] - p[0]) ** 2 + (candidate[1] - p[1]) ** 2 > 0.04 for p in taken):
            return candidate
    return anchor


@cache
def layout(tile_id: str) -> TileLayout:
    """The drawing plan for one tile type; cached because it never changes."""
    tile = tile_types()[tile_id]
    out = TileLayout()
    crowded = len(tile.cities) > 1
    for city in tile.cities:
        out.cities.append(_city_shape(tuple(city.edges), crowded))

    if tile.monastery:
        # With a river through the middle the chapel stands on the bank opposite the road.
        out.monastery = (0.5, 0.26) if tile.rivers else CENTRE

    for river in tile.rivers:
        if len(river) == 2:
            out.rivers.append(PathShape(_through_path(tuple(river))))
        else:
            end = CENTRE
            out.rivers.append(PathShape([EDGE_MID[river[0]], end]))
            if tile.lake:
                out.lake = end
            else:
                out.spring = end

    stubs = [road for road in tile.roads if len(road.edges) == 1]
    stub_edges = [road.edges[0] for road in stubs]
    stubs_meet = len(stubs) >= 3 or (len(stubs) == 2 and (stub_edges[0] - stub_edges[1]) % 2 == 0)
    centre_in_city = any(inside(CENTRE, city.polygon) for city in out.cities)
    if stubs and not tile.monastery and not centre_in_city and (stubs_meet or not tile.cities):
        out.junction = CENTRE
    taken: list[Point] = [c.anchor for c in out.cities] + ([out.monastery] if out.monastery else [])
    for road in tile.roads:
        if len(road.edges) == 2:
            path = _through_path(tuple(road.edges))
        elif out.monastery is not None:
            path = _stub_path(road.edges[0], out.monastery, via_centre=False)
        elif out.junction is not None or centre_in_city:
            path = _stub_path(road.edges[0], CENTRE, via_centre=False)
        else:
            # The road ends at a city gate: run it into the biggest city so it meets the wall.
            path = _stub_path(road.edges[0], out.cities[_main_city(tile)].anchor, via_centre=True)
        if len(road.edges) == 1:
            path = path[: _visible_end(path, out.cities)]
        anchor = _nearest_free(point_along(path, 0.5), taken, path)
        taken.append(anchor)
        out.roads.append(PathShape(path, anchor))
        if road.inn:
            out.inns.append(_inn_spot(path))

    out.spikes = _spikes(tile, out)
    out.spikes += _dividers(tile, out)
    out.fields = _field_anchors(tile, out, taken)
    return out


def _visible_end(path: list[Point], cities: list[CityShape]) -> int:
    """How many points of a road stub lie before it disappears under a city (at least the first two)."""
    for index, point in enumerate(path):
        if index >= 2 and any(inside(point, city.polygon) for city in cities):
            return index
    return len(path)


def inside(p: Point, polygon: list[Point]) -> bool:
    """Even-odd point-in-polygon test."""
    x, y = p
    result = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            result = not result
    return result


def _main_city(tile: Any) -> int:
    """The city that road ends and corner walls run into: the one with most edges (first on ties)."""
    return max(range(len(tile.cities)), key=lambda i: (len(tile.cities[i].edges), -i))


def _inn_spot(path: list[Point]) -> tuple[Point, Point]:
    """A spot just beside the road's middle, on the side towards the tile centre when possible."""
    a, b = point_along(path, 0.35), point_along(path, 0.45)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    nx, ny = -dy / length, dx / length
    mid = point_along(path, 0.4)
    side = 1 if (CENTRE[0] - mid[0]) * nx + (CENTRE[1] - mid[1]) * ny >= 0 else -1
    if abs(mid[0] - 0.5) < 0.05 and abs(mid[1] - 0.5) < 0.05:
        side = 1
    spot = (mid[0] + side * nx * 0.16, mid[1] + side * ny * 0.16)
    return spot, (dx / length, dy / length)


def _spikes(tile: Any, plan: TileLayout) -> list[list[Point]]:
    """Walls from a tile corner where the two neighbouring half-edges belong to different fields."""
    owner = {h: i for i, f in enumerate(tile.fields) for h in f.halves}
    spikes = []
    for half, corner in CORNER_AFTER_HALF.items():
        after = (half + 1) % 8
        if half in owner and after in owner and owner[half] != owner[after]:
            target = plan.cities[_main_city(tile)].anchor if tile.cities else CENTRE
            spikes.append([corner, target])
    return spikes


def _dividers(tile: Any, plan: TileLayout) -> list[list[Point]]:
    """Walls from the centre to a city where two fields the data keeps apart would otherwise share one area
    (IC-05: the road stubs meet in the middle and the two city walls run down to them)."""
    owner = {h: i for i, f in enumerate(tile.fields) for h in f.halves}
    regions = field_regions(plan, tile, merge=False)
    walls: list[list[Point]] = []
    for area in regions:
        halves = sorted(h for h in area if owner.get(h) is not None)
        for a, b in zip(halves, halves[1:] + halves[:1], strict=True):
            if owner[a] == owner[b]:
                continue
            between = [(h // 2) for h in range(a + 1, a + (b - a) % 8)]
            city = next((i for i, c in enumerate(tile.cities) if set(c.edges) & {e % 4 for e in between}), None)
            if city is not None:
                walls.append([CENTRE, plan.cities[city].anchor])
    return walls


# ---- field areas -------------------------------------------------------------------------------------

GRID = 48  # label grid resolution: fine enough that walls and roads split it like the picture does


def obstacle_mask(plan: TileLayout, size: int) -> Image.Image:
    """Everything that is not field, drawn white on black, at ``size`` pixels."""
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)

    def px(points: list[Point]) -> list[tuple[float, float]]:
        return [(x * size, y * size) for x, y in points]

    for river in plan.rivers:
        draw.line(px(river.path), fill=255, width=max(2, round(RIVER_WIDTH * size)), joint="curve")
    for road in plan.roads:
        draw.line(px(road.path), fill=255, width=max(2, round(ROAD_WIDTH * size)), joint="curve")
    for city in plan.cities:
        draw.polygon(px(city.polygon), fill=255)
        for wall in city.walls:
            draw.line(px(wall), fill=255, width=max(2, round(WALL_WIDTH * size)))
    for spike in plan.spikes:
        draw.line(px(spike), fill=255, width=max(3, round(WALL_WIDTH * size)))
    for spot, radius in ((plan.monastery, 0.17), (plan.junction, 0.09), (plan.lake, 0.2), (plan.spring, 0.08)):
        if spot is not None:
            cx, cy = spot[0] * size, spot[1] * size
            draw.ellipse((cx - radius * size, cy - radius * size, cx + radius * size, cy + radius * size), fill=255)
    return mask


@overload
def field_regions(plan: TileLayout, tile: Any) -> dict[int, set[tuple[int, int]]]: ...
@overload
def field_regions(plan: TileLayout, tile: Any, merge: Literal[False]) -> list[set[int]]: ...


def field_regions(plan: TileLayout, tile: Any, merge: bool = True) -> Any:
    """Grid cells of each field segment: the free area reached from the segment's half-edges
    (an inner field is the free area no half-edge reaches). With ``merge=False``: for each free area,
    the half-edges that open onto it (used to check the drawing against the data)."""
    blocked = obstacle_mask(plan, GRID).tobytes()
    labels = [-1] * (GRID * GRID)  # flat index y * GRID + x; plain lists keep this quick in pure Python
    areas: list[set[tuple[int, int]]] = []
    for start in range(GRID * GRID):
        if blocked[start] or labels[start] >= 0:
            continue
        index = len(areas)
        labels[start] = index
        stack = [start]
        members = []
        while stack:
            here = stack.pop()
            members.append(here)
            x = here % GRID
            for there in (here - GRID, here + GRID, here - 1 if x else -1, here + 1 if x < GRID - 1 else -1):
                if 0 <= there < GRID * GRID and not blocked[there] and labels[there] < 0:
                    labels[there] = index
                    stack.append(there)
        areas.append({(i % GRID, i // GRID) for i in members})
    component = {(i % GRID, i // GRID): label for i, label in enumerate(labels) if label >= 0}

    def cell_of(p: Point) -> tuple[int, int]:
        # Step a little inside the tile so a half-edge midpoint lands on its field, not the border.
        x = min(GRID - 2, max(1, round(p[0] * (GRID - 1))))
        y = min(GRID - 2, max(1, round(p[1] * (GRID - 1))))
        return (x, y)

    if not merge:
        touching: list[set[int]] = [set() for _ in areas]
        for h, p in enumerate(HALF_MID):
            if cell_of(p) in component:
                touching[component[cell_of(p)]].add(h)
        return touching
    regions: dict[int, set[tuple[int, int]]] = {}
    used: set[int] = set()
    for index, segment in enumerate(tile.fields):
        hits = {component[cell_of(HALF_MID[h])] for h in segment.halves if cell_of(HALF_MID[h]) in component}
        if hits:
            regions[index] = set().union(*(areas[i] for i in hits))
            used |= hits
    inner = [i for i in range(len(areas)) if i not in used and len(areas[i]) > 4]
    for index, segment in enumerate(tile.fields):
        if not segment.halves and inner:
            regions[index] = areas[inner.pop(0)]
    return regions


def _field_anchors(tile: Any, plan: TileLayout, taken: list[Point]) -> list[Point]:
    regions = field_regions(plan, tile)
    anchors: list[Point] = []
    for index, segment in enumerate(tile.fields):
        cells = regions.get(index)
        if not cells:
            anchors.append(HALF_MID[segment.halves[0]] if segment.halves else CENTRE)
            continue
        depth = _depth(cells)
        others = taken + anchors

        def score(cell: tuple[int, int], depth: dict[tuple[int, int], int] = depth,
                  others: list[Point] = others) -> float:
            p = ((cell[0] + 0.5) / GRID, (cell[1] + 0.5) / GRID)
            crowding = min((((p[0] - o[0]) ** 2 + (p[1] - o[1]) ** 2) ** 0.5 for o in others), default=1.0)
            off_centre = ((p[0] - 0.5) ** 2 + (p[1] - 0.5) ** 2) ** 0.5
            # Deep inside the field, clear of other figures, and rather towards the middle of the tile.
            return min(depth[cell] / GRID, 0.14) + min(crowding, 0.24) - 0.15 * off_centre

        best = max(sorted(cells), key=score)
        anchors.append(((best[0] + 0.5) / GRID, (best[1] + 0.5) / GRID))
    return anchors


def _depth(cells: set[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Steps from each cell to the nearest cell outside the region (the tile border counts as outside)."""
    depth: dict[tuple[int, int], int] = {}
    queue: deque[tuple[int, int]] = deque()
    for cell in cells:
        x, y = cell
        if any(n not in cells for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))):
            depth[cell] = 1
            queue.append(cell)
    while queue:
        x, y = queue.popleft()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in depth:
                depth[n] = depth[(x, y)] + 1
                queue.append(n)
    return depth


def warm_up() -> None:
    """Work out every tile's layout now (about a second in total) rather than during the first renders."""
    for tile_id in tile_types():
        layout(tile_id)
