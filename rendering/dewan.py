"""Dewan images, drawn from a view only (a spectator's view cannot show a hand: it has none).

``render_board(view, names=, locale=)`` is the board post's first image, sized for a phone (at most twice as
tall as wide): the one-line header (who is to move with their seat mark, or the result; the last turn and its
points), the hex map (terrains in colour-blind-safe colours with a pattern each, labels that are never covered,
berries, boundary symbols, camps with the player's initial, the last route in the mover's colour on a dark
casing), the standings, the card row with the discard set apart, the story display, and a seat's own hand.
``render_details(view, ...)`` adds the tribe boards (slots, stories, tucked cards, the score breakdown).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.dewan import data as D
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

HEX = 36  # hex radius (centre to corner)
MARGIN = 28
WIDTH = 690  # the narrowest image; a 4-player map is 689 px wide
# Discord shows an image about 550 px wide on a phone: text of SMALL px at WIDTH reads at 12 px or more there.
SMALL = 16
LABEL = 17  # the hex labels players type
TRIBE = 176  # height of a player's tribe board in the details image
PAPER = (248, 244, 234)
INK = (38, 38, 44)
MUTED = (100, 96, 90)
LINE = (204, 196, 180)
# Terrains chosen (with a pattern each) to stay apart under deuteranopia, protanopia and tritanopia
# (CIEDE2000 >= 14 between any two, tests/rendering/dewan): badlands and forest used to merge.
TERRAIN: dict[str, RGB] = {
    "B": (200, 116, 110),  # badlands: red earth
    "M": (150, 152, 160),  # mountain: grey
    "D": (236, 204, 118),  # desert: sand
    "F": (69, 126, 48),  # forest: deep green
    "W": (118, 174, 222),  # water: blue
    "X": (242, 234, 214),  # start hex
}
# Seat colours (the shared palette) as drawn on camps, tribe boards and the header; every camp also carries
# the player's initial, so colour is never the only cue.
SEAT_KEYS = ("red", "blue", "yellow", "black")
BERRY = (150, 20, 80)
FIRE = (232, 92, 24)
HIGHLIGHT = (255, 214, 64)

TEXT = {
    "en": {
        "round": "Round {round}", "final": "FINAL ROUND", "to_move": "{player} to move",
        "over": "Game over", "wins": "{player} wins", "share": "{players} share first place",
        "dewan": "Dewan token: {player}", "row": "Card row", "deck": "deck", "discard": "discard",
        "display": "Story tiles", "story_deck": "deck {count}",
        "player": "Player {n}", "hand": "Your hand", "hand_count": "{count} in hand", "camps": "{count} camps",
        "total": "{score} pts", "place": "place {place}", "tribes": "Tribe boards",
        "breakdown": "story {story} · fire {fire}+{fire_bonus} · groups {groups} · berries {berries}",
        "phase.first_story": "first story tile", "phase.turn": "take or camp", "phase.pay": "paying for {hex}",
        "phase.story": "story tile", "phase.tuck": "tuck a card", "tucked": "tucked",
        "last.take": "{player} took {positions} ({terrains})", "last.camp": "{player}: camp {hex}",
        "last.pass": "{player} passed", "last.story": "{player} chose {tile}", "last.berry": "berry",
        "last.story_reward": "story {tile}", "last.tuck": "tucked {card}", "last.completed": "completed {tiles}",
        "last.points": "{points:+d} pts",
        "terrain.B": "badlands", "terrain.M": "mountain", "terrain.D": "desert", "terrain.F": "forest",
        "terrain.W": "water",
    },
    "ru": {
        "round": "Раунд {round}", "final": "ПОСЛЕДНИЙ РАУНД", "to_move": "Ходит {player}",
        "over": "Игра окончена", "wins": "Победа: {player}", "share": "Первое место делят: {players}",
        "dewan": "Фишка Девана: {player}", "row": "Ряд карт", "deck": "колода", "discard": "сброс",
        "display": "Сюжетные плитки", "story_deck": "стопка {count}",
        "player": "Игрок {n}", "hand": "Ваша рука", "hand_count": "в руке {count}", "camps": "лагерей {count}",
        "total": "{score} очк.", "place": "{place} место", "tribes": "Поля племён",
        "breakdown": "сюжет {story} · огонь {fire}+{fire_bonus} · группы {groups} · ягоды {berries}",
        "phase.first_story": "первая плитка", "phase.turn": "карты или лагерь", "phase.pay": "оплата {hex}",
        "phase.story": "сюжетная плитка", "phase.tuck": "подложить карту", "tucked": "под полем",
        "last.take": "{player} взял(а) {positions} ({terrains})", "last.camp": "{player}: лагерь {hex}",
        "last.pass": "{player}: пас", "last.story": "{player} выбрал(а) {tile}", "last.berry": "ягода",
        "last.story_reward": "сюжет {tile}", "last.tuck": "под поле {card}", "last.completed": "выполнены {tiles}",
        "last.points": "{points:+d} очк.",
        "terrain.B": "пустошь", "terrain.M": "горы", "terrain.D": "пустыня", "terrain.F": "лес",
        "terrain.W": "вода",
    },
}


def _t(locale: str, key: str, **params: Any) -> str:
    table = TEXT.get(locale, TEXT["en"])
    return table.get(key, TEXT["en"][key]).format(**params)


def _name(locale: str, seat: int, names: list[str] | None) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat][:22]
    return _t(locale, "player", n=seat + 1)


def _initials(players: int, names: list[str] | None) -> list[str]:
    """The letter on each camp: the name's initial, or the player number when initials clash."""
    letters = [(names[s][:1].upper() if names and s < len(names) and names[s] else str(s + 1)) for s in range(players)]
    if len(set(letters)) < players:
        return [str(s + 1) for s in range(players)]
    return letters


