"""The engine contract: notation, JSON, views, default actions, elimination, random play, catalogs."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.ai import play_out
from games.core import IllegalAction
from games.deole import GAME
from tests.games.deole.helpers import give, prepared

SAMPLES = [
    "die blue 5", "anchor red 1", "take green 6", "track crew", "track yellow", "mode ascending", "mode step",
    "rudder +1", "rudder -1", "place", "value 4", "port 3", "move N", "move W", "flip 4", "castaway red",
    "bonus C", "colour yellow", "disaster crew", "help",
]


def test_registered() -> None:
    assert registry.get("deole") is GAME


@pytest.mark.parametrize("text", SAMPLES)
def test_notation_round_trip(text: str) -> None:
    assert GAME.format(GAME.parse(text)) == text


def test_notation_is_forgiving_on_case_and_spaces() -> None:
    assert GAME.parse("  Die  BLUE 5 ") == ("die", "blue", 5)
    assert GAME.parse("move n") == ("move", "N") and GAME.parse("bonus c") == ("bonus", "C")
    assert GAME.parse("color red") == ("colour", "red")
    with pytest.raises(IllegalAction) as err:
        GAME.parse("x" * 5000)  # a forged command: the refusal quotes only its start
    assert err.value.params["text"] == "x" * 59 + "…"
    for bad in ("die blue 7", "track purple", "rudder +2", "move NE", "", "bonus G"):
        with pytest.raises(IllegalAction) as err:
            GAME.parse(bad)
        assert err.value.code == "notation"


def test_wrong_step_and_wrong_seat_change_nothing() -> None:
    state = prepared(2)
    give(state, ("blue", 3), ("red", 5), ("green", 2))
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, ("move", "N"))
    assert err.value.code == "wrong_step"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, ("die", "blue", 3))
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, ("die", "yellow", 3))
    assert err.value.code == "not_allowed"
    assert GAME.to_json(state) == before


def test_view_is_public_and_json() -> None:
    state = GAME.setup(3, {}, 2)
    view = GAME.view(state, None)
    assert json.loads(json.dumps(view)) == view
    assert view == GAME.view(state, 0)  # every sheet is public
    assert "bag" not in view and view["bag_count"] == len(state.bag)
    assert set(view["scores"]["0"]) == {"wind", "crew", "eolia", "gauge", "route", "rudders", "spare_rudders"}


def test_eliminate_skips_the_seat_and_ends_with_one_left() -> None:
    state = GAME.setup(3, {}, 5)
    actor = GAME.to_act(state)[0]
    GAME.eliminate(state, actor)
    assert actor not in GAME.to_act(state)
    other = GAME.to_act(state)[0]
    GAME.eliminate(state, other)
    assert GAME.is_over(state)
    ranking = GAME.result(state).ranking
    assert [p.eliminated for p in ranking] == [False, True, True]


def test_play_out_three_players_and_solo() -> None:
    result = play_out(GAME, GAME.setup(3, {}, 1))
    assert len(result.ranking) == 3
    solo = play_out(GAME, GAME.setup(1, {}, 1))
    assert solo.extra["outcome"] in {"won", "not_home", "crash", "shipwreck"}


def test_catalogs_cover_every_code() -> None:
    folder = Path(__file__).resolve().parents[3] / "games" / "deole" / "locales"
    en = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    ru = json.loads((folder / "ru.json").read_text(encoding="utf-8"))
    assert set(en) == set(ru)
    source = (Path(GAME.__module__.replace(".", "/") + ".py"))
    text = (Path(__file__).resolve().parents[3] / source).read_text(encoding="utf-8")
    import re

    event_codes = set(re.findall(r'Event\("([a-z_]+)"', text)) - {"solo_"}
    event_codes |= {f"solo_{o}" for o in ("won", "not_home", "crash", "shipwreck", "abandoned")}
    for code in event_codes:
        assert f"event.{code}" in en
    for code in set(re.findall(r'(?:IllegalAction|InvalidOptions)\("([a-z_]+)"', text)) - {
        "notation", "not_your_turn", "game_over",
    }:
        assert f"error.{code}" in en
    # Placeholders are named and identical in both languages.
    for key, value in en.items():
        assert _fields(value) == _fields(ru[key]), key


def _random_game(players: int, seed: int, picks: list[int], check_illegal: bool = False) -> None:
    state = GAME.setup(players, {"modes": "tempest" if seed % 3 == 0 else "first"}, seed)
    index = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        assert actions and GAME.default_action(state, seat) in actions
        if check_illegal and index % 7 == 0:
            snapshot = GAME.to_json(state)
            for bogus in (("move", "S"), ("bonus", "A"), ("die", "red", 6), ("place",)):
                if bogus not in actions:
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, bogus)
            assert GAME.to_json(state) == snapshot
        action = actions[picks[index % len(picks)] % len(actions)]
        assert GAME.parse(GAME.format(action)) == action
        GAME.apply(state, seat, action)
        index += 1
    result = GAME.result(state)
    for player in result.ranking:
        assert sum(player.breakdown.values()) == player.score


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 50), min_size=1))
def test_random_legal_games_never_crash(players: int, seed: int, picks: list[int]) -> None:
    _random_game(players, seed, picks, check_illegal=True)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_json_round_trip_mid_game(players: int, seed: int, steps: int) -> None:
    state = GAME.setup(players, {}, seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    data = GAME.to_json(state)
    copy = GAME.from_json(json.loads(json.dumps(data)))
    assert GAME.to_json(copy) == data
    # The copy continues exactly like the original (the generator is part of the state).
    for _ in range(30):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        action = GAME.default_action(state, seat)
        assert GAME.apply(state, seat, action) == GAME.apply(copy, seat, action)
    assert GAME.to_json(copy) == GAME.to_json(state)


def test_the_opening_is_announced_and_survives_json() -> None:
    state = GAME.setup(2, {}, 1)
    events = GAME.initial_events(state)
    # castaways placed by the yellow and red dice, then the first roll of players + 1 = 3 dice
    assert [e.code for e in events] == ["castaways_placed", "turn_start"]
    assert events[1].params["round"] == 1 and len(events[1].params["dice"].split()) == 2 * 3
    assert GAME.initial_events(GAME.from_json(GAME.to_json(state))) == events
    older = GAME.to_json(state)
    del older["opening"]  # a snapshot stored before the opening was kept
    assert GAME.initial_events(GAME.from_json(older)) == []


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_rules_card_tells_the_solo_disaster_and_fits_an_embed_field(locale: str) -> None:
    folder = Path(__file__).resolve().parents[3] / "games" / "deole" / "locales"
    catalog = json.loads((folder / f"{locale}.json").read_text(encoding="utf-8"))
    summary = catalog["rules.summary"]
    assert len(summary) <= 1024  # one embed field of the /game rules card
    words = {"en": ("Solo", "Disaster", "anchor", "storm", "shipwreck"),
             "ru": ("Соло", "Бедствие", "якор", "бур", "кораблекрушение")}[locale]
    assert all(word in summary for word in words)


def _fields(entry: str | dict[str, str]) -> set[str]:
    """The placeholders of a catalog text, or of every form of a plural entry (``{"plural": ..., "one": ...}``)."""
    forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "plural"]
    return {f for text in forms for _, f, _, _ in string.Formatter().parse(text) if f}
