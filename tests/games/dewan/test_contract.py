"""The engine contract: notation, JSON, views, default actions, elimination, catalogs, random games."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import play_out
from games.core import IllegalAction, InvalidOptions
from games.dewan import GAME
from games.dewan import data as D
from tests.games.dewan.helpers import all_cards, all_stories, fixture, give, play

SAMPLES = ["take 3", "take 5", "take1 6", "camp C6", "camp H4", "pay c16", "give c17 2", "give c01 4",
           "story t07", "story deck", "tuck c55", "pass"]
ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("text", SAMPLES)
def test_notation_round_trip(text: str) -> None:
    assert GAME.format(GAME.parse(text)) == text


def test_notation_is_forgiving_on_case_and_spaces() -> None:
    assert GAME.parse("  Camp  c6 ") == ("camp", "C6")
    assert GAME.parse("GIVE C17 2") == ("give", "c17", 1)
    assert GAME.parse("Story DECK") == ("story", "deck")
    for bad in ("take 6", "take1 7", "camp I1", "camp C7", "pay c56", "give c17 5", "story t25", "tuck",
                "", "camp C6 d:c01", "pass 1"):
        with pytest.raises(IllegalAction) as err:
            GAME.parse(bad)
        assert err.value.code == "notation"


def test_options_and_player_counts() -> None:
    with pytest.raises(InvalidOptions):
        GAME.setup(1, {}, 1)
    with pytest.raises(InvalidOptions):
        GAME.setup(5, {}, 1)
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(2, {"tiles": "S1,S2,N1"}, 1)
    assert err.value.code == "tiles_count"
    for bad in ("N1,S2,S1,N2", "S1:6,S2,N1,N2", "S1,S1,N1,N2"):
        with pytest.raises(InvalidOptions) as err:
            GAME.setup(2, {"tiles": bad}, 1)
        assert err.value.code == "tiles_bad"
    state = GAME.setup(2, {"tiles": "s3:2, s4, n6:5, n1"}, 1)
    assert state.layout == [["S3", 2], ["S4", 0], ["N6", 5], ["N1", 0]]


def test_setup_and_first_story_picks_in_reverse_order() -> None:
    # Each player: 2 cards, 9 camps (1 on the start hex); 6 cards in the row, 5 story tiles on display; then,
    # from the seat before the Dewan holder backwards, each takes a first story tile.
    state = GAME.setup(3, {}, 7)
    holder = state.dewan
    assert [len(p["hand"]) for p in state.seats] == [2, 2, 2]
    assert len([c for c in state.row if c]) == 6 and len(state.story_display) == 5
    assert sorted(state.camps.values()) == [0, 1, 2]
    order = []
    while state.phase == "first_story":
        seat = GAME.to_act(state)[0]
        order.append(seat)
        events = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [(holder - 1) % 3, (holder - 2) % 3, holder]
    assert events[-1].code == "round_start" and GAME.to_act(state) == [holder]
    assert all(len(p["stories"]) == 1 for p in state.seats) and len(state.story_display) == 5
    assert [e.code for e in GAME.initial_events(state)] == ["dewan"]


def test_wrong_step_and_wrong_seat_change_nothing() -> None:
    state = fixture()
    give(state, 0, "c18", "c21", "c16")
    before = GAME.to_json(state)
    for seat, action, code in ((1, ("take", 1), "not_your_turn"), (0, ("tuck", "c16"), "wrong_step"),
                               (0, ("take", 6), "no_pair"), (0, ("camp", "A3"), "no_route"),
                               (0, ("pass",), "cannot_pass"), (0, ("pay", "c16"), "wrong_step"),
                               (0, "take 1", "not_allowed")):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, seat, action)
        assert err.value.code == code, action
        assert GAME.to_json(state) == before
    play(state, 0, "camp A1")
    assert state.phase == "pay"
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "pay c55")
    assert err.value.code == "not_in_hand"
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "give c16 2")
    assert err.value.code == "card_not_usable"


def test_views_hide_hands_and_the_deck() -> None:
    state = GAME.setup(3, {}, 3)
    spectator = GAME.view(state, None)
    assert json.loads(json.dumps(spectator)) == spectator
    assert "hand" not in spectator and "deck" not in spectator and spectator["deck_count"] == len(state.deck)
    text = json.dumps(spectator)
    for player in state.seats:
        assert all(f'"{card}"' not in text for card in player["hand"])
    mine = GAME.view(state, 1)
    assert mine["hand"] == sorted(state.seats[1]["hand"]) and mine["seat"] == 1
    assert all(f'"{card}"' not in json.dumps(mine) for card in state.seats[0]["hand"])
    assert [s["hand_count"] for s in spectator["seats"]] == [2, 2, 2]


def test_eliminate_skips_the_seat_and_ends_with_one_left() -> None:
    state = GAME.setup(3, {}, 5)
    actor = GAME.to_act(state)[0]
    GAME.eliminate(state, actor)
    assert actor not in GAME.to_act(state) and GAME.to_act(state)
    while state.phase == "first_story":
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.default_action(state, seat))
    other = GAME.to_act(state)[0]
    GAME.eliminate(state, other)
    assert GAME.is_over(state)
    ranking = GAME.result(state).ranking
    assert [p.eliminated for p in ranking] == [False, True, True]


def test_catalogs_cover_every_code() -> None:
    folder = ROOT / "games" / "dewan" / "locales"
    en = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    ru = json.loads((folder / "ru.json").read_text(encoding="utf-8"))
    assert set(en) == set(ru)
    text = (ROOT / "games" / "dewan" / "engine.py").read_text(encoding="utf-8")
    for code in set(re.findall(r'Event\("([a-z_]+)"', text)):
        assert f"event.{code}" in en, code
    for code in set(re.findall(r'(?:IllegalAction|InvalidOptions)\(\s*"([a-z_]+)"', text)) - {
        "notation", "not_your_turn", "game_over",
    }:
        assert f"error.{code}" in en, code
    for key in ("name", "rules.summary", "rules.play", "option.tiles"):
        assert key in en
    for key, value in en.items():  # placeholders are named and identical in both languages
        assert _fields(value) == _fields(ru[key]), key


def _check_position(state) -> None:
    cards = all_cards(state)
    assert len(cards) == len(set(cards)) == 55
    if not state.over:
        tiles = all_stories(state)
        assert len(tiles) == len(set(tiles)) == 24
    spectator = json.dumps(GAME.view(state, None))
    for player in state.seats:
        assert all(f'"{card}"' not in spectator for card in player["hand"])


def _random_game(players: int, seed: int, picks: list[int], check_illegal: bool = False):
    state = GAME.setup(players, {}, seed)
    index = 0
    snapshot_at = 30 + seed % 20
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        assert actions and GAME.default_action(state, seat) in actions
        if index % 9 == 0:
            _check_position(state)
        if check_illegal and index % 7 == 0:
            before = GAME.to_json(state)
            for bogus in (("take", 1), ("camp", "A0"), ("pay", "c01"), ("story", "deck"), ("tuck", "c02"),
                          ("pass",)):
                if bogus not in actions:
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, bogus)
            assert GAME.to_json(state) == before
        if index == snapshot_at:  # JSON round trip mid-game: the copy goes on exactly like the original
            copy = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
            assert GAME.to_json(copy) == GAME.to_json(state)
            for _ in range(12):
                if GAME.is_over(state):
                    break
                actor = GAME.to_act(state)[0]
                action = GAME.default_action(state, actor)
                assert GAME.apply(state, actor, action) == GAME.apply(copy, actor, action)
            assert GAME.to_json(copy) == GAME.to_json(state)
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
        action = actions[picks[index % len(picks)] % len(actions)]
        assert GAME.parse(GAME.format(action)) == action
        GAME.apply(state, seat, action)
        index += 1
    _check_position(state)
    result = GAME.result(state)
    for player in result.ranking:
        assert sum(player.breakdown.values()) == player.score
        assert set(player.breakdown) == set(D.BREAKDOWN)
    assert any(p["placed"] == D.SLOTS for p in state.seats) or state.round_passes
    return state


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 60), min_size=1, max_size=12))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_legal_games_to_the_end(players: int, seed: int, picks: list[int]) -> None:
    _random_game(players, seed, picks, check_illegal=True)


def test_same_seed_same_game() -> None:
    first = _random_game(3, 11, [3, 1, 4, 1, 5])
    second = _random_game(3, 11, [3, 1, 4, 1, 5])
    assert GAME.to_json(first) == GAME.to_json(second)


def test_play_out_four_players() -> None:
    result = play_out(GAME, GAME.setup(4, {}, 2), 2)
    assert len(result.ranking) == 4 and result.turns > 0


def test_describe_names_the_card() -> None:
    assert GAME.describe(("pay", "c16")) == "pay c16 (forest · fire)"
    assert GAME.describe(("give", "c35", 1), "ru") == "give c35 2 (лес/вода · огонь)"
    assert GAME.describe(("tuck", "c47")) == "tuck c47 (mountain/desert)"
    assert GAME.describe(("take", 3)) == "take 3"


def test_turn_number_grows_per_turn_not_per_step() -> None:
    # The clock and the board post count turns: each first story pick is a turn; a camp, its payment
    # steps and its reward are one.
    state = GAME.setup(2, {}, 4)
    numbers = []
    while state.phase == "first_story":
        numbers.append(GAME.turn_number(state))
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert numbers == [0, 1] and GAME.turn_number(state) == 2
    state = fixture()
    give(state, 0, "c06", "c07", "c16")
    start = GAME.turn_number(state)
    play(state, 0, "camp A6")
    while GAME.to_act(state) == [0]:
        assert GAME.turn_number(state) == start
        play(state, 0, GAME.format(GAME.legal_actions(state, 0)[0]))
    assert GAME.turn_number(state) == start + 1


def test_malformed_notation_is_echoed_short() -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse("take " + "9" * 5000)
    assert len(err.value.params["text"]) <= 100


def _fields(entry: str | dict[str, str]) -> set[str]:
    """The placeholders of a catalog text, or of every form of a plural entry (``{"plural": ..., "one": ...}``)."""
    forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "plural"]
    return {f for text in forms for _, f, _, _ in string.Formatter().parse(text) if f}