def seat_colour(seat: int) -> RGB:
    return PLAYER_COLORS[SEAT_KEYS[seat % len(SEAT_KEYS)]]


def _pixel(q: int, r: int) -> tuple[float, float]:
    return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r


def _corners(cx: float, cy: float, radius: float = HEX) -> list[tuple[float, float]]:
    return [(cx + radius * math.cos(math.radians(60 * i - 30)), cy + radius * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def _dark(rgb: RGB, factor: float = 0.6) -> RGB:
    return (int(rgb[0] * factor), int(rgb[1] * factor), int(rgb[2] * factor))


# -- terrain patterns: a second cue besides colour --------------------------------------------------------------
@lru_cache(maxsize=64)
def _pattern(size: tuple[int, int], terrain: str) -> Image.Image:
    """A tile of ``terrain``'s colour and pattern: hatching (badlands), peaks (mountain), dots (desert), trees
    (forest), waves (water), plain (start hex). Cached: pasted from, never drawn on."""
    w, h = size
    colour = TERRAIN[terrain]
    image = Image.new("RGB", size, colour)
    draw = ImageDraw.Draw(image)
    ink = _dark(colour, 0.72) if terrain != "F" else (40, 84, 26)
    if terrain == "B":
        for x in range(-h, w, 11):
            draw.line((x, h, x + h, 0), fill=ink, width=2)
    elif terrain == "M":
        for row, y in enumerate(range(6, h + 14, 15)):
            for x in range(-8 + (row % 2) * 9, w + 9, 18):
                draw.line(((x - 5, y + 3), (x, y - 3), (x + 5, y + 3)), fill=ink, width=2)
    elif terrain == "D":
        for row, y in enumerate(range(3, h + 8, 8)):
            for x in range(2 + (row % 2) * 5, w + 8, 10):
                draw.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=ink)
    elif terrain == "F":
        for row, y in enumerate(range(4, h + 14, 14)):
            for x in range(2 + (row % 2) * 8, w + 12, 16):
                draw.polygon(((x, y - 4), (x + 4, y + 4), (x - 4, y + 4)), fill=ink)
    elif terrain == "W":
        for y in range(5, h + 10, 10):
            draw.line([(x, y + 2.5 * math.sin(x / 4)) for x in range(-2, w + 4, 3)], fill=ink, width=2)
    return image


# -- small pictures ---------------------------------------------------------------------------------------------
def _resource(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float, fill: RGB = INK,
              outline: RGB = (255, 255, 255)) -> None:
    """Artifact ●, pigment ▲, crystal ■."""
    s = size / 2
    if kind == "art":
        draw.ellipse((x - s, y - s, x + s, y + s), fill=fill, outline=outline, width=2)
    elif kind == "pig":
        draw.polygon([(x, y - s * 1.15), (x + s * 1.1, y + s * 0.8), (x - s * 1.1, y + s * 0.8)], fill=fill,
                     outline=outline, width=2)
    else:
        draw.rectangle((x - s * 0.9, y - s * 0.9, x + s * 0.9, y + s * 0.9), fill=fill, outline=outline, width=2)


def _flame(draw: ImageDraw.ImageDraw, x: float, y: float, size: float) -> None:
    s = size / 2
    draw.polygon([(x, y - s * 1.3), (x + s * 0.8, y + s * 0.1), (x + s * 0.55, y + s * 0.8), (x - s * 0.55, y + s * 0.8),
                  (x - s * 0.8, y + s * 0.1)], fill=FIRE, outline=_dark(FIRE))
    draw.ellipse((x - s * 0.35, y, x + s * 0.35, y + s * 0.7), fill=HIGHLIGHT)


def _berry(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, fill: RGB = BERRY) -> None:
    s = size / 2
    for dx, dy in ((-0.45, 0.25), (0.45, 0.25), (0, -0.4)):
        draw.ellipse((x + dx * s - s * 0.55, y + dy * s - s * 0.55, x + dx * s + s * 0.55, y + dy * s + s * 0.55),
                     fill=fill, outline=(255, 255, 255))


def _symbol(draw: ImageDraw.ImageDraw, symbol: str | None, x: float, y: float, size: float) -> None:
    if symbol == "fire":
        _flame(draw, x, y, size)
    elif symbol == "berry":
        _berry(draw, x, y, size)
    elif symbol in D.RESOURCES:
        _resource(draw, symbol, x, y, size * 0.8)


def _mark(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float, seat: int, letter: str,
          size: int = SMALL) -> None:
    """A camp or a seat's token: its colour, a white halo and a dark rim that read on any terrain, and the
    player's initial."""
    colour = seat_colour(seat)
    draw.ellipse((x - radius - 3, y - radius - 3, x + radius + 3, y + radius + 3), fill=(255, 255, 255),
                 outline=INK, width=2)
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
    draw.text((x, y + 1), letter, fill=text_on(colour), font=font(size, True), anchor="mm")


CARD_W, CARD_H = 60, 84


@lru_cache(maxsize=64)
def _card_sprite(card: str, dim: bool = False) -> Image.Image:
    """A terrain card: its terrain halves (colour and pattern), letters, symbol and number. Cached: 55 cards."""
    terrains, symbol = D.CARDS[card]
    w, h = CARD_W, CARD_H
    image = Image.new("RGB", (w, h), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=(255, 255, 255), outline=INK, width=2)
    x0, y0, x1, y1 = 4, 4, w - 4, h - 20
    first = _pattern((x1 - x0, y1 - y0), terrains[0])
    if len(terrains) == 1:
        image.paste(first, (x0, y0))
    else:  # diagonal split
        mask = Image.new("L", first.size, 0)
        ImageDraw.Draw(mask).polygon([(0, 0), (x1 - x0, 0), (0, y1 - y0)], fill=255)
        image.paste(_pattern(first.size, terrains[1]), (x0, y0))
        image.paste(first, (x0, y0), mask)
    face = font(SMALL, True)
    for index, terrain in enumerate(terrains):
        tx, ty = (x0 + 11, y0 + 11) if index == 0 else (x1 - 11, y1 - 11)
        draw.rounded_rectangle((tx - 9, ty - 10, tx + 9, ty + 10), radius=4, fill=(255, 255, 255))
        draw.text((tx, ty), terrain, fill=INK, font=face, anchor="mm")
    if symbol:
        cx, cy = w / 2, (y0 + y1) / 2
        draw.ellipse((cx - 12, cy - 12, cx + 12, cy + 12), fill=(255, 255, 255))
        _symbol(draw, symbol, cx, cy, 16)
    draw.text((w / 2, h - 2), card, fill=INK, font=font(SMALL), anchor="md")
    if dim:  # the discard: greyed, so it never reads as a card of the row
        image = Image.blend(image, Image.new("RGB", image.size, (200, 196, 188)), 0.45)
    return image


@lru_cache(maxsize=256)
def _story_sprite(tile: str, done: bool | None, w: int = 116, h: int = 52) -> Image.Image:
    """A story tile: requirement icons, points, fire; completed tiles get a thick green frame, unfinished ones
    on a tribe board are greyed."""
    needs, points, fire = D.STORIES[tile]
    image = Image.new("RGB", (w, h), PAPER)
    draw = ImageDraw.Draw(image)
    frame = (40, 150, 70) if done else INK if done is None else (150, 146, 138)
    fill = (255, 250, 236) if done is not False else (236, 232, 224)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=7, fill=fill, outline=frame, width=4 if done else 2)
    cx = 14
    for need in needs:
        if need in D.LAND:
            image.paste(_pattern((18, 20), need), (cx - 9, 5))
            draw.rectangle((cx - 9, 5, cx + 9, 25), outline=INK)
            draw.text((cx, 15), need, fill=INK, font=font(SMALL, True), anchor="mm",
                      stroke_width=2, stroke_fill=(255, 255, 255))
        else:
            _resource(draw, need, cx, 15, 15, outline=(255, 255, 255))
        cx += 21
    draw.text((w - 7, h - 3), str(points), fill=INK, font=font(18, True), anchor="rd")
    if fire:
        _flame(draw, w - 34, h - 13, 13)
    draw.text((6, h - 3), tile, fill=MUTED, font=font(SMALL), anchor="ld")
    return image


