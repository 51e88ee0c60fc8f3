"""Déole images, drawn from the public view only.

``render(view, locale, names)`` draws the shared Exploration sheet (map, traces, ports, wrecks, castaways, Éolia,
storms) with a panel under it for the dice still on the dice track, the Compass Rose and the standings.
``render_sheets(view, locale, names)`` draws every Navigation sheet, one under the other.
``render_board(view, names=, locale=)`` is the entry point of ``rendering.render_board``. ``names`` are the
players' names by seat; without them the images say "Player 1", "Player 2"...
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from games.deole import data as D
from rendering.common import (
    HEADER_HEIGHT,
    PLAYER_COLORS,
    fit_text,
    flat_png,
    font,
    header_strip,
    png_bytes,
    seat_mark,
)

CELL = 64
MARGIN = 78
MAP = CELL * D.SIZE
PANEL_TOP = MARGIN + MAP + 26 + 18  # under the map's bottom edge band
COLUMN = 340  # the panel's second column (the players) starts here
SEA = (222, 237, 246)
SEA_LINE = (176, 204, 222)
INK = (35, 40, 48)
MUTED = (110, 118, 128)
SAND = (236, 214, 160)
PAPER = (250, 247, 238)
ORANGE = (240, 140, 40)
DIE_COLOURS = {c: PLAYER_COLORS[c] for c in D.WIND_COLOURS}
ROSE_ROW, ROSE_SHOWN = 8, 32  # Compass Rose dice per row, and at most shown
# Traces of several ships in the same box are shifted apart, as the rules ask players to do on paper.
TRACE_OFFSETS = {"blue": -9, "yellow": -3, "green": 3, "red": 9}

TEXT = {
    "en": {
        "round": "Round {round}/3 · turn {turn}/5", "dice": "Dice on the track", "rose": "Compass Rose",
        "bag": "Dice in the bag: {count}", "castaways": "Castaways: {symbol}", "player": "Player {n}",
        "to_act": "To act: {player}", "over": "Game over", "gauge": "Gauge depth 2/4/6/8: +5/+10/+20/+30",
        "points": "{score} pts", "home": "in port", "storm": "storm", "eolia": "ÉOLIA", "bonuses": "Bonuses",
        "solo": "Solo voyage: {outcome}", "in_hand": "In hand: {die}", "disaster": "Disaster: {die}", "crew": "Crew", "blue": "Blue",
        "yellow": "Yellow", "green": "Green", "red": "Red", "total": "Total {score}",
        "breakdown": "wind {wind} · crew {crew} · Éolia {eolia} · gauge {gauge} · route {route} · rudders {rudders}{spare}",
        "won": "victory", "not_home": "not back in port", "crash": "crashed", "shipwreck": "shipwreck",
        "abandoned": "abandoned", "playing": "at sea",
        "header_act": "{player} to act", "header_won": "{players} won · {score}",
        "header_solo": "Solo voyage: {outcome} · {score}", "last_die": "{colour} {value} → {track}",
        "last_discarded": "{colour} {value} discarded", "last_disaster": "Disaster {colour} {value}",
        "last_points": "{points:+d}", "place": "{place}.",
    },
    "ru": {
        "round": "Раунд {round}/3 · ход {turn}/5", "dice": "Кубики на дорожке", "rose": "Роза ветров",
        "bag": "Кубиков в мешке: {count}", "castaways": "Потерпевшие: {symbol}", "player": "Игрок {n}",
        "to_act": "Ходит: {player}", "over": "Игра окончена", "gauge": "Шкала, глубина 2/4/6/8: +5/+10/+20/+30",
        "points": "{score} очк.", "home": "в порту", "storm": "буря", "eolia": "ЭОЛИЯ", "bonuses": "Бонусы",
        "solo": "Одиночное плавание: {outcome}", "in_hand": "В руке: {die}", "disaster": "Бедствие: {die}", "crew": "Экипаж", "blue": "Синий",
        "yellow": "Жёлтый", "green": "Зелёный", "red": "Красный", "total": "Итого {score}",
        "breakdown": "ветер {wind} · экипаж {crew} · Эолия {eolia} · шкала {gauge} · маршрут {route} · рули {rudders}{spare}",
        "won": "победа", "not_home": "не вернулся в порт", "crash": "разбился", "shipwreck": "кораблекрушение",
        "abandoned": "прервано", "playing": "в море",
        "header_act": "Ходит {player}", "header_won": "Победа: {players} · {score}",
        "header_solo": "Одиночное плавание: {outcome} · {score}", "last_die": "{colour} {value} → {track}",
        "last_discarded": "{colour} {value} сброшен", "last_disaster": "Бедствие {colour} {value}",
        "last_points": "{points:+d}", "place": "{place}.",
    },
}
MODE_NAMES = {
    "en": {"even": "EVEN", "odd": "ODD", "different": "DIFFERENT", "ascending": "INCREASING",
           "descending": "DECREASING", "equal": "EQUAL", "oscillating": "OSCILLATING", "step": "+/-1",
           "low": "LOW 1-3", "high": "HIGH 4-6"},
    "ru": {"even": "ЧЁТНЫЕ", "odd": "НЕЧЁТНЫЕ", "different": "РАЗНЫЕ", "ascending": "ВОЗРАСТАНИЕ",
           "descending": "УБЫВАНИЕ", "equal": "РАВНЫЕ", "oscillating": "КОЛЕБАНИЕ", "step": "+/-1",
           "low": "МАЛЫЕ 1-3", "high": "БОЛЬШИЕ 4-6"},
}
SYMBOL_NAMES = {
    "ru": {"anchor": "якорь", "shell": "ракушка", "star": "звезда", "fish": "рыба", "gull": "чайка",
           "bottle": "бутылка", "knot": "узел", "pearl": "жемчужина", "compass": "компас"},
}


def _t(locale: str, key: str, **params: Any) -> str:
    table = TEXT.get(locale, TEXT["en"])
    return table.get(key, TEXT["en"][key]).format(**params)


def _player(locale: str, seat: int, names: list[str] | None) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return names[seat][:24]
    return _t(locale, "player", n=seat + 1)


def render_board(view: dict[str, Any], names: list[str] | None = None, locale: str = "en") -> bytes:
    """The board post's image: the Exploration sheet (the Navigation sheets are a second image)."""
    return render(view, locale, names)


