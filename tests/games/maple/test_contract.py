"""The engine contract: notation, JSON, views, default actions, elimination, random play, catalogs."""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalAction, InvalidOptions
from games.maple import GAME
from games.maple import data as D
from tests.games.maple.helpers import legal, play, started, turn

SAMPLES = [
    "keep de03,tr01", "friend f05 F", "dawdle forage", "from V", "path 4", "path 16 tok", "path 9 free", "stop",
    "take a", "take a,h", "take fl", "favor tr05", "favor deck", "patch p24", "patch deck", "cube spring 3",
    "buy f13 fl,pe", "pay a,b", "pay fl", "discard tr05", "stay", "village", "craft tr05", "craft tr05 -a",
    "craft tr05 a=h", "craft tr05 -a b=fl", "trader a", "barter fl", "skip", "done", "end", "undo",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_notation_round_trip(text: str) -> None:
    assert GAME.format(GAME.parse(text)) == text


def test_notation_is_forgiving_and_strict() -> None:
    assert GAME.parse("  Friend  F05 f ") == ("friend", "f05", "F")
    assert GAME.parse("take h,a") == ("take", ("a", "h"))  # goods in their canonical order
    assert GAME.parse("keep tr01,de03") == GAME.parse("keep de03,tr01")
    for bad in ("friend f99 F", "path 25", "path 4 fly", "take x", "cube spring 7", "craft tr05 -q", "", "keep tr01"):
        with pytest.raises(IllegalAction) as err:
            GAME.parse(bad)
        assert err.value.code == "notation"


def test_options_are_checked() -> None:
    state = GAME.setup(3, {"festivities": "Spring Feast, lantern,SUNSET", "clearings": "well,pond"}, 1)
    assert [f["code"] for f in state.fests] == ["spring", "lantern", "sunset"]
    assert state.clearings == {"X1": "well", "X2": "pond"}
    for bad in ({"festivities": "spring,lantern"}, {"festivities": "spring,lantern,nope"}, {"clearings": "well"},
                {"colour": "red"}):
        with pytest.raises(InvalidOptions):
            GAME.setup(3, bad, 1)
    with pytest.raises(InvalidOptions):
        GAME.setup(6, {}, 1)


def test_setup_follows_the_specification() -> None:
    state = GAME.setup(4, {}, 7)
    assert len({tuple(t) for t in state.groves.values()}) == 6 and len(state.spots) == 6
    assert sorted(state.spots.values()) == sorted(D.SPOT_TOKENS)
    assert all(len(r["display"]) == 4 for r in state.rows.values())
    for seat, p in enumerate(state.seats):
        assert p["hand"][0] == D.STARTERS[seat] and len(p["hand"]) == 2 and p["pos"] == "V"
        assert p["map"] == 1 and p["curios"] == {"fl": 1, "pe": 1, "bu": 1} and len(p["keep"]) == 3
    assert GAME.to_act(state) == [state.worm]
    assert len(GAME.legal_actions(state, state.worm)) == 3  # keep 2 of 3
    assert [e.code for e in GAME.initial_events(state)] == ["setup"]


def test_wrong_seat_and_wrong_step_change_nothing() -> None:
    state = started(3)
    turn(state, 0, hand=["f07"], pos="V")
    before = GAME.to_json(state)
    for seat, text in ((1, "friend f07 F"), (0, "path 4"), (0, "craft tr01"), (0, "friend f07 W"), (0, "undo")):
        with pytest.raises(IllegalAction):
            play(state, seat, text)
        assert GAME.to_json(state) == before


def test_undo_steps_back_until_a_card_is_drawn() -> None:
    state = started(3)
    turn(state, 0, hand=["f07", "f02"], pos="V", map_tokens=1)
    play(state, 0, "friend f07 F", "path 1")
    play(state, 0, "undo")  # (undo restores the turn's start: read the seat afresh)
    assert state.seats[0]["pos"] == "V" and legal(state, 0)[-1] == "undo"  # the friend is still played
    play(state, 0, "undo")
    assert state.seats[0]["hand"] == ["f07", "f02"] and "undo" not in legal(state, 0)
    play(state, 0, "friend f07 F", "path 4", "stop")  # the Club: the favor from the display refills it
    favor = state.rows["favors"]["display"][0]
    play(state, 0, f"favor {favor}")
    assert "undo" not in legal(state, 0)  # a new card was revealed: no way back past it


def test_view_hides_deck_order_only() -> None:
    state = started(3)
    view = GAME.view(state, None)
    assert json.loads(json.dumps(view)) == view
    assert view == GAME.view(state, 0)  # nothing private (decision 17)
    text = json.dumps(view)
    assert "deck\"" not in text and "sun_deck" not in text and "turn_snap" not in text
    assert view["rows"]["favors"]["deck_count"] == len(state.rows["favors"]["deck"])
    assert set(view["scores"]["0"]) == {"favors", "friends", "patches", "leftovers", "festivities"}
    assert set(GAME.view(started(1), None)["scores"]["0"]) == {"favors", "friends", "patches", "leftovers", "feast"}


def test_eliminate_skips_the_seat_and_ends_with_one_left() -> None:
    state = GAME.setup(3, {}, 5)
    first = GAME.to_act(state)[0]
    GAME.eliminate(state, first)
    assert first not in GAME.to_act(state)
    while state.keep_order:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.default_action(state, seat))
    actor = GAME.to_act(state)[0]
    play(state, actor, GAME.format(GAME.default_action(state, actor)))
    GAME.eliminate(state, actor)
    assert GAME.is_over(state)
    assert [r.eliminated for r in GAME.result(state).ranking][-2:] == [True, True]


