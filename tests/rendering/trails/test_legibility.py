"""Boards read in Discord's inline preview (about 550 px wide): panel text, coordinates, spot letters, figures.

Sizes are measured as they appear once the image is scaled to 550 px wide; text under 11 px there is a blur.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from rendering.common import PLAYER_COLORS
from rendering.trails import board_image, position_labels
from rendering.trails.board import (
    INLINE_WIDTH,
    PANEL_BG,
    PANEL_FONT,
    PANEL_HEADER,
    PANEL_ROW,
    BoardLayout,
    _fit,
    _placed_tiles,
    board_geometry,
    label_font_size,
    label_sprite,
)
from rendering.trails.sprites import figure_size, label_font
from tests.rendering.trails.boards import game_view, grid_view

NAMES = ["Alice", "Борис", "Carol", "Dmitri", "Евгения", "Frank"]


def _layout(view: dict) -> BoardLayout:
    return board_geometry(view, _placed_tiles(view), position_labels(view))


@pytest.mark.parametrize(("players", "tiles"), [(4, None), (6, None), (4, 60), (6, 100), (2, 30)])
def test_panel_text_reads_at_550_px(players: int, tiles: int | None) -> None:
    view = game_view(tiles, seed=11, players=players)
    layout = _layout(view)
    image = board_image(view, NAMES[:players], "ru")
    assert image.size == layout.size
    for role in PANEL_FONT:
        assert layout.inline(layout.panel_font(role)) >= 12, role
    assert layout.inline(layout.coord_size) >= 12
    # The panel lies under the board, across the whole width, not squeezed beside it.
    assert layout.panel_top >= layout.grid.top + layout.grid.height
    assert image.getpixel((image.width - 2, image.height - 2)) == PANEL_BG


def test_panel_text_reads_on_the_largest_boards() -> None:
    for columns in (12, 25):
        view = grid_view(125, columns)
        layout = _layout(view)
        assert min(layout.inline(layout.panel_font(role)) for role in PANEL_FONT) >= 12


@pytest.mark.parametrize(("players", "seed", "tiles"), [(4, 11, 20), (4, 11, 60), (4, 3, 110), (6, 2, 100),
                                                       (6, 1, 90), (2, 1, 100)])
def test_spot_letters_read_at_550_px(players: int, seed: int, tiles: int) -> None:
    view = game_view(tiles, seed=seed, players=players)
    layout = _layout(view)
    assert layout.grid.cols <= 24  # real boards; wider ones are the limit named in docs/games/trails.md
    face = label_font_size(layout.grid.size, layout.unit)
    assert layout.inline(face) >= 12
    assert face <= layout.grid.size * 3 // 5  # smaller than the 5/8 of a tile they were
    for label in position_labels(view):
        sprite = label_sprite(label, layout.grid.size, face)
        assert sprite.width <= layout.grid.size and sprite.height <= layout.grid.size
        # Capitals of at least 12 px text: about 0.7 of the font size, whatever the narrowing.
        assert layout.inline(sprite.height) >= 8.5


def test_two_letter_labels_are_narrowed_not_shrunk() -> None:
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    for size in (48, 56, 64):
        one = label_sprite("W", size)
        for label in [first + second for first in "AB" for second in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]:
            two = label_sprite(label, size)
            assert two.height >= one.height  # the same letters' height, never smaller
            assert two.width <= size * 9 // 10
            natural = measure.textlength(label, font=_bold(label_font_size(size)))
            assert two.width >= natural * 0.7, label  # still letters, not slivers


def _bold(size: int):
    from rendering.common import font

    return font(size, True)


def test_figures_grow_with_the_image_scale() -> None:
    # On a big board (56 px tiles, 2.5 image px per inline px) every figure's letter stays 12 px inline or
    # more, even if the figure then covers more of its tile (whose figure it is matters most).
    for kind in ("normal", "big", "builder", "keeper"):
        for tile, unit in ((56, 2.5), (48, 2.3), (96, 1.0), (40, 3.0)):
            assert label_font(kind, figure_size(kind, tile, unit)) / unit >= 12, (kind, tile, unit)
    assert figure_size("normal", 96, 1.0) == figure_size("normal", 96)
    assert figure_size("big", 56, 2.5) > figure_size("normal", 56, 2.5)


def test_long_names_are_cut_to_their_column() -> None:
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    name = "Константин Константинопольский-Щедрый"
    cut = _fit(draw, name, 30, True, 300)
    assert cut.endswith("…") and draw.textlength(cut, font=_bold(30)) <= 300
    assert _fit(draw, "Ann", 30, True, 300) == "Ann"
    view = game_view(30, seed=11, players=2)
    image = board_image(view, [name, name], "ru")
    layout = _layout(view)
    # The first name stops before the second column: the gutter between the columns stays empty.
    column = (layout.size[0] / layout.unit - 20) / 2
    gutter_x = round((10 + column - 7) * layout.unit)
    row = range(layout.panel_top + round(PANEL_HEADER * layout.unit), layout.panel_top + round(
        (PANEL_HEADER + PANEL_ROW - 6) * layout.unit))
    assert {image.getpixel((gutter_x, y)) for y in row} == {PANEL_BG}


def test_small_boards_keep_the_inline_width() -> None:
    view = game_view(1, seed=2)
    layout = _layout(view)
    assert layout.unit == 1.0 and layout.size[0] == INLINE_WIDTH
    image = board_image(view, NAMES[:4])
    assert PLAYER_COLORS["red"] in {image.getpixel((x, y)) for x in range(0, image.width, 2)
                                    for y in range(layout.panel_top, image.height, 2)}
