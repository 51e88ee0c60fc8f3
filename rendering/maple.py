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
from rendering.common import PLAYER_COLORS, fit_text, font, png_bytes

# Discord shows an image about 550 px wide inline: at 690 px wide, the 14 px text below still reads at 11 px.
WIDTH = 690
TEXT_SIZE = 14  # the smallest text drawn
CELL = 58
MAP_X, MAP_Y = 32, 104
PAD_X, PAD_Y = 52, 50  # from the valley's edge to the first location's centre
MAP_W, MAP_H = CELL * 9 + 2 * PAD_X, CELL * 7 + 2 * PAD_Y
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
    return MAP_X + PAD_X + x * CELL, MAP_Y + PAD_Y + y * CELL


def _token(draw: ImageDraw.ImageDraw, x: float, y: float, item: str, size: int = 24, text: str = "") -> None:
    fill = GOODS_COLOURS[item]
    draw.rounded_rectangle((x, y, x + size, y + size), radius=4, fill=fill, outline=INK)
    dark = sum(fill) < 400
    draw.text((x + size / 2, y + size / 2), text or item, font=font(TEXT_SIZE, True), anchor="mm",
              fill=(255, 255, 255) if dark else INK)


def _wrap(draw: ImageDraw.ImageDraw, text: str, face: Any, width: float) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels, at spaces."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and draw.textlength(candidate, font=face) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def _strip_lines(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, locale: str) -> list[str]:
    p = view["seats"][seat]
    texts = [
        f"{_t(locale, 'hand')}: {' '.join(D.FRIENDS[f].name for f in p['hand']) or '-'}",
        f"{_t(locale, 'backpack')}: {' '.join(D.FRIENDS[f].name for f in p['backpack']) or '-'}",
        f"{_t(locale, 'dawdle')}: {' '.join(p['dawdle']) or '-'}",
        f"{_t(locale, 'to_craft')}: {' '.join(p['favors']) or '-'}    "
        f"{_t(locale, 'crafted')}: {' '.join(p['crafted']) or '-'}",
        f"{_t(locale, 'patches')}: " + (" ".join(
            f"{pid}{'■' if pid in p['patch_cubes'] else ''}" for pid in p["patches"]) or "-"),
    ]
    width = WIDTH - 2 * MAP_X - 40
    return [line for text in texts for line in _wrap(draw, text, font(TEXT_SIZE), width)]


