"""One test per patch (40): hour patches take a cube when used and get it back at the hour's end."""

from __future__ import annotations

import pytest

from games.maple import GAME
from games.maple import data as D
from tests.games.maple.helpers import empty, fest, legal, play, started, turn
from tests.games.maple.test_friends import grove_walk, put_on_display


def receive(state, seat: int, pid: str) -> dict:
    """The patch arrives as at the Club (from the display)."""
    put_on_display(state, "patches", pid)
    p = state.seats[seat]
    GAME._take_patch(state, p, pid, [])
    return p



# -- hour ---------------------------------------------------------------------------------------------
def test_p01_trailblazer_a_free_path_once_per_hour() -> None:
    state = started()
    p = turn(state, 0, hand=["f07"], pos="V", map_tokens=0, patches=["p01"])
    play(state, 0, "friend f07 F", "path 3 free")
    assert p["pos"] == "T" and "p01" in p["patch_cubes"] and p["cubes"] == D.CUBES - 1


def test_p02_trader_exchanges_a_goods() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", goods={"a": 1}, patches=["p02"])
    play(state, 0, "trader a", "take y")
    assert p["goods"]["a"] == 0 and p["goods"]["y"] == 1 and "p02" in p["patch_cubes"]
    assert "trader t" not in legal(state, 0)  # once per hour


def test_p03_forager_a_sun_goods_at_a_grove() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", goods={}, patches=["p03"])
    assert p["goods"]["h"] == 1 and "p03" in p["patch_cubes"]


def test_p04_quick_study_a_favor_at_the_end_of_the_turn() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", favors=[], patches=["p04"])
    card = state.rows["favors"]["display"][1]
    play(state, 0, "end")
    assert "skip" in legal(state, 0)
    play(state, 0, f"favor {card}")
    assert p["favors"] == [card] and state.actor != 0


def test_p05_shortcut_ends_where_the_turn_began() -> None:
    state = started()
    p = turn(state, 0, hand=["f07"], pos="V", map_tokens=2, patches=["p05"])
    play(state, 0, "friend f07 F", "path 1", "path 22 tok", "path 3 tok", "stop")
    assert p["pos"] == "V" and "p05" in p["patch_cubes"]


def test_p06_tinkerer_one_goods_fewer() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", goods={"b": 1}, favors=["tr01"], patches=["p06"])
    play(state, 0, "craft tr01 -a")
    assert p["crafted"] == ["tr01"] and "p06" in p["patch_cubes"]


def test_p07_second_wind_a_map_token_after_the_location() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", map_tokens=0, patches=["p07"])
    assert p["map"] == 1 and "p07" in p["patch_cubes"]


def test_p08_early_start_a_sun_goods_at_the_turn_start() -> None:
    state = started()
    state.seats[0]["patches"] = ["p08"]
    p = turn(state, 0, hand=["f07"], goods={}, sun="t")
    assert p["goods"]["t"] == 1 and "p08" in p["patch_cubes"]


def test_p09_festival_helper_a_cube_anywhere() -> None:
    state = started(fests="spring,maypole,craft")
    p = grove_walk(state, 0, "f07", "F", goods={"a": 1, "b": 1}, favors=["tr01"], patches=["p09"])
    play(state, 0, "craft tr01", "cube craft 2")  # a Story space for a Treat favor
    assert fest(state, "craft")[1] == 0 and "p09" in p["patch_cubes"]


def test_p10_sunny_stroll_a_sun_goods_with_a_dawdle_card() -> None:
    state = started()
    p = turn(state, 0, hand=[], dawdle=["map"], goods={}, sun="y", patches=["p10"])
    play(state, 0, "dawdle map", "take a")
    assert p["goods"]["y"] == 1 and p["goods"]["a"] == 1


def test_p11_barterer_a_curiosity_for_two_goods() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", curios={"fl": 1}, goods={}, patches=["p11"])
    play(state, 0, "barter fl", "take a", "take b")
    assert p["curios"]["fl"] == 0 and p["goods"]["a"] == 1 and p["goods"]["b"] == 1


