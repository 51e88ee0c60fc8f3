"""Solo (specification section 8) and the seven festivity rewards."""

from __future__ import annotations

import pytest

from games.maple import GAME
from games.maple import data as D
from tests.games.maple.helpers import empty, fest, legal, play, started, turn
from tests.games.maple.test_friends import grove_walk


# -- solo ----------------------------------------------------------------------------------------------
def test_solo_uses_the_great_feast_and_no_festivity() -> None:
    state = GAME.setup(1, {"festivities": "spring,lantern,sunset"}, 2)  # ignored in solo
    assert [f["code"] for f in state.fests] == ["feast"] and state.fests[0]["cubes"] == [None] * 6


def test_solo_a_crafted_favor_takes_its_symbols_feast_space() -> None:
    state = started(1)
    p = grove_walk(state, 0, "f07", "F", goods={"a": 1, "b": 1}, favors=["tr01"])
    play(state, 0, "craft tr01")
    assert state.fests[0]["cubes"] == [0, None, None, None, None, None] and p["cubes"] == D.CUBES - 1


def test_solo_the_club_cube_goes_on_any_free_feast_space() -> None:
    state = started(1)
    turn(state, 0, hand=["f07"], pos="V")
    play(state, 0, "friend f07 F", "path 4", "stop", "favor deck")
    assert [a for a in legal(state, 0) if a.startswith("cube")] == [f"cube feast {i}" for i in range(1, 7)]
    play(state, 0, "cube feast 4")
    assert state.fests[0]["cubes"][3] == 0


def test_solo_no_worm_passing_and_no_dawdle_cards() -> None:
    state = started(1)
    state.seats[0]["hand"], state.seats[0]["backpack"] = ["s1"], ["f01", "f02"]
    state.actor = None
    GAME._end_hour(state, [])
    assert state.worm == 0 and state.seats[0]["dawdle"] == [] and state.actor == 0


def test_solo_weasel_needs_eight_crafted_favors() -> None:
    state = started(1)
    p = state.seats[0]
    p["hand"], p["backpack"] = ["f35"], []
    p["crafted"] = list(D.FAVORS)[:7]
    assert GAME.breakdown(state, 0)["friends"] == 1
    p["crafted"] = list(D.FAVORS)[:8]
    assert GAME.breakdown(state, 0)["friends"] == 1 + 3


def test_solo_loon_and_festival_spirit_count_the_feast() -> None:
    state = started(1)
    p = state.seats[0]
    p["hand"], p["backpack"], p["patches"] = ["f24"], [], ["p38"]
    state.fests[0]["cubes"][2] = 0
    b = GAME.breakdown(state, 0)
    assert b["friends"] == 2 + 1 and b["patches"] == 2 and b["feast"] == 2


def test_solo_mouse_finds_no_other_critter() -> None:
    state = started(1)
    state.groves["GM1"] = ["t", "l"]
    turn(state, 0, hand=["f16"], pos="V")
    play(state, 0, "friend f16 F", "path 1", "stop")
    assert GAME._decision(state)[0] == "craft"


@pytest.mark.parametrize(("score", "rating", "won"), [
    (54, "quiet", False), (55, "pleasant", False), (69, "pleasant", False), (70, "merry", True),
    (85, "wonderful", True), (99, "wonderful", True), (100, "legendary", True),
])
def test_solo_rating_ladder(score: int, rating: str, won: bool) -> None:
    state = started(1)
    p = state.seats[0]
    empty(p)
    p["hand"], p["backpack"], p["patches"], p["crafted"] = [], [], [], []
    p["map"] = score
    extra = GAME.result(state).extra
    assert extra == {"solo": True, "rating": rating, "won": won}


def test_a_whole_solo_game_by_the_clock() -> None:
    state = GAME.setup(1, {}, 9)
    while not GAME.is_over(state):
        GAME.apply(state, 0, GAME.default_action(state, 0))
    result = GAME.result(state)
    assert set(result.ranking[0].breakdown) == {"favors", "friends", "patches", "leftovers", "feast"}


# -- festivity rewards ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("code", "vp", "tasks", "maps"), [
    ("spring", 3, [], 0), ("craft", 3, [], 0), ("sunset", 4, [], 0),
    ("lantern", 0, ["curio"], 1), ("maypole", 0, ["goods", "goods"], 0), ("games", 0, [], 2),
    ("story", 0, ["favor", "curio"], 0),
])
def test_filling_the_last_space_gives_the_reward(code: str, vp: int, tasks: list[str], maps: int) -> None:
    others = [c for c in D.FESTIVITIES if c != code][:2]
    state = started(3, fests=",".join([code, *others]))
    cubes = fest(state, code)
    for i in range(5):
        cubes[i] = 1  # only space 6 is open (blocked with 3 players: open it for the test)
    cubes[5] = None
    p = state.seats[0]
    p["map"] = 0
    state.supply["map"] += 1
    state.ctx["tasks"] = []
    state.actor = 0
    GAME._place_cube(state, 0, code, 5, [])
    assert p["fest_vp"] == vp and p["map"] == maps
    assert [t[0] for t in state.ctx["tasks"]] == tasks
