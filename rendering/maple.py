"""Maple Valley board image, drawn from the public view only.

``render_board(view, names=None, locale="en")``: the valley (locations at their grid positions, paths coloured
by type with their numbers, curiosity spots, grove tokens, clearings, the critters), the hour, sun and worm,
the festivities with their cubes (or the Great Feast), the three display rows, and a strip per player
(friends, dawdle cards, favors to craft and crafted, patches with hour cubes, goods, curiosities, map tokens,
cubes and the running score by category).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from games.maple import data as D
from rendering.common import PLAYER_COLORS, font, png_bytes

CELL = 74
MAP_X, MAP_Y = 40, 70
MAP_W, MAP_H = CELL * 9 + 80, CELL * 7 + 80
SIDE_X = MAP_X + MAP_W + 30
WIDTH = 1560
PAPER = (250, 246, 234)
INK = (40, 36, 30)
MUTED = (120, 112, 100)
LINE = (205, 196, 178)
PATH_COLOURS = {"M": (128, 112, 96), "F": (60, 140, 70), "W": (60, 130, 200)}
KIND_COLOURS = {
    "village": (240, 200, 120), "grove": (170, 215, 150), "tower": (200, 190, 220), "club": (245, 170, 150),
    "cottage": (235, 215, 175), "cliff": (190, 180, 170), "clearing": (220, 235, 200),
}
GOODS_COLOURS = {
    "a": (150, 100, 50), "b": (170, 40, 90), "t": (225, 220, 200), "c": (120, 90, 60), "l": (200, 110, 70),
    "h": (90, 170, 80), "y": (240, 190, 40), "fl": (240, 120, 180), "pe": (150, 150, 160), "bu": (80, 160, 150),
    "map": (230, 220, 160),
}
SYMBOL_COLOURS = {
    "Treat": (240, 170, 90), "Decor": (200, 120, 200), "Music": (100, 160, 230), "Game": (120, 190, 110),
    "Craft": (190, 150, 100), "Story": (230, 110, 110),
}
SEAT_COLOURS = [PLAYER_COLORS[c] for c in ("red", "blue", "green", "yellow", "purple")]

TEXT = {
    "en": {"hour": "Hour {hour}/5", "sun": "sun", "worm": "worm: {player}", "player": "Player {n}",
           "favors": "Favors", "friends": "Friends", "patches": "Patches", "to_act": "to act: {player}",
           "over": "Game over", "deck": "deck {n}", "hand": "hand", "backpack": "backpack", "dawdle": "dawdle",
           "to_craft": "to craft", "crafted": "crafted", "score": "{total} pts", "cubes": "cubes {n}",
           "feast": "Great Feast (solo)"},
    "ru": {"hour": "Час {hour}/5", "sun": "солнце", "worm": "червяк: {player}", "player": "Игрок {n}",
           "favors": "Гостинцы", "friends": "Друзья", "patches": "Нашивки", "to_act": "ходит: {player}",
           "over": "Игра окончена", "deck": "колода {n}", "hand": "рука", "backpack": "рюкзак",
           "dawdle": "прогулки", "to_craft": "смастерить", "crafted": "смастерены", "score": "{total} ПО",
           "cubes": "кубики {n}", "feast": "Большой пир (соло)"},
}
SHORT = {"favors": "Fav", "friends": "Fr", "patches": "Pa", "leftovers": "Left", "festivities": "Fest", "feast": "Feast"}


def _t(locale: str, key: str, **params: Any) -> str:
    return TEXT.get(locale, TEXT["en"])[key].format(**params)


def _name(locale: str, seat: int, names: list[str] | None) -> str:
    if names and seat < len(names):
        return names[seat]
    return _t(locale, "player", n=seat + 1)


def _loc_xy(code: str) -> tuple[int, int]:
    x, y = D.LOCATIONS[code][1]
    return MAP_X + 40 + x * CELL, MAP_Y + 40 + y * CELL


def _token(draw: ImageDraw.ImageDraw, x: int, y: int, item: str, size: int = 16, text: str = "") -> None:
    fill = GOODS_COLOURS[item]
    draw.rounded_rectangle((x, y, x + size, y + size), radius=4, fill=fill, outline=INK)
    dark = sum(fill) < 400
    draw.text((x + size / 2, y + size / 2), text or item, font=font(9, True), anchor="mm",
              fill=(255, 255, 255) if dark else INK)


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> bytes:
    players = view["players"]
    strip_h = 118
    height = max(MAP_Y + MAP_H + 20, 640) + strip_h * players + 20
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(draw, view, names, locale)
    _valley(draw, view)
    y = _festivities(draw, view, locale)
    _rows(draw, view, locale, y + 10)
    top = max(MAP_Y + MAP_H + 20, 640)
    for seat in range(players):
        _player_strip(draw, view, seat, names, locale, top + seat * strip_h, strip_h - 8)
    # A flat drawing: 255 colours lose nothing visible and make the PNG several times faster to encode.
    return png_bytes(image.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None, locale: str) -> None:
    draw.text((MAP_X, 18), "Maple Valley" if locale != "ru" else "Кленовая долина", font=font(26, True), fill=INK)
    x = MAP_X + 290
    draw.text((x, 24), _t(locale, "hour", hour=view["hour"]), font=font(18, True), fill=INK)
    draw.text((x + 120, 24), _t(locale, "sun"), font=font(16), fill=MUTED)
    _token(draw, x + 180, 24, view["sun"], 22)
    draw.text((x + 225, 24), _t(locale, "worm", player=_name(locale, view["worm"], names)), font=font(16), fill=INK)
    status = _t(locale, "over") if view["over"] else (
        _t(locale, "to_act", player=_name(locale, view["actor"], names)) if view["actor"] is not None else "")
    draw.text((x + 470, 24), status, font=font(16, True), fill=INK)
    card = (view.get("turn") or {}).get("card")
    if card and not view["over"]:
        label = D.DAWDLE_NAMES[card[7:]] if card.startswith("dawdle:") else \
            f"{D.FRIENDS[card].name} ({view['turn']['main']})"
        draw.text((x + 470, 46), f"{label} · {view['step']}", font=font(13), fill=MUTED)


def _valley(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    draw.rounded_rectangle((MAP_X, MAP_Y, MAP_X + MAP_W, MAP_Y + MAP_H), radius=16, fill=(238, 232, 210),
                           outline=LINE, width=2)
    for path in D.PATHS.values():
        a, b = _loc_xy(path.a), _loc_xy(path.b)
        draw.line((a, b), fill=PATH_COLOURS[path.type], width=6)
    walk = (view.get("turn") or {}).get("walk") or {}
    for number in walk.get("used", []):
        path = D.PATHS[number]
        draw.line((_loc_xy(path.a), _loc_xy(path.b)), fill=(250, 250, 250), width=2)
    for number, path in D.PATHS.items():
        (ax, ay), (bx, by) = _loc_xy(path.a), _loc_xy(path.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        spot = view["spots"].get(str(number))
        if spot:
            draw.polygon([(mx, my - 13), (mx - 12, my + 9), (mx + 12, my + 9)], fill=GOODS_COLOURS[spot], outline=INK)
            draw.text((mx, my + 1), spot, font=font(9, True), anchor="mm", fill=INK)
            draw.text((mx + 16, my - 12), str(number), font=font(12, True), anchor="mm", fill=PATH_COLOURS[path.type])
        else:
            draw.ellipse((mx - 10, my - 10, mx + 10, my + 10), fill=PAPER, outline=PATH_COLOURS[path.type], width=2)
            draw.text((mx, my), str(number), font=font(11, True), anchor="mm", fill=INK)
    critters: dict[str, list[int]] = {}
    for seat in view["seats"]:
        critters.setdefault(seat["pos"], []).append(seat["seat"])
    for code, (kind, _) in D.LOCATIONS.items():
        x, y = _loc_xy(code)
        half = 44 if kind == "clearing" else 34
        draw.rounded_rectangle((x - half, y - 24, x + half, y + 24), radius=10, fill=KIND_COLOURS[kind], outline=INK,
                               width=2)
        label = code
        if kind == "clearing":
            label = D.CLEARINGS[view["clearings"][code]].name
        draw.text((x, y - 12), label, font=font(10 if kind == "clearing" else 13, True), anchor="mm", fill=INK)
        if kind == "grove":
            for i, g in enumerate(view["groves"][code]):
                _token(draw, x - 18 + i * 20, y - 2, g, 16)
        else:
            draw.text((x, y + 8), kind, font=font(10), anchor="mm", fill=MUTED)
        for i, seat in enumerate(critters.get(code, [])):
            cx, cy = x - 30 + i * 15, y + 30
            draw.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=SEAT_COLOURS[seat], outline=INK, width=2)
            draw.text((cx, cy), str(seat + 1), font=font(10, True), anchor="mm", fill=INK)
    lx = MAP_X + 12
    for t, name in (("M", "mountain"), ("F", "forest"), ("W", "water")):
        draw.line((lx, MAP_Y + MAP_H - 14, lx + 24, MAP_Y + MAP_H - 14), fill=PATH_COLOURS[t], width=6)
        draw.text((lx + 30, MAP_Y + MAP_H - 14), f"{t} {name}", font=font(11), anchor="lm", fill=INK)
        lx += 120


def _festivities(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str) -> int:
    y = MAP_Y
    for fest in view["fests"]:
        card = D.FEAST if fest["code"] == "feast" else D.FESTIVITIES[fest["code"]]
        title = _t(locale, "feast") if fest["code"] == "feast" else f"{card.name} ({fest['code']}) · {card.reward}"
        draw.text((SIDE_X, y), title, font=font(13, True), fill=INK)
        for i, cube in enumerate(fest["cubes"]):
            x = SIDE_X + i * 56
            symbol = card.spaces[i]
            draw.rounded_rectangle((x, y + 18, x + 52, y + 52), radius=6, fill=SYMBOL_COLOURS[symbol], outline=INK)
            draw.text((x + 26, y + 26), f"{i + 1} {symbol[:5]}", font=font(9, True), anchor="mm", fill=INK)
            if cube is not None:
                fill = (90, 90, 90) if cube < 0 else SEAT_COLOURS[cube]
                draw.rectangle((x + 18, y + 34, x + 34, y + 50), fill=fill, outline=INK)
                if cube >= 0:
                    draw.text((x + 26, y + 42), str(cube + 1), font=font(9, True), anchor="mm", fill=INK)
        y += 60
    return y


def _rows(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y: int) -> None:
    rows = view["rows"]
    for row, key in (("favors", "favors"), ("friends", "friends"), ("patches", "patches")):
        draw.text((SIDE_X, y), f"{_t(locale, key)} · {_t(locale, 'deck', n=rows[row]['deck_count'])}",
                  font=font(13, True), fill=INK)
        y += 18
        for i, card in enumerate(rows[row]["display"]):
            x = SIDE_X + (i % 2) * 330
            yy = y + (i // 2) * 20
            draw.text((x, yy), _card_line(row, card), font=font(11), fill=INK)
        y += 44
    draw.text((SIDE_X, y), f"{_t(locale, 'dawdle')} · {_t(locale, 'deck', n=view['dawdle_deck_count'])}",
              font=font(12), fill=MUTED)


def _card_line(row: str, card: str) -> str:
    if row == "favors":
        f = D.FAVORS[card]
        bonus = {"S": " +S", "P": f" +P {f.partner}", "V": " +V", "": ""}[f.bonus]
        return f"{card} {f.name} [{f.symbol}] {''.join(f.cost)} {f.vp}{bonus}"
    if row == "friends":
        fr = D.FRIENDS[card]
        return f"{card} {fr.name} {''.join(fr.paths)} {','.join(fr.cost)} {fr.vp}VP"
    pa = D.PATCHES[card]
    return f"{card} {pa.name} ({pa.kind}) {pa.vp}VP"


def _player_strip(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, names: list[str] | None, locale: str,
                  y: int, h: int) -> None:
    p = view["seats"][seat]
    colour = SEAT_COLOURS[seat]
    out = seat in view["eliminated"]
    draw.rounded_rectangle((MAP_X, y, WIDTH - 30, y + h), radius=10, fill=(255, 252, 244), outline=colour, width=3)
    draw.rectangle((MAP_X, y, MAP_X + 12, y + h), fill=colour)
    scores = view["scores"][str(seat)]
    total = sum(scores.values())
    name = _name(locale, seat, names) + (" ✕" if out else "")
    draw.text((MAP_X + 22, y + 8), name, font=font(15, True), fill=INK)
    draw.text((MAP_X + 22, y + 30), _t(locale, "score", total=total), font=font(15, True), fill=INK)
    draw.text((MAP_X + 22, y + 52), " ".join(f"{SHORT[k]} {v}" for k, v in scores.items()), font=font(10),
              fill=MUTED)
    draw.text((MAP_X + 22, y + 70), _t(locale, "cubes", n=p["cubes"]), font=font(11), fill=MUTED)
    x = MAP_X + 250
    for item in (*D.GOODS, *D.CURIOS):
        count = p["goods"].get(item, p["curios"].get(item, 0))
        _token(draw, x, y + 8, item, 20)
        draw.text((x + 10, y + 38), str(count), font=font(12, True), anchor="mm", fill=INK)
        x += 26
    _token(draw, x, y + 8, "map", 20, "map")
    draw.text((x + 10, y + 38), str(p["map"]), font=font(12, True), anchor="mm", fill=INK)
    lines = [
        f"{_t(locale, 'hand')}: {' '.join(D.FRIENDS[f].name for f in p['hand']) or '-'}"
        f"   {_t(locale, 'backpack')}: {' '.join(D.FRIENDS[f].name for f in p['backpack']) or '-'}"
        f"   {_t(locale, 'dawdle')}: {' '.join(p['dawdle']) or '-'}",
        f"{_t(locale, 'to_craft')}: {' '.join(p['favors']) or '-'}"
        f"   {_t(locale, 'crafted')}: {' '.join(p['crafted']) or '-'}",
        f"{_t(locale, 'patches')}: " + (" ".join(
            f"{pid}{'■' if pid in p['patch_cubes'] else ''}" for pid in p["patches"]) or "-"),
    ]
    for i, line in enumerate(lines):
        draw.text((MAP_X + 250, y + 52 + i * 19), line[:190], font=font(11), fill=INK)
