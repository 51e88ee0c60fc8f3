"""Board images for Trails & Fortresses: the whole board with a panel under it, and a close-up preview.

Drawn from the public view only (``GAME.view(state, None)``). Tiles come from cached sprites and are pasted;
only the overlays (labels, outlines, coordinates, panel text) are drawn per image.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.trails.turn import spot_labels
from rendering.common import PLAYER_COLORS, fit_text, font
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
BOARD_BUDGET = 1200  # the board's longer side aims for about this many pixels (the image is about 1.5 times as tall)
PNG_COMPRESS_LEVEL = 3  # measured: level 6 doubles encoding time for 10% smaller files

# Discord shows an image about this many pixels wide in the channel. Text is sized in pixels as seen there
# and multiplied by the image's scale, so it reads without opening the image however large the board grows.
INLINE_WIDTH = 550
PANEL_FONT = {"title": 15, "text": 13, "name": 14, "score": 17, "count": 12, "small": 12}
COORD_FONT = 11
COORD_MARGIN = COORD_FONT * 2 + 4  # room for "-10" beside the board, in inline pixels
PANEL_COLUMNS = 2
PANEL_HEADER = 92  # inline pixels: current tile, facts, legend
PANEL_ROW = 50  # inline pixels per row of players


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


@dataclass(frozen=True)
class BoardLayout:
    """Where everything lies on a board image; ``unit`` is image pixels per pixel seen inline in Discord."""

    grid: _Grid
    coord_size: int
    margin: int
    unit: float
    panel_top: int
    size: tuple[int, int]

    def panel_font(self, role: str) -> int:
        return max(1, round(PANEL_FONT[role] * self.unit))

    def inline(self, pixels: float) -> float:
        """A length on this image as seen in Discord's inline preview."""
        return pixels * INLINE_WIDTH / self.size[0]


