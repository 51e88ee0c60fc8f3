"""The solo section of the rules text, one test per sentence, on positions built by hand.

Reminders (docs/games/deole.md): rows 1-9 north to south (0-based here), columns A-I west to east; blue is
the north edge, yellow east, green south, red west; the island is rows/columns 3-5 (0-based); ports sit at
the 2nd, 5th and 8th box of each edge. ``at_sea(state, 0, box, heading)``: the next trace enters box+heading.
"""

from __future__ import annotations

from games.deole import GAME
from games.deole.engine import CASTAWAY, DISASTER, DisasterOutlook, trace_exits
from tests.games.deole.helpers import at_sea, codes, give, legal, play, prepared


def _solo(side: str = "blue"):
    state = prepared(1, side=side)
    return state, state.sheets[0]


# -- Setup ----------------------------------------------------------------------------------------
def test_setup_four_dice_per_colour_free_side_imposed_modes() -> None:
    # "In the bag, place 4 dice per colour. The player freely chooses their starting side. [...] ODD / INCREASING /
    # EQUAL / OSCILLATING / +/- 1": 16 dice (2 rolled), the side asked for, the five solo modes.
    state = GAME.setup(1, {"side": "red", "modes": "first"}, 3)
    assert len(state.bag) + len(state.pool) == 16 and len(state.pool) == 2
    assert state.seat_colours == ["red"]
    assert state.modes == ["odd", "ascending", "equal", "oscillating", "step"]


# -- Overview: "the player selects one die and goes through steps A to E [...] The non-selected die is called the
# Disaster." --------------------------------------------------------------------------------------------------------
def test_the_die_not_chosen_is_the_disaster_placed_after_steps_a_to_e() -> None:
    state, sheet = _solo()
    at_sea(state, 0, (5, 1), "N")  # next box B5 (row 4, col 1)
    give(state, ("yellow", 3), ("red", 4))
    events = play(state, 0, "die yellow 3", "track yellow", "mode odd")
    # By hand: yellow 3 written in yellow box 1 (odd, the rudder cannot keep it odd, so it is written at once),
    # then case A: the ship enters B5 and leaves it east, towards the yellow edge. Only then the Disaster red 4.
    assert codes(events)[:2] == ["die_taken", "disaster_due"]
    assert sheet["boxes"]["yellow"][0] == 3 and sheet["path"] == [[4, 1, "N", "E"]]
    assert sheet["boxes"]["red"] == [None] * 7 and state.turn == 1
    assert legal(state, 0) == ["disaster red", "disaster crew"]
    play(state, 0, "disaster red")
    assert sheet["boxes"]["red"] == [None] * 6 + [DISASTER] and sheet["disaster_values"] == [4]
    assert state.turn == 2 and state.round_disasters == ["red"]


def test_the_disaster_waits_for_the_bonuses_of_the_chosen_die() -> None:
    state, sheet = _solo()
    sheet["docked"] = True  # no trace: only the placement and the bonus
    sheet["modes"]["crew"] = "ascending"
    sheet["boxes"]["crew"] = [1, 2, 3, 4, 5, None]
    give(state, ("blue", 6), ("green", 2))
    events = play(state, 0, "die blue 6", "track crew")
    # By hand: 6 > 5 fits the 6th Crew box, which gives a bonus (step E) before the Disaster green 2.
    assert "bonus_crew" in codes(events) and legal(state, 0) == ["bonus A", "bonus B", "bonus E", "bonus F"]
    events = play(state, 0, "bonus E")
    # The Crew track is now full, so the Disaster can only go to green box 7: the engine places it.
    assert codes(events)[:2] == ["bonus_taken", "disaster_placed"]
    assert sheet["boxes"]["green"] == [None] * 6 + [DISASTER]


def test_a_die_that_fits_nowhere_still_leaves_its_disaster() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    for track in ("blue", "crew"):
        sheet["modes"][track] = "equal"
        sheet["boxes"][track][0] = 1
    sheet["rudders"]["blue"] = 0
    sheet["modes"]["red"] = "odd"
    give(state, ("blue", 4), ("red", 6))
    # blue 4 fits nowhere (equal to 1, no rudder); red 6 fits nowhere (odd, no red rudder; crew equal to 1).
    # Either may be taken and is discarded; the other is the Disaster all the same.
    play(state, 0, "die blue 4")
    assert ["blue", 4] in state.compass and legal(state, 0) == ["disaster red", "disaster crew"]