LINE_H = 19


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> bytes:
    """The valley, then under it the festivities, the display rows and a strip per player, in one column
    690 px wide so that every text reads in Discord's inline view."""
    players = view["players"]
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines = [_strip_lines(measure, view, seat, locale) for seat in range(players)]
    rows_top = MAP_Y + MAP_H + 40 + 72 * len(view["fests"])
    strips_top = rows_top + _rows_height(view)
    heights = [92 + LINE_H * len(seat_lines) + 10 for seat_lines in lines]
    image = Image.new("RGB", (WIDTH, strips_top + sum(h + 8 for h in heights) + 12), PAPER)
    draw = ImageDraw.Draw(image)
    _header(draw, view, names, locale)
    _valley(draw, view)
    _festivities(draw, view, locale, MAP_Y + MAP_H + 40)
    _rows(draw, view, locale, rows_top)
    y = strips_top
    for seat in range(players):
        _player_strip(draw, view, seat, names, locale, y, heights[seat], lines[seat])
        y += heights[seat] + 8
    # A flat drawing: 255 colours lose nothing visible and make the PNG several times faster to encode.
    return png_bytes(image.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None, locale: str) -> None:
    draw.text((MAP_X, 12), "Maple Valley" if locale != "ru" else "Кленовая долина", font=font(26, True), fill=INK)
    x, y = MAP_X, 50
    hour = _t(locale, "hour", hour=view["hour"])
    draw.text((x, y), hour, font=font(18, True), fill=INK)
    x += draw.textlength(hour, font=font(18, True)) + 18
    draw.text((x, y + 1), _t(locale, "sun"), font=font(16), fill=MUTED)
    x += draw.textlength(_t(locale, "sun"), font=font(16)) + 6
    _token(draw, x, y - 1, view["sun"], 24)
    x += 40
    draw.text((x, y + 1), _t(locale, "worm", player=_name(locale, view["worm"], names)), font=font(16), fill=INK)
    status = _t(locale, "over") if view["over"] else (
        _t(locale, "to_act", player=_name(locale, view["actor"], names)) if view["actor"] is not None else "")
    draw.text((MAP_X, 76), status, font=font(16, True), fill=INK)
    card = (view.get("turn") or {}).get("card")
    if card and not view["over"]:
        label = D.DAWDLE_NAMES[card[7:]] if card.startswith("dawdle:") else \
            f"{D.FRIENDS[card].name} ({view['turn']['main']})"
        x = MAP_X + draw.textlength(status, font=font(16, True)) + 14
        draw.text((x, 78), fit_text(draw, f"{label} · {view['step']}", font(TEXT_SIZE), WIDTH - MAP_X - x), font=font(TEXT_SIZE),
                  fill=MUTED)


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
        if spot:  # a curiosity lies on the path: its token, the path's number beside it
            _token(draw, mx - 12, my - 12, spot, 24)
            draw.text((mx + 20, my - 14), str(number), font=font(TEXT_SIZE, True), anchor="mm",
                      fill=PATH_COLOURS[path.type])
        else:
            draw.ellipse((mx - 12, my - 12, mx + 12, my + 12), fill=PAPER, outline=PATH_COLOURS[path.type], width=2)
            draw.text((mx, my), str(number), font=font(TEXT_SIZE, True), anchor="mm", fill=INK)
    critters: dict[str, list[int]] = {}
    for seat in view["seats"]:
        critters.setdefault(seat["pos"], []).append(seat["seat"])
    for code, (kind, _) in D.LOCATIONS.items():
        x, y = _loc_xy(code)
        half = 42 if kind == "clearing" else 34
        draw.rounded_rectangle((x - half, y - 24, x + half, y + 24), radius=10, fill=KIND_COLOURS[kind], outline=INK,
                               width=2)
        if kind == "clearing":  # the clearing's name on two lines
            first, _, second = D.CLEARINGS[view["clearings"][code]].name.partition(" ")
            draw.text((x, y - 9), first, font=font(TEXT_SIZE, True), anchor="mm", fill=INK)
            draw.text((x, y + 9), second, font=font(TEXT_SIZE, True), anchor="mm", fill=INK)
        else:
            draw.text((x, y - 12), code, font=font(15, True), anchor="mm", fill=INK)
        if kind == "grove":
            tokens = view["groves"][code]
            step = min(26, (2 * half - 28) // max(1, len(tokens) - 1)) if len(tokens) > 1 else 0
            left = x - (step * (len(tokens) - 1) + 24) / 2
            for i, g in enumerate(tokens):
                _token(draw, left + i * step, y - 2, g, 24)
        elif kind != "clearing":
            draw.text((x, y + 9), kind, font=font(TEXT_SIZE), anchor="mm", fill=MUTED)
        for i, seat in enumerate(critters.get(code, [])):
            cx, cy = x - 30 + i * 20, y + 32
            draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=SEAT_COLOURS[seat], outline=INK, width=2)
            draw.text((cx, cy), str(seat + 1), font=font(TEXT_SIZE, True), anchor="mm", fill=INK)
    lx = MAP_X + 12
    legend_y = MAP_Y + MAP_H + 16
    for t, name in (("M", "mountain"), ("F", "forest"), ("W", "water")):
        draw.line((lx, legend_y, lx + 24, legend_y), fill=PATH_COLOURS[t], width=6)
        draw.text((lx + 30, legend_y), f"{t} {name}", font=font(TEXT_SIZE), anchor="lm", fill=INK)
        lx += 140