def _cell_origin(row: int, col: int) -> tuple[int, int]:
    return MARGIN + col * CELL, MARGIN + row * CELL


def _side_point(row: int, col: int, side: str, offset: int) -> tuple[float, float]:
    """Midpoint of a box side, shifted along the side by ``offset`` pixels (to separate ships)."""
    x, y = _cell_origin(row, col)
    half = CELL / 2
    return {
        "N": (x + half + offset, y), "S": (x + half + offset, y + CELL),
        "W": (x, y + half + offset), "E": (x + CELL, y + half + offset),
    }[side]


def _bezier(p0, p1, p2, steps: int = 10) -> list[tuple[float, float]]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        x = (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0]
        y = (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1]
        out.append((x, y))
    return out


def _dark(rgb: tuple[int, int, int], factor: float = 0.55) -> tuple[int, int, int]:
    return tuple(int(c * factor) for c in rgb)  # type: ignore[return-value]


def _draw_die(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, colour: str, value: Any) -> None:
    """A die of its wind's colour, its value, and an arrowhead on the side its wind pushes a ship to (north
    for blue...): the wind reads without its colour."""
    fill = DIE_COLOURS.get(colour, (200, 200, 200))
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=fill, outline=_dark(fill), width=2)
    text = "?" if value is None else str(value)
    ink = INK if colour == "yellow" else (255, 255, 255)
    edge = D.EDGE_OF.get(colour)
    centre = (x + size / 2, y + size / 2)
    if edge is not None:
        dr, dc = D.STEP[edge]
        cx, cy, half = x + size / 2 + dc * size * 0.3, y + size / 2 + dr * size * 0.3, size * 0.14
        tip = (cx + dc * half, cy + dr * half)
        base = [(cx - dc * half * 0.4 + dr * half * 1.3, cy - dr * half * 0.4 + dc * half * 1.3),
                (cx - dc * half * 0.4 - dr * half * 1.3, cy - dr * half * 0.4 - dc * half * 1.3)]
        draw.polygon([tip, *base], fill=ink)
        centre = (centre[0] - dc * size * 0.1, centre[1] - dr * size * 0.1)  # the value makes room for it
    draw.text(centre, text, fill=ink, font=font(int(size * 0.5), True), anchor="mm")


def _draw_castaway(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: int = 12) -> None:
    draw.ellipse((cx - size * 0.45, cy - size * 1.1, cx + size * 0.45, cy - size * 0.2), fill=ORANGE, outline=INK)
    draw.polygon([(cx - size * 0.8, cy + size), (cx, cy - size * 0.3), (cx + size * 0.8, cy + size)],
                 fill=ORANGE, outline=INK)


