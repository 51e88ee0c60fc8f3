"""Small helpers to build positions with the ``deck`` option and play turns by notation."""

from __future__ import annotations

from games.core import Event
from games.trails import GAME, TrailsState
from games.trails.actions import CONFIRM


def new_game(deck: str, players: int = 2, expansions: str = "", fields: bool = True, seed: int = 0) -> TrailsState:
    return GAME.setup(players, {"deck": deck, "expansions": expansions, "fields": fields}, seed)


def turn(state: TrailsState, placement: str, figure: str | None = None) -> tuple[int, list[Event]]:
    """The seat to act places its tile (and a figure) and confirms; returns (seat, events)."""
    seat = GAME.to_act(state)[0]
    events = GAME.apply(state, seat, GAME.parse(placement))
    if figure:
        events += GAME.apply(state, seat, GAME.parse(figure))
    events += GAME.apply(state, seat, CONFIRM)
    return seat, events


def score(state: TrailsState, seat: int) -> dict[str, int]:
    return dict(state.score[seat])


def codes(events: list[Event], code: str) -> list[dict]:
    return [e.params for e in events if e.code == code]


def figure_refs(state: TrailsState) -> set[str]:
    """The figure actions offered now, in notation."""
    seat = GAME.to_act(state)[0]
    return {GAME.format(a) for a in GAME.legal_actions(state, seat)} - {"confirm", "undo"}