# -- always --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("pid", "friend", "main", "path"), [
    ("p12", "f07", "F", "path 2"),  # Swimmer: water counts as forest
    ("p13", "f12", "W", "path 3"),  # Climber: mountain counts as water
    ("p14", "f02", "M", "path 1"),  # Ranger: forest counts as mountain
])
def test_p12_p13_p14_path_types_count_as_the_main_type(pid: str, friend: str, main: str, path: str) -> None:
    state = started()
    turn(state, 0, hand=[friend], pos="V", map_tokens=0)
    play(state, 0, f"friend {friend} {main}")
    assert path not in legal(state, 0)
    state = started()
    turn(state, 0, hand=[friend], pos="V", map_tokens=0, patches=[pid])
    play(state, 0, f"friend {friend} {main}")
    assert path in legal(state, 0)


def test_p15_hiker_two_types_in_one_main_walk() -> None:
    state = started()
    turn(state, 0, hand=["s1"], pos="GM1", map_tokens=0, patches=["p15"])
    play(state, 0, "friend s1 F", "path 1", "path 3")  # forest then mountain
    assert "path 11" in legal(state, 0)
    state = started()
    turn(state, 0, hand=["s1"], pos="GM1", map_tokens=0)
    play(state, 0, "friend s1 F", "path 1")
    assert "path 3" not in legal(state, 0)


def test_p16_lookout_one_more_map_token_at_the_tower() -> None:
    state = started()
    p = turn(state, 0, hand=["f02"], pos="V", map_tokens=0, patches=["p16"])
    play(state, 0, "friend f02 M", "path 3", "stop")
    assert p["map"] == 2 + 1 + 1  # tower, Pika, Lookout


def test_p17_cliff_diver_one_more_sun_goods() -> None:
    state = started()
    p = turn(state, 0, hand=["f02"], pos="T", goods={}, sun="c", patches=["p17"])
    play(state, 0, "friend f02 M", "path 12", "stop")
    assert p["goods"]["c"] == 4


def test_p18_villager_friends_one_curiosity_cheaper() -> None:
    state = started()
    put_on_display(state, "friends", "f13")
    turn(state, 0, hand=["f02"], pos="T", curios={"fl": 1, "pe": 1}, patches=["p18"])
    play(state, 0, "friend f02 M", "path 3", "stop")
    assert "buy f13 fl,pe" in legal(state, 0)


def test_p19_cottage_regular_one_more_favor_then_a_discard() -> None:
    state = started()
    p = turn(state, 0, hand=["f12"], pos="V", favors=[], patches=["p19"])
    play(state, 0, "friend f12 W", "path 5", "stop", f"favor {state.rows['favors']['display'][0]}")
    assert len(p["favors"]) == 3
    play(state, 0, f"discard {p['favors'][0]}")
    assert len(p["favors"]) == 2


def test_p20_dawdler_one_more_goods_with_a_dawdle_card() -> None:
    state = started()
    p = turn(state, 0, hand=[], dawdle=["map"], goods={}, patches=["p20"])
    play(state, 0, "dawdle map", "take a", "take b")
    assert p["goods"]["a"] == 1 and p["goods"]["b"] == 1


def test_p21_helper_a_goods_when_another_fills_your_festivity() -> None:
    state = started(fests="spring,maypole,craft")
    state.seats[1]["patches"] = ["p21"]
    fest(state, "spring")[:] = [1, 2, 1, 2, None, 1]
    turn(state, 0, hand=[], dawdle=["map"], goods={"a": 1, "b": 1}, favors=["tr01"])
    events = play(state, 0, "dawdle map", "take h", "craft tr01")
    assert "helper" in [e.code for e in events] and state.seats[1]["owed"] == 1
    state.seats[1]["hand"] = ["s2"]
    turn(state, 1, goods={})
    assert GAME._decision(state)[0] == "goods"
    play(state, 1, "take y")
    assert state.seats[1]["goods"]["y"] == 1