# -- the map ----------------------------------------------------------------------------------------------------
def _map_geometry(view: dict[str, Any]) -> tuple[dict[str, tuple[float, float]], int, int]:
    raw = {label: _pixel(q, r) for label, q, r, _ in view["map"]["hexes"]}
    xs = [x for x, _ in raw.values()]
    ys = [y for _, y in raw.values()]
    dx = MARGIN + HEX - min(xs)
    dy = MARGIN / 2 + HEX - min(ys)
    centres = {label: (x + dx, y + dy) for label, (x, y) in raw.items()}
    width = int(max(xs) - min(xs) + 2 * HEX + 2 * MARGIN)
    height = int(max(ys) - min(ys) + 2 * HEX + MARGIN)
    return centres, width, height


def _board_width(map_width: int) -> int:
    return max(map_width, WIDTH)


def _centres(view: dict[str, Any]) -> tuple[dict[str, tuple[float, float]], int, int]:
    """Hex centres on the image (the map centred), the image width and the map's height."""
    centres, map_width, map_height = _map_geometry(view)
    width = _board_width(map_width)
    shift = (width - map_width) / 2
    return {label: (x + shift, y) for label, (x, y) in centres.items()}, width, map_height


@lru_cache(maxsize=16)
def _map_layer(map_json: str) -> Image.Image:
    """What never changes in a game: the terrains with their patterns, zone borders and boundary symbols. Cached
    per map, so a board only draws the pieces."""
    view = {"map": json.loads(map_json)}
    centres, width, height = _centres(view)
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    terrain = {label: t for label, _, _, t in view["map"]["hexes"]}
    for kind in TERRAIN:
        mask = Image.new("L", image.size, 0)
        mask_draw = ImageDraw.Draw(mask)
        for label, (cx, cy) in centres.items():
            if terrain[label] == kind:
                mask_draw.polygon(_corners(cx, cy), fill=255)
        if mask.getbbox():
            image.paste(_pattern(image.size, kind), (0, 0), mask)
    for label, (cx, cy) in centres.items():
        draw.polygon(_corners(cx, cy), outline=_dark(TERRAIN[terrain[label]], 0.8))
    # Zone borders: a thick line between neighbouring hexes of different terrain, and around the map.
    coords = {label: (q, r) for label, q, r, _ in view["map"]["hexes"]}
    at = {v: k for k, v in coords.items()}
    sides = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]  # neighbour across corner pair (i, i+1)
    for label, (cx, cy) in centres.items():
        q, r = coords[label]
        corners = _corners(cx, cy)
        for i, (dq, dr) in enumerate(sides):
            other = at.get((q + dq, r + dr))
            if other is None or terrain[other] != terrain[label]:
                draw.line([corners[i], corners[(i + 1) % 6]], fill=INK, width=3 if other is None else 2)
    for a, b, kind in view["map"]["symbols"]:
        (x1, y1), (x2, y2) = centres[a], centres[b]
        _resource(draw, kind, (x1 + x2) / 2, (y1 + y2) / 2, 14)
    return image


