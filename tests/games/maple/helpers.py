"""Build Maple Valley positions by hand so that a rule test starts exactly where it needs to."""

from __future__ import annotations

from typing import Any

from games.maple import GAME
from games.maple import data as D
from games.maple.engine import MapleState

FESTS = "spring,maypole,craft"
CLEARINGS = "trading,honey"


def started(players: int = 3, seed: int = 1, fests: str = FESTS, clearings: str = CLEARINGS) -> MapleState:
    """A game past the setup choice (every player kept their first two favors)."""
    options: dict[str, Any] = {"clearings": clearings}
    if players > 1:
        options["festivities"] = fests
    state = GAME.setup(players, options, seed)
    while state.keep_order:
        seat = state.keep_order[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def turn(state: MapleState, seat: int, hand: list[str] | None = None, pos: str | None = None,
         goods: dict[str, int] | None = None, curios: dict[str, int] | None = None, map_tokens: int | None = None,
         patches: list[str] | None = None, favors: list[str] | None = None, sun: str | None = None,
         dawdle: list[str] | None = None) -> dict[str, Any]:
    """Give ``seat`` the turn, with exactly the things named (the supply pays or takes back the difference)."""
    p = state.seats[seat]
    if hand is not None:
        p["hand"] = list(hand)
    if dawdle is not None:
        p["dawdle"] = list(dawdle)
    if pos is not None:
        p["pos"] = pos
    if sun is not None:
        state.sun = sun
    for bucket, values in (("goods", goods), ("curios", curios)):
        if values is not None:
            for kind in p[bucket]:
                state.supply[kind] += p[bucket][kind] - values.get(kind, 0)
                p[bucket][kind] = values.get(kind, 0)
    if map_tokens is not None:
        state.supply["map"] += p["map"] - map_tokens
        p["map"] = map_tokens
    if patches is not None:
        p["patches"] = list(patches)
    if favors is not None:
        p["favors"] = list(favors)
    GAME._start_turn(state, seat, [])  # as the engine starts a turn (Early Start, Helper goods owed)
    GAME._advance(state, [])
    return p


def play(state: MapleState, seat: int, *notations: str) -> list[Any]:
    events: list[Any] = []
    for text in notations:
        events += GAME.apply(state, seat, GAME.parse(text))
    return events


def legal(state: MapleState, seat: int) -> list[str]:
    return [GAME.format(a) for a in GAME.legal_actions(state, seat)]


def codes(events: list[Any]) -> list[str]:
    return [e.code for e in events]


def fest(state: MapleState, code: str) -> list[Any]:
    return next(f for f in state.fests if f["code"] == code)["cubes"]


def craft_only(state: MapleState, seat: int, crafted: list[str]) -> None:
    state.seats[seat]["crafted"] = list(crafted)


def empty(p: dict[str, Any]) -> None:
    """No goods, curiosities or map tokens left (for scoring tests)."""
    p["goods"] = {g: 0 for g in D.GOODS}
    p["curios"] = {c: 0 for c in D.CURIOS}
    p["map"] = 0
