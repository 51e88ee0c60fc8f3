"""The turn: drafting, placing with modes and rudders, the three trace cases, events on the map."""

from __future__ import annotations

from games.deole import GAME
from games.deole.engine import CASTAWAY
from tests.games.deole.helpers import at_sea, codes, give, legal, play, prepared


def _ready(state, seat: int = 0) -> dict:
    """Seat's yellow track started in mode 'different' without rudders: a yellow die goes there in one step."""
    sheet = state.sheets[seat]
    sheet["modes"]["yellow"] = "different"
    sheet["rudders"]["yellow"] = 0
    return sheet


def test_draft_order_and_leftover_goes_to_the_compass_rose() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    at_sea(state, 1, (1, 7), "S")
    give(state, ("green", 2), ("red", 5), ("blue", 1))
    assert GAME.to_act(state) == [0]
    play(state, 0, "die green 2", "track crew", "mode even", "move N")
    assert GAME.to_act(state) == [1]
    assert legal(state, 1) == ["die red 5", "die blue 1"]
    play(state, 1, "die blue 1", "track crew", "mode odd", "move S")
    # Turn 2: the red 5 nobody took is on the Compass Rose, three new dice are rolled.
    assert state.compass == [["red", 5]]
    assert state.turn == 2 and len(state.pool) == 3 and GAME.to_act(state) == [0]


def test_a_die_that_fits_must_be_chosen_over_one_that_does_not() -> None:
    state = prepared(2)
    sheet = state.sheets[0]
    # Blue: descending from 1 (nothing fits, no rudder); Crew: even, no rudder -> blue 5 and blue 3 fit nowhere.
    sheet["modes"].update(blue="descending", crew="even")
    sheet["boxes"]["blue"][0] = 1
    sheet["boxes"]["crew"][:2] = [4, 2]  # the next Crew box (3rd) prints no rudder
    sheet["rudders"]["blue"] = 0
    give(state, ("blue", 5), ("green", 2), ("blue", 3))
    assert legal(state, 0) == ["die green 2"]


def test_rudder_makes_a_die_fit_and_costs_two_points() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    sheet = state.sheets[0]
    sheet["modes"]["blue"] = "even"
    sheet["boxes"]["blue"][0] = 2
    give(state, ("blue", 3), ("red", 1), ("red", 2))
    play(state, 0, "die blue 3", "track blue")
    assert legal(state, 0) == ["rudder +1", "rudder -1"]  # 3 is odd: no plain "place"
    play(state, 0, "rudder +1")  # 4, then placed by itself (no other choice)
    assert sheet["boxes"]["blue"][:2] == [2, 4]
    assert sheet["rudders"]["blue"] == 0 and sheet["rudders_used"]["blue"] == 1
    assert GAME.breakdown(state, 0)["rudders"] == -2


def test_six_only_down_one_only_up() -> None:
    state = prepared(2)
    sheet = state.sheets[0]
    sheet["modes"].update(blue="even", green="odd")
    sheet["rudders"].update(blue=2, green=2)
    give(state, ("blue", 6), ("green", 1), ("red", 2))
    play(state, 0, "die blue 6", "track blue")
    assert legal(state, 0) == ["place", "rudder -1"]
    state2 = prepared(2)
    state2.sheets[0]["modes"].update(green="odd")
    state2.sheets[0]["rudders"].update(green=2)
    give(state2, ("green", 1), ("red", 2), ("red", 3))
    play(state2, 0, "die green 1", "track green")
    assert legal(state2, 0) == ["place", "rudder +1"]


def test_crew_rudder_modifies_a_die_of_any_colour() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    sheet = state.sheets[0]
    sheet["modes"].update(red="descending", crew="ascending")
    sheet["boxes"]["red"][0] = 2
    sheet["boxes"]["crew"][:2] = [1, 3]  # the 3rd Crew box prints no rudder
    sheet["rudders"]["crew"] = 1
    give(state, ("red", 3), ("blue", 1), ("blue", 2))
    play(state, 0, "die red 3")
    # Red cannot take a 3 after 2 (descending); the Crew track can with its rudder: 3 -> 4, all forced.
    assert sheet["boxes"]["crew"][:3] == [1, 3, 4]
    assert sheet["rudders_used"]["crew"] == 1


def test_rudder_box_circles_a_rudder_usable_on_the_same_die() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    sheet = state.sheets[0]
    sheet["modes"]["blue"] = "ascending"
    sheet["boxes"]["blue"][:2] = [2, 4]
    sheet["rudders"]["blue"] = 0
    give(state, ("blue", 4), ("red", 1), ("red", 2))
    assert "die blue 4" in legal(state, 0)
    events = play(state, 0, "die blue 4", "track blue")
    # Box 3 prints a rudder: circled, then used (+1) so 4 becomes 5 > 4.
    assert "rudder_gained" in codes(events) and "rudder_used" in codes(events)
    assert sheet["boxes"]["blue"][:3] == [2, 4, 5]
    assert sheet["rudders"]["blue"] == 0 and sheet["rudders_used"]["blue"] == 1


