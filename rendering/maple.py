"""Maple Valley images, drawn from the public view only.

``render_board(view, names=None, locale="en")`` is the board post's first image, sized for a phone (at most
twice as tall as wide): the one-line header (who is to move with their seat mark, or the result; the last turn
and its points), the valley (locations, paths coloured by type with their numbers, curiosities, grove goods as
icons, the critters with their player's initial, where the last player stopped ringed in their colour), a
legend of the goods, the hour, sun and worm, the festivities with their cubes (or the Great Feast), the three
display rows and the standings (places and the score breakdown once the game is over).
``render_details(view, ...)`` adds every player's area: goods with their names, friends, favors, patches.
What never changes (the codes of favor bonuses, the paths' letters) is in ``/game rules``.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw

from games.maple import data as D
from rendering.common import (
    HEADER_HEIGHT,
    PLAYER_COLORS,
    RGB,
    fit_text,
    flat,
    flat_png,
    font,
    header_strip,
    text_on,
)

WIDTH = 690
# Discord shows an image about 550 px wide on a phone: text of SMALL px at WIDTH reads at 12 px or more there.
SMALL = 16
TEXT_SIZES = (SMALL, 17, 18, 20)  # every size this module draws text in (tests check them against the width)
CELL = 58
MARGIN = 32
PAD_X, PAD_Y = 52, 44  # from the valley's edge to the first location's centre
MAP_W, MAP_H = CELL * 9 + 2 * PAD_X, CELL * 7 + 2 * PAD_Y
PAPER = (250, 246, 234)
INK = (40, 36, 30)
MUTED = (100, 94, 84)
LINE = (205, 196, 178)
PATH_COLOURS = {"M": (128, 112, 96), "F": (60, 140, 70), "W": (60, 130, 200)}
KIND_COLOURS = {
    "village": (240, 200, 120), "grove": (170, 215, 150), "tower": (200, 190, 220), "club": (245, 170, 150),
    "cottage": (235, 215, 175), "cliff": (190, 180, 170), "clearing": (220, 235, 200),
}
SYMBOL_COLOURS = {
    "Treat": (240, 170, 90), "Decor": (200, 120, 200), "Music": (100, 160, 230), "Game": (120, 190, 110),
    "Craft": (190, 150, 100), "Story": (230, 110, 110),
}
# Seat colours (the shared palette) as drawn on critters, cubes and player areas; every piece also carries the
# player's initial, so colour is never the only cue.
SEAT_KEYS = ("red", "blue", "green", "yellow", "black")
ITEMS = (*D.GOODS, *D.CURIOS, "map")

TEXT = {
    "en": {"hour": "Hour {hour}/5", "sun": "sun", "worm": "worm: {player}", "player": "Player {n}",
           "favors": "Favors", "friends": "Friends", "patches": "Patches", "to_move": "{player} to move",
           "over": "Game over", "deck": "deck {n}", "hand": "hand", "backpack": "backpack", "dawdle": "dawdle",
           "to_craft": "to craft", "crafted": "crafted", "score": "{total} pts", "cubes": "{n} cubes left",
           "feast": "Great Feast (solo)", "wins": "{player} wins", "share": "{players} share the win",
           "solo_won": "Won: {score} VP, {rating}", "solo_lost": "Not won: {score} VP (70 needed), {rating}",
           "solo_goal": "Solo: 70 VP to win", "last.card": "{player}: {card} → {place}",
           "last.crafted": "crafted {n}", "last.points": "{points:+d} pts", "goods": "Goods",
           "areas": "Players' areas", "none": "-", "standings": "Scores", "place": "#{place}",
           "used": "used this hour", "reward.vp3": "+3 VP", "reward.vp4": "+4 VP",
           "reward.curio_map": "+1 curiosity, +1 map token", "reward.goods2": "+2 goods",
           "reward.map2": "+2 map tokens", "reward.favor_curio": "+1 favor, +1 curiosity",
           "kind.village": "village", "kind.tower": "tower", "kind.club": "club", "kind.cottage": "cottage",
           "kind.cliff": "cliff"},
    "ru": {"hour": "Час {hour}/5", "sun": "солнце", "worm": "червяк: {player}", "player": "Игрок {n}",
           "favors": "Гостинцы", "friends": "Друзья", "patches": "Нашивки", "to_move": "Ходит {player}",
           "over": "Игра окончена", "deck": "колода {n}", "hand": "рука", "backpack": "рюкзак",
           "dawdle": "прогулки", "to_craft": "смастерить", "crafted": "смастерены", "score": "{total} ПО",
           "cubes": "кубиков: {n}", "feast": "Большой пир (соло)", "wins": "Победа: {player}",
           "share": "Победу делят: {players}", "solo_won": "Победа: {score} ПО, {rating}",
           "solo_lost": "Не победа: {score} ПО (нужно 70), {rating}", "solo_goal": "Соло: 70 ПО для победы",
           "last.card": "{player}: {card} → {place}", "last.crafted": "смастерено {n}",
           "last.points": "{points:+d} ПО", "goods": "Припасы", "areas": "Игроки", "none": "-",
           "standings": "Счёт", "place": "#{place}", "used": "использована в этот час",
           "reward.vp3": "+3 ПО", "reward.vp4": "+4 ПО", "reward.curio_map": "+1 диковинка, +1 жетон карты",
           "reward.goods2": "+2 припаса", "reward.map2": "+2 жетона карты",
           "reward.favor_curio": "+1 гостинец, +1 диковинка",
           "kind.village": "деревня", "kind.tower": "вышка", "kind.club": "клуб", "kind.cottage": "домик",
           "kind.cliff": "утёс"},
}


def _t(locale: str, key: str, **params: Any) -> str:
    table = TEXT.get(locale, TEXT["en"])
    return table.get(key, TEXT["en"][key]).format(**params)


@cache
def _catalog(locale: str) -> dict[str, Any]:
    """The game's own catalog (item, symbol, festivity, score, dawdle and rating names): one word per term."""
    path = resources.files("games.maple").joinpath("locales", f"{locale if locale in ('en', 'ru') else 'en'}.json")
    return json.loads(path.read_text(encoding="utf-8"))