def _draw_pieces(image: Image.Image, view: dict[str, Any], centres: dict[str, tuple[float, float]],
                 initials: list[str]) -> None:
    """Berries, the last route, camps and the hex labels (last, so nothing covers them)."""
    draw = ImageDraw.Draw(image)
    # Berries lie where a camp would stand (a camp takes its zone's berry, so the two never share a hex).
    for label in view["map"]["berry_hexes"]:
        cx, cy = centres[label]
        if label in view["berries"]:
            _berry(draw, cx, cy + 12, 18)
        elif label not in view["camps"]:
            draw.ellipse((cx - 7, cy + 5, cx + 7, cy + 19), outline=INK, width=1)
    last = view.get("last") or {}
    if last.get("route"):  # the last route: the mover's colour on a dark casing, its end ringed
        points = [(centres[h][0], centres[h][1] + 12) for h in last["route"]]
        colour = seat_colour(last["seat"])
        draw.line(points, fill=INK, width=11, joint="curve")
        draw.line(points, fill=colour, width=5, joint="curve")
        for x, y in points[:-1]:
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=colour, outline=INK, width=2)
        cx, cy = centres[last["route"][-1]]
        draw.polygon(_corners(cx, cy, HEX - 4), outline=INK, width=7)
        draw.polygon(_corners(cx, cy, HEX - 5), outline=colour, width=3)
    starts = set(view["map"]["starts"])
    for label, seat in view["camps"].items():
        cx, cy = centres[label]
        if label in starts:  # the start camp: a hexagon ring in the seat's colour
            draw.polygon(_corners(cx, cy, HEX * 0.8), outline=INK, width=7)
            draw.polygon(_corners(cx, cy, HEX * 0.8), outline=seat_colour(seat), width=3)
        _mark(draw, cx, cy + 12, 11, seat, initials[seat])
    if view.get("pending_hex"):
        cx, cy = centres[view["pending_hex"]]
        draw.polygon(_corners(cx, cy, HEX - 3), outline=HIGHLIGHT, width=4)
    face = font(LABEL, True)
    for label, (cx, cy) in centres.items():
        draw.rounded_rectangle((cx - 15, cy - 30, cx + 15, cy - 11), radius=6, fill=(255, 255, 255), outline=INK)
        draw.text((cx, cy - 20), label, fill=INK, font=face, anchor="mm")