def _draw_wreck(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    hull = [(x + 12, y + 36), (x + 52, y + 36), (x + 44, y + 48), (x + 20, y + 48)]
    draw.polygon(hull, fill=(120, 84, 52), outline=INK)
    draw.line((x + 30, y + 36, x + 24, y + 14), fill=INK, width=3)  # a broken, leaning mast
    draw.line((x + 24, y + 14, x + 36, y + 22), fill=INK, width=2)
    for i in range(3):
        draw.arc((x + 8 + 16 * i, y + 48, x + 24 + 16 * i, y + 58), 200, 340, fill=SEA_LINE, width=2)


def render(view: dict[str, Any], locale: str = "en", names: list[str] | None = None) -> bytes:
    """The Exploration sheet as a PNG (732 px wide): the map, and under it the panel in two columns. Under,
    not beside: Discord shows the image about 550 px wide inline, and the panel's text must read there."""
    width = MARGIN * 2 + MAP
    height = PANEL_TOP + _panel_height(view)
    image = Image.new("RGB", (width, HEADER_HEIGHT + height), PAPER)
    image.paste(_header(view, locale, names, width), (0, 0))
    body = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(body)
    storm = _storm_set(view.get("storms", {}))
    _draw_map(draw, storm, locale)
    _draw_castaways(draw, view)
    for sheet in view["sheets"]:
        _draw_trace(draw, sheet, _initial(locale, sheet["seat"], names))
    _draw_panel(draw, view, locale, PANEL_TOP, names)
    image.paste(body, (0, HEADER_HEIGHT))
    return png_bytes(image)


def _initial(locale: str, seat: int, names: list[str] | None) -> str:
    """The letter on a seat's ship and mark: the name's initial, or the seat number without names."""
    if names and 0 <= seat < len(names) and names[seat].strip():
        return names[seat].strip()[0].upper()
    return str(seat + 1)


def _total(view: dict[str, Any], seat: int) -> int:
    return sum(view.get("scores", {}).get(str(seat), {}).values())


def _places(view: dict[str, Any]) -> dict[int, int]:
    """Each seat's place at the end: by total, ties sharing a place, players who left after the rest."""
    key = {sheet["seat"]: (sheet["seat"] in view.get("eliminated", []), -_total(view, sheet["seat"]))
           for sheet in view["sheets"]}
    return {seat: 1 + sum(other < mine for other in key.values()) for seat, mine in key.items()}


def _header(view: dict[str, Any], locale: str, names: list[str] | None, width: int) -> Image.Image:
    """The line above the map: who acts (their mark) and what the last turn did and made; at the end the
    winner (or the solo voyage's outcome) and the other places."""
    colour_of = {sheet["seat"]: PLAYER_COLORS[sheet["colour"]] for sheet in view["sheets"]}
    if not view.get("over") and view.get("actor") is not None:
        seat = view["actor"]
        head = _t(locale, "header_act", player=_player(locale, seat, names))
        detail = _last_text(view, locale, names)
    else:
        places = _places(view)
        winners = sorted(s for s, place in places.items() if place == 1)
        seat = winners[0] if winners else 0
        if view.get("solo"):
            head = _t(locale, "header_solo", outcome=_t(locale, view.get("outcome") or "playing"),
                      score=_t(locale, "points", score=_total(view, seat)))
        else:
            head = _t(locale, "header_won", players=", ".join(_player(locale, s, names) for s in winners),
                      score=_t(locale, "points", score=_total(view, seat)))
        detail = " · ".join(f"{_t(locale, 'place', place=place)} {_player(locale, s, names)} {_total(view, s)}"
                            for s, place in sorted(places.items(), key=lambda item: (item[1], item[0]))
                            if place > 1)
    mark = (colour_of.get(seat, (200, 200, 200)), _initial(locale, seat, names))
    return header_strip(width, head, mark, detail)


def _last_text(view: dict[str, Any], locale: str, names: list[str] | None) -> str:
    last = view.get("last") or {}
    if not last.get("dice"):
        return ""
    parts = []
    for colour, value, track in last["dice"]:
        where = "last_discarded" if track is None else "last_disaster" if track == "disaster" else "last_die"
        parts.append(_t(locale, where, colour=_t(locale, colour), value=value,
                        track=_t(locale, track if track in D.WIND_COLOURS else "crew") if track else ""))
    # (a Disaster's box is on the sheet, with its value)
    text = f"{_player(locale, last['seat'], names)}: " + ", ".join(parts)
    if "score_before" in last:
        text += " · " + _t(locale, "last_points", points=_total(view, last["seat"]) - last["score_before"])
    return text


def _storm_set(storms: dict[str, int]) -> set[tuple[int, int]]:
    return {(r, c) for r in range(D.SIZE) for c in range(D.SIZE)
            for colour, rows in storms.items() if D.depth((r, c), colour) < rows}


def _draw_map(draw: ImageDraw.ImageDraw, storm: set[tuple[int, int]], locale: str) -> None:
    left, top, right, bottom = MARGIN, MARGIN, MARGIN + MAP, MARGIN + MAP
    # Coloured edges (the colour facing each player) with their three ports.
    band = 26
    edges = {
        "N": (left, top - band, right, top), "S": (left, bottom, right, bottom + band),
        "W": (left - band, top, left, bottom), "E": (right, top, right + band, bottom),
    }
    for colour in D.WIND_COLOURS:
        edge = D.EDGE_OF[colour]
        draw.rectangle(edges[edge], fill=PLAYER_COLORS[colour])
    draw.rectangle((left, top, right, bottom), fill=SEA)
    small = font(16, True)
    for i in range(D.SIZE):
        x0, y0 = _cell_origin(i, i)
        draw.text((x0 + CELL / 2, top - band - 14), "ABCDEFGHI"[i], fill=MUTED, font=small, anchor="mm")
        draw.text((left - band - 14, y0 + CELL / 2), str(i + 1), fill=MUTED, font=small, anchor="mm")
    for r in range(D.SIZE):
        for c in range(D.SIZE):
            x, y = _cell_origin(r, c)
            if (r, c) in storm:
                draw.rectangle((x, y, x + CELL, y + CELL), fill=(190, 196, 206))
                for k in range(-CELL, CELL, 10):
                    draw.line((x + max(k, 0), y + max(-k, 0), x + min(CELL, CELL + k), y + min(CELL, CELL - k)),
                              fill=(120, 126, 140), width=1)
    for i in range(D.SIZE + 1):
        draw.line((left + i * CELL, top, left + i * CELL, bottom), fill=SEA_LINE, width=1)
        draw.line((left, top + i * CELL, right, top + i * CELL), fill=SEA_LINE, width=1)
    # Coasts: the sea boxes along each side of Éolia, tinted in their colour.
    for colour, boxes in D.COASTS.items():
        tint = tuple(int(0.75 * s + 0.25 * p) for s, p in zip(SEA, PLAYER_COLORS[colour], strict=True))
        for r, c in boxes:
            x, y = _cell_origin(r, c)
            draw.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), fill=tint)
    ix0, iy0 = _cell_origin(3, 3)
    ix1, iy1 = ix0 + 3 * CELL, iy0 + 3 * CELL
    draw.rounded_rectangle((ix0 + 4, iy0 + 4, ix1 - 4, iy1 - 4), radius=40, fill=SAND, outline=(180, 150, 90), width=3)
    for colour in D.WIND_COLOURS:
        edge = D.EDGE_OF[colour]
        line = {"N": (ix0 + 30, iy0 + 4, ix1 - 30, iy0 + 4), "S": (ix0 + 30, iy1 - 4, ix1 - 30, iy1 - 4),
                "W": (ix0 + 4, iy0 + 30, ix0 + 4, iy1 - 30), "E": (ix1 - 4, iy0 + 30, ix1 - 4, iy1 - 30)}[edge]
        draw.line(line, fill=PLAYER_COLORS[colour], width=7)
    draw.ellipse((ix0 + 60, iy0 + 50, ix1 - 60, iy1 - 70), fill=(120, 170, 90))
    draw.text(((ix0 + ix1) / 2, iy1 - 42), _t(locale, "eolia"), fill=INK, font=font(20, True), anchor="mm")
    draw.text(((ix0 + ix1) / 2, (iy0 + iy1) / 2 - 12), "★", fill=(250, 210, 60), font=font(30, True), anchor="mm")
    for r, c in D.WRECKS:
        _draw_wreck(draw, *_cell_origin(r, c))
    # Ports: a small quay on the edge band, numbered 1-3 as in the notation ``port N``.
    for colour in D.WIND_COLOURS:
        edge = D.EDGE_OF[colour]
        for n, i in enumerate(D.PORT_INDICES, start=1):
            if edge in ("N", "S"):
                cx = left + i * CELL + CELL / 2
                cy = top - band / 2 if edge == "N" else bottom + band / 2
            else:
                cy = top + i * CELL + CELL / 2
                cx = left - band / 2 if edge == "W" else right + band / 2
            draw.rounded_rectangle((cx - 15, cy - 11, cx + 15, cy + 11), radius=5, fill=PAPER, outline=INK, width=2)
            draw.text((cx, cy), str(n), fill=INK, font=font(16, True), anchor="mm")


