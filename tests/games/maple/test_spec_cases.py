"""The specification's test list (section 9), one test per case, expected numbers worked out in comments."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.maple import GAME
from games.maple import data as D
from tests.games.maple.helpers import empty, fest, legal, play, started, turn


def test_01_grove_with_the_sun_goods_gives_one_more() -> None:
    state = started(3)
    state.groves["GM1"] = ["b", "y"]
    p = turn(state, 0, hand=["f07"], pos="V", goods={}, sun="y")
    play(state, 0, "friend f07 F", "path 1", "stop")
    # token b+y: 1 berry, 1 honey; honey is the sun goods and one was taken: +1 honey
    assert p["goods"]["b"] == 1 and p["goods"]["y"] == 2


def test_02_grove_without_the_sun_goods_gives_no_bonus() -> None:
    state = started(3)
    state.groves["GM1"] = ["a", "t"]
    p = turn(state, 0, hand=["f07"], pos="V", goods={}, sun="y")
    play(state, 0, "friend f07 F", "path 1", "stop")
    assert p["goods"] == {"a": 1, "b": 0, "t": 1, "c": 0, "l": 0, "h": 0, "y": 0}


def test_03_cliff_gives_three_sun_goods_then_the_village_without_its_effect() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f02", "f05"], pos="T", goods={}, sun="l")
    play(state, 0, "friend f02 M", "path 12", "stop")
    assert p["goods"]["l"] == 3 and p["pos"] == "V"
    # the Village is not activated: no buy question, the turn is at its craft step
    assert GAME._decision(state)[0] == "craft" and p["hand"] == ["f05"]


def test_04_a_forest_walk_activates_only_where_it_ends() -> None:
    state = started(3, clearings="trading,honey")  # X2 is the Honey Tree
    p = turn(state, 0, hand=["f07"], pos="V", goods={}, curios={}, favors=[])
    spot = state.spots["4"]
    play(state, 0, "friend f07 F", "path 4", "path 20", "path 19", "stop")
    assert p["pos"] == "X2"
    assert p["curios"][spot] == 1 and sum(p["curios"].values()) == 1  # only path 4 is a spot on this walk
    # X2's effect (+1 honey) and nothing from the Club (no favor) or the oak grove GO2 passed on the way
    assert p["goods"]["y"] == 1 and sum(p["goods"].values()) == 1 and p["favors"] == []


def test_05_a_token_path_after_the_main_walk() -> None:
    state = started(3)
    p = turn(state, 0, hand=["f07"], pos="V", goods={}, map_tokens=1, sun="a")
    play(state, 0, "friend f07 F", "path 4", "path 20", "path 19", "path 16 tok", "stop")
    # one map token spent; the Cliff gives 3 sun goods (acorn) and sends the critter to the Village
    assert p["map"] == 0 and p["goods"]["a"] == 3 and p["pos"] == "V"


def test_06_token_paths_only_before_or_after_the_main_walk() -> None:
    state = started(3)
    turn(state, 0, hand=["f07"], pos="V", map_tokens=1)
    play(state, 0, "friend f07 F", "path 4", "path 17 tok")
    with pytest.raises(IllegalAction):  # a main path after a token path
        play(state, 0, "path 21")
    assert "path 21" not in legal(state, 0)
    state = started(3)
    p = turn(state, 0, hand=["f07"], pos="V", map_tokens=2)
    play(state, 0, "friend f07 F", "path 4", "path 17 tok", "path 21 tok")  # paying 21 with a 2nd token
    assert p["pos"] == "K" and p["map"] == 0


def test_07_a_path_only_once() -> None:
    state = started(3)
    turn(state, 0, hand=["f07"], pos="V", map_tokens=3)
    play(state, 0, "friend f07 F", "path 1")
    with pytest.raises(IllegalAction):
        play(state, 0, "path 1 tok")


def test_08_the_walk_may_not_end_where_the_turn_began() -> None:
    state = started(3)
    turn(state, 0, hand=["f07"], pos="V", map_tokens=2)
    play(state, 0, "friend f07 F", "path 1", "path 22 tok")
    # with no token left after path 3 the walk would be stuck in the Village: the path is not offered
    assert "path 3 tok" not in legal(state, 0)
    state = started(3)
    turn(state, 0, hand=["f07"], pos="V", map_tokens=3)
    play(state, 0, "friend f07 F", "path 1", "path 22 tok", "path 3 tok")
    assert "stop" not in legal(state, 0)
    with pytest.raises(IllegalAction):
        play(state, 0, "stop")


def _favors_score(crafted: list[str]) -> int:
    state = started(3)
    state.seats[0]["crafted"] = crafted
    return GAME.breakdown(state, 0)["favors"]


def test_09_same_symbol_and_partner_bonuses() -> None:
    # tr01 2 + 2 (two other Treats), tr04 2 + 2, tr05 4 + 2 (partner tr01) = 14
    assert _favors_score(["tr01", "tr04", "tr05"]) == 14


def test_10_variety_bonus() -> None:
    # de09 6 + 3 symbols (Treat, Decor, Music) = 9; tr01 2 and mu01 2 have no other of their symbol
    assert _favors_score(["tr01", "de09", "mu01"]) == 2 + 9 + 2


def test_11_festivity_scoring() -> None:
    from games.maple.engine import _festivity_points
    # A3 B3 C1 (spaces 7 wide here is not needed: the rule counts cubes): 3+4, 3+4, 1 (no 2nd: tie for 1st)
    assert [_festivity_points([0, 0, 0, 1, 1, 1, 2], s) for s in range(3)] == [7, 7, 1]
    # A3 B2 C2: 3+4, 2+2, 2+2
    assert [_festivity_points([0, 0, 0, 1, 1, 2, 2], s) for s in range(3)] == [7, 4, 4]
    # 2 players, spaces 5-6 blocked by neutral cubes: A2 B1 -> 2+4, 1+2
    assert [_festivity_points([0, 0, 1, None, -1, -1], s) for s in range(2)] == [6, 3]
    # through a real game's breakdown
    state = started(2, fests="spring,maypole,craft")
    assert fest(state, "spring")[4:] == [-1, -1]
    fest(state, "spring")[:3] = [0, 0, 1]
    assert GAME.breakdown(state, 0)["festivities"] == 6 and GAME.breakdown(state, 1)["festivities"] == 3


def test_12_leftovers() -> None:
    state = started(3)
    p = state.seats[0]
    empty(p)
    p["map"], p["goods"]["y"], p["goods"]["a"], p["goods"]["c"] = 2, 3, 2, 2
    p["curios"].update(fl=1, pe=1, bu=1)
    # 2 map tokens + 3 honey + (4 other goods + 3 curiosities = 7 -> 2 sets) = 7
    assert GAME.breakdown(state, 0)["leftovers"] == 7


def _end_hour(state) -> list:
    events: list = []
    state.actor = None
    GAME._end_hour(state, events)
    return events


def test_13_dawdle_cards_to_those_with_fewer_friends() -> None:
    state = started(3)
    for seat, count in enumerate((5, 3, 5)):
        state.seats[seat]["hand"] = list(D.DECK_FRIENDS[seat * 5:seat * 5 + count])
        state.seats[seat]["backpack"] = []
    _end_hour(state)
    assert [len(p["dawdle"]) for p in state.seats] == [0, 2, 0]  # only the second player draws 5 - 3 = 2


def test_14_the_worm_passes_clockwise() -> None:
    state = started(3)
    state.worm = 2
    for p in state.seats:
        p["hand"] += p["backpack"]
        p["backpack"] = []
    _end_hour(state)
    assert state.worm == 0 and state.actor == 0  # seat 0 holds the worm and starts hour 2


def test_15_hour_end_refreshes_everything() -> None:
    state = started(3)
    p = state.seats[0]
    p["backpack"], p["hand"] = list(p["hand"]), []
    p["patches"], p["patch_cubes"], p["cubes"] = ["p02"], ["p02"], D.CUBES - 1
    before = {row: list(r["display"]) for row, r in state.rows.items()}
    old_sun, next_sun = state.sun, state.sun_deck[0]
    _end_hour(state)
    assert state.sun == next_sun != old_sun and state.hour == 2
    for row, cards in before.items():  # 4 + 4 + 4 display cards replaced by new ones
        assert len(state.rows[row]["display"]) == 4 and not set(cards) & set(state.rows[row]["display"])
        assert set(cards) <= set(state.rows[row]["discard"])
    assert p["backpack"] == [] and len(p["hand"]) == 2
    assert p["patch_cubes"] == [] and p["cubes"] == D.CUBES


def test_16_club_visit_favor_cube_anywhere_then_patch() -> None:
    state = started(3, fests="spring,maypole,craft")
    p = turn(state, 0, hand=["f07"], pos="V", favors=[])
    state.rows["patches"]["display"][0] = "p24"  # Map Maker: +2 map tokens, at once
    state.rows["patches"]["deck"] = [c for c in state.rows["patches"]["deck"] if c != "p24"]
    display_favor = state.rows["favors"]["display"][0]
    play(state, 0, "friend f07 F", "path 4", "stop", f"favor {display_favor}")
    assert p["favors"] == [display_favor]
    options = legal(state, 0)
    assert "cube maypole 1" in options  # Maypole's space 1 wants Music: any free space will do
    play(state, 0, "cube maypole 1")
    assert fest(state, "maypole")[0] == 0
    maps = p["map"]
    play(state, 0, "patch p24")
    assert p["patches"] == ["p24"] and p["map"] == maps + 2


def test_17_hedgehog_pays_two_of_three_curiosities() -> None:
    state = started(3)
    state.rows["friends"]["display"][0] = "f13"  # Squirrel costs fl pe bu
    state.rows["friends"]["deck"] = [f for f in state.rows["friends"]["deck"] if f != "f13"]
    turn(state, 0, hand=["f07"], pos="C", curios={"fl": 1, "pe": 1, "bu": 1})
    play(state, 0, "friend f07 F", "path 4", "stop")
    buys = [a for a in legal(state, 0) if a.startswith("buy f13")]
    assert buys == ["buy f13 fl,pe", "buy f13 fl,bu", "buy f13 pe,bu"]
    before = dict(state.seats[0]["curios"])  # path 4's spot gave one more curiosity
    play(state, 0, "buy f13 pe,bu")
    after = state.seats[0]["curios"]
    assert (after["fl"], after["pe"], after["bu"]) == (before["fl"], before["pe"] - 1, before["bu"] - 1)
    assert "f13" in state.seats[0]["hand"]


def test_18_filling_the_last_space_of_spring_feast() -> None:
    state = started(3, fests="spring,maypole,craft")
    fest(state, "spring")[:] = [1, 2, 1, 2, None, 1]  # only space 5 (Treat) is open
    p = turn(state, 0, hand=["f07"], pos="V", goods={"a": 1, "b": 1}, favors=["tr01"], dawdle=["map"])
    play(state, 0, "dawdle map", "take h", "craft tr01")  # the only Treat space: the cube goes there itself
    assert fest(state, "spring")[4] == 0 and p["fest_vp"] == 3
    # festivities row: reward 3 + spring 1 cube (B has 3, C 2: no majority bonus for A) = 4
    assert GAME.breakdown(state, 0)["festivities"] == 4


def test_19_equal_totals_share_the_first_rank() -> None:
    state = started(2)
    for p in state.seats:
        empty(p)
        p["hand"], p["backpack"], p["crafted"], p["patches"] = ["s1"], [], [], []
    result = GAME.result(state)
    assert [r.rank for r in result.ranking] == [1, 1] and result.ranking[0].score == 0


def test_20_solo_feast() -> None:
    state = started(1)
    state.fests[0]["cubes"] = [0] * 6
    assert GAME.breakdown(state, 0)["feast"] == 16  # 6 x 2 + 4 for the full Feast
    state.fests[0]["cubes"] = [0, 0, None, 0, None, 0]
    assert GAME.breakdown(state, 0)["feast"] == 8  # 4 x 2


def test_21_worked_example() -> None:
    state = started(3, fests="spring,maypole,craft")
    ana = state.seats[0]
    empty(ana)
    ana["crafted"] = ["tr01", "tr04", "tr05", "de09", "mu02"]
    ana["hand"], ana["backpack"] = ["s1", "f05", "f13", "f28"], []
    ana["patches"] = ["p39", "p29"]
    ana["map"], ana["goods"]["y"], ana["goods"]["a"], ana["goods"]["l"] = 1, 2, 2, 1
    ana["curios"].update(fl=1, bu=1)
    fest(state, "spring")[:] = [0, 0, 1, None, None, None]
    fest(state, "maypole")[:] = [0, 1, 2, 2, None, None]
    # favors 25, friends 0+3+2+(2+1) = 8, patches 4 + 2x3 = 10, leftovers 1 + 2 + 5//3 = 4,
    # festivities spring 2+4, maypole 1+2 (tied second with Ben), craft fair none = 9; total 56
    assert GAME.breakdown(state, 0) == {"favors": 25, "friends": 8, "patches": 10, "leftovers": 4,
                                        "festivities": 9}
    assert next(r for r in GAME.result(state).ranking if r.seat == 0).score == 56


def test_22_a_friend_bought_in_hour_two_is_played_the_same_hour() -> None:
    state = started(2)
    state.hour = 2
    state.rows["friends"]["display"][0] = "f05"
    state.rows["friends"]["deck"] = [f for f in state.rows["friends"]["deck"] if f != "f05"]
    turn(state, 0, hand=["f06"], pos="C", curios={"pe": 1, "bu": 1})
    state.seats[1]["hand"], state.seats[1]["dawdle"] = [], []
    play(state, 0, "friend f06 F", "path 4", "stop", "buy f05 pe,bu", "end")
    assert state.actor == 0 and state.hour == 2  # seat 1 holds no card: seat 0 plays again
    assert "friend f05 F" in legal(state, 0)


def test_23_same_symbol_bonus_is_capped() -> None:
    # tr01..tr04: 2 + 3 (capped, four others) = 5 each = 20; tr09 6 + 1 symbol = 7; total 27
    assert _favors_score(["tr01", "tr02", "tr03", "tr04", "tr09"]) == 27


def test_24_partner_missing() -> None:
    assert _favors_score(["tr06"]) == 4


def _friends_row(hand: list[str], **setup) -> int:
    state = started(3)
    p = state.seats[0]
    p["hand"], p["backpack"] = hand, []
    for key, value in setup.items():
        p[key] = value
    return GAME.breakdown(state, 0)["friends"]


def test_25_porcupine_caps_at_four() -> None:
    assert _friends_row(["f15"], patches=["p29", "p30", "p31", "p32", "p33", "p34"]) == 2 + 4


def test_26_snail_counts_pairs_of_other_friends() -> None:
    # Snail 2 + 5 others // 2 = 2 (the starter and four 3-VP... friends worth 0 here: starters)
    assert _friends_row(["f28", "s1", "s2", "s3", "s4", "s5"]) == 2 + 2


def test_27_toad_sets_and_leftovers() -> None:
    state = started(3)
    p = state.seats[0]
    empty(p)
    p["hand"], p["backpack"] = ["f36"], []
    p["curios"].update(fl=2, pe=1, bu=3)
    b = GAME.breakdown(state, 0)
    assert b["friends"] == 1 + 2 and b["leftovers"] == 6 // 3


def test_28_weasel_tied_for_most() -> None:
    state = started(3)
    for seat, count in enumerate((7, 7, 5)):
        state.seats[seat]["crafted"] = list(D.FAVORS)[seat * 12:seat * 12 + count]
    state.seats[0]["hand"], state.seats[0]["backpack"] = ["f35"], []
    assert GAME.breakdown(state, 0)["friends"] == 1 + 3


def test_29_map_hoarder_and_chef_without_treats() -> None:
    state = started(3)
    p = state.seats[0]
    empty(p)
    p["map"], p["patches"], p["crafted"] = 3, ["p35", "p29"], []
    b = GAME.breakdown(state, 0)
    assert b["patches"] == 3 and b["leftovers"] == 3  # Map Hoarder +3; Chef 0 VP and no Treat


def test_30_festival_spirit() -> None:
    state = started(3, fests="spring,maypole,craft")
    p = state.seats[0]
    p["patches"] = ["p38"]
    fest(state, "spring")[0] = 0
    fest(state, "craft")[1] = 0
    assert GAME.breakdown(state, 0)["patches"] == 4  # 2 x 2 festivities holding a cube
