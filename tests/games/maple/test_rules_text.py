"""One test per line of the rules text (the published Russian rulebook, not in this repository), in its order."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.maple import GAME
from games.maple import data as D
from tests.games.maple.helpers import codes, empty, fest, legal, play, started, turn
from tests.games.maple.test_friends import grove_walk, put_on_display


def finish_by_default(state) -> list:
    events: list = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        events += GAME.apply(state, seat, GAME.default_action(state, seat))
    return events


# Intro: make friends, gather supplies, craft favors for festivities, gain patches.
def test_line_intro_the_content_is_complete() -> None:
    assert (len(D.FRIENDS), len(D.FAVORS), len(D.PATCHES), len(D.FESTIVITIES), len(D.CLEARINGS)) == (41, 72, 40, 7, 6)
    assert len(D.PATHS) == 24 and len(D.LOCATIONS) == 13 and len(D.GROVE_TOKENS) == 13


# Goal: points for favors, friends, patches, leftovers (and festivities).
def test_line_goal_the_score_categories() -> None:
    state = started(3)
    assert list(GAME.breakdown(state, 0)) == ["favors", "friends", "patches", "leftovers", "festivities"]


# "The game lasts 5 rounds, each round is 1 hour."
def test_line_five_hours() -> None:
    state = started(2)
    events = finish_by_default(state)
    assert [e.params["hour"] for e in events if e.code == "hour_end"] == [1, 2, 3, 4, 5]


# "Turns in order, from the early bird, clockwise."
def test_line_turns_from_the_early_bird_clockwise() -> None:
    state = GAME.setup(3, {}, 11)
    while state.keep_order:
        GAME.apply(state, state.keep_order[0], GAME.default_action(state, state.keep_order[0]))
    worm = state.worm
    order = []
    for _ in range(3):
        seat = GAME.to_act(state)[0]
        order.append(seat)
        while GAME.to_act(state) == [seat]:
            GAME.apply(state, seat, GAME.default_action(state, seat))
    assert order == [worm, (worm + 1) % 3, (worm + 2) % 3]


# "On your turn you must play a friend or dawdle card from hand; with none, pass."
def test_line_play_a_card_or_pass_only_without_one() -> None:
    state = started(3)
    turn(state, 0, hand=["f07"], dawdle=["map"])
    assert {a.split()[0] for a in legal(state, 0)} == {"friend", "dawdle"}  # no pass while holding a card
    state.seats[1]["hand"], state.seats[1]["dawdle"] = [], []
    state.seats[2]["hand"] = ["s3"]
    play(state, 0, "dawdle map", "take a", "end")
    assert GAME.to_act(state) == [2]  # seat 1 holds nothing: passed


# "If every player has passed, the round ends."
def test_line_the_hour_ends_when_everyone_has_passed() -> None:
    state = started(2)
    for p in state.seats:
        p["hand"], p["dawdle"] = [], []
    turn(state, 0, hand=["s1"])
    events = play(state, 0, "friend s1 M", "path 3", "stop", "favor deck", "end")
    assert "hour_end" in codes(events) and state.hour == 2


# "Play the friend onto your backpack; at the round's end it returns to your hand."
def test_line_friends_go_to_the_backpack_and_come_back() -> None:
    state = started(2)
    p = turn(state, 0, hand=["f07", "s1"])
    play(state, 0, "friend f07 F")
    assert p["backpack"] == ["f07"] and p["hand"] == ["s1"]
    state.actor = None
    GAME._end_hour(state, [])
    assert sorted(p["hand"]) == ["f07", "s1"] and p["backpack"] == []


# "Walk using the path type on the friend, as far as you like, each path once."
def test_line_walk_the_friends_path_type_as_far_as_you_like() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f07"], pos="V", map_tokens=0)
    play(state, 0, "friend f07 F")
    assert {a for a in legal(state, 0) if a.startswith("path")} == {"path 1", "path 4"}  # forest paths only
    play(state, 0, "path 4", "path 20", "path 19")
    assert p["pos"] == "X2"
    with pytest.raises(IllegalAction):
        play(state, 0, "path 19")


# "Before or after, spend any number of map tokens, each crossing 1 path of any type."
def test_line_map_tokens_before_or_after() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f07"], pos="T", map_tokens=2)
    play(state, 0, "friend f07 F", "path 22 tok", "path 1", "path 2 tok")
    assert p["pos"] == "GO1" and p["map"] == 0


# "Passing a curiosity place, take that curiosity from the supply."
def test_line_curiosity_spots() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f07"], pos="V", curios={})
    play(state, 0, "friend f07 F", "path 1", "path 7")
    assert p["curios"][state.spots["7"]] == 1


# "Groves give supplies; taking at least 1 sun supply gives 1 more; the sun changes every round."
def test_line_groves_and_the_sun() -> None:
    state = started(3)
    state.groves["GM1"] = ["a", "c"]
    p = turn(state, 0, hand=["f07"], pos="V", goods={}, sun="c")
    play(state, 0, "friend f07 F", "path 1", "stop")
    assert (p["goods"]["a"], p["goods"]["c"]) == (1, 2)


# "In the village you may get a new friend card."
def test_line_village_buys_a_friend() -> None:
    state = started(3)
    put_on_display(state, "friends", "f01")
    p = turn(state, 0, hand=["f02"], pos="T", curios={"fl": 1, "pe": 1})
    play(state, 0, "friend f02 M", "path 3", "stop", "buy f01 fl,pe")
    assert "f01" in p["hand"] and p["curios"] == {"fl": 0, "pe": 0, "bu": 0}
    assert len(state.rows["friends"]["display"]) == 4  # refilled at once


# "The tower brings 2 map tokens and 1 favor card."
def test_line_tower() -> None:
    state = started(3)
    p = turn(state, 0, hand=["s1"], pos="V", map_tokens=0, favors=[])
    play(state, 0, "friend s1 M", "path 3", "stop", "favor deck")
    assert p["map"] == 2 and len(p["favors"]) == 1


# "At the club: 1 favor, then a cube on a festivity, then a patch."
def test_line_club_order() -> None:
    state = started(3)
    turn(state, 0, hand=["f07"], pos="V")
    play(state, 0, "friend f07 F", "path 4", "stop")
    steps = []
    for text in ("favor deck", "cube maypole 2", "patch deck"):
        steps.append(GAME._decision(state)[0])
        play(state, 0, text)
    assert steps == ["favor", "cube", "patch"]


# "Patches give permanent bonuses, abilities or end points."
def test_line_patches_kinds() -> None:
    assert {p.kind for p in D.PATCHES.values()} == {"hour", "always", "now", "end", "badge"}


# "In the cottage: 1 favor from the row and 1 from the deck."
def test_line_cottage() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f12"], pos="V", favors=[])
    card = state.rows["favors"]["display"][3]
    play(state, 0, "friend f12 W", "path 5", "stop", f"favor {card}")
    assert len(p["favors"]) == 2 and p["favors"][0] == card


# "On the cliff: 3 sun supplies, then you must move to the village."
def test_line_cliff() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f02"], pos="T", goods={}, sun="t")
    play(state, 0, "friend f02 M", "path 12", "stop")
    assert p["goods"]["t"] == 3 and p["pos"] == "V"


# "At the 2 random clearings you may exchange resources and use the clearing's effect."
def test_line_clearings() -> None:
    state = started(3, clearings="lookout,pond")  # X1 Lookout Rock: +1 map; 1 curiosity -> 2 map tokens
    p = turn(state, 0, hand=["s1"], pos="K", map_tokens=0, curios={"fl": 1})
    play(state, 0, "friend s1 M", "path 10", "stop")
    assert p["map"] == 1 and legal(state, 0)[-2:] == ["done", "undo"]
    play(state, 0, "pay fl")
    assert p["map"] == 3 and p["curios"]["fl"] == 0


# "Crafting: 1) spend the resources on the card; 2) move it to the other side; 3) a cube on a festivity
# if the favor's type matches a free space."
def test_line_crafting() -> None:
    state = started(3, fests="spring,maypole,craft")
    p = grove_walk(state, 0, "f07", "F", goods={"a": 2, "b": 1, "y": 1}, favors=["tr01", "mu02"])
    assert "craft tr01" in legal(state, 0)
    play(state, 0, "craft tr01")
    assert GAME._decision(state)[0] == "place" and legal(state, 0)[:3] == ["cube spring 1", "cube spring 3",
                                                                           "cube spring 5"]
    play(state, 0, "cube spring 3", "craft mu02", "cube maypole 1")
    assert p["crafted"] == ["tr01", "mu02"] and p["favors"] == [] and p["goods"]["a"] == 0
    assert fest(state, "spring")[2] == 0 and fest(state, "maypole")[0] == 0


def test_line_crafting_without_a_matching_space_puts_no_cube() -> None:
    state = started(3, fests="spring,maypole,craft")
    fest(state, "maypole")[:5] = [1, 1, 1, 1, 1]
    p = grove_walk(state, 0, "f07", "F", goods={"a": 1, "y": 1}, favors=["mu02"])
    play(state, 0, "craft mu02")
    assert p["cubes"] == D.CUBES and GAME._decision(state)[0] == "craft"


# "Some favors go well with others and give extra points."
def test_line_favor_combinations() -> None:
    state = started(3)
    state.seats[0]["crafted"] = ["tr05", "tr01"]
    assert GAME.breakdown(state, 0)["favors"] == (4 + 2) + (2 + 1)


# "Dawdle: take the card's resources, put it under the dawdle deck; no walk, no location; you may craft."
def test_line_dawdle_turn() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f07"], dawdle=["stroll"], goods={}, sun="b", pos="C")
    play(state, 0, "dawdle stroll")
    assert p["goods"]["b"] == 2 and p["pos"] == "C" and state.dawdle_deck[-1] == "stroll"
    assert GAME._decision(state)[0] == "craft"


# Hour end: "place the sun token (new sun supply)".
def test_line_hour_end_new_sun() -> None:
    state = started(3)
    upcoming = state.sun_deck[0]
    state.actor = None
    GAME._end_hour(state, [])
    assert state.sun == upcoming


# Hour end: "refresh the favor, friend and patch rows (discard the old, lay out new ones)".
def test_line_hour_end_rows() -> None:
    state = started(3)
    old = [list(state.rows[r]["display"]) for r in ("favors", "friends", "patches")]
    state.actor = None
    GAME._end_hour(state, [])
    assert all(not set(o) & set(state.rows[r]["display"]) for o, r in zip(old, ("favors", "friends", "patches"),
                                                                            strict=True))


# Hour end: "friends back to hand, cubes off the patches".
def test_line_hour_end_friends_and_patch_cubes() -> None:
    state = started(3)
    p = state.seats[0]
    p["backpack"], p["hand"], p["patches"], p["patch_cubes"], p["cubes"] = ["s1"], ["f01"], ["p01"], ["p01"], 19
    state.actor = None
    GAME._end_hour(state, [])
    assert sorted(p["hand"]) == ["f01", "s1"] and p["patch_cubes"] == [] and p["cubes"] == 20


# Hour end: "dawdle cards if you have fewer friends than another player".
def test_line_hour_end_dawdle_cards() -> None:
    state = started(3)
    counts = (4, 2, 3)
    for seat, count in enumerate(counts):
        state.seats[seat]["hand"], state.seats[seat]["backpack"] = list(D.DECK_FRIENDS[seat * 4:seat * 4 + count]), []
    state.actor = None
    GAME._end_hour(state, [])
    assert [len(p["dawdle"]) for p in state.seats] == [0, 2, 1]


# Hour end: "pass the worm to the next player clockwise".
def test_line_hour_end_worm() -> None:
    state = started(4)
    state.worm = 3
    state.actor = None
    GAME._end_hour(state, [])
    assert state.worm == 0


# Scoring: after the 5th round, favors (base + extra), friends, patches (base + extra), leftovers (1 per map
# token, per honey and per set of 3 resources), cubes on festivities (4 for 1st, 2 for 2nd, 1 per cube).
def test_line_scoring_after_the_fifth_hour() -> None:
    state = started(3)
    state.hour = 5
    for p in state.seats:
        p["hand"], p["dawdle"] = [], []
    state.actor = None
    events: list = []
    GAME._end_hour(state, events)
    assert GAME.is_over(state) and [e.code for e in events][-3:] == ["final_score"] * 3


def test_line_scoring_leftovers_and_festivities() -> None:
    state = started(3, fests="spring,maypole,craft")
    p = state.seats[0]
    empty(p)
    p["map"], p["goods"]["y"], p["goods"]["b"], p["curios"]["pe"] = 1, 1, 2, 1
    fest(state, "spring")[:3] = [0, 0, 1]
    b = GAME.breakdown(state, 0)
    assert b["leftovers"] == 1 + 1 + 1 and b["festivities"] == 2 + 4
    assert GAME.breakdown(state, 1)["festivities"] == 1 + 2


# "The most points wins; on a tie the contenders share the victory."
def test_line_shared_victory() -> None:
    state = started(3)
    for p in state.seats:
        empty(p)
        p["hand"], p["backpack"], p["crafted"], p["patches"] = ["s1"], [], [], []
    state.seats[2]["crafted"] = ["tr01"]
    state.seats[1]["crafted"] = ["tr02"]
    ranks = {r.seat: r.rank for r in GAME.result(state).ranking}
    assert ranks == {1: 1, 2: 1, 0: 3}
