"""Solo mode: Disaster, dropping anchor, helping hand, storms, shipwreck and crash, the outward island bonus."""

from __future__ import annotations

from games.deole import GAME
from games.deole.engine import CASTAWAY, DISASTER, storm_boxes
from tests.games.deole.helpers import at_sea, codes, give, legal, play, prepared


def test_solo_rolls_two_dice_and_may_drop_anchor() -> None:
    state = prepared(1)
    give(state, ("blue", 3), ("red", 5))
    assert legal(state, 0)[-2:] == ["anchor blue 3", "anchor red 5"]
    events = play(state, 0, "anchor blue 3")
    assert "anchor" in codes(events)
    assert legal(state, 0) == ["disaster red", "disaster crew"]
    play(state, 0, "disaster red")
    sheet = state.sheets[0]
    # Placed on the free box furthest right; the chosen die went to the Compass Rose.
    assert sheet["boxes"]["red"] == [None] * 6 + [DISASTER]
    assert sheet["disaster_values"] == [5] and ["blue", 3] in state.compass
    assert state.turn == 2  # the turn is given up


def test_disaster_repeating_a_value_is_ignored() -> None:
    state = prepared(1)
    state.sheets[0]["disaster_values"] = [5]
    give(state, ("blue", 3), ("green", 5))
    events = play(state, 0, "anchor blue 3")
    assert "disaster_ignored" in codes(events) and ["green", 5] in state.compass
    assert state.sheets[0]["boxes"]["green"] == [None] * 7


def test_disaster_goes_to_crew_when_its_colour_track_is_full() -> None:
    state = prepared(1)
    sheet = state.sheets[0]
    sheet["boxes"]["green"] = [1] * 7
    give(state, ("blue", 3), ("green", 5))
    play(state, 0, "anchor blue 3")
    assert sheet["boxes"]["crew"] == [None] * 5 + [DISASTER]


def test_no_room_for_the_disaster_is_a_shipwreck() -> None:
    state = prepared(1)
    sheet = state.sheets[0]
    sheet["boxes"]["green"] = [1] * 7
    sheet["boxes"]["crew"] = [1] * 6
    give(state, ("blue", 3), ("green", 5))
    events = play(state, 0, "anchor blue 3")
    assert "solo_shipwreck" in codes(events) and GAME.is_over(state)
    assert GAME.result(state).extra == {"solo": True, "outcome": "shipwreck", "won": False}


def test_helping_hand_discards_the_disaster() -> None:
    state = prepared(1)
    sheet = state.sheets[0]
    sheet["helping_hands"] = 1
    give(state, ("blue", 3), ("green", 5))
    play(state, 0, "anchor blue 3")
    assert legal(state, 0) == ["disaster green", "disaster crew", "help"]
    play(state, 0, "help")
    assert sheet["helping_hands"] == 0 and sheet["boxes"]["green"] == [None] * 7


def test_rescued_castaway_gives_a_helping_hand() -> None:
    state = prepared(1)
    at_sea(state, 0, (7, 1), "N")
    state.castaways = [[6, 1]]
    state.sheets[0]["modes"]["red"] = "odd"
    give(state, ("red", 5), ("blue", 2))
    play(state, 0, "die red 5", "track red", "castaway blue")
    assert state.sheets[0]["helping_hands"] == 1


def test_disaster_in_a_column_forbids_its_bonus() -> None:
    state = prepared(1)
    sheet = state.sheets[0]
    for track in ("blue", "yellow", "green", "crew"):
        sheet["boxes"][track][5] = CASTAWAY if track != "crew" else 2
    sheet["boxes"]["red"] = [None] * 6 + [1]  # the rightmost free red box is the 6th
    give(state, ("blue", 3), ("red", 5))
    events = play(state, 0, "anchor blue 3", "disaster red")
    assert sheet["boxes"]["red"][5] == DISASTER and 5 in sheet["columns"]
    assert "bonus_column" not in codes(events)


