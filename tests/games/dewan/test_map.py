"""The map content and layouts: totals of the realm tiles, the lattice, rotations, zones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.dewan import data as D
from games.dewan.board import build, rotate, tile_centre


def test_realm_tile_totals() -> None:
    # 13 hexes each of B, M, D, F; 14 W; 4 X; 14 berry hexes; 26 symbols (9 art, 9 pig, 8 cry).
    terrains = Counter(t for hexes, _, _ in D.REALM_TILES.values() for t in hexes)
    assert terrains == {"B": 13, "M": 13, "D": 13, "F": 13, "W": 14, "X": 4}
    assert sum(len(b) for _, b, _ in D.REALM_TILES.values()) == 14
    assert Counter(k for *_, s in D.REALM_TILES.values() for *_, k in s) == {"art": 9, "pig": 9, "cry": 8}
    for hexes, berries, symbols in D.REALM_TILES.values():  # nothing on the start hex, no berry on water
        assert all(hexes[b] not in "WX" for b in berries)
        assert all(hexes[a] != "X" and hexes[b] != "X" for a, b, _ in symbols)


def test_deck_and_story_totals() -> None:
    assert Counter(t for ts, _ in D.CARDS.values() for t in ts) == {t: 17 for t in D.TERRAINS}
    assert Counter(s for _, s in D.CARDS.values()) == {None: 18, "fire": 10, "berry": 9, "art": 6, "pig": 6,
                                                       "cry": 6}
    assert all(s is None for ts, s in D.CARDS.values() if len(ts) == 2 and "W" not in ts)
    assert sum(p for _, p, _ in D.STORIES.values()) == 126 and sum(f for *_, f in D.STORIES.values()) == 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_layouts_tile_the_plane_and_start_tiles_touch_two_neutral_tiles(players: int) -> None:
    slots = D.LAYOUTS[players]
    rng = random.Random(players)
    layout = tuple((rng.choice(D.START_TILES if s[3] else D.NEUTRAL_TILES), rng.randrange(6)) for s in slots)
    board = build(players, layout)
    assert len(set(board.coords.values())) == len(board.coords) == 7 * len(slots)  # no overlap
    centres = {s[0]: tile_centre(s[1], s[2]) for s in slots}

    def touching(a: str, b: str) -> bool:
        return any(h2 in board.neighbours[h1] for h1 in board.labels if h1[0] == a
                   for h2 in board.labels if h2[0] == b)

    for letter, *_, start in slots:
        if start:
            others = [s[0] for s in slots if s[0] != letter and touching(letter, s[0])]
            assert sorted(others) == sorted(o for o in others if not dict((s[0], s[3]) for s in slots)[o])
            assert len(others) == 2, (letter, others)
    assert len(centres) == len(slots)
    land = sum(1 for t in board.terrain.values() if t in D.LAND)
    assert land > 8 * players


def test_rotation_moves_content_and_keeps_labels_geometric() -> None:
    # S1 turned by 1: the content of ring position 1 (F) moves to position 2; the centre stays.
    assert [rotate(p, 1) for p in range(7)] == [0, 2, 3, 4, 5, 6, 1]
    plain = build(2, (("S1", 0), ("S2", 0), ("N1", 0), ("N2", 0)))
    turned = build(2, (("S1", 1), ("S2", 0), ("N1", 0), ("N2", 0)))
    assert turned.terrain["A2"] == plain.terrain["A1"] == "F" and turned.terrain["A0"] == "X"
    assert turned.coords["A1"] == plain.coords["A1"]
    assert "A3" in turned.berry_hexes and ("A2", "A3", "pig") in turned.symbols


def test_zones_are_connected_terrain_groups_across_tiles() -> None:
    board = build(2, (("S1", 0), ("S2", 0), ("N1", 0), ("N2", 0)))
    multi = sorted(z for z in board.zones if len(z) > 1)
    assert multi == [("A1", "A6", "C1", "D3"), ("A4", "C2"), ("B1", "B6"), ("B3", "C6"), ("C0", "C5"),
                     ("D0", "D1")]
    assert "A0" not in board.zone
