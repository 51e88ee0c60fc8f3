"""Board images for Trails & Fortresses: the whole board with a side panel, and a close-up preview.

Drawn from the public view only (``GAME.view(state, None)``). Tiles come from cached sprites and are pasted;
only the overlays (labels, outlines, coordinates, panel text) are drawn per image.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.trails.turn import spot_labels
from rendering.common import PLAYER_COLORS, font
from rendering.trails import geometry as geo
from rendering.trails.sprites import (
    GOODS_COLORS,
    GOODS_LETTERS,
    INK,
    figure_size,
    figure_sprite,
    goods_icon,
    render_tile,
)

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Trails & Fortresses",
        "current": "Current tile",
        "tiles_left": "Tiles left: {n}",
        "to_move": "To move: {name}",
        "game_over": "Game over",
        "player": "Player {n}",
        "normal": "meeple",
        "big": "big",
        "builder": "builder",
        "keeper": "keeper",
        "preview": "Preview {x}, {y} · {deg}°",
        "out": "out",
    },
    "ru": {
        "title": "Тропы и крепости",
        "current": "Текущая плитка",
        "tiles_left": "Осталось плиток: {n}",
        "to_move": "Ходит: {name}",
        "game_over": "Игра окончена",
        "player": "Игрок {n}",
        "normal": "зверь",
        "big": "старший",
        "builder": "зодчий",
        "keeper": "хранитель",
        "preview": "Просмотр {x}, {y} · {deg}°",
        "out": "выбыл",
    },
}

BACKGROUND = (34, 38, 44)
EMPTY_CELL = (52, 58, 66)
GRID_LINE = (64, 71, 80)
MARGIN_TEXT = (190, 196, 204)
PANEL_BG = (44, 49, 57)
PANEL_TEXT = (232, 234, 238)
PANEL_DIM = (150, 156, 166)
LAST_PLACED = (255, 214, 64)
LEGAL_FILL = (255, 236, 140, 90)
LEGAL_EDGE = (255, 236, 140)

MAX_SIDE = 4096
BOARD_BUDGET = 1400  # the board's longer side aims for about this many pixels
PANEL_WIDTH = 360
PNG_COMPRESS_LEVEL = 3  # measured: level 6 doubles encoding time for 10% smaller files


def _text(locale: str) -> dict[str, str]:
    return TEXTS.get(locale, TEXTS["en"])


# ---- labels and figures --------------------------------------------------------------------------------


def position_labels(view: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Labels of the current tile's legal positions as drawn on the board (the engine's ``spot_labels``)."""
    turn = view.get("turn") or {}
    return spot_labels(turn.get("legal_positions") or [])


def _seat_labels(view: dict[str, Any], names: list[str] | None) -> dict[int, str]:
    """The mark on each player's figures: the name's initial when initials are unique, else the seat number."""
    seats = [p["seat"] for p in view["players"]]
    if names and len(names) >= len(seats):
        initials = {seat: (names[seat].strip()[:1] or "?").upper() for seat in seats}
        if len(set(initials.values())) == len(initials):
            return initials
    return {seat: str(seat + 1) for seat in seats}


def _player_color(view: dict[str, Any], seat: int) -> tuple[int, int, int]:
    for player in view["players"]:
        if player["seat"] == seat:
            return PLAYER_COLORS.get(player.get("color", ""), (200, 200, 200))
    return (200, 200, 200)


def _names(view: dict[str, Any], names: list[str] | None, locale: str) -> dict[int, str]:
    out = {}
    for player in view["players"]:
        seat = player["seat"]
        out[seat] = names[seat] if names and seat < len(names) and names[seat] else _text(locale)["player"].format(
            n=seat + 1)
    return out


def _figure_anchor(tile_id: str, rot: int, feature: str) -> geo.Point:
    try:
        return geo.rotate_point(geo.layout(tile_id).anchor(feature), rot)
    except (KeyError, IndexError, ValueError):
        return geo.CENTRE