# -- the header and the panel under the map -------------------------------------------------------------------
def _places(view: dict[str, Any]) -> dict[int, int]:
    """1-based places by total, then cards in hand (the engine's tie-break); eliminated players last."""
    seats = view["seats"]
    key = {s["seat"]: (s["seat"] in view["eliminated"], -s["total"], -s["hand_count"]) for s in seats}
    return {seat: 1 + sum(1 for other in key.values() if other < key[seat]) for seat in key}


def _last_turn_text(view: dict[str, Any], locale: str, names: list[str] | None) -> str:
    last = view.get("last_turn") or {}
    if "seat" not in last:
        return ""
    player = _name(locale, last["seat"], names)
    if "take" in last:
        first = last["take"]
        positions = f"{first}–{first + 1}" if len(last.get("terrains", [])) > 1 else str(first)
        terrains = ", ".join("/".join(card) for card in last.get("terrains", []))
        parts = [_t(locale, "last.take", player=player, positions=positions, terrains=terrains)]
    elif "camp" in last:
        parts = [_t(locale, "last.camp", player=player, hex=last["camp"])]
        if last.get("berry"):
            parts.append(_t(locale, "last.berry"))
        if "story" in last:
            parts.append(_t(locale, "last.story_reward", tile=last["story"]))
        if "tuck" in last:
            parts.append(_t(locale, "last.tuck", card=last["tuck"]))
    elif "story" in last:
        parts = [_t(locale, "last.story", player=player, tile=last["story"])]
    else:
        parts = [_t(locale, "last.pass", player=player)]
    if last.get("completed"):
        parts.append(_t(locale, "last.completed", tiles=" ".join(last["completed"])))
    if last.get("points"):
        parts.append(_t(locale, "last.points", points=last["points"]))
    return ", ".join(parts)


def _header(view: dict[str, Any], width: int, locale: str, names: list[str] | None,
            initials: list[str]) -> Image.Image:
    detail = _last_turn_text(view, locale, names)
    if view["over"]:
        places = _places(view)
        first = [seat for seat, place in places.items() if place == 1]
        text = (_t(locale, "wins", player=_name(locale, first[0], names)) if len(first) == 1 else
                _t(locale, "share", players=", ".join(_name(locale, s, names) for s in first)))
        return header_strip(width, text, (seat_colour(first[0]), initials[first[0]]), detail)
    if view["actor"] is None:
        return header_strip(width, _t(locale, "round", round=view["round"]), None, detail)
    actor = view["actor"]
    text = _t(locale, "to_move", player=_name(locale, actor, names))
    if view["phase"] != "turn":
        text += f" ({_t(locale, 'phase.' + view['phase'], hex=view.get('pending_hex') or '')})"
    return header_strip(width, text, (seat_colour(actor), initials[actor]), detail)


STANDING = 32  # px per line of the standings


def _standings_height(view: dict[str, Any]) -> int:
    return 34 + STANDING * math.ceil(view["players"] / 2)


