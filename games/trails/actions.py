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


_FEATURE = r"(?:(?:city|road|field):\d+|monastery)"
_PLACE_RE = re.compile(r"place\s+(-?\d+)\s*,\s*(-?\d+)\s+r(0|90|180|270)")
_FIGURE_RE = re.compile(rf"(figure(?:\s+(normal|big))?|builder|keeper)\s+({_FEATURE})")


def parse(text: str) -> TrailsAction:
    """Notation -> action; ``IllegalAction("notation")`` for malformed text (legality is checked by apply)."""
    clean = " ".join(str(text).strip().lower().split())
    if clean == "confirm":
        return CONFIRM
    if clean == "undo":
        return UNDO
    match = _PLACE_RE.fullmatch(clean)
    if match:
        return place(int(match[1]), int(match[2]), int(match[3]) // 90)
    match = _FIGURE_RE.fullmatch(clean)
    if match:
        word, size, feature = match[1], match[2], match[3]
        kind = word if word in ("builder", "keeper") else (size or "normal")
        return figure(feature, kind)
    raise IllegalAction("notation", text=text)


def format_action(action: TrailsAction) -> str:
    if isinstance(action, Place):
        return f"place {action.x},{action.y} r{action.rot * 90}"
    if isinstance(action, Figure):
        if action.kind == "normal":
            return f"figure {action.feature}"
        if action.kind == "big":
            return f"figure big {action.feature}"
        return f"{action.kind} {action.feature}"
    if isinstance(action, Confirm):
        return "confirm"
    if isinstance(action, Undo):
        return "undo"
    raise IllegalAction("notation", text=repr(action))