# -- Dropping anchor ---------------------------------------------------------------------------------------------
def test_dropping_anchor_passes_the_turn_but_places_the_disaster() -> None:
    # "The player may decide to discard the chosen die onto the Compass Rose and give up their normal turn. They pass
    # their turn but must place their Disaster."
    state, sheet = _solo()
    at_sea(state, 0, (5, 1), "N")
    give(state, ("blue", 3), ("red", 5))
    assert legal(state, 0)[-2:] == ["anchor blue 3", "anchor red 5"]
    play(state, 0, "anchor blue 3", "disaster red")
    assert ["blue", 3] in state.compass and sheet["path"] == []  # no placement, no trace
    assert sheet["boxes"]["red"][6] == DISASTER and state.turn == 2


# -- "on the first free box furthest to the right [...] on the Wind track of its colour OR on the Crew track, at
# the player's choice." ----------------------------------------------------------------------------------------------
def test_the_disaster_goes_on_the_free_box_furthest_right_of_its_colour_or_the_crew() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    sheet["modes"].update(red="odd", crew="oscillating")
    sheet["boxes"]["red"] = [1, CASTAWAY, 3, None, None, None, DISASTER]
    sheet["boxes"]["crew"] = [2, None, None, None, None, DISASTER]
    sheet["disaster_values"] = [6, 1]
    give(state, ("red", 5), ("blue", 4))
    # By hand: red 5 is the Disaster if the blue 4 is kept: red box 6 (7 is taken) or Crew box 5 (6 is taken).
    assert GAME.roll_outlook(state, 0, ("anchor", "blue", 4)) == DisasterOutlook(
        "red", 5, False, (("red", 6), ("crew", 5)), 0)
    play(state, 0, "anchor blue 4")
    assert legal(state, 0) == ["disaster red", "disaster crew"]
    play(state, 0, "disaster crew")
    assert sheet["boxes"]["crew"] == [2, None, None, None, DISASTER, DISASTER]
    assert sheet["boxes"]["red"] == [1, CASTAWAY, 3, None, None, None, DISASTER]


# -- "If the value of the Disaster is identical to that of a previously placed Disaster, whatever the track, then
# the Disaster is ignored and discarded onto the Compass Rose." -------------------------------------------------
def test_a_disaster_repeating_an_earlier_value_is_ignored_whatever_the_track() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    sheet["boxes"]["crew"][5] = DISASTER  # an earlier Disaster 4, on the Crew track
    sheet["disaster_values"] = [4]
    sheet["modes"]["blue"] = "odd"
    give(state, ("blue", 3), ("green", 4))
    assert GAME.roll_outlook(state, 0, ("die", "blue", 3)) == DisasterOutlook("green", 4, True, (), 0)
    events = play(state, 0, "die blue 3", "track blue")  # blue 3 is written; the green 4 repeats the 4: ignored
    assert "disaster_ignored" in codes(events) and ["green", 4] in state.compass
    assert sheet["boxes"]["green"] == [None] * 7 and state.turn == 2


# -- "If there is no space available on the track of the Disaster's colour, the Disaster is necessarily placed on
# the first free box furthest to the right of the Crew track." --------------------------------------------------
def test_no_space_on_its_colour_sends_the_disaster_to_the_crew_track() -> None:
    state, sheet = _solo()
    sheet["boxes"]["green"] = [1, 3, 5, 1, 3, 5, 1]
    give(state, ("blue", 3), ("green", 5))
    play(state, 0, "anchor blue 3")  # one place only: the engine puts it there
    assert sheet["boxes"]["crew"] == [None] * 5 + [DISASTER]


# -- "If the Disaster cannot be placed on the Navigation sheet [...] It's the shipwreck: it's lost!" ------------
def test_no_room_at_all_after_a_normal_pick_is_a_shipwreck() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    sheet["boxes"]["green"] = [1, 3, 5, 1, 3, 5, DISASTER]
    sheet["boxes"]["crew"] = [1, 2, 3, 4, 5, DISASTER]
    sheet["disaster_values"] = [1, 2]
    sheet["modes"]["blue"] = "odd"
    give(state, ("blue", 3), ("green", 5))
    assert GAME.roll_outlook(state, 0, ("die", "blue", 3)).shipwreck
    events = play(state, 0, "die blue 3")
    assert sheet["boxes"]["blue"][0] == 3  # the chosen die's steps first
    assert "solo_shipwreck" in codes(events) and GAME.is_over(state)
    assert GAME.result(state).extra == {"solo": True, "outcome": "shipwreck", "won": False}


# -- Helping hand: "The player can use the help of a castaway to ignore a Disaster, and thus free a box. The
# Disaster is then discarded onto the Compass Rose and the castaway is removed from the game." -----------------
def test_a_helping_hand_discards_the_disaster_and_is_spent() -> None:
    state, sheet = _solo()
    sheet["helping_hands"] = 1
    give(state, ("blue", 3), ("green", 5))
    play(state, 0, "anchor blue 3")
    assert legal(state, 0) == ["disaster green", "disaster crew", "help"]
    events = play(state, 0, "help")
    assert "helping_hand" in codes(events) and ["green", 5] in state.compass
    assert sheet["helping_hands"] == 0 and sheet["boxes"]["green"] == [None] * 7
    assert sheet["disaster_values"] == []  # ignored, not placed: its value does not count as an earlier Disaster


