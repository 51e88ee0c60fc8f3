"""Boards anyone can read on a phone (issue 38): seats told apart without colour, the header, the last move,
quiet legal spots, final places and breakdown, height at most twice the width."""

from __future__ import annotations

from typing import cast

import pytest
from PIL import Image, ImageStat

from rendering.common import HEADER_HEIGHT, PLAYER_COLORS, RGB, text_on
from rendering.trails import TEXTS, board_image, position_labels
from rendering.trails.board import (
    BACKGROUND,
    EMPTY_CELL,
    LAST_MARK,
    PANEL_BG,
    _header,
    _last_turn_text,
    _placed_tiles,
    _places,
    board_geometry,
)
from rendering.trails.sprites import CITY, FIELD, ROAD, WATER, figure_sprite
from tests.rendering.colour_vision import MIN_DELTA_E, closest_pairs
from tests.rendering.trails.boards import game_view, grid_view

NAMES = ["Alice", "Борис", "Carol", "Dmitri", "Евгения", "Frank"]
KINDS = ("normal", "big", "builder", "keeper")


@pytest.mark.parametrize("ground", [BACKGROUND, EMPTY_CELL, PANEL_BG, FIELD, CITY, ROAD])
@pytest.mark.parametrize("kind", KINDS)
def test_every_figure_stands_out_from_what_it_sits_on(ground, kind) -> None:
    """A figure's edge (a light halo, then a dark rim) differs from the board, the panel and the tiles for
    every seat colour and every colour vision: a black figure shows on the dark board, any on a road."""
    for name, colour in PLAYER_COLORS.items():
        sprite = figure_sprite(kind, colour, "A", 40)
        on = Image.new("RGB", sprite.size, ground)
        on.paste(sprite, (0, 0), sprite)
        row = sprite.height * 3 // 5
        alpha = sprite.getchannel("A")
        edge = next(x for x in range(sprite.width) if cast(int, alpha.getpixel((x, row))) > 100)
        rim = [cast(RGB, on.getpixel((x, row))) for x in range(edge, edge + 6)]
        assert any(closest_pairs({"edge": c, "ground": ground}, MIN_DELTA_E) == [] for c in rim), name


def test_the_letter_on_a_figure_reads_on_every_seat_colour() -> None:
    for name, colour in PLAYER_COLORS.items():
        assert closest_pairs({"letter": text_on(colour), "figure": colour}, 2 * MIN_DELTA_E) == [], name


def _layout(view):
    return board_geometry(view, _placed_tiles(view), position_labels(view))


def test_the_header_says_who_moves_and_what_the_last_turn_did() -> None:
    view = game_view(30, seed=11)
    seat = view["turn"]["seat"]
    names = {n: NAMES[n] for n in range(4)}
    view["last_turn"] = {"seat": 1, "tile": "BA-E", "x": 3, "y": -2, "rot": 0,
                         "figure": {"kind": "normal", "feature": "city:0"}, "points": [4, 4, 0, 0]}
    assert _last_turn_text(view, names, "en") == "Борис laid a tile at 3,-2, figure on the fortress · +4, Alice +4"
    assert _last_turn_text(view, names, "ru") == "Борис: плитка на 3,-2, зверь: крепость · +4, Alice +4"
    view["last_turn"]["points"] = [0, 0, 0, 0]
    view["last_turn"]["figure"] = None
    assert _last_turn_text(view, names, "en") == "Борис laid a tile at 3,-2 · no points"
    image = board_image(view, NAMES[:4])
    layout = _layout(view)
    assert layout.header == round(HEADER_HEIGHT * layout.unit) and layout.grid.top > layout.header
    band = image.crop((0, 0, layout.size[0], layout.header))
    # The mover's mark: their seat colour in the header.
    colour = PLAYER_COLORS[view["players"][seat]["color"]]
    assert any(pixel == colour for _, pixel in band.getcolors(1 << 16) or [])
    header = _header(view, names, {n: NAMES[n][0] for n in range(4)}, "en", layout)
    assert header.size == (layout.size[0], layout.header)


