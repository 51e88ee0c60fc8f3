"""The turn of the player to move, as the Discord panel and the ``/trails`` commands ask about it.

Pure questions about a :class:`~games.trails.engine.TrailsState` (nothing here changes one): the labels of
the legal spots, what a typed position or figure means, and which moves turn the engine's current step (a
placement or figure left pending by a command) into the turn a player chose. Where the drawn tile may go and
which figures a placement allows are :func:`~games.trails.engine.legal_spots` and
:func:`~games.trails.engine.figure_options`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.core import IllegalAction
from games.trails.actions import CONFIRM, UNDO, Figure, TrailsAction, parse, parse_position, place
from games.trails.engine import TrailsState

Pos = tuple[int, int]

# How many undo steps take a turn back to its place step (the tile first laid, then a figure chosen).
UNDO_STEPS = {"place": 0, "figure": 1, "confirm": 2}


def spot_label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (spreadsheet column style) for the ``index``-th spot, from 0."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


def spot_labels(positions: Iterable[Sequence[int]]) -> dict[str, Pos]:
    """Labels of legal positions as the board draws them, in reading order (north to south, then west to
    east): ``{"A": (0, -1), "B": (-1, 0), ...}``."""
    spots = sorted({(int(p[0]), int(p[1])) for p in positions}, key=lambda p: (p[1], p[0]))
    return {spot_label(i): p for i, p in enumerate(spots)}


def find_spot(text: str, labels: Mapping[str, Pos]) -> Pos:
    """A position typed by a player: a label from the board (``B``, any case) or coordinates (``2,-1``,
    ``(2, -1)``, ``2 -1``). ``IllegalAction("bad_position")`` otherwise; whether the spot is legal is not checked."""
    label = str(text).strip().upper()
    if label in labels:
        return labels[label]
    return parse_position(text)


def parse_figure_choice(text: str) -> Figure | None:
    """A figure typed by a player: ``none``, a feature (``city:0``: a normal figure) or the figure notation
    (``figure big road:1``, ``builder road:0``, ``keeper field:2``). ``IllegalAction("notation")`` otherwise."""
    wanted = str(text).strip().lower()
    if wanted == "none":
        return None
    chosen = parse(wanted if wanted.startswith(("figure", "builder", "keeper")) else f"figure {wanted}")
    if not isinstance(chosen, Figure):  # narrows the type: those words only ever parse as figures
        raise IllegalAction("notation", text=wanted)
    return chosen


def place_moves(state: TrailsState, x: int, y: int, rot: int) -> list[TrailsAction]:
    """Lay the drawn tile at (x, y) turned ``rot``, taking back a pending placement (and figure) first."""
    moves: list[TrailsAction] = [UNDO] * UNDO_STEPS.get(state.phase, 0)
    return [*moves, place(x, y, rot)]


def figure_moves(state: TrailsState, chosen: Figure | None) -> list[TrailsAction]:
    """Put ``chosen`` (``None``: no figure) on the pending tile, taking back a figure chosen before."""
    undo: list[TrailsAction] = [UNDO] if state.phase == "confirm" else []
    return [*undo, chosen] if chosen is not None else undo


def turn_moves(state: TrailsState, x: int, y: int, rot: int, chosen: Figure | None) -> list[TrailsAction]:
    """The moves that turn the engine's current step (with what a command may have left pending) into the
    chosen turn, confirmed: a pending placement is kept when it is the chosen one, else taken back."""
    figures: list[TrailsAction] = [chosen] if chosen is not None else []
    if state.pending == (x, y, rot):
        if state.phase == "confirm" and state.pending_figure == chosen:
            return [CONFIRM]
        undo: list[TrailsAction] = [UNDO] if state.phase == "confirm" else []
        return [*undo, *figures, CONFIRM]
    return [*place_moves(state, x, y, rot), *figures, CONFIRM]