def _standings(draw: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, width: int, locale: str,
               names: list[str] | None, initials: list[str]) -> None:
    """The round (or the result) and the Dewan holder, then every seat in two columns: its mark, name, total
    (its place when the game is over), cards in hand and camps left."""
    bold, plain = font(SMALL, True), font(SMALL)
    title = _t(locale, "over") if view["over"] else _t(locale, "round", round=view["round"])
    if view["final_round"] and not view["over"]:
        title = _t(locale, "final")
        w = draw.textlength(title, font=bold) + 16
        draw.rounded_rectangle((x - 4, y, x + w - 4, y + 26), radius=6, fill=(190, 40, 40))
        draw.text((x + w / 2 - 4, y + 13), title, fill=(255, 255, 255), font=bold, anchor="mm")
    else:
        draw.text((x, y + 13), title, fill=INK, font=bold, anchor="lm")
    dewan = _t(locale, "dewan", player=_name(locale, view["dewan"], names))
    draw.text((x + draw.textlength(title, font=bold) + 24, y + 13), dewan, fill=MUTED, font=plain, anchor="lm")
    places = _places(view)
    column = (width - 2 * MARGIN) // 2
    for index, seat_view in enumerate(view["seats"]):
        seat = seat_view["seat"]
        cx = x + (index % 2) * column
        cy = y + 34 + (index // 2) * STANDING + 12
        _mark(draw, cx + 11, cy, 10, seat, initials[seat], 14 if len(initials[seat]) > 1 else SMALL)
        score = _t(locale, "total", score=seat_view["total"])
        if view["over"]:
            score = f"#{places[seat]} · {score}"
        extra = f" · {_t(locale, 'camps', count=seat_view['camps_left'])}"
        room = column - 36 - draw.textlength(score + extra, font=plain) - 12
        name = fit_text(draw, _name(locale, seat, names), bold, room)
        draw.text((cx + 28, cy), name, fill=INK, font=bold, anchor="lm")
        nx = cx + 28 + draw.textlength(name, font=bold) + 8
        draw.text((nx, cy), score, fill=INK, font=bold if view["over"] else plain, anchor="lm")
        draw.text((nx + draw.textlength(score, font=bold if view["over"] else plain), cy), extra, fill=MUTED,
                  font=plain, anchor="lm")


def _legend(draw: ImageDraw.ImageDraw, image: Image.Image, x: int, y: int, locale: str) -> None:
    """The terrains: a swatch of colour and pattern with the letter the cards use and the name."""
    for terrain in ("B", "M", "D", "F", "W"):
        image.paste(_pattern((22, 22), terrain), (x, y))
        draw.rectangle((x, y, x + 21, y + 21), outline=INK)
        label = f"{terrain} {_t(locale, 'terrain.' + terrain)}"
        draw.text((x + 28, y + 11), label, fill=INK, font=font(SMALL), anchor="lm")
        x += 28 + int(draw.textlength(label, font=font(SMALL))) + 12


ROW_TOP = 26  # from the row's title to its cards


def _row(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, locale: str) -> None:
    """The row: the deck, positions 1-6 (numbered; the cards refilled by the last take framed in the taker's
    colour), then, past a gap and a rule, the discard pile greyed in a tray of its own."""
    bold = font(SMALL, True)
    draw.text((x, y), _t(locale, "row"), fill=INK, font=bold)
    y += ROW_TOP
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=6, fill=(120, 96, 70), outline=INK, width=2)
    draw.text((x + CARD_W / 2, y + 34), str(view["deck_count"]), fill=(255, 255, 255), font=font(20, True),
              anchor="mm")
    draw.text((x + CARD_W / 2, y + CARD_H - 4), _t(locale, "deck"), fill=(255, 255, 255), font=font(SMALL),
              anchor="md")
    last = view.get("last_turn") or {}
    fresh: set[int] = set()
    if "take" in last:
        fresh = {last["take"] - 1 + i for i in range(len(last.get("terrains", [])))}
    step = CARD_W + 8
    for position, card in enumerate(view["row"]):
        cx = x + CARD_W + 14 + position * step
        draw.text((cx + CARD_W / 2, y - 3), str(position + 1), fill=INK, font=bold, anchor="md")
        if position in fresh:
            draw.rounded_rectangle((cx - 5, y - 5, cx + CARD_W + 4, y + CARD_H + 4), radius=8, outline=INK, width=7)
            draw.rounded_rectangle((cx - 4, y - 4, cx + CARD_W + 3, y + CARD_H + 3), radius=8,
                                   outline=seat_colour(last["seat"]), width=3)
        if card:
            image.paste(_card_sprite(card), (int(cx), y))
        else:
            draw.rounded_rectangle((cx, y, cx + CARD_W, y + CARD_H), radius=6, outline=LINE, width=2)
    tray = x + CARD_W + 14 + 6 * step + 16
    draw.line((tray - 12, y - 20, tray - 12, y + CARD_H + 6), fill=LINE, width=2)
    draw.rounded_rectangle((tray, y - 22, tray + CARD_W + 30, y + CARD_H + 26), radius=8, fill=(226, 221, 210))
    draw.text((tray + CARD_W / 2 + 15, y - 3), _t(locale, "discard"), fill=INK, font=font(SMALL), anchor="md")
    draw.text((tray + CARD_W / 2 + 15, y + CARD_H + 22), str(len(view["discard"])), fill=INK, font=font(SMALL),
              anchor="md")
    if view["discard"]:
        image.paste(_card_sprite(view["discard"][-1], dim=True), (int(tray + 15), y))