def test_the_last_tile_has_the_loudest_frame() -> None:
    view = game_view(30, seed=11)
    layout = _layout(view)
    image = board_image(view, NAMES[:4])
    x, y = layout.grid.cell(*view["last_placed"])
    size = layout.grid.size
    ring = [(x + i, y) for i in range(size)] + [(x, y + i) for i in range(size)]
    assert sum(image.getpixel(p) == LAST_MARK for p in ring) > size  # all round, on every side
    for name, other in {"field": FIELD, "city": CITY, "road": ROAD, "water": WATER, "empty": EMPTY_CELL,
                        **PLAYER_COLORS}.items():
        assert closest_pairs({"mark": LAST_MARK, name: other}, MIN_DELTA_E) == []


def test_legal_spots_are_quieter_than_the_tiles() -> None:
    """A legal spot's cell differs less from the empty board than a tile does: the letters no longer shout."""
    from tests.rendering.colour_vision import delta_e

    view = game_view(40, seed=2, players=6)
    layout = _layout(view)
    image = board_image(view, NAMES)
    grid = layout.grid

    def mean(cell) -> tuple[int, int, int]:
        px, py = grid.cell(*cell)
        stat = ImageStat.Stat(image.crop((px + 2, py + 2, px + grid.size - 2, py + grid.size - 2)))
        return tuple(round(c) for c in stat.mean)  # type: ignore[return-value]

    spots = [mean(cell) for cell in position_labels(view).values()]
    tiles = [mean(cell) for cell in _placed_tiles(view)]
    loud_spot = max(delta_e(c, EMPTY_CELL) for c in spots)
    quiet_tile = sorted(delta_e(c, EMPTY_CELL) for c in tiles)[len(tiles) // 10]
    assert loud_spot < quiet_tile


def test_final_board_shows_places_and_the_breakdown() -> None:
    view = game_view(None, seed=11)
    assert view["turn"] is None
    places = _places(view)
    scores = {p["seat"]: p["score"] for p in view["players"]}
    best = max(scores.values())
    assert {s for s, place in places.items() if place == 1} == {s for s, v in scores.items() if v == best}
    assert _places({"players": [{"seat": 0, "score": 5}, {"seat": 1, "score": 9}, {"seat": 2, "score": 9},
                                {"seat": 3, "score": 20, "eliminated": True}]}) == {0: 3, 1: 1, 2: 1, 3: 4}
    from tests.rendering.inline import recorded_text

    with recorded_text() as drawn:
        board_image(view, NAMES[:4], "en")
    texts = [t for t, _ in drawn]
    winner = min(places, key=lambda s: (places[s], s))
    assert any(t.startswith(f"1. {NAMES[winner]}") for t in texts)
    assert any(t.startswith(f"{NAMES[winner]} won") for t in texts)
    points = view["players"][0]["points"]
    assert any(t.startswith(f"Trails {points['roads']} · Fortresses {points['cities']}") for t in texts)


def test_locales_name_every_new_text() -> None:
    assert set(TEXTS["en"]) == set(TEXTS["ru"])
    assert TEXTS["en"]["normal"] == "figure"  # not "meeple"


@pytest.mark.parametrize("view", [game_view(None, seed=11), game_view(40, seed=2, players=6), game_view(3, seed=1),
                                  grid_view(60, 3), grid_view(125, 25)],
                         ids=["final-4p", "middle-6p", "start", "tall-river", "wide"])
def test_the_image_is_at_most_twice_as_tall_as_wide(view) -> None:
    image = board_image(view, NAMES[:len(view["players"])])
    assert image.height <= 2 * image.width
    # ... and its text stays 12 px inline: the header's 18 px text and the panel scale with the width.
    layout = _layout(view)
    assert layout.size == image.size and round(18 * layout.unit) * 550 / image.width >= 12