# ---- layout of the board area --------------------------------------------------------------------------


class _Grid:
    """Maps board coordinates to pixels for a window of cells."""

    def __init__(self, x0: int, y0: int, cols: int, rows: int, size: int, left: int, top: int) -> None:
        self.x0, self.y0, self.cols, self.rows, self.size, self.left, self.top = x0, y0, cols, rows, size, left, top

    def cell(self, x: int, y: int) -> tuple[int, int]:
        return (self.left + (x - self.x0) * self.size, self.top + (y - self.y0) * self.size)

    def contains(self, x: int, y: int) -> bool:
        return 0 <= x - self.x0 < self.cols and 0 <= y - self.y0 < self.rows

    @property
    def width(self) -> int:
        return self.cols * self.size

    @property
    def height(self) -> int:
        return self.rows * self.size


def _margin_for(size: int) -> tuple[int, int]:
    """(font size, margin width) for the coordinate labels around the board."""
    text_size = max(11, min(16, size // 5))
    return text_size, text_size * 2 + 6


# Tile sizes come from a short ladder so that, as the board grows, sprites drawn for earlier images are reused.
SIZE_LADDER = (96, 84, 72, 64, 56, 48, 40, 32, 24, 16)


def _tile_size(cols: int, rows: int, panel: int) -> int:
    wanted = max(48, min(96, BOARD_BUDGET // max(cols, rows)))
    for size in SIZE_LADDER:
        margin = _margin_for(size)[1]
        # Never exceed Discord-friendly dimensions, even for a long thin river snake.
        fits = cols * size + 2 * margin + panel <= MAX_SIDE and rows * size + 2 * margin <= MAX_SIDE
        if size <= wanted and fits:
            return size
    return SIZE_LADDER[-1]


def _placed_tiles(view: dict[str, Any]) -> dict[tuple[int, int], tuple[str, int]]:
    return {(int(t["x"]), int(t["y"])): (t["tile"], int(t.get("rot", 0)) % 4) for t in view.get("board") or []}


def _draw_tiles(canvas: Image.Image, draw: ImageDraw.ImageDraw, grid: _Grid,
                tiles: dict[tuple[int, int], tuple[str, int]], locale: str) -> None:
    size = grid.size
    draw.rectangle((grid.left, grid.top, grid.left + grid.width - 1, grid.top + grid.height - 1), fill=EMPTY_CELL)
    for i in range(grid.cols + 1):
        x = grid.left + i * size
        draw.line((x, grid.top, x, grid.top + grid.height), fill=GRID_LINE)
    for j in range(grid.rows + 1):
        y = grid.top + j * size
        draw.line((grid.left, y, grid.left + grid.width, y), fill=GRID_LINE)
    for (x, y), (tile_id, rot) in tiles.items():
        if grid.contains(x, y):
            canvas.paste(render_tile(tile_id, rot, size, locale), grid.cell(x, y))


def _draw_coordinates(draw: ImageDraw.ImageDraw, grid: _Grid, text_size: int, margin: int) -> None:
    label_font = font(text_size, True)
    for i in range(grid.cols):
        cx = grid.left + i * grid.size + grid.size // 2
        for cy in (grid.top - margin // 2, grid.top + grid.height + margin // 2):
            draw.text((cx, cy), str(grid.x0 + i), font=label_font, fill=MARGIN_TEXT, anchor="mm")
    for j in range(grid.rows):
        cy = grid.top + j * grid.size + grid.size // 2
        for cx in (grid.left - margin // 2, grid.left + grid.width + margin // 2):
            draw.text((cx, cy), str(grid.y0 + j), font=label_font, fill=MARGIN_TEXT, anchor="mm")


@lru_cache(maxsize=32)
def _legal_overlay(size: int) -> Image.Image:
    overlay = Image.new("RGBA", (size, size), LEGAL_FILL)
    draw = ImageDraw.Draw(overlay)
    width = max(2, size // 28)
    dash = max(4, size // 8)
    for start in range(0, size, dash * 2):
        end = min(size - 1, start + dash)
        for line in ((start, 0, end, 0), (start, size - 1, end, size - 1), (0, start, 0, end),
                     (size - 1, start, size - 1, end)):
            draw.line(line, fill=LEGAL_EDGE + (255,), width=width)
    return overlay


def _draw_legal(canvas: Image.Image, draw: ImageDraw.ImageDraw, grid: _Grid, labels: dict[str, tuple[int, int]]) -> None:
    overlay = _legal_overlay(grid.size)
    # Letters as large as the spot allows: Discord shows a board about 550 px wide inline, a third of its
    # size or less, and a player must read the letter there without opening the image.
    label_font = font(max(10, grid.size * 3 // 5 if all(len(k) == 1 for k in labels) else grid.size * 9 // 20),
                      True)
    for label, (x, y) in labels.items():
        if not grid.contains(x, y):
            continue
        px, py = grid.cell(x, y)
        canvas.paste(overlay, (px, py), overlay)
        centre = (px + grid.size / 2, py + grid.size / 2)
        draw.text(centre, label, font=label_font, fill=INK, anchor="mm", stroke_width=max(2, grid.size // 16),
                  stroke_fill=(255, 250, 220))


def _outline(draw: ImageDraw.ImageDraw, grid: _Grid, x: int, y: int, color: tuple[int, int, int], width: int) -> None:
    px, py = grid.cell(x, y)
    draw.rectangle((px - 1, py - 1, px + grid.size, py + grid.size), outline=(20, 20, 20), width=1)
    draw.rectangle((px, py, px + grid.size - 1, py + grid.size - 1), outline=color, width=width)


def _draw_figures(canvas: Image.Image, grid: _Grid, view: dict[str, Any],
                  tiles: dict[tuple[int, int], tuple[str, int]], seat_labels: dict[int, str]) -> None:
    for figure in view.get("figures") or []:
        x, y = int(figure["x"]), int(figure["y"])
        if (x, y) not in tiles or not grid.contains(x, y):
            continue
        tile_id, rot = tiles[(x, y)]
        ax, ay = _figure_anchor(tile_id, rot, figure.get("feature", "monastery"))
        kind = figure.get("kind", "normal")
        seat = int(figure["seat"])
        sprite = figure_sprite(kind, _player_color(view, seat), seat_labels.get(seat, "?"), figure_size(kind, grid.size))
        px, py = grid.cell(x, y)
        # Anchors near the tile edge keep the figure inside its own tile.
        left = min(max(px, round(px + ax * grid.size - sprite.width / 2)), px + grid.size - sprite.width)
        top = min(max(py, round(py + ay * grid.size - sprite.height / 2)), py + grid.size - sprite.height)
        canvas.paste(sprite, (left, top), sprite)


# ---- side panel ----------------------------------------------------------------------------------------


def _in_play(view: dict[str, Any]) -> tuple[bool, bool]:
    """(big meeples in play, builders/keepers/goods in play), from the options when given, else the view."""
    expansions = (view.get("options") or {}).get("expansions")
    if isinstance(expansions, (list, tuple, str)):
        text = ",".join(expansions) if not isinstance(expansions, str) else expansions
        return "inns" in text, "traders" in text
    players = view.get("players") or []
    kinds = {f.get("kind") for f in view.get("figures") or []}
    inns = "big" in kinds or any(p.get("big_left", 0) for p in players)
    traders = bool({"builder", "keeper"} & kinds) or any(
        p.get("builder_left", 0) or p.get("keeper_left", 0) or any((p.get("goods") or {}).values()) for p in players)
    return inns, traders


def _panel_height(view: dict[str, Any]) -> int:
    return 270 + 66 * len(view.get("players") or []) + 40


def _draw_panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, left: int, view: dict[str, Any],
                names: dict[int, str], seat_labels: dict[int, str], locale: str) -> None:
    text = _text(locale)
    height = canvas.height
    draw.rectangle((left, 0, canvas.width, height), fill=PANEL_BG)
    x = left + 18
    y = 16
    draw.text((x, y), text["title"], font=font(20, True), fill=PANEL_TEXT)
    y += 38
    turn = view.get("turn")
    tile_box = 150
    if turn and turn.get("tile"):
        rot = int((turn.get("placed") or {}).get("rot", 0))
        draw.text((x, y), text["current"], font=font(14), fill=PANEL_DIM)
        sprite = render_tile(turn["tile"], rot, tile_box, locale)
        draw.rectangle((x - 3, y + 21, x + tile_box + 2, y + 24 + tile_box), fill=(20, 20, 20))
        canvas.paste(sprite, (x, y + 23))
        draw.text((x, y + tile_box + 28), turn["tile"], font=font(12), fill=PANEL_DIM)
    else:
        draw.text((x, y), text["game_over"], font=font(22, True), fill=LAST_PLACED)
        tile_box = -16  # no tile to show: the facts move to the left edge and the players move up
    info_x = x + tile_box + 16
    draw.text((info_x, y + 24 if turn else y + 36), text["tiles_left"].format(n=view.get("remaining", 0)), font=font(14, True),
              fill=PANEL_TEXT)
    if turn:
        seat = int(turn.get("seat", 0))
        draw.text((info_x, y + 48), text["to_move"].format(name=""), font=font(14), fill=PANEL_DIM)
        draw.text((info_x, y + 68), names.get(seat, "?")[:14], font=font(15, True), fill=_player_color(view, seat))
    y += max(tile_box + 56, 110)

    inns, traders = _in_play(view)
    kinds = ["normal"] + ["big"] * inns + ["builder", "keeper"] * traders
    counts = {"normal": "figures_left", "big": "big_left", "builder": "builder_left", "keeper": "keeper_left"}
    turn_seat = turn.get("seat") if turn else None
    best = max((p.get("score", 0) for p in view.get("players") or [] if not p.get("eliminated")), default=None)
    for player in view.get("players") or []:
        seat = player["seat"]
        color = _player_color(view, seat)
        dim = player.get("eliminated", False)
        if seat == turn_seat:
            draw.rectangle((left + 6, y - 4, canvas.width - 6, y + 58), fill=(60, 67, 78), outline=color, width=2)
        elif turn is None and player.get("score", 0) == best and not dim:
            # Game over: the winners' rows are framed in gold.
            draw.rectangle((left + 6, y - 4, canvas.width - 6, y + 58), fill=(60, 67, 78), outline=LAST_PLACED, width=2)
        icon = figure_sprite("normal", color, seat_labels[seat], 40)
        canvas.paste(icon, (x - 4, y), icon)
        name_color = PANEL_DIM if dim else PANEL_TEXT
        name = names[seat] if len(names[seat]) <= 18 else names[seat][:17] + "…"
        draw.text((x + 42, y + 2), name, font=font(16, True), fill=name_color)
        if dim:
            draw.text((x + 42, y + 22), text["out"], font=font(12), fill=PANEL_DIM)
        draw.text((canvas.width - 16, y + 2), str(player.get("score", 0)), font=font(22, True), fill=name_color,
                  anchor="ra")
        # Supply: one small icon per figure kind with its count, then goods tokens.
        sx = x + 42
        sy = y + 28
        for kind in kinds:
            small = figure_sprite(kind, color, "", 24 if kind == "big" else 19)
            canvas.paste(small, (sx, sy + 20 - small.height), small)
            draw.text((sx + small.width + 2, sy + 11), str(player.get(counts[kind], 0)), font=font(13, True),
                      fill=name_color, anchor="lm")
            sx += small.width + 22
        if traders:
            for goods in GOODS_COLORS:
                goods_icon(draw, (sx + 9, sy + 10), 17, goods, GOODS_LETTERS.get(locale, GOODS_LETTERS["en"])[goods])
                draw.text((sx + 21, sy + 10), str((player.get("goods") or {}).get(goods, 0)), font=font(13, True),
                          fill=name_color, anchor="lm")
                sx += 36
        y += 66

    # Legend of the figure shapes, so the icons above read without the rules at hand.
    sx = x
    y += 4
    for kind in kinds:
        small = figure_sprite(kind, (200, 200, 200), "", 24 if kind == "big" else 19)
        canvas.paste(small, (sx, y + 20 - small.height), small)
        draw.text((sx + small.width + 3, y + 11), text[kind], font=font(12), fill=PANEL_DIM, anchor="lm")
        sx += small.width + 3 + round(draw.textlength(text[kind], font=font(12))) + 12


# ---- public entry points -------------------------------------------------------------------------------


@cache
def board_palette() -> Image.Image:
    """The boards' 256 colours, learned once from a reference board: every tile art, all six player colours,
    the panel and antialiased text, all expansions. Mapping a board onto a fixed palette costs half of
    finding a palette for each board (the octree), and the boards look the same: they are flat colours."""
    from games.trails import GAME  # a real position to learn from; rendering may use the engines

    state = GAME.setup(6, {"expansions": "river,inns,traders"}, 7)
    for turn in range(400):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, actions[(turn * 7919) % len(actions)])
    reference = board_image(GAME.view(state, None), [f"Игрок {n} Player" for n in range(6)], "ru")
    return reference.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(image: Image.Image) -> bytes:
    """PNG with the boards' fixed 256-colour palette: Pillow's RGB PNG path spends ~80 ms on filtering a
    finished board even at compress level 0, while a palette image is 3x smaller and quick to encode."""
    palette = image.quantize(palette=board_palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def board_geometry(view: dict[str, Any], tiles: dict[tuple[int, int], tuple[str, int]],
                   labels: dict[str, tuple[int, int]]) -> tuple[_Grid, int, int, tuple[int, int]]:
    """Where the board window lies: (grid, coordinate font size, margin, image size)."""
    cells = set(tiles) | set(labels.values()) or {(0, 0)}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    # Legal spots already ring the tiles; without them one empty ring shows where play can grow.
    ring = 0 if labels else 1
    x0, x1, y0, y1 = min(xs) - ring, max(xs) + ring, min(ys) - ring, max(ys) + ring
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    size = _tile_size(cols, rows, PANEL_WIDTH)
    text_size, margin = _margin_for(size)
    board_w, board_h = cols * size + 2 * margin, rows * size + 2 * margin
    height = min(MAX_SIDE, max(board_h, _panel_height(view)))
    top = margin + max(0, (height - board_h) // 2)
    return _Grid(x0, y0, cols, rows, size, margin, top), text_size, margin, (board_w + PANEL_WIDTH, height)


def board_image(view: dict[str, Any], names: list[str] | None = None, locale: str = "en",
                highlight_legal: bool = True) -> Image.Image:
    """The board picture as a Pillow image (``render_board`` encodes it)."""
    tiles = _placed_tiles(view)
    turn = view.get("turn") or {}
    labels = position_labels(view) if highlight_legal else {}
    # Only the mover's own view holds an unconfirmed placement (and figure); public views never do.
    placed = turn.get("placed")
    pending: tuple[int, int] | None = None
    if placed and turn.get("tile") and (int(placed["x"]), int(placed["y"])) not in tiles:
        pending = (int(placed["x"]), int(placed["y"]))
        tiles[pending] = (turn["tile"], int(placed.get("rot", 0)) % 4)
        if placed.get("figure"):
            chosen = {"seat": turn.get("seat", 0), "x": pending[0], "y": pending[1], **placed["figure"]}
            view = {**view, "figures": [*(view.get("figures") or []), chosen]}

    grid, text_size, margin, (width, height) = board_geometry(view, tiles, labels)
    board_w = width - PANEL_WIDTH
    canvas = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(canvas)

    _draw_tiles(canvas, draw, grid, tiles, locale)
    _draw_coordinates(draw, grid, text_size, margin)
    if labels and not pending:
        _draw_legal(canvas, draw, grid, labels)
    seat_labels = _seat_labels(view, names)
    _draw_figures(canvas, grid, view, tiles, seat_labels)
    last = pending or (tuple(view["last_placed"]) if view.get("last_placed") else None)
    if last is not None and grid.contains(int(last[0]), int(last[1])):
        _outline(draw, grid, int(last[0]), int(last[1]), LAST_PLACED, max(2, grid.size // 20))
    _draw_panel(canvas, draw, board_w, view, _names(view, names, locale), seat_labels, locale)
    return canvas


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en",
                 highlight_legal: bool = True) -> bytes:
    """PNG of the whole board with coordinates, legal positions (labels as in ``position_labels``), the last
    placed tile outlined, and a side panel with the current tile, tiles left and the players."""
    return encode_png(board_image(view, names, locale, highlight_legal))


def preview_image(view: dict[str, Any], x: int, y: int, rot: int, names: list[str] | None = None,
                  locale: str = "en", figure: tuple[str, str] | None = None) -> Image.Image:
    radius = 2
    size = 96
    tiles = _placed_tiles(view)
    turn = view.get("turn") or {}
    tile_id = turn.get("tile")
    text_size, margin = _margin_for(size)
    caption = 30
    span = 2 * radius + 1
    canvas = Image.new("RGB", (span * size + 2 * margin, span * size + 2 * margin + caption), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    grid = _Grid(x - radius, y - radius, span, span, size, margin, margin + caption)
    _draw_tiles(canvas, draw, grid, tiles, locale)
    _draw_coordinates(draw, grid, text_size, margin)
    seat_labels = _seat_labels(view, names)
    _draw_figures(canvas, grid, view, tiles, seat_labels)
    # Dim the surroundings a little so the candidate tile stands out.
    board_box = (grid.left, grid.top, grid.left + grid.width, grid.top + grid.height)
    region = canvas.crop(board_box)
    canvas.paste(Image.blend(region, Image.new("RGB", region.size, BACKGROUND), 0.35), board_box[:2])
    px, py = grid.cell(x, y)
    if tile_id:
        canvas.paste(render_tile(tile_id, rot, size, locale), (px, py))
        if figure is not None:  # the figure the player is about to put on the new tile
            kind, feature = figure
            chosen = {**view, "figures": [{"seat": turn.get("seat", 0), "x": x, "y": y, "kind": kind, "feature": feature}]}
            _draw_figures(canvas, grid, chosen, {(x, y): (tile_id, rot)}, seat_labels)
    glow = max(3, size // 16)
    draw.rectangle((px - glow, py - glow, px + size + glow - 1, py + size + glow - 1), outline=LAST_PLACED, width=glow)
    caption_text = _text(locale)["preview"].format(x=x, y=y, deg=(rot % 4) * 90)
    draw.text((canvas.width // 2, caption // 2 + 4), caption_text, font=font(16, True), fill=PANEL_TEXT, anchor="mm")
    return canvas


def render_preview(view: dict[str, Any], x: int, y: int, rot: int, names: list[str] | None = None,
                   locale: str = "en", figure: tuple[str, str] | None = None) -> bytes:
    """PNG close-up (5x5 tiles around (x, y)) with the current tile drawn at (x, y) in rotation ``rot``, and
    the chosen ``figure`` (kind, feature) on it in the colour of the player to move."""
    return encode_png(preview_image(view, x, y, rot, names, locale, figure))
