"""Tile sprites: every type in every rotation, features where the tile data puts them."""

from __future__ import annotations

import pytest

from games.trails.tiles import TILE_TYPES
from rendering.trails import geometry as geo
from rendering.trails import render_tile
from rendering.trails import sprites as sp

# Colour classes a sampled pixel may fall into; roof blocks and grass tufts are texture on city / field.
CLASSES = {
    "F": (sp.FIELD, sp.GRASS),
    "R": (sp.ROAD,),
    "C": (sp.CITY, sp.CITY_ROOF),
    "~": (sp.WATER,),
}


def _class_of(pixel: tuple[int, int, int]) -> str:
    def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
        return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))

    return min(((distance(pixel, c), kind) for kind, colors in CLASSES.items() for c in colors))[1]


def _edge_pixel(image, side: int) -> tuple[int, int, int]:
    """The pixel at the middle of a side, a few pixels inside the tile."""
    size = image.width
    inset = max(2, size // 24)
    mid = size // 2
    x, y = {0: (mid, inset), 1: (size - 1 - inset, mid), 2: (mid, size - 1 - inset), 3: (inset, mid)}[side]
    return image.getpixel((x, y))


@pytest.mark.parametrize("size", [48, 96])
def test_every_type_and_rotation_renders(size: int) -> None:
    assert len(TILE_TYPES) == 75
    for tile_id in TILE_TYPES:
        for rot in range(4):
            image = render_tile(tile_id, rot, size)
            assert image.size == (size, size)
            assert image.mode == "RGB"


@pytest.mark.parametrize("size", [48, 96])
def test_edge_middles_show_the_edge_feature_in_every_rotation(size: int) -> None:
    for tile_id, tile in TILE_TYPES.items():
        for rot in range(4):
            image = render_tile(tile_id, rot, size)
            for edge, kind in enumerate(tile.edges):
                side = (edge + rot) % 4  # rotation r shows unrotated edge e at side (e + r) % 4
                got = _class_of(_edge_pixel(image, side))
                assert got == kind, f"{tile_id} rot {rot}: side {side} shows {got}, data says {kind}"


def test_rotated_start_tile_moves_its_features() -> None:
    # BA-D is C R F R (N E S W). Turned once clockwise: city N -> E, road E -> S, field S -> W, road W -> N.
    image = render_tile("BA-D", 1, 96)
    assert [_class_of(_edge_pixel(image, side)) for side in range(4)] == ["R", "C", "R", "F"]
    # River curve RI-G is F F ~ ~ (water S and W); turned twice, the water is at N and E.
    image = render_tile("RI-G", 2, 96)
    assert [_class_of(_edge_pixel(image, side)) for side in range(4)] == ["~", "~", "F", "F"]


def test_sprites_are_cached() -> None:
    assert render_tile("BA-X", 3, 64) is render_tile("BA-X", 3, 64)
    assert render_tile("BA-X", 3, 64) is not render_tile("BA-X", 2, 64)


def test_drawn_fields_are_the_data_fields() -> None:
    """Roads, rivers, city walls and corner walls cut the free area into exactly the tile's field segments:
    each free area opens onto half-edges of one field only, and each field's half-edges open onto one area."""
    for tile_id, tile in TILE_TYPES.items():
        areas = geo.field_regions(geo.layout(tile_id), tile, merge=False)
        owner = {h: i for i, f in enumerate(tile.fields) for h in f.halves}
        for area in areas:
            assert len({owner.get(h) for h in area}) <= 1, f"{tile_id}: fields {area} run together"
            assert all(h in owner for h in area), f"{tile_id}: a city half-edge opens onto a field"
        for index, segment in enumerate(tile.fields):
            if segment.halves:
                touching = [a for a in areas if set(segment.halves) & a]
                assert len(touching) == 1, f"{tile_id}: field {index} is drawn as {len(touching)} areas"
        inner = [f for f in tile.fields if not f.halves]
        if inner:
            regions = geo.field_regions(geo.layout(tile_id), tile)
            assert all(i in regions for i, f in enumerate(tile.fields) if not f.halves), tile_id


def test_figure_anchors_lie_on_their_feature() -> None:
    """A knight stands inside its city, a farmer on field colour, a thief on road colour (unrotated, 96 px)."""
    for tile_id, tile in TILE_TYPES.items():
        image = render_tile(tile_id, 0, 96)
        plan = geo.layout(tile_id)
        for ref in tile.feature_refs():
            kind = ref.partition(":")[0]
            if kind == "monastery":
                continue
            x, y = plan.anchor(ref)
            got = _class_of(image.getpixel((min(95, int(x * 96)), min(95, int(y * 96)))))
            expected = {"city": "C", "road": "R", "field": "F"}[kind]
            assert got == expected, f"{tile_id} {ref} at {(x, y)} lies on {got}"
            if kind == "city":
                assert geo.inside((x, y), plan.cities[int(ref.partition(":")[2])].polygon), f"{tile_id} {ref}"