def test_storms_grow_from_ticked_wind_boxes_at_round_end() -> None:
    state = prepared(1)
    at_sea(state, 0, (4, 0), "N")  # in the red edge column (col 0)
    state.round_disasters = ["red"]
    state.turn = 5
    state.order = []
    events = []
    GAME._advance(state, events)
    assert state.storms["red"] == 1 and (4, 0) in storm_boxes(state.storms)
    # The ship sits in the storm: it crashes onto the reefs.
    assert "solo_crash" in codes(events) and GAME.result(state).extra["outcome"] == "crash"


def test_crew_disasters_make_no_storm() -> None:
    state = prepared(1)
    sheet = state.sheets[0]
    give(state, ("blue", 3), ("green", 5))
    play(state, 0, "anchor blue 3", "disaster crew")
    assert state.round_disasters == [] and sheet["boxes"]["crew"][5] == DISASTER


def test_storm_ahead_closes_exits() -> None:
    state = prepared(1)
    state.storms["red"] = 1  # column 0 is storm
    at_sea(state, 0, (7, 2), "N")  # next box (6,2) is a wreck box; west exit (6,1) fine, still open
    state.storms["red"] = 2  # columns 0-1 are storm
    state.sheets[0]["modes"]["green"] = "odd"
    give(state, ("green", 5), ("blue", 2))
    play(state, 0, "die green 5", "track green")
    assert legal(state, 0) == ["move N", "move E"]  # west (6,1) is storm


def test_island_bonus_only_on_the_outward_journey() -> None:
    state = prepared(1)
    at_sea(state, 0, (1, 4), "S")
    sheet = state.sheets[0]
    sheet["modes"]["yellow"] = "different"
    sheet["rudders"]["yellow"] = 0
    sheet["max_depth"] = 6  # already beyond the +10 zone
    give(state, ("yellow", 3), ("blue", 2))
    events = play(state, 0, "die yellow 3", "track yellow")
    assert "eolia" in codes(events) and "bonus_eolia" not in codes(events)
    assert GAME.breakdown(state, 0)["eolia"] == 5


def test_scripted_solo_game() -> None:
    # Script: the clock's policy from seed 7 (side green), but drop anchor on the 5th turn of every round.
    state = GAME.setup(1, {"side": "green"}, 7)
    while not GAME.is_over(state):
        anchors = [a for a in GAME.legal_actions(state, 0) if a[0] == "anchor"]
        GAME.apply(state, 0, anchors[0] if anchors and state.turn == 5 else GAME.default_action(state, 0))
    sheet = state.sheets[0]
    # Round 1: Disaster green 1 -> green box 7, storm 1 row; round 2: red 1 repeats the value, ignored;
    # round 3: green 2 -> green box 6, storm 2 rows: the green home edge is closed.
    assert sheet["boxes"]["green"] == [2, 4, None, None, None, DISASTER, DISASTER]
    assert state.storms == {"blue": 0, "yellow": 0, "green": 2, "red": 0}
    result = GAME.result(state)
    assert (result.ranking[0].score, result.ranking[0].breakdown, result.extra) == SCRIPTED_SOLO


# Checked by hand: wind blue box 5 (11) + yellow box 4 (7) + green box 2 (2, Disasters do not count) + red box 1
# (1) = 21; crew 3 with box 1 turned by a wreck = +3; gauge: row 1 is depth 7 from the green edge = 20;
# route: 13 distinct boxes, every green port is behind the storm, so the fallback distance (depth 7 + 1 = 8)
# counts: 13 - 8 = 5; one rudder used = -2. Total 47; not back in port: the solo voyage is lost.
SCRIPTED_SOLO: tuple = (
    47,
    {"wind": 21, "crew": 3, "eolia": 0, "gauge": 20, "route": 5, "rudders": -2, "spare_rudders": 0},
    {"solo": True, "outcome": "not_home", "won": False},
)