def test_solo_result_has_the_rating() -> None:
    state = GAME.setup(1, {}, 3)
    while not GAME.is_over(state):
        GAME.apply(state, 0, GAME.default_action(state, 0))
    extra = GAME.result(state).extra
    assert extra["solo"] is True and extra["rating"] in {n for _, n in D.SOLO_RATINGS}
    assert extra["won"] == (GAME.result(state).ranking[0].score >= D.SOLO_WIN)


def test_catalogs_cover_every_code() -> None:
    root = Path(__file__).resolve().parents[3]
    folder = root / "games" / "maple" / "locales"
    en = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    ru = json.loads((folder / "ru.json").read_text(encoding="utf-8"))
    assert set(en) == set(ru)
    assert {"name", "rules.summary", "rules.play"} <= set(en)
    text = (root / "games" / "maple" / "engine.py").read_text(encoding="utf-8")
    for code in set(re.findall(r'Event\("([a-z_]+)"', text)):
        assert f"event.{code}" in en, code
    for code in set(re.findall(r'(?:IllegalAction|InvalidOptions)\("([a-z_]+)"', text)) - {
        "notation", "not_your_turn", "game_over",
    }:
        assert f"error.{code}" in en, code
    for key, value in en.items():
        assert _fields(value) == _fields(ru[key]), key


# -- random games -----------------------------------------------------------------------------------
def _totals(state) -> tuple[Counter, Counter, Counter, Counter, int]:
    """Everything that is conserved: goods and curiosities with the supply, map tokens, each card kind."""
    items: Counter = Counter(state.supply)
    cards: Counter = Counter()
    for row, r in state.rows.items():
        cards[row] += len(r["deck"]) + len(r["display"]) + len(r["discard"])
    cubes = 0
    for p in state.seats:
        items.update(p["goods"])
        items.update(p["curios"])
        items["map"] += p["map"]
        cards["friends"] += len(p["hand"]) + len(p["backpack"])
        cards["favors"] += len(p["favors"]) + len(p["crafted"]) + len(p["keep"])
        cards["patches"] += len(p["patches"])
        cards["dawdle"] += len(p["dawdle"])
        cubes += p["cubes"] + len(p["patch_cubes"])
    cards["dawdle"] += len(state.dawdle_deck)
    cubes += sum(1 for f in state.fests for c in f["cubes"] if c is not None and c >= 0)
    return items, cards, Counter(), Counter(), cubes


def _check_conserved(state) -> None:
    items, cards, _, _, cubes = _totals(state)
    assert all(items[k] == D.SUPPLY_PER_KIND for k in (*D.GOODS, *D.CURIOS)) and items["map"] == D.MAP_TOKENS
    assert cards == Counter(friends=36 + state.players, favors=72, patches=40, dawdle=20)
    assert cubes == D.CUBES * state.players


def _random_game(players: int, seed: int, picks: list[int], check_illegal: bool = False) -> None:
    state = GAME.setup(players, {}, seed)
    twin = GAME.setup(players, {}, seed)
    index = 0
    last: tuple = ()
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        assert actions and GAME.default_action(state, seat) in actions
        if check_illegal and index % 9 == 0:
            snapshot = GAME.to_json(state)
            for bogus in (("path", 24, "main"), ("end",), ("cube", "spring", 1), ("take", ("y",)), ("stop",)):
                if bogus not in actions:
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, bogus)
            with pytest.raises(IllegalAction):
                GAME.apply(state, (seat + 1) % players if players > 1 else seat, ("undo",) if players == 1
                           and ("undo",) not in actions else ("friend", "f99", "F"))
            assert GAME.to_json(state) == snapshot
        action = actions[picks[index % len(picks)] % len(actions)]
        if action == ("undo",) and (index % 4 or last == action):  # fixed picks could undo forever
            action = actions[0]
        last = action
        assert GAME.parse(GAME.format(action)) == action
        events = GAME.apply(state, seat, action)
        assert GAME.apply(twin, seat, action) == events  # same seed, same actions: same game
        _check_conserved(state)
        index += 1
    result = GAME.result(state)
    for player in result.ranking:
        assert sum(player.breakdown.values()) == player.score
    assert GAME.to_json(state) == GAME.to_json(twin)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(1, 5), seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 60), min_size=1))