def test_p22_collectors_eye_one_more_curiosity_per_spot() -> None:
    state = started()
    p = turn(state, 0, hand=["f05"], pos="V", curios={}, patches=["p22"])
    play(state, 0, "friend f05 F", "path 4")
    assert p["curios"][state.spots["4"]] == 3  # Fox 2 + Collector's Eye 1


def test_p23_sun_seeker_the_bonus_at_the_cliff() -> None:
    state = started()
    p = turn(state, 0, hand=["f02"], pos="T", goods={}, sun="c", patches=["p23"])
    play(state, 0, "friend f02 M", "path 12", "stop")
    assert p["goods"]["c"] == 4


# -- now ----------------------------------------------------------------------------------------------
def test_p24_map_maker() -> None:
    state = started()
    state.seats[0]["map"] = 0
    state.supply["map"] += 1
    assert receive(state, 0, "p24")["map"] == 2


def test_p25_beekeeper() -> None:
    state = started()
    assert receive(state, 0, "p25")["goods"]["y"] == 2


def test_p26_festive_a_cube_on_any_free_space() -> None:
    state = started(fests="spring,maypole,craft")
    p = turn(state, 0, hand=["f07"], pos="V")
    put_on_display(state, "patches", "p26")
    play(state, 0, "friend f07 F", "path 4", "stop", "favor deck", "cube spring 1", "patch p26")
    assert GAME._decision(state)[0] == "cube"
    play(state, 0, "cube craft 5")  # (space 6 is blocked with 3 players)
    assert fest(state, "craft")[4] == 0 and p["cubes"] == D.CUBES - 2


def test_p27_treasure_box() -> None:
    state = started()
    assert receive(state, 0, "p27")["curios"] == {"fl": 2, "pe": 2, "bu": 2}


def test_p28_gift_wrap() -> None:
    state = started()
    before = len(state.seats[0]["favors"])
    assert len(receive(state, 0, "p28")["favors"]) == before + 2


# -- end and badges -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("pid", "symbol"), sorted(D.SYMBOL_PATCHES.items()))
def test_p29_to_p34_two_points_per_crafted_favor_of_a_symbol(pid: str, symbol: str) -> None:
    state = started()
    p = state.seats[0]
    p["patches"] = [pid]
    p["crafted"] = [f for f in D.FAVORS if D.FAVORS[f].symbol == symbol][:3] + ["tr01" if symbol != "Treat"
                                                                                  else "de01"]
    assert GAME.breakdown(state, 0)["patches"] == 6


def test_p36_honey_lover() -> None:
    state = started()
    p = state.seats[0]
    empty(p)
    p["patches"], p["goods"]["y"] = ["p36"], 3
    b = GAME.breakdown(state, 0)
    assert b["patches"] == 3 and b["leftovers"] == 3


def test_p37_sociable() -> None:
    state = started()
    p = state.seats[0]
    p["patches"], p["hand"], p["backpack"] = ["p37"], ["s1", "f01"], ["f02"]
    assert GAME.breakdown(state, 0)["patches"] == 3


@pytest.mark.parametrize(("pid", "vp"), [("p39", 4), ("p40", 3), ("p35", 0), ("p38", 0)])
def test_badges_and_empty_end_patches(pid: str, vp: int) -> None:
    state = started()
    p = state.seats[0]
    empty(p)
    p["patches"] = [pid]
    assert GAME.breakdown(state, 0)["patches"] == vp


def test_hour_patch_cubes_come_back_at_the_hour_end() -> None:
    state = started()
    p = grove_walk(state, 0, "f07", "F", map_tokens=0, patches=["p07"])
    assert p["cubes"] == D.CUBES - 1
    state.actor = None
    GAME._end_hour(state, [])
    assert p["patch_cubes"] == [] and p["cubes"] == D.CUBES
