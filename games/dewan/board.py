"""The assembled Dewan map: hexes, labels, terrains, neighbours, zones, berries and boundary symbols.

A map is fixed by its layout (player count, then one ``(tile, rotation)`` per tile letter). It is built once
per layout and cached (the most recent ones); the state stores only the layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.dewan import data as D

Layout = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Board:
    labels: tuple[str, ...]  # every hex, in label order (A0, A1 ... A6, B0 ...)
    coords: dict[str, tuple[int, int]]  # label -> axial (q, r)
    terrain: dict[str, str]  # label -> B/M/D/F/W/X
    neighbours: dict[str, tuple[str, ...]]
    zone: dict[str, int]  # label -> zone number (X hexes have none)
    zones: tuple[tuple[str, ...], ...]  # zone number -> its hexes in label order
    berry_hexes: tuple[str, ...]  # hexes printed with a berry, in label order
    symbols: tuple[tuple[str, str, str], ...]  # (hex, hex, kind) boundary symbols
    touching: dict[str, tuple[int, ...]]  # label -> indices of the symbols on its boundaries
    starts: tuple[str, ...]  # seat -> its start hex
    tiles: tuple[tuple[str, str, int, bool], ...]  # (letter, tile, rotation, start?)


def rotate(position: int, rotation: int) -> int:
    """Where ring position ``position`` of a tile ends up after ``rotation`` sixth-turns (centre stays)."""
    return position if position == 0 else (position - 1 + rotation) % 6 + 1


def tile_centre(i: int, j: int) -> tuple[int, int]:
    return 2 * i - j, i + 3 * j


@lru_cache(maxsize=128)  # a map per table: keep the recent ones (a state also keeps its own)
def build(players: int, layout: Layout) -> Board:
    coords: dict[str, tuple[int, int]] = {}
    terrain: dict[str, str] = {}
    berries: list[str] = []
    symbols: list[tuple[str, str, str]] = []
    tiles: list[tuple[str, str, int, bool]] = []
    starts: list[str] = []
    for (letter, i, j, start), (tile, rotation) in zip(D.LAYOUTS[players], layout, strict=True):
        cq, cr = tile_centre(i, j)
        hexes, berry_positions, tile_symbols = D.REALM_TILES[tile]
        tiles.append((letter, tile, rotation, start))
        if start:
            starts.append(f"{letter}0")
        for position in range(7):
            dq, dr = D.OFFSETS[rotate(position, rotation)]
            label = f"{letter}{rotate(position, rotation)}"
            coords[label] = (cq + dq, cr + dr)
            terrain[label] = hexes[position]
        berries += [f"{letter}{rotate(p, rotation)}" for p in berry_positions]
        symbols += [(f"{letter}{rotate(a, rotation)}", f"{letter}{rotate(b, rotation)}", kind)
                    for a, b, kind in tile_symbols]
    labels = tuple(sorted(coords))
    at = {xy: label for label, xy in coords.items()}
    neighbours = {
        label: tuple(sorted(at[(q + dq, r + dr)] for dq, dr in D.DIRECTIONS if (q + dq, r + dr) in at))
        for label, (q, r) in coords.items()
    }
    zone: dict[str, int] = {}
    zones: list[tuple[str, ...]] = []
    for label in labels:
        if label in zone or terrain[label] == "X":
            continue
        members: list[str] = []
        stack = [label]
        zone[label] = len(zones)
        while stack:
            current = stack.pop()
            members.append(current)
            for other in neighbours[current]:
                if other not in zone and terrain[other] == terrain[label]:
                    zone[other] = len(zones)
                    stack.append(other)
        zones.append(tuple(sorted(members)))
    touching: dict[str, list[int]] = {label: [] for label in labels}
    for index, (a, b, _) in enumerate(symbols):
        touching[a].append(index)
        touching[b].append(index)
    return Board(
        labels=labels, coords=coords, terrain=terrain, neighbours=neighbours, zone=zone, zones=tuple(zones),
        berry_hexes=tuple(sorted(berries)), symbols=tuple(symbols),
        touching={k: tuple(v) for k, v in touching.items()}, starts=tuple(starts), tiles=tuple(tiles),
    )
