"""One test per friend ability (5 starters + 36), each at its phase. Only the played friend's Play, Move,
Loc and Craft abilities work in a turn; End abilities count for every friend owned."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.maple import GAME
from tests.games.maple.helpers import empty, fest, legal, play, started, turn

NOTHING = {"t": 0}


def grove_walk(state, seat: int, fid: str, ptype: str, **kw):
    """Walk one path to a grove whose token gives birch and clay (never the sun goods, herb)."""
    state.groves["GM1"] = ["t", "l"]
    state.groves["GO1"] = ["t", "l"]
    start, path = {"F": ("V", 1), "W": ("V", 2), "M": ("GM1", 6)}[ptype]
    p = turn(state, seat, hand=[fid, "s1"], pos=start, sun="h", **kw)
    play(state, seat, f"friend {fid} {ptype}", f"path {path}", "stop")
    return p


def put_on_display(state, row: str, card: str, index: int = 0) -> None:
    r = state.rows[row]
    for pile in (r["deck"], r["discard"], r["display"]):
        if card in pile:
            pile.remove(card)
    r["display"].insert(index, card)
    del r["display"][4:]


# -- starters ----------------------------------------------------------------------------------------
def test_s1_bunny_gives_a_sun_goods_when_played() -> None:
    state = started()
    p = turn(state, 0, hand=["s1"], goods={}, sun="c")
    play(state, 0, "friend s1 M")
    assert p["goods"]["c"] == 1


def test_s2_chick_gives_a_map_token() -> None:
    state = started()
    p = turn(state, 0, hand=["s2"], map_tokens=0)
    play(state, 0, "friend s2 F")
    assert p["map"] == 1


def test_s3_kit_gives_a_curiosity_of_choice() -> None:
    state = started()
    p = turn(state, 0, hand=["s3"], curios={})
    play(state, 0, "friend s3 W")
    assert legal(state, 0)[:3] == ["take fl", "take pe", "take bu"]
    play(state, 0, "take pe")
    assert p["curios"] == {"fl": 0, "pe": 1, "bu": 0}


def test_s4_cub_crafts_one_favor_for_one_goods_less() -> None:
    state = started()
    p = grove_walk(state, 0, "s4", "F", goods={"a": 1}, favors=["tr01", "tr02"])
    assert "craft tr01 -b" in legal(state, 0) and "craft tr01" not in legal(state, 0)
    play(state, 0, "craft tr01 -b")
    assert p["goods"]["a"] == 0 and p["crafted"] == ["tr01"]
    assert not [a for a in legal(state, 0) if a.startswith("craft")]  # once per turn


def test_s5_pup_gives_a_goods_after_the_first_craft() -> None:
    state = started()
    p = grove_walk(state, 0, "s5", "F", goods={"a": 1, "b": 1}, favors=["tr01"])
    play(state, 0, "craft tr01")
    play(state, 0, *(["cube spring 1"] if "cube spring 1" in legal(state, 0) else []))
    play(state, 0, "take y")
    assert p["goods"]["y"] == 1


# -- single type --------------------------------------------------------------------------------------
def test_f01_marmot_four_sun_goods_at_the_cliff() -> None:
    state = started()
    p = turn(state, 0, hand=["f01"], pos="T", goods={}, sun="b")
    play(state, 0, "friend f01 M", "path 12", "stop")
    assert p["goods"]["b"] == 4


def test_f02_pika_one_more_map_token_at_the_tower() -> None:
    state = started()
    p = turn(state, 0, hand=["f02"], pos="V", map_tokens=0)
    play(state, 0, "friend f02 M", "path 3", "stop")
    assert p["map"] == 3


def test_f03_chipmunk_one_more_of_a_grove_goods() -> None:
    state = started()
    p = grove_walk(state, 0, "f03", "M", goods={})
    assert legal(state, 0)[:2] == ["take t", "take l"]
    play(state, 0, "take l")
    assert (p["goods"]["t"], p["goods"]["l"]) == (1, 2)


def test_f04_mole_starts_from_the_village() -> None:
    state = started()
    p = turn(state, 0, hand=["f04"], pos="K", map_tokens=0)
    play(state, 0, "friend f04 M")
    assert "from V" in legal(state, 0) and "path 3" not in legal(state, 0)  # path 3 leaves the Village
    play(state, 0, "from V", "path 3", "stop")
    assert p["pos"] == "T"


def test_f05_fox_two_curiosities_per_spot() -> None:
    state = started()
    p = turn(state, 0, hand=["f05"], pos="V", curios={})
    play(state, 0, "friend f05 F", "path 4")
    assert p["curios"][state.spots["4"]] == 2


def test_f06_badger_pays_another_goods_in_place_of_one() -> None:
    state = started()
    p = grove_walk(state, 0, "f06", "F", goods={"a": 1, "h": 1}, favors=["tr01"])
    assert "craft tr01 b=h" in legal(state, 0)
    play(state, 0, "craft tr01 b=h")
    assert p["goods"]["a"] == 0 and p["goods"]["h"] == 0 and p["crafted"] == ["tr01"]


def test_f07_hedgehog_friend_one_curiosity_cheaper() -> None:
    state = started()
    put_on_display(state, "friends", "f05")  # Fox costs pe bu
    turn(state, 0, hand=["f07"], pos="C", curios={"pe": 1})
    play(state, 0, "friend f07 F", "path 4", "stop")
    assert "buy f05 pe" in legal(state, 0)


def test_f08_rabbit_exchanges_up_to_two_goods() -> None:
    state = started()
    p = turn(state, 0, hand=["f08"], goods={"a": 3})
    play(state, 0, "friend f08 F", "pay a", "take y", "pay a", "take h")
    assert p["goods"]["a"] == 1 and p["goods"]["y"] == 1 and p["goods"]["h"] == 1
    assert GAME._decision(state)[0] == "walk"  # two exchanges at most


def test_f09_otter_walks_one_path_of_any_type_for_free() -> None:
    state = started()
    p = turn(state, 0, hand=["f09"], pos="V", map_tokens=0)
    play(state, 0, "friend f09 W")
    assert "path 1 free" in legal(state, 0) and "path 1 tok" not in legal(state, 0)
    play(state, 0, "path 1 free")
    assert p["pos"] == "GM1" and not [a for a in legal(state, 0) if a.endswith("free")]


def test_f10_beaver_one_more_clearing_exchange() -> None:
    state = started(clearings="honey,trading")  # X1 is the Honey Tree (once: 2 goods -> 1 honey)
    p = turn(state, 0, hand=["f10"], pos="GO1", goods={"a": 4})
    play(state, 0, "friend f10 W", "path 9", "stop", "pay a,a", "pay a,a")
    assert p["goods"]["a"] == 0 and p["goods"]["y"] == 1 + 2  # +1 honey from the card, 2 exchanges


def test_f11_heron_one_more_favor_then_a_discard() -> None:
    state = started()
    p = turn(state, 0, hand=["f11"], pos="V", favors=[])
    first = state.rows["favors"]["display"][0]
    play(state, 0, "friend f11 W", "path 5", "stop", f"favor {first}")
    assert len(p["favors"]) == 3 and GAME._decision(state)[0] == "discard"
    play(state, 0, f"discard {first}")
    assert len(p["favors"]) == 2 and first in state.rows["favors"]["discard"]


def test_f12_duck_gives_honey() -> None:
    state = started()
    p = turn(state, 0, hand=["f12"], goods={})
    play(state, 0, "friend f12 W")
    assert p["goods"]["y"] == 1


# -- two types ---------------------------------------------------------------------------------------
def test_f13_squirrel_a_curiosity_at_a_grove() -> None:
    state = started()
    p = grove_walk(state, 0, "f13", "F", curios={})
    play(state, 0, "take bu")
    assert p["curios"]["bu"] == 1


def test_f14_raccoon_takes_a_favor_from_the_display() -> None:
    state = started()
    p = turn(state, 0, hand=["f14"], favors=[])
    card = state.rows["favors"]["display"][2]
    play(state, 0, "friend f14 M")
    assert "favor deck" not in legal(state, 0)
    play(state, 0, f"favor {card}")
    assert p["favors"] == [card] and len(state.rows["favors"]["display"]) == 4


def test_f15_porcupine_a_point_per_patch() -> None:
    state = started()
    p = state.seats[0]
    p["hand"], p["backpack"], p["patches"] = ["f15"], [], ["p29", "p30"]
    assert GAME.breakdown(state, 0)["friends"] == 2 + 2


def test_f16_mouse_a_curiosity_ending_by_another_critter() -> None:
    state = started()
    state.seats[1]["pos"] = "GM1"
    p = turn(state, 0, hand=["f16"], pos="V", curios={})
    state.groves["GM1"] = ["t", "l"]
    play(state, 0, "friend f16 F", "path 1", "stop", "take fl")
    assert p["curios"]["fl"] == 1


def test_f17_skunk_a_goods_at_the_club() -> None:
    state = started()
    p = turn(state, 0, hand=["f17"], pos="V", goods={})
    play(state, 0, "friend f17 F", "path 4", "stop", "favor deck", "cube spring 1", "patch deck")
    assert GAME._decision(state)[0] == "goods"
    play(state, 0, "take c")
    assert p["goods"]["c"] == 1


def test_f18_bear_cub_after_two_crafts() -> None:
    state = started(fests="sunset,maypole,craft")
    p = grove_walk(state, 0, "f18", "F", goods={"a": 2, "b": 1, "h": 1}, favors=["tr01", "tr03"],
                   map_tokens=0)
    play(state, 0, "craft tr01")
    play(state, 0, "craft tr03")  # the second Treat: sunset has one Treat space only
    assert GAME._decision(state)[0] == "curio" and p["map"] == 1
    play(state, 0, "take pe")


def test_f19_moose_swaps_curiosities_twice() -> None:
    state = started()
    p = turn(state, 0, hand=["f19"], curios={"fl": 2})
    play(state, 0, "friend f19 M", "pay fl")
    assert "take fl" not in legal(state, 0)
    play(state, 0, "take pe", "pay fl", "take bu")
    assert p["curios"] == {"fl": 0, "pe": 1, "bu": 1}


def test_f20_lynx_chooses_the_patch_among_the_deck_top_three() -> None:
    state = started()
    turn(state, 0, hand=["f20"], pos="GB2")
    top = state.rows["patches"]["deck"][:3]
    play(state, 0, "friend f20 W", "path 17", "stop", "favor deck", "cube spring 1")
    assert all(f"patch {c}" in legal(state, 0) for c in top) and "patch deck" not in legal(state, 0)
    play(state, 0, f"patch {top[2]}")
    assert top[2] in state.seats[0]["patches"] and top[2] not in state.rows["patches"]["deck"]


def test_f21_goose_a_map_token_at_a_grove() -> None:
    state = started()
    p = grove_walk(state, 0, "f21", "W", map_tokens=0)
    assert p["map"] == 1


def test_f22_mink_pays_a_curiosity_for_a_goods() -> None:
    state = started()
    p = grove_walk(state, 0, "f22", "W", goods={"a": 1}, curios={"bu": 1}, favors=["tr01"])
    play(state, 0, "craft tr01 b=bu")
    assert p["curios"]["bu"] == 0 and p["goods"]["a"] == 0


def test_f23_salamander_a_token_walks_two_paths() -> None:
    state = started()
    p = turn(state, 0, hand=["f23"], pos="V", map_tokens=1)
    play(state, 0, "friend f23 M", "path 1 tok", "path 7 tok")
    assert p["map"] == 0 and p["pos"] == "GB1"


def test_f24_loon_a_point_per_festivity_with_a_cube() -> None:
    state = started()
    p = state.seats[0]
    p["hand"], p["backpack"] = ["f24"], []
    fest(state, "spring")[0] = 0
    fest(state, "maypole")[0] = 0
    fest(state, "maypole")[2] = 0
    assert GAME.breakdown(state, 0)["friends"] == 2 + 2


def test_f25_frog_a_goods_after_three_paths() -> None:
    state = started()
    p = turn(state, 0, hand=["f25"], pos="V", goods={})
    state.groves["GO2"] = ["t", "l"]
    play(state, 0, "friend f25 F", "path 4", "path 20", "stop")
    assert GAME._decision(state)[0] == "craft"  # two paths: nothing
    state = started()
    p = turn(state, 0, hand=["f25"], pos="V", goods={})
    play(state, 0, "friend f25 F", "path 4", "path 20", "path 19", "stop", "take a")
    assert p["goods"]["a"] == 1


def test_f26_turtle_two_goods_and_no_map_tokens() -> None:
    state = started()
    p = turn(state, 0, hand=["f26"], pos="V", goods={}, map_tokens=3)
    play(state, 0, "friend f26 F", "take b", "take b")
    assert p["goods"]["b"] == 2
    assert not [a for a in legal(state, 0) if a.endswith("tok")]


def test_f27_dragonfly_a_cube_on_any_free_space() -> None:
    state = started(fests="spring,maypole,craft")
    p = grove_walk(state, 0, "f27", "F", goods={"a": 1, "b": 1}, favors=["tr01"])
    play(state, 0, "craft tr01")
    assert "cube maypole 1" in legal(state, 0)  # a Music space for a Treat favor
    play(state, 0, "cube maypole 1")
    assert fest(state, "maypole")[0] == 0 and p["crafted"] == ["tr01"]


def test_f28_snail_a_point_per_two_other_friends() -> None:
    state = started()
    p = state.seats[0]
    p["hand"], p["backpack"] = ["f28", "s1", "s2"], ["f01"]
    assert GAME.breakdown(state, 0)["friends"] == 2 + 3 + 1  # Snail 2, Marmot 3, 3 others // 2 = 1


def test_f29_wren_a_favor_from_the_display_after_crafting() -> None:
    state = started()
    p = grove_walk(state, 0, "f29", "F", goods={"a": 1, "b": 1}, favors=["tr01"])
    play(state, 0, "craft tr01")
    if GAME._decision(state)[0] == "place":
        play(state, 0, "cube spring 1")
    card = state.rows["favors"]["display"][0]
    play(state, 0, f"favor {card}")
    assert p["favors"] == [card]


def test_f30_woodpecker_one_more_favor_at_the_tower() -> None:
    state = started()
    p = turn(state, 0, hand=["f30"], pos="GM1", favors=[])
    play(state, 0, "friend f30 W", "path 22", "stop", "favor deck", "favor deck")
    assert len(p["favors"]) == 2


# -- three types -------------------------------------------------------------------------------------
def test_f31_owl_switches_the_main_type_once() -> None:
    state = started()
    turn(state, 0, hand=["f31"], pos="V", map_tokens=0)
    play(state, 0, "friend f31 F", "path 1", "path 6")  # forest, then mountain
    assert "path 8" not in legal(state, 0)  # back to forest would be a second switch
    assert "path 9" not in legal(state, 0)


def test_f32_vole_buys_a_second_friend() -> None:
    state = started()
    put_on_display(state, "friends", "f01", 0)
    put_on_display(state, "friends", "f02", 1)
    p = turn(state, 0, hand=["f32"], pos="T", curios={"fl": 2, "pe": 2, "bu": 1})
    play(state, 0, "friend f32 M", "path 3", "stop", "buy f01 fl,pe", "buy f02 pe,bu")
    assert {"f01", "f02"} <= set(p["hand"])


def test_f33_bat_stays_or_goes_to_the_village_and_uses_it() -> None:
    state = started()
    p = turn(state, 0, hand=["f33"], pos="T")
    play(state, 0, "friend f33 M", "path 12", "stop")
    assert legal(state, 0)[:2] == ["stay", "village"]
    play(state, 0, "stay")
    assert p["pos"] == "L"
    state = started()
    p = turn(state, 0, hand=["f33"], pos="T")
    play(state, 0, "friend f33 M", "path 12", "stop", "village")
    assert p["pos"] == "V" and GAME._decision(state)[0] == "buy"


def test_f34_robin_a_goods_and_a_map_token() -> None:
    state = started()
    p = turn(state, 0, hand=["f34"], goods={}, map_tokens=0)
    play(state, 0, "friend f34 W", "take l")
    assert p["goods"]["l"] == 1 and p["map"] == 1


def test_f35_weasel_most_crafted_favors() -> None:
    state = started()
    state.seats[0]["hand"], state.seats[0]["backpack"] = ["f35"], []
    state.seats[0]["crafted"], state.seats[1]["crafted"] = ["tr01", "tr02"], ["de01", "de02", "de03"]
    assert GAME.breakdown(state, 0)["friends"] == 1
    state.seats[0]["crafted"].append("tr03")
    assert GAME.breakdown(state, 0)["friends"] == 1 + 3


def test_f36_toad_sets_of_curiosities() -> None:
    state = started()
    p = state.seats[0]
    empty(p)
    p["hand"], p["backpack"] = ["f36"], []
    p["curios"].update(fl=2, pe=2, bu=2)
    assert GAME.breakdown(state, 0)["friends"] == 1 + 4


def test_abilities_belong_to_the_played_friend_only() -> None:
    state = started()
    p = turn(state, 0, hand=["f07", "f05"], pos="V", curios={})
    p["backpack"] = ["f09"]  # Otter played earlier this hour: no free path now
    play(state, 0, "friend f07 F")
    assert not [a for a in legal(state, 0) if a.endswith("free")]
    play(state, 0, "path 4")
    assert sum(p["curios"].values()) == 1  # Fox is in hand, not played: 1 curiosity


def test_a_friend_with_no_walk_is_still_played() -> None:
    state = started()
    p = turn(state, 0, hand=["f05"], pos="T", map_tokens=0)  # the Tower has no forest path
    events = play(state, 0, "friend f05 F")
    assert "no_walk" in [e.code for e in events] and p["backpack"] == ["f05"] and p["pos"] == "T"
    with pytest.raises(IllegalAction):
        play(state, 0, "stop")
