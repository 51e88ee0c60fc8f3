"""Shared helpers: build Déole positions by hand so a rule test starts exactly where it needs to."""

from __future__ import annotations

from typing import Any

from games.deole import GAME
from games.deole.engine import DeoleState, _fresh_ctx


def prepared(players: int = 2, modes: str = "first", seed: int = 1, side: str = "blue") -> DeoleState:
    """A new game whose turn starts at seat 0 with an empty dice track and no castaways on the map."""
    options: dict[str, Any] = {"modes": modes}
    if players == 1:
        options["side"] = side
    state = GAME.setup(players, options, seed)
    state.bag.extend(c for c, _ in state.pool)
    state.pool = []
    state.first_player = 0
    state.order = list(range(players))
    state.ctx = _fresh_ctx()
    state.castaways = []
    return state


def give(state: DeoleState, *dice: tuple[str, int]) -> None:
    """Put these dice on the dice track (taken out of the bag)."""
    for colour, _ in dice:
        state.bag.remove(colour)
    state.pool = [[c, v] for c, v in dice]


def at_sea(state: DeoleState, seat: int, box: tuple[int, int], heading: str) -> None:
    """Put seat's ship in ``box`` having left it heading ``heading`` (the next trace enters box+heading)."""
    sheet = state.sheets[seat]
    sheet.update(port=1, pos=list(box), heading=heading)


def play(state: DeoleState, seat: int, *notations: str) -> list[Any]:
    events = []
    for text in notations:
        events += GAME.apply(state, seat, GAME.parse(text))
    return events


def codes(events: list[Any]) -> list[str]:
    return [e.code for e in events]


def legal(state: DeoleState, seat: int) -> list[str]:
    return [GAME.format(a) for a in GAME.legal_actions(state, seat)]
