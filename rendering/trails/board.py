"""Board images for Trails & Fortresses: the whole board with a panel under it, and a close-up preview.

Drawn from the public view only (``GAME.view(state, None)``). Tiles come from cached sprites and are pasted;
only the overlays (labels, outlines, coordinates, panel text) are drawn per image.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.trails.turn import spot_labels
from rendering.common import HEADER_HEIGHT, PLAYER_COLORS, fit_text, font, header_strip
from rendering.trails import geometry as geo
from rendering.trails.sprites import (
    GOODS_COLORS,
    GOODS_LETTERS,
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
        "normal": "figure",
        "big": "big",
        "builder": "builder",
        "keeper": "keeper",
        "preview": "Preview {x}, {y} · {deg}°",
        "out": "out",
        "header_move": "{name} to move",
        "header_won": "{names} won · {score}",
        "header_won_many": "{names} won together · {score}",
        "last_tile": "{name} laid a tile at {x},{y}",
        "last_figure": ", {kind} on the {feature}",
        "last_points": "+{points}",
        "last_points_of": "{name} +{points}",
        "last_nothing": "no points",
        "kind_normal": "figure",
        "kind_big": "big figure",
        "kind_builder": "builder",
        "kind_keeper": "keeper",
        "feature_city": "fortress",
        "feature_road": "trail",
        "feature_field": "meadow",
        "feature_monastery": "abbey",
        "place": "{place}.",
        "roads": "Trails {points}",
        "cities": "Fortresses {points}",
        "monasteries": "Abbeys {points}",
        "fields": "Meadows {points}",
        "goods": "Goods {points}",
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
        "header_move": "Ходит {name}",
        "header_won": "Победа: {names} · {score}",
        "header_won_many": "Победа на всех: {names} · {score}",
        "last_tile": "{name}: плитка на {x},{y}",
        "last_figure": ", {kind}: {feature}",
        "last_points": "+{points}",
        "last_points_of": "{name} +{points}",
        "last_nothing": "без очков",
        "kind_normal": "зверь",
        "kind_big": "старший зверь",
        "kind_builder": "зодчий",
        "kind_keeper": "хранитель",
        "feature_city": "крепость",
        "feature_road": "тропа",
        "feature_field": "луг",
        "feature_monastery": "обитель",
        "place": "{place}.",
        "roads": "Тропы {points}",
        "cities": "Крепости {points}",
        "monasteries": "Обители {points}",
        "fields": "Луга {points}",
        "goods": "Товары {points}",
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
LAST_MARK = (0, 255, 255)  # the last tile's frame: cyan, far from every tile, seat and spot colour (tested)
# Legal spots are quieter than the tiles: a faint wash, a thin dashed edge and a light letter.
LEGAL_FILL = (255, 236, 140, 28)
LEGAL_EDGE = (214, 200, 130, 170)
LEGAL_LETTER = (236, 226, 176)

MAX_SIDE = 4096
BOARD_BUDGET = 1200  # the board's longer side aims for about this many pixels (the image is about 1.5 times as tall)
PNG_COMPRESS_LEVEL = 3  # measured: level 6 doubles encoding time for 10% smaller files

# Discord shows an image about this many pixels wide in the channel. Text is sized in pixels as seen there
# and multiplied by the image's scale, so it reads without opening the image however large the board grows.
INLINE_WIDTH = 550
PANEL_FONT = {"title": 15, "text": 13, "name": 14, "score": 17, "count": 13, "small": 12}
COORD_FONT = 12
COORD_MARGIN = COORD_FONT * 2 + 4  # room for "-10" beside the board, in inline pixels
PANEL_COLUMNS = 2
PANEL_HEADER = 92  # inline pixels: current tile, facts, legend
PANEL_ROW = 54  # inline pixels per row of players
PANEL_ROW_FINAL = 78  # a finished game's row adds the score breakdown on two lines
ICON = 19  # inline pixels of the supply's figure and goods icons (goods letters 12 px)
MAX_ASPECT = 2.0  # a phone shows the first image whole when it is at most twice as tall as wide


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
    header: int = 0  # px of the one-line header above the board

    def panel_font(self, role: str) -> int:
        return _scaled(PANEL_FONT[role], self.unit)

    def inline(self, pixels: float) -> float:
        """A length on this image as seen in Discord's inline preview."""
        return pixels * INLINE_WIDTH / self.size[0]