def _layout(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """(map height, y of the panel, panel height, hand rows) of the first image."""
    _, _, map_height = _centres(view)
    hand_rows = max(1, math.ceil(len(view["hand"]) / 9)) if "hand" in view else 0
    panel = 34 + _standings_height(view) + 8 + ROW_TOP + CARD_H + 34 + 26 + 56 + (26 + 92 * hand_rows if hand_rows else 0) + 12
    return map_height, HEADER_HEIGHT + map_height, panel, hand_rows


def board_image(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> Image.Image:
    """The first image as posted (its colours reduced as in the PNG), in RGB."""
    return flat(_draw_board(view, names, locale)).convert("RGB")


def _draw_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> Image.Image:
    """The first image: header, map, standings, card row, story display (and a seat's own hand)."""
    initials = _initials(view["players"], names)
    centres, width, _ = _centres(view)
    map_height, top, panel, hand_rows = _layout(view)
    image = Image.new("RGB", (width, top + panel), PAPER)
    image.paste(_header(view, width, locale, names, initials), (0, 0))
    image.paste(_map_layer(json.dumps(view["map"], sort_keys=True)), (0, HEADER_HEIGHT))
    _draw_pieces(image, view, {label: (x, y + HEADER_HEIGHT) for label, (x, y) in centres.items()}, initials)
    draw = ImageDraw.Draw(image)
    x, y = MARGIN, top
    _legend(draw, image, x, y, locale)
    y += 34
    _standings(draw, view, x, y, width, locale, names, initials)
    y += _standings_height(view) + 8
    _row(image, draw, view, x, y, locale)
    y += ROW_TOP + CARD_H + 34
    title = _t(locale, "display")
    draw.text((x, y), title, fill=INK, font=font(SMALL, True))
    draw.text((x + draw.textlength(title, font=font(SMALL, True)) + 14, y),
              _t(locale, "story_deck", count=view["story_deck_count"]), fill=MUTED, font=font(SMALL))
    y += 26
    for index, tile in enumerate(view["story_display"]):
        image.paste(_story_sprite(tile, None), (x + index * 122, y))
    y += 56
    if hand_rows:
        draw.text((x, y + 4), _t(locale, "hand"), fill=INK, font=font(SMALL, True))
        y += 26
        for index, card in enumerate(view["hand"]):
            image.paste(_card_sprite(card), (x + (index % 9) * (CARD_W + 8), y + (index // 9) * 92))
    return image


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> bytes:
    """The board post's first image as PNG bytes."""
    return flat_png(_draw_board(view, names, locale))




# -- the details image: tribe boards ------------------------------------------------------------------------------
def details_image(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> Image.Image:
    initials = _initials(view["players"], names)
    width = _centres(view)[1]
    image = Image.new("RGB", (width, 44 + TRIBE * view["players"] + 8), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 12), _t(locale, "tribes"), fill=INK, font=font(20, True))
    places = _places(view)
    y = 44
    for seat_view in view["seats"]:
        seat = seat_view["seat"]
        key = json.dumps([seat_view, view["actor"] == seat, view["over"], seat in view["eliminated"], places[seat],
                          _name(locale, seat, names), initials[seat], locale, width], sort_keys=True)
        image.paste(_tribe_image(key), (0, y))
        y += TRIBE
    return image


@lru_cache(maxsize=32)
def _tribe_image(key: str) -> Image.Image:
    """One tribe board, cached by what it shows: a turn changes the mover's board only."""
    seat_view, acting, over, out, place, name, initial, locale, width = json.loads(key)
    seat = seat_view["seat"]
    view = {"actor": seat if acting else None, "over": over, "eliminated": [seat] if out else []}
    image = Image.new("RGB", (width, TRIBE), PAPER)
    names = [""] * seat + [name]
    initials = [""] * seat + [initial]
    _tribe(image, ImageDraw.Draw(image), view, seat_view, MARGIN + 8, 0, width, locale, names, initials,
           {seat: place})
    return image


def render_details(view: dict[str, Any], names: list[str] | None = None,
                   locale: str = "en") -> list[tuple[str, bytes]]:
    """The images after the board: every tribe board with its score breakdown."""
    return [("tribes.png", flat_png(details_image(view, names, locale)))]


def _tribe(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat_view: dict[str, Any], x: int,
           y: int, width: int, locale: str, names: list[str] | None, initials: list[str],
           places: dict[int, int]) -> None:
    seat = seat_view["seat"]
    right = width - MARGIN + 4
    acting = view["actor"] == seat
    draw.rounded_rectangle((x - 8, y, right, y + TRIBE - 8), radius=8, fill=(255, 252, 244),
                           outline=HIGHLIGHT if acting else LINE, width=4 if acting else 2)
    _mark(draw, x + 14, y + 20, 11, seat, initials[seat])
    name = _name(locale, seat, names) + (" ✗" if seat in view["eliminated"] else "")
    total = _t(locale, "total", score=seat_view["total"])
    if view["over"]:
        total = f"{_t(locale, 'place', place=places[seat])} · {total}"
    draw.text((right - 10, y + 9), total, fill=INK, font=font(18, True), anchor="ra")
    room = right - 10 - draw.textlength(total, font=font(18, True)) - (x + 36) - 12
    draw.text((x + 36, y + 9), fit_text(draw, name, font(18, True), room), fill=INK, font=font(18, True))
    draw.text((x + 36, y + 34), _t(locale, "breakdown", **seat_view["score"]), fill=MUTED, font=font(SMALL))
    # Tribe board: 8 slots, emptied left to right; the next one is highlighted.
    sy = y + 60
    placed = 8 - seat_view["camps_left"]
    for slot in range(D.SLOTS):
        sx = x + slot * 30
        if slot == placed and not view["over"]:
            draw.rectangle((sx - 2, sy - 2, sx + 26, sy + 42), fill=HIGHLIGHT)
        draw.rectangle((sx, sy, sx + 24, sy + 40), fill=(232, 224, 206), outline=MUTED)
        if slot >= placed:
            colour = seat_colour(seat)
            draw.ellipse((sx + 3, sy + 3, sx + 21, sy + 21), fill=colour, outline=INK)
        reward = D.SLOT_REWARDS[slot]
        draw.text((sx + 12, sy + 31), "S" if reward == "story" else "T", fill=INK, font=font(SMALL, True),
                  anchor="mm")
        if slot == D.SLOTS - 1:
            _flame(draw, sx + 21, sy + 35, 9)
    # Counters: hand, berries, fire; then the tucked cards.
    cy = sy + 52
    hand = _t(locale, "hand_count", count=seat_view["hand_count"])
    draw.text((x, cy), hand, fill=INK, font=font(SMALL))
    cx = x + draw.textlength(hand, font=font(SMALL)) + 16
    _berry(draw, cx, cy + 9, 14)
    draw.text((cx + 10, cy), f"× {seat_view['berries']}", fill=INK, font=font(SMALL))
    cx += 52
    _flame(draw, cx, cy + 9, 14)
    draw.text((cx + 10, cy), f"× {seat_view['fire']}", fill=INK, font=font(SMALL))
    tx = x + 250
    for index, (tile, done) in enumerate(seat_view["stories"]):
        col, row = index % 3, index // 3
        image.paste(_story_sprite(tile, bool(done)), (tx + col * 120, y + 54 + row * 56 - (3 if done else 0)))
    if seat_view["tucked"]:
        label = _t(locale, "tucked") + ":"
        draw.text((x, cy + 26), label, fill=MUTED, font=font(SMALL))
        start = x + draw.textlength(label, font=font(SMALL)) + 8
        for index, card in enumerate(seat_view["tucked"]):
            _mini(image, draw, card, int(start + index * 56), cy + 24)


def _mini(image: Image.Image, draw: ImageDraw.ImageDraw, card: str, x: int, y: int) -> None:
    """A tucked card, small: terrain colours and patterns, symbol, number."""
    terrains, symbol = D.CARDS[card]
    w, h = 52, 26
    first = _pattern((w, h), terrains[0])
    if len(terrains) == 1:
        image.paste(first, (x, y))
    else:
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).polygon([(0, 0), (w, 0), (0, h)], fill=255)
        image.paste(_pattern((w, h), terrains[1]), (x, y))
        image.paste(first, (x, y), mask)
    draw.rectangle((x, y, x + w, y + h), outline=INK)
    if symbol:
        _symbol(draw, symbol, x + 11, y + h / 2, 12)
    draw.text((x + w - 2, y + h - 1), card[1:], fill=INK, font=font(SMALL, True), anchor="rd",
              stroke_width=2, stroke_fill=(255, 255, 255))
