"""Board, preview and labels: what the image shows matches the view."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from rendering.common import PLAYER_COLORS
from rendering.trails import (
    TEXTS,
    board_image,
    position_labels,
    preview_image,
    render_board,
    render_preview,
    render_tile,
)
from rendering.trails import geometry as geo
from rendering.trails.board import EMPTY_CELL, _placed_tiles, board_geometry
from rendering.trails.data import tile_types
from tests.rendering.trails.boards import game_view, grid_view, matched_view

EIGHT_MB = 8 * 1024 * 1024


def _one_tile_view(figures: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game": "trails",
        "players": [
            {"seat": 0, "color": "red", "score": 0, "figures_left": 6, "big_left": 1, "builder_left": 1,
             "keeper_left": 1, "goods": {"honey": 0, "grain": 0, "flax": 0}, "eliminated": False},
            {"seat": 1, "color": "blue", "score": 0, "figures_left": 7, "big_left": 1, "builder_left": 1,
             "keeper_left": 1, "goods": {"honey": 0, "grain": 0, "flax": 0}, "eliminated": False},
        ],
        "board": [{"x": 0, "y": 0, "tile": "BA-E", "rot": 2}],  # city cap turned to the south edge
        "figures": figures,
        "turn": None,
        "remaining": 0,
        "set_aside": [],
        "last_placed": [0, 0],
        "options": {"expansions": []},
    }


def _decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _cell_pixels_near(image: Image.Image, box: tuple[int, int, int, int], color: tuple[int, int, int],
                      tolerance: int = 40) -> list[tuple[int, int]]:
    crop = image.crop(box)
    hits = []
    for y in range(crop.height):
        for x in range(crop.width):
            pixel = crop.getpixel((x, y))
            if all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=True)):
                hits.append((x, y))
    return hits


def test_figure_on_a_city_is_drawn_in_the_player_colour_at_the_city() -> None:
    with_knight = _one_tile_view([{"seat": 0, "x": 0, "y": 0, "kind": "normal", "feature": "city:0"}])
    without = _one_tile_view([])
    grid = board_geometry(with_knight, _placed_tiles(with_knight), {}).grid
    left, top = grid.cell(0, 0)
    box = (left, top, left + grid.size, top + grid.size)
    red = PLAYER_COLORS["red"]
    hits = _cell_pixels_near(_decode(render_board(with_knight)), box, red)
    assert len(hits) > grid.size  # a meeple body, not a stray pixel
    assert not _cell_pixels_near(_decode(render_board(without)), box, red)
    # The tile is turned twice, so its city lies along the south edge: the knight stands in the lower part.
    mean_y = sum(y for _, y in hits) / len(hits)
    assert mean_y > grid.size * 0.6


@pytest.mark.parametrize("kind", ["normal", "big", "builder", "keeper"])
def test_every_figure_kind_draws_in_the_player_colour(kind: str) -> None:
    feature = "field:0" if kind == "keeper" else "city:0"
    view = _one_tile_view([{"seat": 1, "x": 0, "y": 0, "kind": kind, "feature": feature}])
    grid = board_geometry(view, _placed_tiles(view), {}).grid
    left, top = grid.cell(0, 0)
    hits = _cell_pixels_near(board_image(view), (left, top, left + grid.size, top + grid.size), PLAYER_COLORS["blue"],
                             tolerance=10)
    assert len(hits) > grid.size // 2


def test_big_meeple_is_bigger_than_a_normal_one() -> None:
    def blue_pixels(kind: str) -> int:
        view = _one_tile_view([{"seat": 1, "x": 0, "y": 0, "kind": kind, "feature": "city:0"}])
        grid = board_geometry(view, _placed_tiles(view), {}).grid
        left, top = grid.cell(0, 0)
        return len(_cell_pixels_near(board_image(view), (left, top, left + grid.size, top + grid.size),
                                     PLAYER_COLORS["blue"], tolerance=10))

    assert blue_pixels("big") > blue_pixels("normal") * 1.3


def test_labels_are_in_reading_order_and_drawn_on_exactly_those_cells() -> None:
    view = matched_view(20, seed=5)
    labels = position_labels(view)
    legal = {tuple(p) for p in view["turn"]["legal_positions"]}
    assert set(labels.values()) == legal and len(labels) == len(legal)
    assert list(labels) == [chr(ord("A") + i) for i in range(len(labels))]
    assert list(labels.values()) == sorted(legal, key=lambda p: (p[1], p[0]))

    image = board_image(view)
    tiles = _placed_tiles(view)
    grid = board_geometry(view, tiles, labels).grid
    marked = set()
    for x in range(grid.x0, grid.x0 + grid.cols):
        for y in range(grid.y0, grid.y0 + grid.rows):
            left, top = grid.cell(x, y)
            # A point inside the cell, clear of the label text in the middle and of the dashed edge.
            probe = (left + grid.size // 5, top + grid.size // 5)
            if (x, y) not in tiles and image.getpixel(probe) != EMPTY_CELL:
                marked.add((x, y))
    assert marked == set(labels.values())


def test_labels_go_past_z() -> None:
    view = _one_tile_view([])
    view["turn"] = {"seat": 0, "tile": "BA-U", "placed": None, "phase": "place",
                    "legal_positions": [[x, 1] for x in range(30)], "legal_rotations": {}}
    labels = position_labels(view)
    assert list(labels)[24:28] == ["Y", "Z", "AA", "AB"]
    assert labels["AA"] == (26, 1)


def test_size_limits_on_a_125_tile_board() -> None:
    for columns in (12, 25, 125):  # square-ish, wide, and a single row (a long river)
        view = grid_view(125, columns)
        png = render_board(view, ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"], "ru")
        image = _decode(png)
        assert max(image.size) <= 4096
        assert len(png) < EIGHT_MB


def test_real_games_render_early_middle_and_finished() -> None:
    for tiles in (1, 40, None):
        view = game_view(tiles, seed=7)
        png = render_board(view, ["Alice", "Борис", "Carol", "Dmitri"], "ru")
        image = _decode(png)
        assert image.width > 300 and max(image.size) <= 4096 and len(png) < EIGHT_MB
        if tiles is None:
            assert view["turn"] is None


def test_board_tiles_are_the_cached_sprites() -> None:
    view = game_view(25, seed=3)
    tiles = _placed_tiles(view)
    grid = board_geometry(view, tiles, position_labels(view)).grid
    image = board_image(view)
    figure_cells = {(f["x"], f["y"]) for f in view["figures"]}
    (x, y), (tile_id, rot) = next((p, t) for p, t in tiles.items() if p not in figure_cells and p != (0, 0)
                                  and p != tuple(view["last_placed"]))
    left, top = grid.cell(x, y)
    assert image.crop((left, top, left + grid.size, top + grid.size)).tobytes() == \
        render_tile(tile_id, rot, grid.size).tobytes()


def test_preview_draws_the_current_tile_at_the_chosen_spot_and_rotation() -> None:
    view = game_view(10, seed=4)
    label, (x, y) = next(iter(position_labels(view).items()))
    rot = view["turn"]["legal_rotations"][f"{x},{y}"][0]
    image = preview_image(view, x, y, rot, locale="ru")
    sprite = render_tile(view["turn"]["tile"], rot, 96)
    # 5 x 5 tiles of 96 px plus margins; the centre cell holds the sprite exactly.
    assert image.width >= 5 * 96
    found = any(
        image.crop((left, top, left + 96, top + 96)).tobytes() == sprite.tobytes()
        for left in range(0, image.width - 95) for top in range(0, image.height - 95)
        if (left, top) == _preview_cell(image)
    )
    assert found
    assert _decode(render_preview(view, x, y, rot)).size == image.size


def _preview_cell(image: Image.Image) -> tuple[int, int]:
    # The preview window is 5 cells wide with the chosen spot in the middle; margins are equal on both sides.
    margin = (image.width - 5 * 96) // 2
    caption = image.height - image.width
    return (margin + 2 * 96, margin + caption + 2 * 96)


def test_pending_placement_is_drawn_on_the_board() -> None:
    view = game_view(10, seed=4)
    x, y = next(iter(position_labels(view).values()))
    rot = view["turn"]["legal_rotations"][f"{x},{y}"][0]
    view["turn"] = dict(view["turn"], placed={"x": x, "y": y, "rot": rot}, phase="figure", legal_positions=[],
                        legal_rotations={})
    tiles = _placed_tiles(view)
    tiles[(x, y)] = (view["turn"]["tile"], rot)
    grid = board_geometry(view, tiles, {}).grid
    left, top = grid.cell(x, y)
    image = board_image(view)
    inner = image.crop((left + 8, top + 8, left + grid.size - 8, top + grid.size - 8))
    sprite = render_tile(view["turn"]["tile"], rot, grid.size).crop((8, 8, grid.size - 8, grid.size - 8))
    assert inner.tobytes() == sprite.tobytes()


def test_locales_have_the_same_keys_and_change_the_panel() -> None:
    assert set(TEXTS["en"]) == set(TEXTS["ru"])
    view = game_view(5, seed=2)
    assert board_image(view, locale="en").tobytes() != board_image(view, locale="ru").tobytes()
    # An unknown locale falls back to English.
    assert board_image(view, locale="de").tobytes() == board_image(view, locale="en").tobytes()


def test_figure_anchor_follows_rotation() -> None:
    # BA-E's city is on the north edge; turned once it is on the east edge, so the knight moves east.
    north = geo.layout("BA-E").anchor("city:0")
    east = geo.rotate_point(north, 1)
    assert north[1] < 0.3 and east[0] > 0.7


def test_preview_shows_the_chosen_figure_in_the_colour_of_the_player_to_move() -> None:
    view = game_view(10, seed=4)
    x, y = next(iter(position_labels(view).values()))
    rot = view["turn"]["legal_rotations"][f"{x},{y}"][0]
    seat = view["turn"]["seat"]
    color = next(PLAYER_COLORS[p["color"]] for p in view["players"] if p["seat"] == seat)
    feature = tile_types()[view["turn"]["tile"]].feature_refs()[0]
    left, top = _preview_cell(preview_image(view, x, y, rot))
    box = (left, top, left + 96, top + 96)
    plain = preview_image(view, x, y, rot)
    with_figure = preview_image(view, x, y, rot, figure=("big", feature))
    assert plain.size == with_figure.size
    assert len(_cell_pixels_near(with_figure, box, color)) > 96
    assert len(_cell_pixels_near(with_figure, box, color)) > len(_cell_pixels_near(plain, box, color))


def test_the_public_board_draws_nothing_of_an_unconfirmed_placement() -> None:
    from games.trails import GAME, Figure
    from games.trails.actions import CONFIRM

    state = GAME.setup(2, {"expansions": "inns"}, 6)
    mover = GAME.to_act(state)[0]
    before = render_board(GAME.view(state, None))
    placed = None
    for action in GAME.legal_actions(state, mover):
        GAME.apply(state, mover, action)
        figures = [a for a in GAME.legal_actions(state, mover) if isinstance(a, Figure)]
        if figures:
            GAME.apply(state, mover, figures[0])
            placed = action
            break
        GAME.apply(state, mover, GAME.parse("undo"))
    assert placed is not None
    public = GAME.view(state, None)
    assert render_board(public) == before  # not the tile, not the figure, not the missing labels
    assert render_board(GAME.view(state, 1 - mover)) == before
    # The mover's own view shows the tile laid, with the chosen figure on it.
    mine = GAME.view(state, mover)
    image = board_image(mine)
    tiles = _placed_tiles(mine)
    tiles[(placed.x, placed.y)] = (mine["turn"]["tile"], placed.rot)
    grid = board_geometry(mine, tiles, {}).grid
    left, top = grid.cell(placed.x, placed.y)
    box = (left, top, left + grid.size, top + grid.size)
    color = next(PLAYER_COLORS[p["color"]] for p in mine["players"] if p["seat"] == mover)
    assert len(_cell_pixels_near(image, box, color)) > 20
    GAME.apply(state, mover, CONFIRM)
    assert render_board(GAME.view(state, None)) != before