def _margin_for(size: int) -> tuple[int, int]:
    """(font size, margin width) for the coordinate labels around the preview."""
    text_size = max(11, min(16, size // 5))
    return text_size, text_size * 2 + 6


def _unit_for(board_px: int) -> float:
    """Image pixels per inline pixel for a board window ``board_px`` wide plus its coordinate margins.
    Rounded up to a tenth: panel sprites of the same few sizes are reused from the caches, and the image,
    exactly ``INLINE_WIDTH * unit`` wide, shows every size drawn as ``n * unit`` at n px or more inline."""
    width = board_px * INLINE_WIDTH / (INLINE_WIDTH - 2 * COORD_MARGIN)
    return max(1.0, math.ceil(width / INLINE_WIDTH * 10 - 1e-9) / 10)


def _scaled(size: float, unit: float) -> int:
    """``size`` inline px in image px, never below ``size`` once the image is shown inline."""
    return math.ceil(size * unit - 1e-9)


def _panel_inline(players: int, over: bool) -> int:
    rows = (max(1, players) + PANEL_COLUMNS - 1) // PANEL_COLUMNS
    return PANEL_HEADER + rows * (PANEL_ROW_FINAL if over else PANEL_ROW) + 6


def _panel_height(players: int, unit: float, over: bool = False) -> int:
    return round(_panel_inline(players, over) * unit)


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
    width = max(1, size // 40)
    dash = max(4, size // 8)
    for start in range(0, size, dash * 2):
        end = min(size - 1, start + dash)
        for line in ((start, 0, end, 0), (start, size - 1, end, size - 1), (0, start, 0, end),
                     (size - 1, start, size - 1, end)):
            draw.line(line, fill=LEGAL_EDGE, width=width)
    return overlay


@lru_cache(maxsize=1024)
def label_sprite(label: str, size: int, font_size: int | None = None) -> Image.Image:
    """A legal spot's label for a tile of ``size`` px: a light letter with a thin dark edge, quieter than the
    tiles around it yet 12 px or more inline (``font_size``, from ``label_font_size``). Two letters ("AB",
    past 26 spots) are narrowed to fit the tile rather than made smaller: the height reads."""
    face = font(font_size or label_font_size(size), True)
    stroke = max(1, face.size // 12)
    left, top, right, bottom = face.getbbox(label, anchor="mm", stroke_width=stroke)
    # Even about the anchor, so that pasting the sprite's centre on the spot's centre centres the text.
    half_w, half_h = int(max(-left, right)), int(max(-top, bottom))
    sprite = Image.new("RGBA", (2 * half_w, 2 * half_h), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((half_w, half_h), label, font=face, fill=LEGAL_LETTER + (235,), anchor="mm",
                                stroke_width=stroke, stroke_fill=(24, 26, 30, 220))
    room = size * 9 // 10
    if sprite.width > room:
        sprite = sprite.resize((room, sprite.height), Image.Resampling.LANCZOS)
    return sprite


def _draw_legal(canvas: Image.Image, grid: _Grid, labels: dict[str, tuple[int, int]], unit: float) -> None:
    overlay = _legal_overlay(grid.size)
    face = label_font_size(grid.size, unit)
    for label, (x, y) in labels.items():
        if not grid.contains(x, y):
            continue
        px, py = grid.cell(x, y)
        canvas.paste(overlay, (px, py), overlay)
        sprite = label_sprite(label, grid.size, face)
        at = (px + (grid.size - sprite.width) // 2, py + (grid.size - sprite.height) // 2)
        canvas.paste(sprite, at, sprite)


def _outline(draw: ImageDraw.ImageDraw, grid: _Grid, x: int, y: int, color: tuple[int, int, int], width: int) -> None:
    """A thick frame around a tile, drawn half outside it, with dark edges so it shows on any neighbour."""
    px, py = grid.cell(x, y)
    out = width // 2
    edge = max(1, width // 4)
    draw.rectangle((px - out - edge, py - out - edge, px + grid.size + out + edge - 1,
                    py + grid.size + out + edge - 1), outline=(20, 20, 20), width=width + 2 * edge)
    draw.rectangle((px - out, py - out, px + grid.size + out - 1, py + grid.size + out - 1), outline=color,
                   width=width)


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
    places = _places(view) if turn is None else {}
    row_height = PANEL_ROW_FINAL if turn is None else PANEL_ROW
    column = (inline_width - 20) / PANEL_COLUMNS
    goods_letters = GOODS_LETTERS.get(locale, GOODS_LETTERS["en"])
    for index, player in enumerate(view.get("players") or []):
        seat = player["seat"]
        cx = 10 + (index % PANEL_COLUMNS) * column
        cy = PANEL_HEADER + (index // PANEL_COLUMNS) * row_height
        color = _player_color(view, seat)
        dim = player.get("eliminated", False)
        frame = color if seat == turn_seat else (
            LAST_PLACED if places.get(seat) == 1 and not dim else None)  # winners in gold
        if frame is not None:
            draw.rectangle((*at(cx - 5, cy - 3), *at(cx + column - 9, cy + row_height - 5)), fill=(60, 67, 78),
                           outline=frame, width=max(2, round(2 * u)))
        icon = figure_sprite("normal", color, seat_labels[seat], round(24 * u))
        canvas.paste(icon, at(cx, cy), icon)
        name_color = PANEL_DIM if dim else PANEL_TEXT
        score = str(player.get("score", 0))
        score_x = cx + column - 15
        draw.text(at(score_x, cy + 1), score, font=face("score", True), fill=name_color, anchor="ra")
        name_room = (score_x - cx - 30 - 8 - draw.textlength(score, font=face("score", True)) / u) * u
        name = names[seat] if seat not in places else text["place"].format(place=places[seat]) + " " + names[seat]
        draw.text(at(cx + 30, cy + 3), _fit(draw, name, layout.panel_font("name"), True, name_room),
                  font=face("name", True), fill=name_color)
        sx, sy = cx + 2, cy + 37.0
        if dim:
            draw.text(at(sx, sy), text["out"], font=face("small"), fill=PANEL_DIM, anchor="lm")
            continue
        if turn is None and player.get("points"):
            # The final breakdown, on two lines: what each kind of feature brought.
            points = player["points"]
            lines = (["roads", "cities", "monasteries"], ["fields"] + ["goods"] * traders)
            for line_no, categories in enumerate(lines):
                line = " · ".join(text[c].format(points=points.get(c, 0)) for c in categories)
                draw.text(at(sx, sy - 6 + 20 * line_no), _fit(draw, line, layout.panel_font("small"), False,
                                                               (column - 14) * u),
                          font=face("small"), fill=PANEL_TEXT, anchor="lm")
            continue
        # Supply: one icon per figure kind with its count, then goods tokens (their letters 12 px inline).
        for kind in kinds:
            small = figure_sprite(kind, color, "", round(ICON * u))
            x, y = at(sx, sy + ICON / 2)
            canvas.paste(small, (x, y - small.height), small)
            count = str(player.get(counts[kind], 0))
            count_x = sx + small.width / u + 2
            draw.text(at(count_x, sy), count, font=face("count", True), fill=name_color, anchor="lm")
            sx = count_x + draw.textlength(count, font=face("count", True)) / u + 5
        if traders:
            for goods in GOODS_COLORS:
                x, y = at(sx + ICON / 2, sy)
                goods_icon(draw, (x, y), ICON * u, goods, goods_letters[goods])
                count = str((player.get("goods") or {}).get(goods, 0))
                draw.text(at(sx + ICON + 2, sy), count, font=face("count", True), fill=name_color, anchor="lm")
                sx += ICON + 2 + draw.textlength(count, font=face("count", True)) / u + 5


def _places(view: dict[str, Any]) -> dict[int, int]:
    """Each seat's place at the end: by score, ties sharing a place (1, 1, 3), players who left after the rest."""
    players = view.get("players") or []
    key = {p["seat"]: (bool(p.get("eliminated")), -int(p.get("score", 0))) for p in players}
    return {seat: 1 + sum(other < mine for other in key.values()) for seat, mine in key.items()}


def _header(view: dict[str, Any], names: dict[int, str], seat_labels: dict[int, str], locale: str,
            layout: BoardLayout) -> Image.Image:
    """The line above the board: who is to move (their mark: colour and letter) or who won, then what the
    last turn did and scored."""
    text = _text(locale)
    turn = view.get("turn")
    places = _places(view)
    if turn:
        seat = int(turn.get("seat", 0))
        head = text["header_move"].format(name=names.get(seat, "?"))
    else:
        winners = [s for s, place in places.items() if place == 1]
        seat = winners[0] if winners else 0
        best = next((p.get("score", 0) for p in view.get("players") or [] if p["seat"] == seat), 0)
        head = text["header_won_many" if len(winners) > 1 else "header_won"].format(
            names=", ".join(names.get(s, "?") for s in winners), score=best)
    mark = (_player_color(view, seat), seat_labels.get(seat, "?"))
    if turn:
        detail = _last_turn_text(view, names, locale)
    else:  # the other places, best first (the panel has every breakdown)
        scores = {p["seat"]: p.get("score", 0) for p in view.get("players") or []}
        detail = " · ".join(text["place"].format(place=place) + f" {names.get(s, '?')} {scores[s]}"
                            for s, place in sorted(places.items(), key=lambda item: (item[1], item[0])) if place > 1)
    return header_strip(layout.size[0], head, mark, detail, scale=layout.unit)


def _last_turn_text(view: dict[str, Any], names: dict[int, str], locale: str) -> str:
    last = view.get("last_turn")
    if not last:
        return ""
    text = _text(locale)
    seat = int(last["seat"])
    out = text["last_tile"].format(name=names.get(seat, "?"), x=last["x"], y=last["y"])
    figure = last.get("figure")
    if figure:
        feature = str(figure.get("feature", "")).partition(":")[0]
        out += text["last_figure"].format(kind=text.get(f"kind_{figure.get('kind')}", ""),
                                          feature=text.get(f"feature_{feature}", feature))
    points = last.get("points") or []
    gains = [(s, n) for s, n in enumerate(points) if n]
    if not gains:
        return out + " · " + text["last_nothing"]
    # The mover's own points first and without a name; others' (a shared fortress) with theirs.
    gains.sort(key=lambda gain: gain[0] != seat)
    return out + " · " + ", ".join(text["last_points"].format(points=n) if s == seat else
                                   text["last_points_of"].format(name=names.get(s, "?"), points=n)
                                   for s, n in gains)


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


def label_font_size(size: int, unit: float = 1.0) -> int:
    """Font size of the spot labels on tiles of ``size`` px: 12 px inline (``unit`` image px per inline px)
    or 2/5 of the tile, whichever is larger, so that the letters stay smaller than the tiles' art."""
    return max(_scaled(12, unit), size * 2 // 5)


def board_geometry(view: dict[str, Any], tiles: dict[tuple[int, int], tuple[str, int]],
                   labels: dict[str, tuple[int, int]]) -> BoardLayout:
    """Where the header, the board window with its coordinates and the panel under it lie, cropped to the
    played area; never more than ``MAX_ASPECT`` times as tall as wide (a tall board widens the image)."""
    cells = set(tiles) | set(labels.values()) or {(0, 0)}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    # Legal spots already ring the tiles; without them one empty ring shows where play can grow.
    ring = 0 if labels else 1
    x0, x1, y0, y1 = min(xs) - ring, max(xs) + ring, min(ys) - ring, max(ys) + ring
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    players = len(view.get("players") or [])
    over = not view.get("turn")
    size = _tile_size(cols, rows, players)
    unit = _unit_for(cols * size)
    # Everything but the board's tiles scales with the unit: header, coordinates, panel (inline px).
    fixed = HEADER_HEIGHT + 2 * COORD_MARGIN + _panel_inline(players, over)
    if rows * size + fixed * unit > MAX_ASPECT * INLINE_WIDTH * unit:
        unit = max(unit, math.ceil(rows * size / (MAX_ASPECT * INLINE_WIDTH - fixed) * 10) / 10)
    margin = round(COORD_MARGIN * unit)
    header = round(HEADER_HEIGHT * unit)
    # The panel goes under the board, not beside it: beside, it would take a third of the 550 inline pixels.
    width = max(cols * size + 2 * margin, round(INLINE_WIDTH * unit))
    panel_top = header + rows * size + 2 * margin
    grid = _Grid(x0, y0, cols, rows, size, (width - cols * size) // 2, header + margin)
    return BoardLayout(grid, _scaled(COORD_FONT, unit), margin, unit, panel_top,
                       (width, panel_top + _panel_height(players, unit, over)), header)


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
    names_by_seat = _names(view, names, locale)
    seat_labels = _seat_labels(view, names)
    canvas.paste(_header(view, names_by_seat, seat_labels, locale, layout), (0, 0))

    _draw_tiles(canvas, draw, grid, tiles, locale)
    _draw_coordinates(canvas, grid, layout.coord_size, layout.margin)
    if labels and not pending:
        _draw_legal(canvas, grid, labels, layout.unit)
    last = pending or (tuple(view["last_placed"]) if view.get("last_placed") else None)
    if last is not None and grid.contains(int(last[0]), int(last[1])):
        # The loudest mark on the board, under the figures so that none is hidden: 3 px inline.
        _outline(draw, grid, int(last[0]), int(last[1]), LAST_MARK, max(3, round(3 * layout.unit)))
    _draw_figures(canvas, grid, view, tiles, seat_labels, layout.unit)
    _draw_panel(canvas, draw, layout, view, names_by_seat, seat_labels, locale)
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
