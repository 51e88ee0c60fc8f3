"""Tile and figure sprites, drawn procedurally (no copyrighted art) and cached.

A tile sprite is drawn once per (tile type, size, locale) unrotated at 2x, scaled down, and turned with an exact
transpose for each rotation; boards are composed from these sprites by pasting. Figures are small RGBA
sprites cached per (kind, colour, label, size).
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.common import font, text_on
from rendering.trails import geometry as geo
from rendering.trails.data import tile_types

RGB = tuple[int, int, int]

FIELD: RGB = (126, 176, 84)
GRASS: RGB = (108, 158, 70)
ROAD: RGB = (240, 230, 204)
ROAD_EDGE: RGB = (128, 110, 86)
CITY: RGB = (206, 160, 104)
CITY_ROOF: RGB = (188, 138, 86)
WALL: RGB = (150, 140, 128)
WALL_EDGE: RGB = (84, 70, 58)
WATER: RGB = (70, 142, 212)
WATER_EDGE: RGB = (38, 92, 160)
PENNANT: RGB = (40, 78, 168)
WHITE: RGB = (250, 250, 245)
INK: RGB = (40, 34, 30)
ROOF_RED: RGB = (182, 62, 48)
STONE: RGB = (228, 220, 204)

GOODS_COLORS: dict[str, RGB] = {"honey": (232, 158, 28), "grain": (236, 206, 70), "flax": (128, 150, 236)}
GOODS_LETTERS: dict[str, dict[str, str]] = {
    "en": {"honey": "H", "grain": "G", "flax": "F"},
    "ru": {"honey": "М", "grain": "З", "flax": "Л"},
}

SUPERSAMPLE = 2
ROTATE = {1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_90}


def _centered_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: RGB) -> None:
    draw.text(centre, text, font=font(max(6, size), True), fill=fill, anchor="mm")


# ---- tiles ---------------------------------------------------------------------------------------------


def render_tile(tile_id: str, rot: int, size: int, locale: str = "en") -> Image.Image:
    """One tile sprite (RGB, ``size`` x ``size``) in rotation ``rot`` (quarter turns clockwise). Cached:
    callers must not draw on the returned image (copy it first)."""
    return _rotated_tile(tile_id, rot % 4, size, locale if locale in GOODS_LETTERS else "en")


@lru_cache(maxsize=2048)
def _rotated_tile(tile_id: str, rot: int, size: int, locale: str) -> Image.Image:
    terrain = _terrain(tile_id, size)
    image = terrain.copy() if rot == 0 else terrain.transpose(ROTATE[rot])
    # Buildings, shields and letters stay upright whatever the tile's rotation.
    _draw_icons(ImageDraw.Draw(image), tile_id, rot, size * SUPERSAMPLE, locale)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=160)
def _terrain(tile_id: str, size: int) -> Image.Image:
    """The unrotated landscape (fields, water, roads, cities, walls) at the supersampled size."""
    plan = geo.layout(tile_id)
    big = size * SUPERSAMPLE
    image = Image.new("RGB", (big, big), FIELD)
    draw = ImageDraw.Draw(image)

    def px(points: list[geo.Point]) -> list[tuple[float, float]]:
        return [(x * big, y * big) for x, y in points]

    def scale(value: float) -> int:
        return max(1, round(value * big))

    # Grass tufts give the fields some texture; seeded by tile id so a sprite never changes.
    rng = random.Random(tile_id)
    for _ in range(26):
        x, y = rng.uniform(0.05, 0.95) * big, rng.uniform(0.05, 0.95) * big
        draw.line([(x, y), (x + scale(0.015), y - scale(0.04))], fill=GRASS, width=scale(0.012))
        draw.line([(x + scale(0.025), y), (x + scale(0.03), y - scale(0.035))], fill=GRASS, width=scale(0.012))

    for river in plan.rivers:
        draw.line(px(river.path), fill=WATER_EDGE, width=scale(geo.RIVER_WIDTH + 0.03), joint="curve")
        draw.line(px(river.path), fill=WATER, width=scale(geo.RIVER_WIDTH), joint="curve")
    for spot, radius in ((plan.lake, 0.2), (plan.spring, 0.08)):
        if spot is not None:
            _disc(draw, px([spot])[0], radius * big, WATER, WATER_EDGE, scale(0.015))

    for road in plan.roads:
        draw.line(px(road.path), fill=ROAD_EDGE, width=scale(geo.ROAD_WIDTH + 0.03), joint="curve")
    for road in plan.roads:
        draw.line(px(road.path), fill=ROAD, width=scale(geo.ROAD_WIDTH), joint="curve")
    if plan.junction is not None:
        _disc(draw, px([plan.junction])[0], 0.1 * big, ROAD, ROAD_EDGE, scale(0.015))

    for city in plan.cities:
        draw.polygon(px(city.polygon), fill=CITY)
        _roofs(draw, city, big, rng)
    for city in plan.cities:
        for wall in city.walls:
            _wall(draw, px(wall), scale)
    for spike in plan.spikes:
        _wall(draw, px(spike), scale)

    return image


def _draw_icons(draw: ImageDraw.ImageDraw, tile_id: str, rot: int, big: int, locale: str) -> None:
    tile = tile_types()[tile_id]
    plan = geo.layout(tile_id)

    def at(point: geo.Point) -> tuple[float, float]:
        x, y = geo.rotate_point(point, rot)
        return (x * big, y * big)

    def scale(value: float) -> int:
        return max(1, round(value * big))

    if plan.junction is not None:
        _house(draw, at(plan.junction), 0.11 * big, (120, 112, 104))
    if plan.monastery is not None:
        _chapel(draw, at(plan.monastery), 0.3 * big)
    for spot, _direction in plan.inns:
        _inn(draw, at(spot), 0.2 * big)
    for city, segment in zip(plan.cities, tile.cities, strict=True):
        emblems: list[str] = ["cathedral"] * bool(segment.cathedral) + ["pennant"] * segment.pennants
        if segment.goods:
            emblems.append(segment.goods)
        for emblem, slot in zip(emblems, city.emblem_slots, strict=False):
            centre = at(slot)
            if emblem == "pennant":
                _pennant(draw, centre, 0.17 * big)
            elif emblem == "cathedral":
                _cathedral(draw, centre, 0.3 * big)
            else:
                _goods(draw, centre, 0.2 * big, emblem, GOODS_LETTERS[locale][emblem])


def _disc(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill: RGB, outline: RGB,
          width: int) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)


def _wall(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], scale) -> None:
    draw.line(points, fill=WALL_EDGE, width=scale(geo.WALL_WIDTH + 0.025), joint="curve")
    draw.line(points, fill=WALL, width=scale(geo.WALL_WIDTH), joint="curve")


def _roofs(draw: ImageDraw.ImageDraw, city: geo.CityShape, big: int, rng: random.Random) -> None:
    """A few darker roof blocks inside the city so it reads as buildings, not a plain patch."""
    xs = [p[0] for p in city.polygon]
    ys = [p[1] for p in city.polygon]
    for _ in range(14):
        x, y = rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
        if geo.inside((x, y), city.polygon) and geo.inside((x + 0.07, y + 0.05), city.polygon):
            w, h = rng.uniform(0.04, 0.07), rng.uniform(0.03, 0.05)
            draw.rectangle((x * big, y * big, (x + w) * big, (y + h) * big), fill=CITY_ROOF)


def _house(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, roof: RGB) -> None:
    x, y = centre
    half = size / 2
    draw.rectangle((x - half * 0.8, y - half * 0.2, x + half * 0.8, y + half), fill=STONE, outline=INK,
                   width=max(1, round(size / 10)))
    draw.polygon([(x - half, y - half * 0.1), (x, y - half), (x + half, y - half * 0.1)], fill=roof, outline=INK)


def _chapel(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A monastery chapel: a nave with a red roof, a bell tower and a cross, on a pale yard."""
    x, y = centre
    s = size
    line = max(1, round(s / 16))
    draw.ellipse((x - s * 0.62, y - s * 0.52, x + s * 0.62, y + s * 0.56), fill=(196, 214, 150))
    draw.rectangle((x - s * 0.42, y - s * 0.02, x + s * 0.22, y + s * 0.38), fill=STONE, outline=INK, width=line)
    draw.polygon([(x - s * 0.48, y), (x - s * 0.1, y - s * 0.28), (x + s * 0.28, y)], fill=ROOF_RED, outline=INK)
    draw.rectangle((x + s * 0.18, y - s * 0.3, x + s * 0.42, y + s * 0.38), fill=STONE, outline=INK, width=line)
    draw.polygon([(x + s * 0.14, y - s * 0.28), (x + s * 0.3, y - s * 0.5), (x + s * 0.46, y - s * 0.28)],
                 fill=ROOF_RED, outline=INK)
    draw.line([(x + s * 0.3, y - s * 0.5), (x + s * 0.3, y - s * 0.66)], fill=INK, width=line)
    draw.line([(x + s * 0.24, y - s * 0.6), (x + s * 0.36, y - s * 0.6)], fill=INK, width=line)
    draw.rectangle((x - s * 0.16, y + s * 0.16, x - s * 0.04, y + s * 0.38), fill=(110, 70, 40))