def _margin_for(size: int) -> tuple[int, int]:
    """(font size, margin width) for the coordinate labels around the preview."""
    text_size = max(11, min(16, size // 5))
    return text_size, text_size * 2 + 6


def _unit_for(board_px: int) -> float:
    """Image pixels per inline pixel for a board window ``board_px`` wide plus its coordinate margins.
    Rounded down to a tenth so that panel sprites of the same few sizes are reused from the caches."""
    width = board_px * INLINE_WIDTH / (INLINE_WIDTH - 2 * COORD_MARGIN)
    return max(1.0, int(width / INLINE_WIDTH * 10) / 10)


def _panel_height(players: int, unit: float) -> int:
    rows = (max(1, players) + PANEL_COLUMNS - 1) // PANEL_COLUMNS
    return round((PANEL_HEADER + rows * PANEL_ROW + 6) * unit)


# Tile sizes come from a short ladder so that, as the board grows, sprites drawn for earlier images are reused.
SIZE_LADDER = (96, 84, 72, 64, 56, 48, 40, 32, 24, 16)


def _tile_size(cols: int, rows: int, players: int) -> int:
    wanted = max(48, min(96, BOARD_BUDGET // max(cols, rows)))
    for size in SIZE_LADDER:
        unit = _unit_for(cols * size)
        margin = round(COORD_MARGIN * unit)
        # Never exceed Discord-friendly dimensions, even for a long thin river snake.
        fits = (cols * size + 2 * margin <= MAX_SIDE
                and rows * size + 2 * margin + _panel_height(players, unit) <= MAX_SIDE)
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


@lru_cache(maxsize=512)
def _coordinate_mask(text: str, size: int) -> Image.Image:
    """A coordinate drawn once as a mask: a board repeats the same few numbers on four sides, image after image."""
    face = font(size, True)
    left, top, right, bottom = face.getbbox(text, anchor="mm")
    mask = Image.new("L", (int(right - left), int(bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="mm")
    return mask


def _draw_coordinates(canvas: Image.Image, grid: _Grid, text_size: int, margin: int) -> None:
    def put(text: str, cx: int, cy: int) -> None:
        mask = _coordinate_mask(text, text_size)
        canvas.paste(MARGIN_TEXT, (cx - mask.width // 2, cy - mask.height // 2), mask)

    for i in range(grid.cols):
        cx = grid.left + i * grid.size + grid.size // 2
        for cy in (grid.top - margin // 2, grid.top + grid.height + margin // 2):
            put(str(grid.x0 + i), cx, cy)
    for j in range(grid.rows):
        cy = grid.top + j * grid.size + grid.size // 2
        for cx in (grid.left - margin // 2, grid.left + grid.width + margin // 2):
            put(str(grid.y0 + j), cx, cy)


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


@lru_cache(maxsize=1024)
def label_sprite(label: str, size: int) -> Image.Image:
    """A spot's label, dark with a light outline, for a tile of ``size`` px: letters 5/8 of the tile high.
    Two letters ("AB", past 26 spots) are narrowed to fit the tile rather than made smaller: on a wide board
    a tile is barely 23 px in Discord's inline view, and the height of a letter is what makes it readable."""
    face = font(label_font_size(size), True)
    stroke = max(2, size // 16)
    left, top, right, bottom = face.getbbox(label, anchor="mm", stroke_width=stroke)
    # Even about the anchor, so that pasting the sprite's centre on the spot's centre centres the text.
    half_w, half_h = int(max(-left, right)), int(max(-top, bottom))
    sprite = Image.new("RGBA", (2 * half_w, 2 * half_h), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((half_w, half_h), label, font=face, fill=INK, anchor="mm", stroke_width=stroke,
                                stroke_fill=(255, 250, 220))
    room = size * 9 // 10
    if sprite.width > room:
        sprite = sprite.resize((room, sprite.height), Image.Resampling.LANCZOS)
    return sprite


def _draw_legal(canvas: Image.Image, grid: _Grid, labels: dict[str, tuple[int, int]]) -> None:
    overlay = _legal_overlay(grid.size)
    for label, (x, y) in labels.items():
        if not grid.contains(x, y):
            continue
        px, py = grid.cell(x, y)
        canvas.paste(overlay, (px, py), overlay)
        sprite = label_sprite(label, grid.size)
        at = (px + (grid.size - sprite.width) // 2, py + (grid.size - sprite.height) // 2)
        canvas.paste(sprite, at, sprite)


def _outline(draw: ImageDraw.ImageDraw, grid: _Grid, x: int, y: int, color: tuple[int, int, int], width: int) -> None:
    px, py = grid.cell(x, y)
    draw.rectangle((px - 1, py - 1, px + grid.size, py + grid.size), outline=(20, 20, 20), width=1)
    draw.rectangle((px, py, px + grid.size - 1, py + grid.size - 1), outline=color, width=width)


def _draw_figures(canvas: Image.Image, grid: _Grid, view: dict[str, Any],
                  tiles: dict[tuple[int, int], tuple[str, int]], seat_labels: dict[int, str],
                  unit: float = 1.0) -> None:
    for figure in view.get("figures") or []:
        x, y = int(figure["x"]), int(figure["y"])
        if (x, y) not in tiles or not grid.contains(x, y):
            continue
        tile_id, rot = tiles[(x, y)]
        ax, ay = _figure_anchor(tile_id, rot, figure.get("feature", "monastery"))
        kind = figure.get("kind", "normal")
        seat = int(figure["seat"])
        sprite = figure_sprite(kind, _player_color(view, seat), seat_labels.get(seat, "?"), figure_size(kind, grid.size, unit))
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


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    return fit_text(draw, text, font(size, bold), width)


def _draw_panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, layout: BoardLayout, view: dict[str, Any],
                names: dict[int, str], seat_labels: dict[int, str], locale: str) -> None:
    """The panel under the board: current tile, tiles left, who moves, a legend, then the players in two
    columns. Laid out in inline pixels (what a player sees in the channel) times ``layout.unit``."""
    text = _text(locale)
    u = layout.unit
    top = layout.panel_top
    width = canvas.width

    def at(x: float, y: float) -> tuple[int, int]:
        return round(x * u), top + round(y * u)

    def face(role: str, bold: bool = False):
        return font(layout.panel_font(role), bold)

    draw.rectangle((0, top, width, canvas.height), fill=PANEL_BG)
    draw.line((0, top, width, top), fill=GRID_LINE, width=max(1, round(u)))
    inline_width = width / u
    turn = view.get("turn")
    info_x = 10.0
    if turn and turn.get("tile"):
        rot = int((turn.get("placed") or {}).get("rot", 0))
        box = round(72 * u) // 8 * 8  # a few sizes only, so the tile sprite comes from the cache
        x, y = at(10, 8)
        draw.rectangle((x - 2, y - 2, x + box + 1, y + box + 1), fill=(20, 20, 20))
        canvas.paste(render_tile(turn["tile"], rot, box, locale), (x, y))
        info_x = 10 + box / u + 12
        draw.text(at(info_x, 70), "◀ " + text["current"], font=face("small"), fill=PANEL_DIM)
    draw.text(at(info_x, 6), text["title"], font=face("title", True), fill=PANEL_TEXT)
    facts_y = 28.0
    if not turn:
        draw.text(at(info_x, facts_y), text["game_over"], font=face("title", True), fill=LAST_PLACED)
        facts_y += 22
    draw.text(at(info_x, facts_y), text["tiles_left"].format(n=view.get("remaining", 0)), font=face("text", True),
              fill=PANEL_TEXT)

    inns, traders = _in_play(view)
    kinds = ["normal"] + ["big"] * inns + ["builder", "keeper"] * traders
    # Legend of the figure shapes at the right, so the icons below read without the rules at hand.
    legend_x = inline_width - 10 - 2 * 90
    for index, kind in enumerate(kinds):
        lx, ly = legend_x + (index % 2) * 90, 28 + (index // 2) * 22
        small = figure_sprite(kind, (200, 200, 200), "", round((19 if kind == "big" else 16) * u))
        x, y = at(lx, ly + 18)
        canvas.paste(small, (x, y - small.height), small)
        draw.text((x + small.width + round(3 * u), y - round(8 * u)), text[kind], font=face("small"), fill=PANEL_DIM,
                  anchor="lm")
    if turn:
        seat = int(turn.get("seat", 0))
        mover = text["to_move"].format(name="")
        draw.text(at(info_x, facts_y + 22), mover, font=face("text"), fill=PANEL_DIM)
        name_x = info_x + draw.textlength(mover, font=face("text")) / u + 4
        draw.text(at(name_x, facts_y + 21), _fit(draw, names.get(seat, "?"), layout.panel_font("name"), True,
                                                 (legend_x - 8 - name_x) * u),
                  font=face("name", True), fill=_player_color(view, seat))

    counts = {"normal": "figures_left", "big": "big_left", "builder": "builder_left", "keeper": "keeper_left"}
    turn_seat = turn.get("seat") if turn else None
    best = max((p.get("score", 0) for p in view.get("players") or [] if not p.get("eliminated")), default=None)
    column = (inline_width - 20) / PANEL_COLUMNS
    goods_letters = GOODS_LETTERS.get(locale, GOODS_LETTERS["en"])
    for index, player in enumerate(view.get("players") or []):
        seat = player["seat"]
        cx = 10 + (index % PANEL_COLUMNS) * column
        cy = PANEL_HEADER + (index // PANEL_COLUMNS) * PANEL_ROW
        color = _player_color(view, seat)
        dim = player.get("eliminated", False)
        frame = color if seat == turn_seat else (
            LAST_PLACED if turn is None and player.get("score", 0) == best and not dim else None)  # winners in gold
        if frame is not None:
            draw.rectangle((*at(cx - 5, cy - 3), *at(cx + column - 9, cy + PANEL_ROW - 5)), fill=(60, 67, 78),
                           outline=frame, width=max(2, round(2 * u)))
        icon = figure_sprite("normal", color, seat_labels[seat], round(24 * u))
        canvas.paste(icon, at(cx, cy), icon)
        name_color = PANEL_DIM if dim else PANEL_TEXT
        score = str(player.get("score", 0))
        score_x = cx + column - 15
        draw.text(at(score_x, cy + 1), score, font=face("score", True), fill=name_color, anchor="ra")
        name_room = (score_x - cx - 30 - 8 - draw.textlength(score, font=face("score", True)) / u) * u
        draw.text(at(cx + 30, cy + 3), _fit(draw, names[seat], layout.panel_font("name"), True, name_room),
                  font=face("name", True), fill=name_color)
        sx, sy = cx + 2, cy + 35.0
        if dim:
            draw.text(at(sx, sy), text["out"], font=face("small"), fill=PANEL_DIM, anchor="lm")
            continue
        # Supply: one small icon per figure kind with its count, then goods tokens.
        for kind in kinds:
            small = figure_sprite(kind, color, "", round((19 if kind == "big" else 16) * u))
            x, y = at(sx, sy + 8)
            canvas.paste(small, (x, y - small.height), small)
            count = str(player.get(counts[kind], 0))
            count_x = sx + small.width / u + 2
            draw.text(at(count_x, sy), count, font=face("count", True), fill=name_color, anchor="lm")
            sx = count_x + draw.textlength(count, font=face("count", True)) / u + 7
        if traders:
            for goods in GOODS_COLORS:
                x, y = at(sx + 7, sy)
                goods_icon(draw, (x, y), 15 * u, goods, goods_letters[goods])
                count = str((player.get("goods") or {}).get(goods, 0))
                draw.text(at(sx + 16, sy), count, font=face("count", True), fill=name_color, anchor="lm")
                sx += 16 + draw.textlength(count, font=face("count", True)) / u + 7


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


def label_font_size(size: int) -> int:
    """Font size of the spot labels on tiles of ``size`` px: as large as the spot allows, since Discord shows
    a board about 550 px wide inline and a player must read the letter there."""
    return max(10, size * 5 // 8)


def board_geometry(view: dict[str, Any], tiles: dict[tuple[int, int], tuple[str, int]],
                   labels: dict[str, tuple[int, int]]) -> BoardLayout:
    """Where the board window, its coordinates and the panel under it lie, cropped to the played area."""
    cells = set(tiles) | set(labels.values()) or {(0, 0)}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    # Legal spots already ring the tiles; without them one empty ring shows where play can grow.
    ring = 0 if labels else 1
    x0, x1, y0, y1 = min(xs) - ring, max(xs) + ring, min(ys) - ring, max(ys) + ring
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    players = len(view.get("players") or [])
    size = _tile_size(cols, rows, players)
    unit = _unit_for(cols * size)
    margin = round(COORD_MARGIN * unit)
    # The panel goes under the board, not beside it: beside, it would take a third of the 550 inline pixels.
    width = max(cols * size + 2 * margin, round(INLINE_WIDTH * unit))
    panel_top = rows * size + 2 * margin
    grid = _Grid(x0, y0, cols, rows, size, (width - cols * size) // 2, margin)
    return BoardLayout(grid, round(COORD_FONT * unit), margin, unit, panel_top,
                       (width, panel_top + _panel_height(players, unit)))


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

    layout = board_geometry(view, tiles, labels)
    grid = layout.grid
    canvas = Image.new("RGB", layout.size, BACKGROUND)
    draw = ImageDraw.Draw(canvas)

    _draw_tiles(canvas, draw, grid, tiles, locale)
    _draw_coordinates(canvas, grid, layout.coord_size, layout.margin)
    if labels and not pending:
        _draw_legal(canvas, grid, labels)
    seat_labels = _seat_labels(view, names)
    _draw_figures(canvas, grid, view, tiles, seat_labels, layout.unit)
    last = pending or (tuple(view["last_placed"]) if view.get("last_placed") else None)
    if last is not None and grid.contains(int(last[0]), int(last[1])):
        _outline(draw, grid, int(last[0]), int(last[1]), LAST_PLACED, max(2, grid.size // 20))
    _draw_panel(canvas, draw, layout, view, _names(view, names, locale), seat_labels, locale)
    return canvas


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en",
                 highlight_legal: bool = True) -> bytes:
    """PNG of the whole board with coordinates, legal positions (labels as in ``position_labels``), the last
    placed tile outlined, and a panel under it with the current tile, tiles left and the players."""
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
    _draw_coordinates(canvas, grid, text_size, margin)
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