def _draw_castaways(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    for r, c in view.get("castaways", []):
        x, y = _cell_origin(r, c)
        _draw_castaway(draw, x + CELL - 16, y + 20)


def _draw_trace(draw: ImageDraw.ImageDraw, sheet: dict[str, Any], letter: str = "") -> None:
    colour = sheet["colour"]
    rgb = PLAYER_COLORS[colour]
    offset = TRACE_OFFSETS[colour]
    points: list[tuple[float, float]] = []
    for row, col, entry, exit_dir in sheet["path"]:
        start = _side_point(row, col, D.OPPOSITE[entry], offset)
        end = _side_point(row, col, exit_dir, offset)
        x, y = _cell_origin(row, col)
        centre = (x + CELL / 2 + offset, y + CELL / 2 + offset)
        segment = [start, end] if entry == exit_dir else _bezier(start, centre, end)
        points.extend(segment if not points else segment[1:])
    if sheet.get("port") is not None and sheet["path"]:
        # from the quay into the first box
        first = sheet["path"][0]
        entry_point = _side_point(first[0], first[1], D.OPPOSITE[first[2]], offset)
        dx, dy = D.STEP[D.OPPOSITE[first[2]]]
        points.insert(0, (entry_point[0] + dx * 14, entry_point[1] + dy * 14))
    if len(points) >= 2:
        draw.line(points, fill=_dark(rgb, 0.35), width=7, joint="curve")
        draw.line(points, fill=rgb, width=4, joint="curve")
    if sheet.get("pos") is None:
        return
    # The ship: a small hull pointing where it heads, at the end of its trace.
    row, col = sheet["pos"]
    heading = sheet["heading"]
    if sheet["path"]:
        tip = _side_point(row, col, heading, offset)
    else:
        nr, nc = row + D.STEP[heading][0], col + D.STEP[heading][1]
        tip = _side_point(nr, nc, D.OPPOSITE[heading], offset)
    dx, dy = D.STEP[heading][1], D.STEP[heading][0]
    size = 11
    nose = (tip[0] + dx * size, tip[1] + dy * size)
    back = (tip[0] - dx * size, tip[1] - dy * size)
    side1 = (back[0] + dy * size * 0.8, back[1] - dx * size * 0.8)
    side2 = (back[0] - dy * size * 0.8, back[1] + dx * size * 0.8)
    draw.polygon([nose, side1, side2], fill=rgb, outline=INK)
    if sheet.get("docked"):
        draw.text(tip, "⚓", fill=INK, font=font(16, True), anchor="mm")
    elif letter:  # whose ship, without its colour: the owner's letter on a mark behind the bow
        seat_mark(draw, (back[0] - dx * 11, back[1] - dy * 11), 13, rgb, letter)


def _panel_height(view: dict[str, Any]) -> int:
    rose_rows = max(1, (min(len(view.get("compass", [])), ROSE_SHOWN) + ROSE_ROW - 1) // ROSE_ROW)
    facts = 244 + 37 * rose_rows + 44 * bool((view.get("current") or {}).get("die")) + 44 * bool(
        (view.get("current") or {}).get("disaster"))
    players = 40 + 58 * len(view["sheets"]) + 56 + 26 * bool(view.get("solo"))
    return max(facts, players) + 16


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y0: int,
                names: list[str] | None) -> None:
    """Under the map: the round, dice and bag at the left; the players and the gauge at the right. Text is
    15 px or more, 11 px or more once Discord scales the 732 px image to 550 px."""
    x = 24
    y = y0
    draw.text((x, y), "Déole" if locale != "ru" else "Деоль", fill=INK, font=font(26, True))
    y += 38
    if view.get("over"):
        draw.text((x, y), _t(locale, "over"), fill=INK, font=font(18, True))
    else:
        draw.text((x, y), _t(locale, "round", round=view["round"], turn=view["turn"]), fill=INK, font=font(18, True))
    y += 30
    if view.get("actor") is not None:
        draw.text((x, y), _t(locale, "to_act", player=_player(locale, view["actor"], names)), fill=INK, font=font(16))
        y += 26
    current = view.get("current") or {}
    if current.get("die"):
        die = current["die"]
        draw.text((x, y + 10), _t(locale, "in_hand", die=""), fill=INK, font=font(16))
        _draw_die(draw, x + 150, y, 34, die[0], die[1])
        y += 44
    if current.get("disaster"):  # solo: the die not chosen, placed once the chosen one's steps are done
        die = current["disaster"]
        draw.text((x, y + 10), _t(locale, "disaster", die=""), fill=INK, font=font(16))
        _draw_die(draw, x + 150, y, 34, die[0], die[1])
        y += 44
    y += 4
    draw.text((x, y), _t(locale, "dice"), fill=INK, font=font(16, True))
    y += 24
    for i, (colour, value) in enumerate(view.get("pool", [])):
        _draw_die(draw, x + i * 48, y, 40, colour, value)
    y += 52
    draw.text((x, y), _t(locale, "rose"), fill=INK, font=font(16, True))
    y += 24
    rose = view.get("compass", [])
    for i, (colour, value) in enumerate(rose[:ROSE_SHOWN]):
        _draw_die(draw, x + (i % ROSE_ROW) * 36, y + (i // ROSE_ROW) * 37, 34, colour, value)
    y += 37 * max(1, (min(len(rose), ROSE_SHOWN) + ROSE_ROW - 1) // ROSE_ROW) + 6
    draw.text((x, y), _t(locale, "bag", count=view.get("bag_count", 0)), fill=INK, font=font(16))
    y += 24
    if view.get("castaways"):
        symbol = view.get("castaway_symbol", "")
        symbol = SYMBOL_NAMES.get(locale, {}).get(symbol, symbol)
        text = _t(locale, "castaways", symbol=symbol)
        draw.text((x, y), text, fill=INK, font=font(16))
        _draw_castaway(draw, x + draw.textlength(text, font=font(16)) + 16, y + 10, 9)

    x = COLUMN
    y = y0 + 6
    scores = view.get("scores", {})
    places = _places(view)
    right = MARGIN * 2 + MAP - 24
    for sheet in view["sheets"]:
        seat = sheet["seat"]
        rgb = PLAYER_COLORS[sheet["colour"]]
        draw.rounded_rectangle((x, y, right, y + 50), radius=8, fill=(255, 255, 255), outline=rgb, width=3)
        seat_mark(draw, (x + 20, y + 25), 13, rgb, _initial(locale, seat, names))
        name = _player(locale, seat, names)
        if view.get("over") and not view.get("solo"):
            name = f"{_t(locale, 'place', place=places[seat])} {name}"
        if seat in view.get("eliminated", []):
            name += " ✗"
        total = _t(locale, "points", score=sum(scores.get(str(seat), {}).values()))
        room = right - 10 - draw.textlength(total, font=font(18, True)) - 12 - (x + 40)
        draw.text((x + 40, y + 4), fit_text(draw, name, font(17, True), room), fill=INK, font=font(17, True))
        status = _t(locale, "home") if sheet.get("docked") else _t(locale, sheet["colour"])
        draw.text((x + 40, y + 26), status, fill=MUTED, font=font(16))
        draw.text((right - 10, y + 25), total, fill=INK, font=font(18, True), anchor="rm")
        y += 58
    y += 4
    # The gauge's scale on two lines: at 15 px it would not fit one column.
    label, _, values = _t(locale, "gauge").partition(": ")
    draw.text((x, y), label + ":", fill=MUTED, font=font(16))
    draw.text((x, y + 20), values, fill=MUTED, font=font(16))
    if view.get("solo"):
        y += 48
        outcome = _t(locale, view.get("outcome") or "playing")
        draw.text((x, y), _t(locale, "solo", outcome=outcome), fill=INK, font=font(16, True))


# -- Navigation sheets ------------------------------------------------------------------------------
BOX_W, BOX_H = 54, 48
SHEET_W = 150 + BOX_W * D.WIND_LENGTH + 20
SHEET_H = 500


def render_details(view: dict[str, Any], names: list[str] | None = None,
                   locale: str = "en") -> list[tuple[str, bytes]]:
    """The images after the board: the players' Navigation sheets."""
    return [("sheets.png", render_sheets(view, locale, names=names))]


def render_sheets(view: dict[str, Any], locale: str = "en", names: list[str] | None = None) -> bytes:
    """Every Navigation sheet, one under the other, as a PNG 580 px wide: side by side, two sheets made an
    image 1,144 px wide whose 12 px text was 6 px in Discord's inline view (about 550 px wide)."""
    sheets = view["sheets"]
    columns = 1
    rows = (len(sheets) + columns - 1) // columns
    gap = 16
    image = Image.new("RGB", (columns * SHEET_W + (columns + 1) * gap, rows * SHEET_H + (rows + 1) * gap),
                      (214, 222, 230))
    draw = ImageDraw.Draw(image)
    for index, sheet in enumerate(sheets):
        ox = gap + (index % columns) * (SHEET_W + gap)
        oy = gap + (index // columns) * (SHEET_H + gap)
        _draw_sheet(draw, ox, oy, sheet, view, locale, names)
    return flat_png(image)  # flat colours: half the time of an RGB PNG


def _draw_sheet(draw: ImageDraw.ImageDraw, ox: int, oy: int, sheet: dict[str, Any], view: dict[str, Any],
                locale: str, names: list[str] | None = None) -> None:
    rgb = PLAYER_COLORS[sheet["colour"]]
    draw.rounded_rectangle((ox, oy, ox + SHEET_W, oy + SHEET_H), radius=12, fill=PAPER, outline=rgb, width=4)
    seat = sheet["seat"]
    breakdown = view.get("scores", {}).get(str(seat), {})
    title = f"{_player(locale, seat, names)} · {_t(locale, sheet['colour'])}"
    draw.text((ox + 16, oy + 12), title, fill=INK, font=font(19, True))
    draw.text((ox + SHEET_W - 16, oy + 12), _t(locale, "total", score=sum(breakdown.values())), fill=INK,
              font=font(19, True), anchor="ra")
    # The five modes of this game; crossed out once used on a track.
    used_modes = {m for m in sheet["modes"].values() if m}
    x = ox + 16
    for mode in view["modes"]:
        label = MODE_NAMES.get(locale, MODE_NAMES["en"])[mode]
        w = draw.textlength(label, font=font(13, True)) + 14
        draw.rounded_rectangle((x, oy + 44, x + w, oy + 66), radius=6, fill=(255, 255, 255), outline=MUTED)
        draw.text((x + 7, oy + 55), label, fill=MUTED if mode in used_modes else INK, font=font(13, True), anchor="lm")
        if mode in used_modes:
            draw.line((x + 4, oy + 55, x + w - 4, oy + 55), fill=INK, width=2)
        x += w + 6
    round_boxes = {(t, b) for t, b, _ in sheet.get("round_dice", [])}
    round_colour = {(t, b): c for t, b, c in sheet.get("round_dice", [])}
    y = oy + 80
    for track in D.TRACKS:
        _draw_track(draw, ox, y, sheet, track, round_boxes, round_colour, locale)
        y += BOX_H + 22
    # Stars under the first five columns: filled once the column is complete.
    for column in D.STAR_COLUMNS:
        cx = ox + 150 + column * BOX_W + BOX_W / 2
        done = column in sheet["columns"]
        draw.text((cx, y - 6), "★" if done else "☆", fill=(230, 170, 20) if done else MUTED, font=font(20),
                  anchor="mm")
    y += 16
    draw.text((ox + 16, y), _t(locale, "bonuses"), fill=INK, font=font(14, True))
    for i, letter in enumerate(D.BONUSES):
        bx = ox + 110 + i * 34
        used = letter in sheet["bonuses"]
        draw.rounded_rectangle((bx, y - 3, bx + 26, y + 21), radius=5, fill=(200, 200, 200) if used else (255, 255, 255),
                               outline=INK)
        draw.text((bx + 13, y + 9), letter, fill=MUTED if used else INK, font=font(14, True), anchor="mm")
    eolia = "5" if sheet.get("eolia") else "–"
    draw.text((ox + 330, y + 9), f"{_t(locale, 'eolia')} {eolia}", fill=INK, font=font(14, True), anchor="lm")
    if sheet.get("helping_hands"):
        _draw_castaway(draw, ox + 470, y + 10, 8)
        draw.text((ox + 482, y + 9), f"×{sheet['helping_hands']}", fill=INK, font=font(13), anchor="lm")
    y += 30
    if breakdown:
        spare = f" · +{breakdown['spare_rudders']}" if breakdown.get("spare_rudders") else ""
        text = _t(locale, "breakdown", spare=spare, **{k: v for k, v in breakdown.items() if k != "spare_rudders"})
        draw.text((ox + 16, y), text, fill=MUTED, font=font(13))


def _draw_track(draw: ImageDraw.ImageDraw, ox: int, y: int, sheet: dict[str, Any], track: str,
                round_boxes: set, round_colour: dict, locale: str) -> None:
    colour = PLAYER_COLORS.get(track, (150, 150, 150)) if track != D.CREW else (120, 110, 100)
    # Sail with the track's name and its mode.
    draw.polygon([(ox + 16, y + BOX_H), (ox + 40, y), (ox + 40, y + BOX_H)], fill=colour, outline=INK)
    draw.text((ox + 46, y + 4), _t(locale, track) if track != D.CREW else _t(locale, "crew"), fill=INK,
              font=font(13, True))
    mode = sheet["modes"].get(track)
    if mode:
        draw.text((ox + 46, y + 19), MODE_NAMES.get(locale, MODE_NAMES["en"])[mode], fill=MUTED, font=font(13, True))
    # Rudders in the margin: filled = available, crossed = used, dotted = still to earn.
    available = sheet["rudders"][track]
    used = sheet["rudders_used"][track]
    capacity = D.START_RUDDERS[track] + len(D.RUDDER_BOXES[track])
    for i in range(capacity):
        rx, ry = ox + 48 + i * 17, y + BOX_H - 8
        if i < used:
            draw.ellipse((rx - 6, ry - 6, rx + 6, ry + 6), outline=INK, width=1)
            draw.line((rx - 6, ry - 6, rx + 6, ry + 6), fill=INK, width=2)
        elif i < used + available:
            draw.ellipse((rx - 6, ry - 6, rx + 6, ry + 6), fill=colour, outline=INK, width=1)
        else:
            draw.ellipse((rx - 6, ry - 6, rx + 6, ry + 6), outline=MUTED, width=1)
    disasters = {(t, b): v for t, b, v in sheet.get("disasters", [])}
    for box, value in enumerate(sheet["boxes"][track]):
        bx = ox + 150 + box * BOX_W
        draw.rectangle((bx, y, bx + BOX_W - 4, y + BOX_H), fill=(255, 255, 255), outline=INK, width=1)
        if box in D.RUDDER_BOXES[track]:
            draw.ellipse((bx + 3, y + 3, bx + 11, y + 11), outline=colour, width=2)
        if track == D.CREW:
            sign = 1 if box in sheet["flipped"] else D.CREW_SIGNS[box]
            label = "+" if sign > 0 else "−"
            draw.text((bx + BOX_W - 8, y + 3), label, fill=(40, 130, 60) if sign > 0 else (190, 50, 50),
                      font=font(14, True), anchor="ra")
            if box in D.CREW_FLIPPABLE:
                draw.text((bx + 4, y + BOX_H - 2), "⚓", fill=MUTED, font=font(13), anchor="lb")
        else:
            draw.text((bx + (BOX_W - 4) / 2, y + BOX_H + 9), str(D.WIND_SCORES[box]), fill=MUTED, font=font(13),
                      anchor="mm")
        cx, cy = bx + (BOX_W - 4) / 2, y + BOX_H / 2 + 2
        if value == "c":
            _draw_castaway(draw, cx, cy, 11)
        elif value == "x":
            draw.line((bx + 8, y + 8, bx + BOX_W - 12, y + BOX_H - 8), fill=(230, 160, 160), width=4)
            draw.line((bx + BOX_W - 12, y + 8, bx + 8, y + BOX_H - 8), fill=(230, 160, 160), width=4)
            # The Disaster's die value: a later Disaster of the same value is ignored (rules).
            shown = disasters.get((track, box))
            if shown is not None:
                draw.text((cx, cy), str(shown), fill=(170, 30, 30), font=font(22, True), anchor="mm",
                          stroke_width=2, stroke_fill=(255, 255, 255))
        elif value is not None:
            if (track, box) in round_boxes:
                _draw_die(draw, int(cx - 17), int(cy - 17), 34, round_colour[(track, box)], value)
            else:
                draw.text((cx, cy), str(value), fill=INK, font=font(22, True), anchor="mm")
