"""Actions of Trails & Fortresses and their text notation.

A turn has three steps: ``place x,y rROT`` -> (optional) a figure -> ``confirm``; ``undo`` steps back
until the turn is confirmed. Notation examples::

    place 2,-1 r90        figure city:0        figure big road:1
    builder road:0        keeper field:2       confirm        undo
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.core import IllegalAction

FIGURE_KINDS = ("normal", "big", "builder", "keeper")


@dataclass(frozen=True, slots=True)
class Place:
    x: int
    y: int
    rot: int  # clockwise quarter turns 0..3


@dataclass(frozen=True, slots=True)
class Figure:
    feature: str  # "city:0", "road:1", "field:2", "monastery" (unrotated segment index)
    kind: str = "normal"  # normal | big | builder | keeper


@dataclass(frozen=True, slots=True)
class Confirm:
    """End the turn (with or without a figure); completed features score now."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last unconfirmed step (the figure, else the tile)."""


TrailsAction = Place | Figure | Confirm | Undo

CONFIRM = Confirm()
UNDO = Undo()

# Interned action values: legal_actions builds many of them every turn, and a dict lookup is far
# cheaper than a frozen dataclass constructor (the random-game benchmark is dominated by this).
_PLACES: dict[tuple[int, int, int], Place] = {}
_FIGURES: dict[tuple[str, str], Figure] = {}


def place(x: int, y: int, rot: int) -> Place:
    key = (x, y, rot)
    action = _PLACES.get(key)
    if action is None:
        action = _PLACES[key] = Place(x, y, rot)
    return action


def figure(feature: str, kind: str = "normal") -> Figure:
    key = (feature, kind)
    action = _FIGURES.get(key)
    if action is None:
        action = _FIGURES[key] = Figure(feature, kind)
    return action


ECHO_LIMIT = 100  # at most this many characters of a refused text are echoed back in an error
COORDINATE_DIGITS = 6  # a board of 125 tiles never reaches 7-digit coordinates
_NOTATION_LIMIT = 10_000  # longer text is no notation (Discord sends at most 6,000 characters)
_ROTATIONS = {"0": 0, "90": 1, "180": 2, "270": 3}

_FEATURE = r"(?:(?:city|road|field):[0-9]{1,3}|monastery)"
_PLACE_RE = re.compile(r"place\s+(?P<position>.+?)\s+r(?P<rotation>\S*)", re.ASCII)
_FIGURE_RE = re.compile(rf"(figure(?:\s+(normal|big))?|builder|keeper)\s+({_FEATURE})", re.ASCII)
_COORDINATE_RE = re.compile(rf"[-+]?[0-9]{{1,{COORDINATE_DIGITS}}}", re.ASCII)
_POSITION_RE = re.compile(r"\(?\s*([^\s,()]+)\s*(?:,\s*|\s+)([^\s,()]+)\s*\)?")
_DEGREES_RE = re.compile(r"r?\s*(-?[0-9]{1,4})\s*°?", re.ASCII)


def clip(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` as echoed in an error: at most ``limit`` characters, an ellipsis marking a cut."""
    value = str(text)
    return value if len(value) <= limit else value[:limit - 1] + "…"


def parse_position(text: str) -> tuple[int, int]:
    """``2,-1``, ``2, -1``, ``(2, -1)`` or ``2 -1`` -> ``(2, -1)``; ``IllegalAction("bad_position")`` for
    anything else (letters, ``1e400``, ``inf``, more than six digits)."""
    value = str(text).strip()
    match = _POSITION_RE.fullmatch(value) if len(value) <= _NOTATION_LIMIT else None
    if match is None or not (_COORDINATE_RE.fullmatch(match[1]) and _COORDINATE_RE.fullmatch(match[2])):
        raise IllegalAction("bad_position", position=clip(text))
    return int(match[1]), int(match[2])


def parse_rotation(text: str) -> int:
    """Degrees clockwise (``90``, ``r90``, ``90°``, ``-90``, any multiple of 90) -> quarter turns 0..3;
    ``IllegalAction("bad_rotation")`` for anything else."""
    value = str(text).strip().lower()
    match = _DEGREES_RE.fullmatch(value) if len(value) <= _NOTATION_LIMIT else None
    if match is None or int(match[1]) % 90:
        raise IllegalAction("bad_rotation", rotation=clip(text))
    return int(match[1]) // 90 % 4


def parse(text: str) -> TrailsAction:
    """Notation -> action; ``IllegalAction`` for malformed text (legality is checked by apply): ``notation``,
    or ``bad_position`` / ``bad_rotation`` for a placement whose position or rotation cannot be read. Every
    code echoes at most ``ECHO_LIMIT`` characters of the text."""
    raw = str(text)
    if len(raw) > _NOTATION_LIMIT:
        raise IllegalAction("notation", text=clip(raw))
    clean = " ".join(raw.strip().lower().split())
    if clean == "confirm":
        return CONFIRM
    if clean == "undo":
        return UNDO
    match = _PLACE_RE.fullmatch(clean)
    if match:
        x, y = parse_position(match["position"])
        rot = _ROTATIONS.get(match["rotation"])
        if rot is None:
            raise IllegalAction("bad_rotation", rotation=clip(match["rotation"]))
        return place(x, y, rot)
    match = _FIGURE_RE.fullmatch(clean)
    if match:
        word, size, feature = match[1], match[2], match[3]
        kind = word if word in ("builder", "keeper") else (size or "normal")
        return figure(feature, kind)
    raise IllegalAction("notation", text=clip(raw))


def format_action(action: TrailsAction) -> str:
    match action:
        case Place():
            return f"place {action.x},{action.y} r{action.rot * 90}"
        case Figure():
            if action.kind == "normal":
                return f"figure {action.feature}"
            if action.kind == "big":
                return f"figure big {action.feature}"
            return f"{action.kind} {action.feature}"
        case Confirm():
            return "confirm"
        case Undo():
            return "undo"
        case _:  # not an action at all (the bot holds games untyped): refused like bad notation
            raise IllegalAction("notation", text=repr(action))