def _festivities(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y: int) -> int:
    for fest in view["fests"]:
        card = D.FEAST if fest["code"] == "feast" else D.FESTIVITIES[fest["code"]]
        title = _t(locale, "feast") if fest["code"] == "feast" else f"{card.name} ({fest['code']}) · {card.reward}"
        draw.text((MAP_X, y), title, font=font(15, True), fill=INK)
        for i, cube in enumerate(fest["cubes"]):
            x = MAP_X + i * 70
            symbol = card.spaces[i]
            draw.rounded_rectangle((x, y + 22, x + 66, y + 66), radius=6, fill=SYMBOL_COLOURS[symbol], outline=INK)
            draw.text((x + 33, y + 31), f"{i + 1} {symbol[:5]}", font=font(TEXT_SIZE), anchor="mm", fill=INK)
            if cube is not None:
                fill = (90, 90, 90) if cube < 0 else SEAT_COLOURS[cube]
                draw.rectangle((x + 23, y + 42, x + 43, y + 62), fill=fill, outline=INK)
                if cube >= 0:
                    draw.text((x + 33, y + 52), str(cube + 1), font=font(TEXT_SIZE, True), anchor="mm", fill=INK)
        y += 72
    return y


ROWS = (("favors", "favors"), ("friends", "friends"), ("patches", "patches"))


def _rows_height(view: dict[str, Any]) -> int:
    rows = view["rows"]
    return sum(24 + 20 * ((len(rows[row]["display"]) + 1) // 2) + 10 for row, _ in ROWS) + 30


def _rows(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y: int) -> None:
    rows = view["rows"]
    column = (WIDTH - 2 * MAP_X) // 2
    for row, key in ROWS:
        draw.text((MAP_X, y), f"{_t(locale, key)} · {_t(locale, 'deck', n=rows[row]['deck_count'])}",
                  font=font(15, True), fill=INK)
        y += 24
        for i, card in enumerate(rows[row]["display"]):
            x = MAP_X + (i % 2) * column
            yy = y + (i // 2) * 20
            draw.text((x, yy), fit_text(draw, _card_line(row, card), font(TEXT_SIZE), column - 12), font=font(TEXT_SIZE),
                      fill=INK)
        y += 20 * ((len(rows[row]["display"]) + 1) // 2) + 10
    draw.text((MAP_X, y), f"{_t(locale, 'dawdle')} · {_t(locale, 'deck', n=view['dawdle_deck_count'])}",
              font=font(TEXT_SIZE), fill=MUTED)


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
                  y: int, h: int, lines: list[str]) -> None:
    p = view["seats"][seat]
    colour = SEAT_COLOURS[seat]
    out = seat in view["eliminated"]
    right = WIDTH - MAP_X
    draw.rounded_rectangle((MAP_X, y, right, y + h), radius=10, fill=(255, 252, 244), outline=colour, width=3)
    draw.rectangle((MAP_X, y, MAP_X + 12, y + h), fill=colour)
    scores = view["scores"][str(seat)]
    total = _t(locale, "score", total=sum(scores.values()))
    draw.text((right - 14, y + 8), total, font=font(17, True), fill=INK, anchor="ra")
    room = right - 14 - draw.textlength(total, font=font(17, True)) - 16 - (MAP_X + 22)
    name = fit_text(draw, _name(locale, seat, names), font(16, True), room - 24) + (" ✕" if out else "")
    draw.text((MAP_X + 22, y + 8), name, font=font(16, True), fill=INK)
    detail = " ".join(f"{SHORT[k]} {v}" for k, v in scores.items()) + "   " + _t(locale, "cubes", n=p["cubes"])
    draw.text((MAP_X + 22, y + 32), fit_text(draw, detail, font(TEXT_SIZE), right - MAP_X - 40), font=font(TEXT_SIZE),
              fill=MUTED)
    x = MAP_X + 22
    for item in (*D.GOODS, *D.CURIOS):
        count = p["goods"].get(item, p["curios"].get(item, 0))
        _token(draw, x, y + 56, item, 24)
        draw.text((x + 28, y + 68), str(count), font=font(TEXT_SIZE, True), anchor="lm", fill=INK)
        x += 50
    _token(draw, x, y + 56, "map", 24, "m")
    draw.text((x + 28, y + 68), str(p["map"]), font=font(TEXT_SIZE, True), anchor="lm", fill=INK)
    for i, line in enumerate(lines):
        draw.text((MAP_X + 22, y + 92 + i * LINE_H), line, font=font(TEXT_SIZE), fill=INK)