def test_case_a_follows_the_wind_to_its_edge() -> None:
    # Heading north, a red die (west edge) forces a left turn: the trace leaves (6,1) through its west side.
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    sheet = state.sheets[0]
    sheet["modes"]["red"] = "odd"
    give(state, ("red", 5), ("blue", 2), ("blue", 4))
    play(state, 0, "die red 5", "track red")
    assert sheet["path"][-1] == [6, 1, "N", "W"]
    assert GAME.to_act(state) == [1]


def test_case_b_wind_at_the_back_gives_a_free_choice_without_u_turn() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    state.sheets[0]["modes"]["green"] = "odd"
    give(state, ("green", 5), ("blue", 2), ("blue", 4))
    play(state, 0, "die green 5", "track green")
    assert legal(state, 0) == ["move N", "move W", "move E"]  # never S (a U-turn)
    play(state, 0, "move E")
    assert state.sheets[0]["path"][-1] == [6, 1, "N", "E"]


def test_case_c_crew_track_gives_a_free_choice() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    state.sheets[0]["modes"]["crew"] = "odd"
    give(state, ("blue", 5), ("blue", 2), ("blue", 4))
    play(state, 0, "die blue 5", "track crew")
    assert legal(state, 0) == ["move N", "move W", "move E"]


def test_first_trace_starts_from_a_home_port() -> None:
    state = prepared(2)
    state.sheets[1]["modes"]["crew"] = "odd"
    state.order = [1]
    give(state, ("blue", 5), ("blue", 2))
    play(state, 1, "die blue 5", "track crew")
    assert legal(state, 1) == ["port 1", "port 2", "port 3"]
    play(state, 1, "port 3")  # green is the south edge: port 3 is column 8-1=7, entering (8,7) heading N
    assert legal(state, 1) == ["move N", "move W", "move E"]
    play(state, 1, "move N")
    assert state.sheets[1]["path"] == [[8, 7, "N", "N"]]


def test_blocked_wind_leaves_the_ship_becalmed() -> None:
    state = prepared(2)
    at_sea(state, 0, (1, 0), "N")  # next box (0,0): a red die would push it off the map
    state.sheets[0]["modes"]["red"] = "odd"
    give(state, ("red", 5), ("blue", 2), ("blue", 4))
    events = play(state, 0, "die red 5", "track red")
    assert "becalmed" in codes(events)
    assert state.sheets[0]["path"] == [] and state.sheets[0]["pos"] == [1, 0]


def test_return_to_a_home_port_ends_the_voyage_but_not_the_placing() -> None:
    state = prepared(2)
    at_sea(state, 0, (1, 4), "N")  # next box (0,4) lies at the middle blue port
    sheet = state.sheets[0]
    sheet["modes"]["blue"] = "odd"
    sheet["path"] = [[1, 4, "N", "N"]]
    give(state, ("blue", 5), ("red", 2), ("red", 4))
    events = play(state, 0, "die blue 5", "track blue")
    assert "returned_to_port" in codes(events) and sheet["docked"]
    assert GAME.breakdown(state, 0)["route"] == 4  # 2 distinct boxes x 2
    state.order = [0]
    give(state, ("blue", 3), ("red", 6))
    play(state, 0, "die blue 3", "track blue")
    assert sheet["boxes"]["blue"][:2] == [5, 3] and len(sheet["path"]) == 2  # placed, no trace


def test_wreck_turns_a_minus_crew_box_but_never_the_third() -> None:
    state = prepared(2)
    at_sea(state, 0, (2, 1), "E")  # next box (2,2) is a wreck; a yellow die pushes on east
    sheet = _ready(state)
    sheet["boxes"]["crew"][:4] = [1, 2, 3, 4]
    give(state, ("yellow", 3), ("red", 2), ("red", 4))
    play(state, 0, "die yellow 3", "track yellow")
    assert legal(state, 0) == ["flip 1", "flip 2", "flip 4", "flip 5"]
    play(state, 0, "flip 4")
    # Crew: -1 -2 -3 +4 = -2
    assert GAME.breakdown(state, 0)["crew"] == -2
    sheet["flipped"] = [0, 1, 3, 4]
    at_sea(state, 0, (2, 1), "E")
    state.order = [0]
    give(state, ("yellow", 5), ("red", 6))
    events = play(state, 0, "die yellow 5", "track yellow")
    assert "wreck_nothing" in codes(events)


