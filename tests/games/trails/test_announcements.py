"""Facts the bot announces: the figure of a confirmed turn, and the inn/sanctuary share of the scores."""

from __future__ import annotations

from games.trails import GAME

from .helpers import codes, new_game, turn


def test_turn_confirmed_names_the_figure_or_none():
    state = new_game("BA-L,BA-L")
    a, b = state.order[0], state.order[1]
    _, events = turn(state, "place 1,0 r0", "figure road:0")
    assert codes(events, "turn_confirmed") == [
        {"seat": a, "tile": "BA-L", "x": 1, "y": 0, "rot": 0, "kind": "normal", "feature": "road:0"}]
    _, events = turn(state, "place -1,0 r0")
    assert codes(events, "turn_confirmed")[0] | {"seat": b} == {
        "seat": b, "tile": "BA-L", "x": -1, "y": 0, "rot": 0, "kind": None, "feature": None}


def test_inn_and_sanctuary_bonus_is_reported_apart_and_survives_json():
    state = new_game("IC-15,BA-L,BA-W,BA-U", expansions="inns")
    a = state.order[0]
    turn(state, "place 1,0 r0", "figure road:0")  # straight trail with an inn
    turn(state, "place -1,0 r0")
    turn(state, "place 2,0 r0")  # closes a 4-tile trail with an inn: 8, of which 4 thanks to the inn
    assert GAME.result(state).extra["inns_cathedrals"][a] == 4
    copy = GAME.from_json(GAME.to_json(state))
    assert GAME.result(copy).extra["inns_cathedrals"] == GAME.result(state).extra["inns_cathedrals"]

    state = new_game("IC-01,BA-E,BA-E,BA-E,BA-U", expansions="inns")
    a = state.order[0]
    turn(state, "place 0,-1 r0", "figure city:0")
    turn(state, "place 0,-2 r180")
    turn(state, "place 1,-1 r270")
    turn(state, "place -1,-1 r90")  # 5 tiles with a sanctuary: 15 instead of 10
    assert GAME.result(state).extra["inns_cathedrals"][a] == 5


def test_older_snapshots_without_the_bonus_still_load():
    state = new_game("BA-L,BA-L")
    data = GAME.to_json(state)
    del data["special"]
    assert GAME.result(GAME.from_json(data)).extra["inns_cathedrals"] == {0: 0, 1: 0}
