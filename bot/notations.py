"""Parsed notations, remembered for every table of the process."""

from __future__ import annotations

from typing import Any

from games.core import AnyGame

NOTATIONS_KEPT = 4096  # parsed notations remembered (per process; all games)
NOTATION_KEPT_LENGTH = 64  # longer texts are parsed each time (a real notation is a few words)


class Notations:
    """Notation text -> (action, the notation as the game writes it), remembered. Parsing is a pure function
    of the text and actions are immutable (the engine contract), so the answer of one table is every table's:
    on a busy server most moves are texts seen before (and parsing one costs as much as a tenth of a move).
    Refused texts are not remembered, nor long ones (hostile input does not grow the memory)."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[tuple[str, str], tuple[Any, str]] = {}

    def parse(self, game: AnyGame, text: str) -> tuple[Any, str]:
        key = (game.key, text)
        known = self._known.get(key)
        if known is None:
            action = game.parse(text)
            known = action, game.format(action)
            if len(text) <= NOTATION_KEPT_LENGTH:
                if len(self._known) >= NOTATIONS_KEPT:
                    self._known.clear()  # simpler than an LRU, and a refill costs one parse per text
                self._known[key] = known
        return known