def _term(locale: str, key: str) -> str:
    value = _catalog(locale).get(key, _catalog("en").get(key, key))
    return value if isinstance(value, str) else key


def _name(locale: str, seat: int, names: list[str] | None) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return _t(locale, "player", n=seat + 1)


def _initials(players: int, names: list[str] | None) -> list[str]:
    """The letter on each piece: the name's initial, or the player number when initials clash."""
    letters = [(names[s][:1].upper() if names and s < len(names) and names[s] else str(s + 1)) for s in range(players)]
    return letters if len(set(letters)) == players else [str(s + 1) for s in range(players)]


def seat_colour(seat: int) -> RGB:
    return PLAYER_COLORS[SEAT_KEYS[seat % len(SEAT_KEYS)]]


def _loc_xy(code: str, top: int = 0) -> tuple[int, int]:
    x, y = D.LOCATIONS[code][1]
    return MARGIN + PAD_X + x * CELL, top + PAD_Y + y * CELL


# -- icons ------------------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _icon(item: str, size: int = 26) -> Image.Image:
    """A goods, curiosity or map token as a picture on a light tile (not a letter code): acorn, berry, birch
    twig, cattail, clay, herb, honey, flower, pebble, bug, map. Cached per size."""
    s = size
    image = Image.new("RGB", (s, s), (252, 249, 240))
    d = ImageDraw.Draw(image)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=5, fill=(252, 249, 240), outline=INK)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return x0 * s, y0 * s, x1 * s, y1 * s

    if item == "a":  # acorn: a cap over a nut
        d.ellipse(box(0.3, 0.35, 0.7, 0.85), fill=(170, 110, 50), outline=INK)
        d.chord(box(0.22, 0.18, 0.78, 0.58), 180, 360, fill=(100, 70, 40), outline=INK)
        d.line((s * 0.5, s * 0.1, s * 0.5, s * 0.22), fill=INK, width=2)
    elif item == "b":  # berries
        for x, y in ((0.35, 0.6), (0.65, 0.6), (0.5, 0.35)):
            d.ellipse(box(x - 0.17, y - 0.17, x + 0.17, y + 0.17), fill=(170, 30, 90), outline=INK)
    elif item == "t":  # a birch twig: white bark with dark marks
        d.line((s * 0.18, s * 0.82, s * 0.82, s * 0.18), fill=INK, width=max(8, s // 3))
        d.line((s * 0.18, s * 0.82, s * 0.82, s * 0.18), fill=(245, 245, 235), width=max(5, s // 4))
        for t in (0.35, 0.6):
            d.line((s * (t - 0.06), s * (1 - t - 0.06), s * (t + 0.06), s * (1 - t + 0.06)), fill=INK, width=2)
    elif item == "c":  # cattail: a stem and a brown head
        d.line((s * 0.5, s * 0.12, s * 0.5, s * 0.9), fill=(60, 130, 60), width=2)
        d.rounded_rectangle(box(0.38, 0.25, 0.62, 0.62), radius=s // 8, fill=(110, 70, 40), outline=INK)
    elif item == "l":  # clay: a terracotta lump
        d.rounded_rectangle(box(0.18, 0.35, 0.82, 0.78), radius=s // 6, fill=(200, 110, 70), outline=INK)
    elif item == "h":  # a herb leaf with its vein
        d.polygon([(s * 0.2, s * 0.8), (s * 0.35, s * 0.3), (s * 0.8, s * 0.2), (s * 0.68, s * 0.65)],
                  fill=(80, 160, 70), outline=INK)
        d.line((s * 0.2, s * 0.8, s * 0.75, s * 0.25), fill=(30, 80, 30), width=1)
    elif item == "y":  # honey: a golden hexagon
        d.regular_polygon((s * 0.5, s * 0.52, s * 0.34), 6, fill=(240, 185, 30), outline=INK)
    elif item == "fl":  # flower: petals round a yellow heart
        for x, y in ((0.5, 0.27), (0.73, 0.45), (0.64, 0.73), (0.36, 0.73), (0.27, 0.45)):
            d.ellipse(box(x - 0.15, y - 0.15, x + 0.15, y + 0.15), fill=(240, 120, 180), outline=INK)
        d.ellipse(box(0.39, 0.39, 0.61, 0.61), fill=(250, 210, 60), outline=INK)
    elif item == "pe":  # pebble
        d.ellipse(box(0.15, 0.3, 0.85, 0.78), fill=(150, 150, 160), outline=INK)
        d.ellipse(box(0.3, 0.38, 0.45, 0.5), fill=(210, 210, 215))
    elif item == "bu":  # bug: a beetle with its head and wing line
        d.ellipse(box(0.38, 0.12, 0.62, 0.34), fill=INK)
        d.ellipse(box(0.25, 0.28, 0.75, 0.88), fill=(60, 150, 140), outline=INK)
        d.line((s * 0.5, s * 0.3, s * 0.5, s * 0.88), fill=INK, width=1)
    else:  # map token: a parchment with a red cross
        d.rectangle(box(0.15, 0.22, 0.85, 0.78), fill=(235, 220, 160), outline=INK)
        d.line((s * 0.55, s * 0.4, s * 0.7, s * 0.6), fill=(190, 40, 40), width=2)
        d.line((s * 0.7, s * 0.4, s * 0.55, s * 0.6), fill=(190, 40, 40), width=2)
        d.line((s * 0.25, s * 0.65, s * 0.45, s * 0.35), fill=MUTED, width=1)
    return image


def _piece(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float, seat: int, letter: str) -> None:
    """A critter or a cube: its seat's colour, a dark rim and the player's initial."""
    colour = seat_colour(seat)
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=(20, 20, 20), width=2)
    draw.text((x, y), letter, font=font(SMALL, True), anchor="mm", fill=text_on(colour))


def _items_line(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, items: tuple[str, ...] | list[str],
                size: int = 20) -> float:
    """Icons of a cost, left to right from (x, y top); returns the x after them."""
    for item in items:
        image.paste(_icon(item, size), (int(x), int(y)))
        x += size + 2
    return x


# -- the valley -------------------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _valley_layers(clearings: str, locale: str) -> tuple[Image.Image, Image.Image]:
    """The valley's two layers that never change in a game, cached: the ground and paths (under a walk being
    drawn), then the locations with their names and the path numbers (over it, with its mask)."""
    chosen = json.loads(clearings)
    ground = Image.new("RGB", (WIDTH, MAP_H), PAPER)
    draw = ImageDraw.Draw(ground)
    draw.rounded_rectangle((MARGIN, 0, MARGIN + MAP_W, MAP_H - 1), radius=16, fill=(238, 232, 210), outline=LINE,
                           width=2)
    for path in D.PATHS.values():
        draw.line((_loc_xy(path.a), _loc_xy(path.b)), fill=PATH_COLOURS[path.type], width=6)
    top = Image.new("RGBA", (WIDTH, MAP_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(top)
    for code, (kind, _) in D.LOCATIONS.items():
        x, y = _loc_xy(code)
        half = 44 if kind == "clearing" else 36
        draw.rounded_rectangle((x - half, y - 25, x + half, y + 25), radius=10, fill=KIND_COLOURS[kind], outline=INK,
                               width=2)
        if kind == "clearing":  # the clearing's name on two lines
            first, _, second = _term(locale, f"clearing.{chosen[code]}").partition(" ")
            draw.text((x, y - 10), first, font=font(SMALL, True), anchor="mm", fill=INK)
            draw.text((x, y + 10), second, font=font(SMALL, True), anchor="mm", fill=INK)
        elif kind == "grove":
            draw.text((x, y - 13), code, font=font(SMALL, True), anchor="mm", fill=INK)
        else:
            draw.text((x, y - 10), code, font=font(SMALL, True), anchor="mm", fill=INK)
            draw.text((x, y + 10), fit_text(draw, _t(locale, f"kind.{kind}"), font(SMALL), 2 * half - 4),
                      font=font(SMALL), anchor="mm", fill=MUTED)
    # The path numbers last: a short path's number overlaps a location's edge, never hides under it.
    for number, path in D.PATHS.items():
        (ax, ay), (bx, by) = _loc_xy(path.a), _loc_xy(path.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        if path.spot:  # the number beside the curiosity spot
            mx, my = mx + 21, my - 13
        draw.ellipse((mx - 13, my - 13, mx + 13, my + 13), fill=PAPER, outline=PATH_COLOURS[path.type], width=3)
        draw.text((mx, my), str(number), font=font(SMALL, True), anchor="mm", fill=INK)
    return ground, top


def _valley(image: Image.Image, view: dict[str, Any], top: int, initials: list[str], locale: str) -> None:
    ground, upper = _valley_layers(json.dumps(view["clearings"], sort_keys=True), locale)
    image.paste(ground, (0, top))
    draw = ImageDraw.Draw(image)
    walk = (view.get("turn") or {}).get("walk") or {}
    for number in walk.get("used", []):  # the walk under way: a white core on the paths walked
        path = D.PATHS[number]
        draw.line((_loc_xy(path.a, top), _loc_xy(path.b, top)), fill=(250, 250, 250), width=2)
    image.paste(upper, (0, top), upper)
    for number, kind in view["spots"].items():
        path = D.PATHS[int(number)]
        (ax, ay), (bx, by) = _loc_xy(path.a, top), _loc_xy(path.b, top)
        image.paste(_icon(kind, 26), (int((ax + bx) / 2 - 13), int((ay + by) / 2 - 13)))
    for code in D.GROVES:
        x, y = _loc_xy(code, top)
        tokens = view["groves"][code]
        step = min(28, 44 // max(1, len(tokens) - 1)) if len(tokens) > 1 else 0
        left = x - (step * (len(tokens) - 1) + 24) / 2
        for i, item in enumerate(tokens):
            image.paste(_icon(item, 24), (int(left + i * step), y - 1))
    last = view.get("last_turn") or {}
    if last.get("at") in D.LOCATIONS and not view["over"]:  # where the last player stopped
        x, y = _loc_xy(last["at"], top)
        half = 44 if D.LOCATIONS[last["at"]][0] == "clearing" else 36
        draw.rounded_rectangle((x - half - 5, y - 30, x + half + 5, y + 30), radius=13, outline=INK, width=8)
        draw.rounded_rectangle((x - half - 4, y - 29, x + half + 4, y + 29), radius=12,
                               outline=seat_colour(last["seat"]), width=4)
    critters: dict[str, list[int]] = {}
    for seat in view["seats"]:
        critters.setdefault(seat["pos"], []).append(seat["seat"])
    for code, seats in critters.items():
        x, y = _loc_xy(code, top)
        for i, seat in enumerate(seats):
            _piece(draw, x - 32 + i * 24, y + 30, 12, seat, initials[seat])


def _goods_legend(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, locale: str) -> int:
    """Each goods, curiosity and the map token: its icon and name, then the three path types."""
    x = MARGIN
    for item in ITEMS:
        label = _term(locale, f"item.{item}")
        w = 24 + draw.textlength(label, font=font(SMALL)) + 14
        if x + w > WIDTH - MARGIN:
            x, y = MARGIN, y + 26
        image.paste(_icon(item, 20), (int(x), y))
        draw.text((x + 24, y + 10), label, font=font(SMALL), anchor="lm", fill=INK)
        x += w
    x, y = MARGIN, y + 28
    for kind in D.PATH_TYPES:
        draw.line((x, y + 10, x + 26, y + 10), fill=PATH_COLOURS[kind], width=6)
        label = f"{kind} {_term(locale, 'typename.' + kind)}"
        draw.text((x + 32, y + 10), label, font=font(SMALL), anchor="lm", fill=INK)
        x += 32 + draw.textlength(label, font=font(SMALL)) + 24
    return y + 28


# -- the rest of the first image ------------------------------------------------------------------------------
def _status(draw: ImageDraw.ImageDraw, image: Image.Image, view: dict[str, Any], y: int, locale: str,
            names: list[str] | None) -> None:
    """The hour, the sun goods and the worm (no worm in solo: it does not pass)."""
    x = MARGIN
    hour = _t(locale, "hour", hour=view["hour"])
    draw.text((x, y + 12), hour, font=font(18, True), fill=INK, anchor="lm")
    x += draw.textlength(hour, font=font(18, True)) + 18
    sun = f"{_t(locale, 'sun')}: {_term(locale, 'item.' + view['sun'])}"
    draw.text((x, y + 12), sun, font=font(SMALL), fill=INK, anchor="lm")
    x += draw.textlength(sun, font=font(SMALL)) + 6
    image.paste(_icon(view["sun"], 24), (int(x), y))
    x += 40
    extra = _t(locale, "solo_goal") if view["solo"] else _t(locale, "worm", player=_name(locale, view["worm"], names))
    draw.text((x, y + 12), fit_text(draw, extra, font(SMALL), WIDTH - MARGIN - x), font=font(SMALL), fill=MUTED,
              anchor="lm")


FEST_H = 74


def _festivities(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y: int, initials: list[str]) -> int:
    box = (WIDTH - 2 * MARGIN - 5 * 6) // 6
    for fest in view["fests"]:
        code = fest["code"]
        if code == "feast":
            title = _t(locale, "feast")
        else:
            card = D.FESTIVITIES[code]
            title = f"{_term(locale, f'fest.{code}')} · {_t(locale, 'reward.' + card.reward)}"
        draw.text((MARGIN, y), title, font=font(SMALL, True), fill=INK)
        spaces = D.SYMBOLS if code == "feast" else D.FESTIVITIES[code].spaces
        for i, cube in enumerate(fest["cubes"]):
            x = MARGIN + i * (box + 6)
            symbol = spaces[i]
            draw.rounded_rectangle((x, y + 22, x + box, y + FEST_H - 4), radius=6, fill=SYMBOL_COLOURS[symbol],
                                   outline=INK)
            draw.text((x + box / 2, y + 32), fit_text(draw, _term(locale, f"symbol.{symbol}"), font(SMALL), box - 6),
                      font=font(SMALL), anchor="mm", fill=INK)
            if cube is not None:
                if cube < 0:  # blocked space (fewer players)
                    draw.rectangle((x + box / 2 - 10, y + 45, x + box / 2 + 10, y + 65), fill=(90, 90, 90), outline=INK)
                else:
                    _piece(draw, x + box / 2, y + 56, 11, cube, initials[cube])
        y += FEST_H
    return y


ROWS = ("favors", "friends", "patches")
ROW_LINE = 24


def _rows_height(view: dict[str, Any]) -> int:
    return sum(24 + ROW_LINE * ((len(view["rows"][row]["display"]) + 1) // 2) + 6 for row in ROWS)


def _rows(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y: int) -> int:
    """The three display rows in two columns: the code players type, the name, the cost as icons, the VP."""
    column = (WIDTH - 2 * MARGIN) // 2
    for row in ROWS:
        title = f"{_t(locale, row)} · {_t(locale, 'deck', n=view['rows'][row]['deck_count'])}"
        if row == "friends" and not view["solo"]:
            title += f" · {_t(locale, 'dawdle')} {_t(locale, 'deck', n=view['dawdle_deck_count'])}"
        draw.text((MARGIN, y), title, font=font(SMALL, True), fill=INK)
        y += 24
        for i, card in enumerate(view["rows"][row]["display"]):
            x = MARGIN + (i % 2) * column
            _card_line(image, draw, row, card, x, y + (i // 2) * ROW_LINE, column - 10, locale)
        y += ROW_LINE * ((len(view["rows"][row]["display"]) + 1) // 2) + 6
    return y


def _card_line(image: Image.Image, draw: ImageDraw.ImageDraw, row: str, card: str, x: float, y: float, width: float,
               locale: str) -> None:
    end = x + width
    face, bold = font(SMALL), font(SMALL, True)
    draw.text((x, y), card, font=bold, fill=INK)
    x += draw.textlength(card, font=bold) + 6
    if row == "favors":
        f = D.FAVORS[card]
        tail = f"{f.vp}" + {"S": " +S", "P": f" +P {f.partner}", "V": " +V", "": ""}[f.bonus]
        room = end - x - 22 * len(f.cost) - draw.textlength(tail, font=face) - 16
        name = fit_text(draw, f.name, face, room)
        draw.text((x, y), name, font=face, fill=INK)
        x += draw.textlength(name, font=face) + 6
        draw.rectangle((x, y + 2, x + 5, y + 18), fill=SYMBOL_COLOURS[f.symbol], outline=INK)  # its symbol's colour
        x = _items_line(image, draw, x + 9, y, f.cost)
        draw.text((x + 4, y), tail, font=face, fill=INK)
    elif row == "friends":
        fr = D.FRIENDS[card]
        tail = f"{fr.vp}"
        room = end - x - 22 * len(fr.cost) - 16 * len(fr.paths) - draw.textlength(tail, font=face) - 16
        name = fit_text(draw, fr.name, face, room)
        draw.text((x, y), name, font=face, fill=INK)
        x += draw.textlength(name, font=face) + 6
        for kind in fr.paths:  # its path types: the letter in the path's colour
            draw.text((x, y), kind, font=bold, fill=PATH_COLOURS[kind])
            x += draw.textlength(kind, font=bold) + 2
        x = _items_line(image, draw, x + 6, y, fr.cost)
        draw.text((x + 4, y), tail, font=face, fill=INK)
    else:
        pa = D.PATCHES[card]
        draw.text((x, y), fit_text(draw, f"{pa.name} · {pa.vp}", face, end - x), font=face, fill=INK)


def _places(view: dict[str, Any]) -> dict[int, int]:
    totals = {int(seat): sum(b.values()) for seat, b in view["scores"].items()}
    key = {seat: (seat in view["eliminated"], -total) for seat, total in totals.items()}
    return {seat: 1 + sum(1 for other in key.values() if other < key[seat]) for seat in key}


def _standings_height(view: dict[str, Any]) -> int:
    return 26 + (50 if view["over"] else 28) * view["players"]


def _standings(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int, locale: str, names: list[str] | None,
               initials: list[str]) -> None:
    """One line per player: mark, total, name and cubes left; once it is over, in order of places, with the
    place and a second line of the score by category."""
    bold, plain = font(SMALL, True), font(SMALL)
    draw.text((MARGIN, y), _t(locale, "standings"), font=bold, fill=INK)
    y += 26
    places = _places(view)
    order = sorted(range(view["players"]), key=lambda s: (places[s], s)) if view["over"] else range(view["players"])
    for seat in order:
        scores = view["scores"][str(seat)]
        _piece(draw, MARGIN + 12, y + 12, 11, seat, initials[seat])
        total = _t(locale, "score", total=sum(scores.values()))
        if view["over"] and not view["solo"]:
            total = f"{_t(locale, 'place', place=places[seat])} · {total}"
        x = MARGIN + 32
        draw.text((x, y + 12), total, font=bold, fill=INK, anchor="lm")
        x += max(112, draw.textlength(total, font=bold) + 14)
        cubes = _t(locale, "cubes", n=view["seats"][seat]["cubes"])
        room = WIDTH - MARGIN - x - (0 if view["over"] else draw.textlength(cubes, font=plain) + 16)
        name = fit_text(draw, _name(locale, seat, names), bold, room) + (" ✕" if seat in view["eliminated"] else "")
        draw.text((x, y + 12), name, font=bold, fill=INK, anchor="lm")
        if view["over"]:
            detail = " · ".join(f"{_term(locale, 'score.' + k)} {v}" for k, v in scores.items())
            draw.text((MARGIN + 32, y + 34), fit_text(draw, detail, plain, WIDTH - 2 * MARGIN - 32), font=plain,
                      fill=MUTED, anchor="lm")
            y += 50
        else:
            draw.text((WIDTH - MARGIN, y + 12), cubes, font=plain, fill=MUTED, anchor="rm")
            y += 28


def _last_turn_text(view: dict[str, Any], locale: str, names: list[str] | None) -> str:
    last = view.get("last_turn") or {}
    if "seat" not in last or not last.get("card"):
        return ""
    card = last["card"]
    if card.startswith("dawdle:"):
        played = _term(locale, f"dawdle.{card[7:]}")
    else:
        played = f"{D.FRIENDS[card].name} ({last.get('main') or ''})" if card in D.FRIENDS else card
    parts = [_t(locale, "last.card", player=_name(locale, last["seat"], names), card=played, place=last.get("at"))]
    if last.get("crafted"):
        parts.append(_t(locale, "last.crafted", n=last["crafted"]))
    if last.get("points"):
        parts.append(_t(locale, "last.points", points=last["points"]))
    return ", ".join(parts)


def _header(view: dict[str, Any], locale: str, names: list[str] | None, initials: list[str]) -> Image.Image:
    detail = _last_turn_text(view, locale, names)
    if view["over"]:
        places = _places(view)
        first = [seat for seat, place in places.items() if place == 1]
        if view["solo"]:
            score = sum(view["scores"]["0"].values())
            rating = next(name for minimum, name in D.SOLO_RATINGS if score >= minimum)
            text = _t(locale, "solo_won" if score >= D.SOLO_WIN else "solo_lost", score=score,
                      rating=_term(locale, f"rating.{rating}"))
        elif len(first) == 1:
            text = _t(locale, "wins", player=_name(locale, first[0], names))
        else:
            text = _t(locale, "share", players=", ".join(_name(locale, s, names) for s in first))
        return header_strip(WIDTH, text, (seat_colour(first[0]), initials[first[0]]), detail)
    actor = view["actor"]
    if actor is None:
        return header_strip(WIDTH, _t(locale, "hour", hour=view["hour"]), None, detail)
    return header_strip(WIDTH, _t(locale, "to_move", player=_name(locale, actor, names)),
                        (seat_colour(actor), initials[actor]), detail)


@cache
def _legend_height(locale: str) -> int:
    scratch = Image.new("RGB", (WIDTH, 200))
    return _goods_legend(scratch, ImageDraw.Draw(scratch), 0, locale)


def _layout(view: dict[str, Any], locale: str) -> dict[str, int]:
    """The y of each part of the first image, and its height. Once the game is over the display rows give
    their room to the score breakdown."""
    y = HEADER_HEIGHT + 8
    out = {"status": y}
    y += 34
    out["valley"] = y
    y += MAP_H + 10
    out["legend"] = y
    y += _legend_height(locale) + 6
    out["fests"] = y
    y += FEST_H * len(view["fests"]) + 4
    out["rows"] = y
    if not view["over"]:
        y += _rows_height(view) + 4
    out["standings"] = y
    y += _standings_height(view) + 8
    out["height"] = y
    return out


def _draw_board(view: dict[str, Any], names: list[str] | None, locale: str) -> Image.Image:
    initials = _initials(view["players"], names)
    at = _layout(view, locale)
    image = Image.new("RGB", (WIDTH, at["height"]), PAPER)
    image.paste(_header(view, locale, names, initials), (0, 0))
    draw = ImageDraw.Draw(image)
    _status(draw, image, view, at["status"], locale, names)
    _valley(image, view, at["valley"], initials, locale)
    _goods_legend(image, draw, at["legend"], locale)
    _festivities(draw, view, locale, at["fests"], initials)
    if not view["over"]:
        _rows(image, draw, view, locale, at["rows"])
    _standings(draw, view, at["standings"], locale, names, initials)
    return image




def board_image(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> Image.Image:
    """The first image as posted (its colours reduced as in the PNG), in RGB."""
    return flat(_draw_board(view, names, locale)).convert("RGB")


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> bytes:
    """The board post's first image as PNG bytes."""
    return flat_png(_draw_board(view, names, locale))


# -- the details image: the players' areas ------------------------------------------------------------------------
LINE_H = 22


def _area_lines(p: dict[str, Any], solo: bool, locale: str) -> list[tuple[str, str]]:
    """(label, text) lines of a player's cards, wrapped later: friends by name, favors and patches by code and
    name (the codes are what players type)."""
    none = _t(locale, "none")
    lines = [
        (_t(locale, "hand"), ", ".join(D.FRIENDS[f].name for f in p["hand"]) or none),
        (_t(locale, "backpack"), ", ".join(D.FRIENDS[f].name for f in p["backpack"]) or none),
    ]
    if not solo:  # no dawdle cards in solo
        lines.append((_t(locale, "dawdle"), ", ".join(_term(locale, f"dawdle.{k}") for k in p["dawdle"]) or none))
    lines += [
        (_t(locale, "to_craft"), ", ".join(f"{f} {D.FAVORS[f].name}" for f in p["favors"]) or none),
        (_t(locale, "crafted"), ", ".join(f"{f} {D.FAVORS[f].name}" for f in p["crafted"]) or none),
        (_t(locale, "patches").lower(), ", ".join(f"{pid} {D.PATCHES[pid].name}" + (f" ({_t(locale, 'used')})" if pid in p["patch_cubes"] else "")
                                         for pid in p["patches"]) or none),
    ]
    return lines


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


def _area(view: dict[str, Any], seat: int, names: list[str] | None, locale: str, initials: list[str],
          places: dict[int, int]) -> Image.Image:
    key = json.dumps([view["seats"][seat], view["scores"][str(seat)], view["over"], view["solo"],
                      seat in view["eliminated"], places[seat], _name(locale, seat, names), initials[seat], locale],
                     sort_keys=True)
    return _area_image(key)


@lru_cache(maxsize=32)
def _area_image(key: str) -> Image.Image:
    """One player's area, cached by what it shows: a turn changes the mover's area (and scores) only."""
    p, scores, over, solo, out, place, name, initial, locale = json.loads(key)
    seat = p["seat"]
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    face, bold = font(SMALL), font(SMALL, True)
    rows: list[tuple[str, str]] = []
    lines = _area_lines(p, solo, locale)
    labels = max(measure.textlength(label + ":", font=bold) for label, _ in lines)
    for label, text in lines:
        room = WIDTH - 2 * MARGIN - 40 - labels
        for i, line in enumerate(_wrap(measure, text, face, room)):
            rows.append((label + ":" if i == 0 else "", line))
    height = 96 + LINE_H * len(rows) + 10
    image = Image.new("RGB", (WIDTH, height + 8), PAPER)
    draw = ImageDraw.Draw(image)
    colour = seat_colour(seat)
    right = WIDTH - MARGIN
    draw.rounded_rectangle((MARGIN, 0, right, height), radius=10, fill=(255, 252, 244), outline=colour, width=3)
    _piece(draw, MARGIN + 22, 20, 12, seat, initial)
    total = _t(locale, "score", total=sum(scores.values()))
    if over and not solo:
        total = f"{_t(locale, 'place', place=place)} · {total}"
    draw.text((right - 14, 9), total, font=font(18, True), fill=INK, anchor="ra")
    room = right - 14 - draw.textlength(total, font=font(18, True)) - 16 - (MARGIN + 42)
    name = fit_text(draw, name, font(18, True), room) + (" ✕" if out else "")
    draw.text((MARGIN + 42, 9), name, font=font(18, True), fill=INK)
    detail = " · ".join(f"{_term(locale, 'score.' + k)} {v}" for k, v in scores.items())
    draw.text((MARGIN + 16, 36), fit_text(draw, f"{detail} · {_t(locale, 'cubes', n=p['cubes'])}", face,
                                          right - MARGIN - 30), font=face, fill=MUTED)
    x = MARGIN + 16
    for item in ITEMS:
        count = p["map"] if item == "map" else p["goods"].get(item, p["curios"].get(item, 0))
        image.paste(_icon(item, 26), (x, 60))
        draw.text((x + 30, 73), str(count), font=bold, anchor="lm", fill=INK if count else MUTED)
        x += 54
    y = 96
    column = MARGIN + 24 + max(draw.textlength(label, font=bold) for label, _ in rows)
    for label, line in rows:
        if label:
            draw.text((MARGIN + 16, y), label, font=bold, fill=INK)
        draw.text((column, y), line, font=face, fill=INK)
        y += LINE_H
    return image


def details_image(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> Image.Image:
    initials = _initials(view["players"], names)
    places = _places(view)
    areas = [_area(view, seat, names, locale, initials, places) for seat in range(view["players"])]
    legend = _legend_height(locale)
    image = Image.new("RGB", (WIDTH, 44 + legend + 10 + sum(a.height for a in areas) + 4), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 12), _t(locale, "areas"), font=font(20, True), fill=INK)
    _goods_legend(image, draw, 44, locale)  # the icons' names again, next to the counts
    y = 44 + legend + 10
    for area in areas:
        image.paste(area, (0, y))
        y += area.height
    return image


def render_details(view: dict[str, Any], names: list[str] | None = None,
                   locale: str = "en") -> list[tuple[str, bytes]]:
    """The images after the board: every player's area (goods, friends, favors, patches, score)."""
    return [("players.png", flat_png(details_image(view, names, locale)))]