def test_random_legal_games_reach_the_end(players: int, seed: int, picks: list[int]) -> None:
    _random_game(players, seed, picks, check_illegal=True)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(1, 5), seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_json_round_trip_mid_game(players: int, seed: int, steps: int) -> None:
    state = GAME.setup(players, {}, seed)
    for i in range(steps):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, actions[(i * 7 + seed) % len(actions)])
    data = GAME.to_json(state)
    copy = GAME.from_json(json.loads(json.dumps(data)))
    assert GAME.to_json(copy) == data
    for _ in range(40):  # the copy goes on exactly like the original, undo included
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        action = actions[-1] if ("undo",) in actions and _ % 5 == 0 else GAME.default_action(state, seat)
        assert GAME.apply(state, seat, action) == GAME.apply(copy, seat, action)
    assert GAME.to_json(copy) == GAME.to_json(state)


def test_default_actions_finish_games_for_every_player_count() -> None:
    for players in range(1, 6):
        state = GAME.setup(players, {}, players)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, GAME.default_action(state, seat))
        assert state.hour == D.HOURS


def test_the_default_cube_goes_on_a_matching_space() -> None:
    from tests.games.maple.test_friends import grove_walk

    state = started(3, fests="maypole,spring,craft")
    grove_walk(state, 0, "f27", "F", goods={"a": 1, "b": 1}, favors=["tr01"])
    play(state, 0, "craft tr01")
    assert GAME.format(GAME.default_action(state, 0)) == "cube spring 1"  # not maypole's Music space 1


def test_undoing_a_path_gives_back_the_token_the_curiosity_and_the_patch_cube() -> None:
    state = started(3)
    turn(state, 0, hand=["f05"], pos="T", map_tokens=1, curios={}, patches=["p01"])
    play(state, 0, "friend f05 F")
    before = GAME.to_json(state)
    play(state, 0, "path 12 tok", "path 24 free", "undo", "undo")  # 12 is a spot; Trailblazer's free path
    assert GAME.to_json(state)["seats"] == before["seats"] and GAME.to_json(state)["ctx"] == before["ctx"]
    assert GAME.to_json(state)["supply"] == before["supply"]


def test_turn_number_grows_with_each_turn_never_with_a_step() -> None:
    state = GAME.setup(2, {}, 3)
    numbers = [GAME.turn_number(state)]
    seats = []
    while not GAME.is_over(state) and len(numbers) < 60:
        seat = GAME.to_act(state)[0]
        seats.append(seat)
        GAME.apply(state, seat, GAME.default_action(state, seat))
        numbers.append(GAME.turn_number(state))
    assert numbers[0] == 0 and numbers == sorted(numbers)
    assert numbers[1] == 1 and numbers[2] == 3  # two setup choices, then the first turn starts
    turn(state, GAME.to_act(state)[0], hand=["f07"], pos="V")
    before = GAME.turn_number(state)
    play(state, GAME.to_act(state)[0], "friend f07 F", "path 4")
    assert GAME.turn_number(state) == before


@pytest.mark.parametrize("text", SAMPLES)
def test_every_action_has_a_label_in_both_languages(text: str) -> None:
    action = GAME.parse(text)
    assert GAME.describe(action, "en") and GAME.describe(action, "ru")


def test_labels_name_the_cards() -> None:
    assert GAME.describe(GAME.parse("friend f05 F")).startswith("Fox · F · 3 VP")
    assert GAME.describe(GAME.parse("path 16 tok")) == "Path 16 (W), 1 map token"
    assert GAME.describe(GAME.parse("cube spring 3")) == "Spring Feast 3 (Treat)"
    assert GAME.describe(GAME.parse("stop"), "ru") == "Остановиться"


def _fields(entry: str | dict[str, str]) -> set[str]:
    """The placeholders of a catalog text, or of every form of a plural entry (``{"plural": ..., "one": ...}``)."""
    forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "plural"]
    return {f for text in forms for _, f, _, _ in string.Formatter().parse(text) if f}