def _cathedral(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A grey church with two spires and a cross: clearly different from the monastery's chapel."""
    x, y = centre
    s = size
    line = max(1, round(s / 16))
    grey, roof = (214, 210, 222), (90, 84, 130)
    draw.rectangle((x - s * 0.4, y - s * 0.05, x + s * 0.4, y + s * 0.4), fill=grey, outline=INK, width=line)
    for dx in (-0.3, 0.3):
        draw.rectangle((x + (dx - 0.1) * s, y - s * 0.3, x + (dx + 0.1) * s, y + s * 0.4), fill=grey, outline=INK,
                       width=line)
        draw.polygon([(x + (dx - 0.13) * s, y - s * 0.3), (x + dx * s, y - s * 0.62), (x + (dx + 0.13) * s, y - s * 0.3)],
                     fill=roof, outline=INK)
    draw.line([(x, y - s * 0.05), (x, y - s * 0.4)], fill=INK, width=line)
    draw.line([(x - s * 0.08, y - s * 0.3), (x + s * 0.08, y - s * 0.3)], fill=INK, width=line)
    draw.ellipse((x - s * 0.1, y + s * 0.02, x + s * 0.1, y + s * 0.22), fill=(120, 150, 220), outline=INK)


def _pennant(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A shield (the coat of arms) with a white chevron mark."""
    x, y = centre
    w, h = size * 0.42, size * 0.5
    shield = [(x - w, y - h), (x + w, y - h), (x + w, y + h * 0.2), (x, y + h), (x - w, y + h * 0.2)]
    draw.polygon(shield, fill=PENNANT, outline=WHITE, width=max(1, round(size / 12)))
    draw.line([(x - w * 0.6, y - h * 0.05), (x, y + h * 0.4), (x + w * 0.6, y - h * 0.05)], fill=WHITE,
              width=max(1, round(size / 9)))
    draw.line([(x, y - h * 0.7), (x, y - h * 0.2)], fill=WHITE, width=max(1, round(size / 9)))


def _inn(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """An inn: a small pond with a red-roofed house beside the road."""
    x, y = centre
    draw.ellipse((x - size * 0.55, y - size * 0.05, x + size * 0.15, y + size * 0.45), fill=WATER, outline=WATER_EDGE,
                 width=max(1, round(size / 14)))
    _house(draw, (x + size * 0.2, y - size * 0.05), size * 0.75, ROOF_RED)


def goods_icon(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, goods: str, letter: str) -> None:
    _goods(draw, centre, size, goods, letter)


def _goods(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, goods: str, letter: str) -> None:
    """Distinct shape per good (honey hexagon, grain kernel, flax flower), its colour, and its letter."""
    x, y = centre
    r = size / 2
    color = GOODS_COLORS[goods]
    line = max(1, round(size / 14))
    if goods == "honey":
        points = [(x + r * dx, y + r * dy) for dx, dy in
                  ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87))]
        draw.polygon(points, fill=color, outline=INK, width=line)
    elif goods == "grain":
        draw.polygon([(x, y - r * 1.1), (x + r * 0.8, y), (x, y + r * 1.1), (x - r * 0.8, y)], fill=color,
                     outline=INK, width=line)
    else:
        for i in range(5):
            angle = -math.pi / 2 + i * 2 * math.pi / 5
            px, py = x + math.cos(angle) * r * 0.55, y + math.sin(angle) * r * 0.55
            draw.ellipse((px - r * 0.45, py - r * 0.45, px + r * 0.45, py + r * 0.45), fill=color, outline=INK,
                         width=line)
        draw.ellipse((x - r * 0.5, y - r * 0.5, x + r * 0.5, y + r * 0.5), fill=color)
    _centered_text(draw, (x, y + r * 0.05), letter, round(size * 0.62), INK)


# ---- figures ----------------------------------------------------------------------------------------

# A figure is a token in the player's colour whose shape tells its kind (normal: a disc; big: a larger disc
# with a second rim; builder: a house; keeper: a disc with a pig's ears) and whose letter tells its owner, so
# that colour is never the only cue. The letter is what must read at 12 px in Discord's inline view, so the
# token is sized from its letter: LABEL_SHARE is the letter's font size over the token's size.
LABEL_SHARE = {"normal": 0.7, "big": 0.55, "builder": 0.56, "keeper": 0.6}
FIGURE_SCALE = {"normal": 0.3, "big": 0.42, "builder": 0.36, "keeper": 0.33}  # of the tile, on large tiles
MIN_LABEL = 12  # px of the owner's letter as seen inline (issue 38: nothing a player needs under 12 px)
SUPERSAMPLE_FIGURE = 4


def label_font(kind: str, size: int) -> int:
    """Font size in px of the owner's letter on a figure ``size`` px tall."""
    return round(size * LABEL_SHARE.get(kind, 0.7))


def figure_size(kind: str, tile_size: int, unit: float = 1.0) -> int:
    """Pixels tall for a figure on a tile; ``unit`` (image pixels per pixel seen inline in Discord) keeps
    the owner's letter at least ``MIN_LABEL`` px inline however large the board, even if the figure then
    covers much of a small tile: whose figure it is matters more than the field under it."""
    share = LABEL_SHARE.get(kind, 0.7)
    least = math.ceil(MIN_LABEL * unit / share) + 1
    return max(round(FIGURE_SCALE.get(kind, 0.3) * tile_size), least)


@lru_cache(maxsize=512)
def figure_sprite(kind: str, color: RGB, label: str, size: int) -> Image.Image:
    """An RGBA figure ``size`` px square: its kind's shape in the player's colour, a dark rim and a light
    halo (so a black figure shows on the dark board and a yellow one on a meadow), the owner's letter."""
    ss = SUPERSAMPLE_FIGURE
    s = size * ss
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    outline = (25, 25, 25)
    halo = (255, 255, 255, 235)
    rim = max(1, round(s * 0.06))
    glow = max(1, round(s * 0.07))
    ink = text_on(color)
    text_y = 0.5

    def box(points: list[geo.Point]) -> list[tuple[float, float]]:
        return [(x * s, y * s) for x, y in points]

    if kind == "builder":
        corners = [(0.1, 0.44), (0.5, 0.08), (0.9, 0.44), (0.9, 0.92), (0.1, 0.92)]
        # The halo: the same house grown about its middle (a polygon's outline is drawn inside it).
        draw.polygon(box([(0.5 + (x - 0.5) * 1.16, 0.55 + (y - 0.55) * 1.16) for x, y in corners]), fill=halo)
        draw.polygon(box(corners), fill=color, outline=outline, width=rim)
        text_y = 0.62
    else:
        disc = (0.07 * s, 0.16 * s, 0.93 * s, 0.98 * s) if kind == "keeper" else (0.07 * s, 0.07 * s, 0.93 * s,
                                                                                      0.93 * s)
        if kind == "keeper":  # ears first, so the disc's rim covers their base
            for ear in ([(0.12, 0.42), (0.2, 0.04), (0.44, 0.24)], [(0.88, 0.42), (0.8, 0.04), (0.56, 0.24)]):
                draw.polygon(box(ear), fill=color, outline=outline, width=rim)
            text_y = 0.6
        draw.ellipse(_grow(disc, glow), outline=halo, width=glow)
        draw.ellipse(disc, fill=color, outline=outline, width=rim)
        if kind == "big":  # a second rim inside the first: the big figure, even in grey scale
            draw.ellipse(_grow(disc, -2.2 * rim), outline=ink, width=max(1, rim // 2))
    if label:
        draw.text((s / 2, s * text_y), label, font=font(label_font(kind, size) * ss, True), fill=ink, anchor="mm",
                  stroke_width=max(1, ss // 2), stroke_fill=color)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _grow(rect: tuple[float, float, float, float], by: float) -> tuple[float, float, float, float]:
    return (rect[0] - by, rect[1] - by, rect[2] + by, rect[3] + by)