def test_a_helping_hand_is_the_only_way_out_when_there_is_no_room() -> None:
    state, sheet = _solo()
    sheet["helping_hands"] = 1
    sheet["boxes"]["green"] = [1, 3, 5, 1, 3, 5, 1]
    sheet["boxes"]["crew"] = [1, 2, 3, 4, 5, 6]
    give(state, ("blue", 3), ("green", 5))
    assert GAME.roll_outlook(state, 0, ("anchor", "blue", 3)) == DisasterOutlook("green", 5, False, (), 1)
    events = play(state, 0, "anchor blue 3")
    assert "helping_hand" in codes(events) and not GAME.is_over(state)


def test_each_rescued_castaway_gives_one_helping_hand() -> None:
    state, sheet = _solo()
    at_sea(state, 0, (7, 1), "N")
    state.castaways = [[6, 1]]
    sheet["modes"]["red"] = "odd"
    give(state, ("red", 5), ("blue", 2))
    play(state, 0, "die red 5", "track red", "castaway blue")
    assert sheet["helping_hands"] == 1


# -- "The island bonus can only be won on the "outward" journey." -------------------------------------------------
def test_island_bonus_only_before_the_plus_ten_zone() -> None:
    state, sheet = _solo()
    at_sea(state, 0, (1, 4), "S")
    sheet["modes"]["yellow"] = "oscillating"
    sheet["rudders"]["yellow"] = 0
    sheet["max_depth"] = 4  # reached the +10 zone (depth 4) earlier
    give(state, ("yellow", 3), ("blue", 2))
    events = play(state, 0, "die yellow 3", "track yellow")
    assert "eolia" in codes(events) and "bonus_eolia" not in codes(events)


# -- "Warning: a Disaster present in a completed column forbids the player from benefiting from the navigation bonus
# of that column." ---------------------------------------------------------------------------------------------------
def test_a_disaster_in_a_completed_column_forbids_its_bonus() -> None:
    state, sheet = _solo()
    for track in ("blue", "yellow", "green"):
        sheet["boxes"][track][4] = CASTAWAY
    sheet["boxes"]["crew"][4] = 2
    sheet["boxes"]["red"] = [None] * 5 + [1, 3]  # the red box furthest right still free is the 5th
    give(state, ("blue", 3), ("red", 5))
    events = play(state, 0, "anchor blue 3", "disaster red")
    # By hand: column 5 (a star column) is now complete, with the Disaster in it: no bonus.
    assert sheet["boxes"]["red"][4] == DISASTER and 4 in sheet["columns"]
    assert "column_spoiled" in codes(events) and "bonus_column" not in codes(events)


# -- End of round: "The player ticks the boxes occupied by a Disaster. The boxes thus ticked over the rounds can no
# longer receive a die for the rest of the game." -------------------------------------------------------------
def test_ticked_disaster_boxes_stay_closed_in_later_rounds() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    sheet["modes"]["red"] = "odd"
    sheet["boxes"]["red"] = [1, 3, 5, 1, 3, 5, None]
    state.turn = 5
    give(state, ("blue", 3), ("red", 1))
    play(state, 0, "anchor blue 3", "disaster red")  # the last red box; the round ends
    assert state.round == 2 and sheet["boxes"]["red"][6] == DISASTER
    # A red 5 (odd) would have fitted the 7th box; now only the Crew track can take it.
    assert GAME.fitting_tracks(state, sheet, ["red", 5], "pool") == ["crew"]


# -- "For each ticked box of the round that is ending, the player makes a "Storm" zone appear, or progress, from one
# of the edges towards the centre." --------------------------------------------------------------------------------
def test_each_wind_disaster_of_the_round_raises_a_storm_row_from_its_edge() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    state.round_disasters = ["red"]  # a red Disaster earlier this round
    state.turn = 5
    give(state, ("blue", 3), ("red", 4))
    events = play(state, 0, "anchor blue 3", "disaster red")
    # By hand: two red boxes ticked this round: the storm grows two rows (columns A and B) from the red edge.
    assert [e.params for e in events if e.code == "storm"] == [{"colour": "red", "rows": 1},
                                                                {"colour": "red", "rows": 2}]
    assert state.storms == {"blue": 0, "yellow": 0, "green": 0, "red": 2} and state.round_disasters == []