def test_castaway_rescue_writes_an_inert_box_never_in_the_sixth() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 1), "N")
    state.castaways = [[6, 1], [1, 7]]
    sheet = state.sheets[0]
    sheet["modes"]["red"] = "odd"
    sheet["boxes"]["crew"][:5] = [1, 2, 3, 4, 5]
    give(state, ("red", 5), ("blue", 2), ("blue", 4))
    events = play(state, 0, "die red 5")  # the Crew track cannot take a 5 in any unused mode: red it is
    assert "castaway_rescued" in codes(events)
    assert state.castaways == [[1, 7]]
    assert legal(state, 0) == ["castaway blue", "castaway yellow", "castaway green", "castaway red"]  # not crew
    play(state, 0, "castaway red")
    assert sheet["boxes"]["red"][:2] == [5, CASTAWAY]
    assert GAME.breakdown(state, 0)["wind"] == 2  # last filled red box is the 2nd: 2 points


def test_eolia_first_arrivals_in_the_same_turn_get_the_bonus() -> None:
    state = prepared(2)
    at_sea(state, 0, (1, 4), "S")  # next box (2,4): blue coast of Éolia
    at_sea(state, 1, (7, 4), "N")  # next box (6,4): green coast
    _ready(state, 0)
    _ready(state, 1)
    state.compass = [["red", 6]]  # bonus D needs a die on the Compass Rose
    give(state, ("yellow", 3), ("yellow", 4), ("red", 1))
    events = play(state, 0, "die yellow 3", "track yellow")
    assert "eolia" in codes(events) and "bonus_eolia" in codes(events)
    assert legal(state, 0) == ["bonus A", "bonus B", "bonus C", "bonus D", "bonus E", "bonus F"]
    play(state, 0, "bonus E")
    events = play(state, 1, "die yellow 4", "track yellow")
    assert "bonus_eolia" in codes(events)  # same turn: also a bonus
    play(state, 1, "bonus F")
    assert GAME.breakdown(state, 0)["eolia"] == 5 and GAME.breakdown(state, 1)["eolia"] == 5


def test_eolia_later_gives_points_but_no_bonus() -> None:
    state = prepared(2)
    state.eolia_first_turn = 0  # someone landed in an earlier turn
    at_sea(state, 0, (1, 4), "S")
    _ready(state, 0)
    give(state, ("yellow", 3), ("yellow", 4), ("red", 1))
    events = play(state, 0, "die yellow 3", "track yellow")
    assert "eolia" in codes(events) and "bonus_eolia" not in codes(events)
    assert GAME.breakdown(state, 0)["eolia"] == 5


def test_other_colours_coast_is_not_a_landing() -> None:
    state = prepared(2)
    at_sea(state, 0, (7, 4), "N")  # the green coast, blue ship
    _ready(state, 0)
    give(state, ("yellow", 3), ("yellow", 4), ("red", 1))
    events = play(state, 0, "die yellow 3", "track yellow")
    assert "eolia" not in codes(events)


def test_the_view_tells_the_last_turn_and_the_points_it_made() -> None:
    """The board's header reads the last turn from the public view: the seat, every die it placed (or
    discarded) with its track, and its total when the turn began (the points made are the difference)."""
    from games.ai import RandomAI

    state = GAME.setup(3, {}, 4)
    ai = RandomAI(4)
    assert GAME.view(state, None)["last"] == {}
    expected: dict = {}
    placed = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        before = GAME.view(state, None)["scores"]
        events = GAME.apply(state, seat, ai.choose(GAME, state, seat))
        for event in events:  # the events told in chat say the same as the view
            p = event.params
            if event.code == "die_taken":
                expected = {"seat": p["seat"], "dice": []}
                if event is events[0]:
                    expected["score_before"] = sum(before[str(p["seat"])].values())
            elif event.code in ("die_placed", "die_discarded"):
                expected["dice"].append([p["colour"], p["value"], p.get("track")])
                placed += event.code == "die_placed"
        last = GAME.view(state, None)["last"]
        assert {k: last[k] for k in expected} == expected
    assert placed > 20
    restored = GAME.from_json(GAME.to_json(state))
    assert GAME.view(restored, None)["last"] == GAME.view(state, None)["last"]


def test_solo_disasters_keep_their_die_value_by_box() -> None:
    from games.ai import RandomAI

    state = GAME.setup(1, {"side": "green"}, 3)
    ai = RandomAI(3)
    while not GAME.is_over(state):
        GAME.apply(state, 0, ai.choose(GAME, state, 0))
    sheet = GAME.view(state, None)["sheets"][0]
    assert sheet["disasters"]
    assert sorted(v for _, _, v in sheet["disasters"]) == sorted(sheet["disaster_values"])
    for track, box, _value in sheet["disasters"]:
        assert sheet["boxes"][track][box] == "x"