# -- "Disasters placed in the Crew zone do not cause a storm." -------------------------------------------------
def test_crew_disasters_raise_no_storm() -> None:
    state, sheet = _solo()
    sheet["docked"] = True
    state.turn = 5
    give(state, ("blue", 3), ("green", 5))
    play(state, 0, "anchor blue 3", "disaster crew")
    assert sheet["boxes"]["crew"][5] == DISASTER and state.storms == {c: 0 for c in state.storms}


# -- "If the player gets caught or is led to cross the Storm, or the Crew cannot keep the course in these conditions,
# the ship crashes onto the reefs: it's lost!" --------------------------------------------------------------------
def test_caught_by_a_storm_at_the_end_of_the_round() -> None:
    state, sheet = _solo()
    at_sea(state, 0, (4, 1), "N")  # in column B
    state.round_disasters = ["red"]
    state.storms["red"] = 1  # column A already; the second row covers column B
    state.turn = 5
    give(state, ("blue", 3), ("green", 5))
    events = play(state, 0, "anchor blue 3", "disaster crew")
    assert "solo_crash" in codes(events) and GAME.result(state).extra["outcome"] == "crash"


def test_wind_forcing_the_heading_into_a_storm_crashes() -> None:
    state, sheet = _solo()
    state.storms["yellow"] = 1  # column I (col 8) is a storm
    at_sea(state, 0, (4, 6), "E")  # next box H5 (row 4, col 7)
    sheet["modes"]["yellow"] = "odd"
    give(state, ("yellow", 3), ("blue", 2))
    # By hand: yellow 3 on the yellow track; case A: the wind forces the exit east, into I5, a storm box.
    assert trace_exits(sheet, state.storms, "yellow") == ([], "crash")
    events = play(state, 0, "die yellow 3", "track yellow")
    assert "solo_crash" in codes(events) and GAME.result(state).extra["outcome"] == "crash"
    assert sheet["path"] == []  # the die was written, the trace never happened


def test_a_die_leading_into_a_storm_box_crashes_even_with_a_free_heading() -> None:
    state, sheet = _solo()
    state.storms["yellow"] = 1
    at_sea(state, 0, (4, 7), "E")  # the box ahead, I5, is in the storm
    sheet["modes"]["crew"] = "odd"
    give(state, ("green", 3), ("blue", 2))
    events = play(state, 0, "die green 3", "track crew")
    assert "solo_crash" in codes(events)


def test_the_crew_cannot_keep_a_course_when_every_heading_meets_the_storm() -> None:
    state, sheet = _solo()
    state.storms.update(blue=2, red=3)  # rows 1-2 and columns A-C
    at_sea(state, 0, (2, 4), "W")  # next box D3 (row 2, col 3): north D2 storm, west C3 storm, south the island
    assert trace_exits(sheet, state.storms, "crew") == ([], "crash")
    sheet["modes"]["crew"] = "odd"
    give(state, ("green", 3), ("blue", 2))
    events = play(state, 0, "die green 3", "track crew")
    assert "solo_crash" in codes(events)


def test_a_free_heading_never_offers_the_storm() -> None:
    state, sheet = _solo()
    state.storms["red"] = 2  # columns A-B
    at_sea(state, 0, (7, 2), "N")  # next box C7 (a wreck); west of it is B7, a storm box
    sheet["modes"]["crew"] = "odd"
    give(state, ("green", 3), ("blue", 2))
    play(state, 0, "die green 3", "track crew")
    assert legal(state, 0) == ["move N", "move E"]


def test_becalmed_only_where_the_text_is_silent() -> None:
    # The map's border (away from a home port) or the island: the design's becalmed ship, no crash.
    state, sheet = _solo()
    at_sea(state, 0, (3, 2), "N")  # next box C3 (row 2, col 2); wind yellow forces east, into D3: sea. Use red:
    at_sea(state, 0, (1, 1), "W")  # next box A2 (row 1, col 0): red forces west, off the map, not a port
    assert trace_exits(sheet, state.storms, "red") == ([], "becalmed")
    sheet["modes"]["red"] = "odd"
    give(state, ("red", 3), ("blue", 2))
    events = play(state, 0, "die red 3", "track red")
    assert "becalmed" in codes(events) and not GAME.is_over(state)


# -- "Did you and your crew manage to return to port? It's a victory!" -------------------------------------------
def test_back_in_port_after_the_third_round_is_a_victory() -> None:
    state, sheet = _solo()
    sheet.update(docked=True, path=[[0, 1, "S", "N"]])
    state.round, state.turn = 3, 5
    give(state, ("blue", 3), ("green", 5))
    events = play(state, 0, "anchor blue 3", "disaster crew")
    assert "solo_won" in codes(events)
    assert GAME.result(state).extra == {"solo": True, "outcome": "won", "won": True}
