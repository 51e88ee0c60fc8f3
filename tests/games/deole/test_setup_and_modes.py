"""Setup by player count, castaway placement through the annex grid, mode selection, the ten modes."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core import InvalidOptions
from games.deole import GAME
from games.deole import data as D
from games.deole.engine import CASTAWAY, mode_allows, track_values
from tests.games.deole.helpers import give, play, prepared


@pytest.mark.parametrize(("players", "per_colour"), [(1, 4), (2, 5), (3, 6), (4, 7)])
def test_dice_per_colour_and_first_roll(players: int, per_colour: int) -> None:
    state = GAME.setup(players, {}, 3)
    dice = Counter(state.bag) + Counter(c for c, _ in state.pool)
    assert dice == {c: per_colour for c in D.WIND_COLOURS}
    assert len(state.pool) == players + 1  # players + 1 dice; solo: 2 (the chosen die and the Disaster)


def test_seat_colours_face_each_other() -> None:
    assert GAME.setup(2, {}, 1).seat_colours == ["blue", "green"]
    assert GAME.setup(4, {}, 1).seat_colours == ["blue", "yellow", "green", "red"]
    assert GAME.setup(1, {"side": "red"}, 1).seat_colours == ["red"]


def test_first_player_is_drawn_from_the_seed() -> None:
    firsts = {GAME.setup(4, {}, seed).first_player for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    state = GAME.setup(4, {}, 7)
    assert GAME.to_act(state) == [state.first_player]


def test_castaways_follow_the_annex_grid() -> None:
    # 36 cells, 9 symbols, each exactly 4 times; each symbol's 4 map boxes are one per quadrant.
    counts = Counter(cell for row in D.ANNEX_GRID for cell in row)
    assert set(counts.values()) == {4} and len(counts) == 9
    all_boxes = [b for boxes in D.CASTAWAY_BOXES.values() for b in boxes]
    assert len(set(all_boxes)) == 36
    assert not set(all_boxes) & (D.ISLAND | set(D.WRECKS))
    state = GAME.setup(2, {}, 5)
    assert state.castaways == [list(b) for b in D.CASTAWAY_BOXES[state.castaway_symbol]]


def test_castaway_symbol_from_yellow_and_red() -> None:
    events = []
    state = prepared(2)
    GAME._place_castaways(state, events)
    yellow, red = events[0].params["yellow"], events[0].params["red"]
    assert events[0].params["symbol"] == D.CASTAWAY_SYMBOLS[D.ANNEX_GRID[yellow - 1][red - 1]]


def test_mode_options() -> None:
    assert GAME.setup(2, {}, 1).modes == ["even", "odd", "different", "ascending", "descending"]
    assert GAME.setup(2, {"modes": "tempest"}, 1).modes == list(D.MODE_PRESETS["tempest"])
    custom = GAME.setup(3, {"modes": "low, high, step, equal, odd"}, 1)
    assert custom.modes == ["low", "high", "step", "equal", "odd"]
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(2, {"modes": "even,odd,low"}, 1)
    assert err.value.code == "modes_count"
    with pytest.raises(InvalidOptions):
        GAME.setup(2, {"modes": "even,odd,low,high,high"}, 1)
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(2, {"modes": "even,odd,low,high,weird"}, 1)
    assert err.value.code == "modes_unknown"
    # Solo imposes ODD / INCREASING / EQUAL / OSCILLATING / +/-1.
    assert GAME.setup(1, {"modes": "breeze"}, 1).modes == ["odd", "ascending", "equal", "oscillating", "step"]


@pytest.mark.parametrize(
    ("mode", "before", "allowed"),
    [
        ("even", [1, 3], {2, 4, 6}),
        ("odd", [], {1, 3, 5}),
        ("low", [6], {1, 2, 3}),
        ("high", [1], {4, 5, 6}),
        ("different", [2, 5, 3], {1, 4, 6}),
        ("ascending", [], {1, 2, 3, 4, 5, 6}),
        ("ascending", [2, 4], {5, 6}),  # strict
        ("ascending", [6], set()),
        ("descending", [3], {1, 2}),
        ("descending", [1], set()),
        ("equal", [4], {4}),
        ("equal", [], {1, 2, 3, 4, 5, 6}),
        ("oscillating", [3], {1, 2, 4, 5, 6}),  # the second value only has to differ
        ("oscillating", [2, 5], {1, 2, 3, 4}),  # rules' example: 2, 5, castaway -> 4 or less
        ("oscillating", [5, 2], {3, 4, 5, 6}),
        ("oscillating", [2, 5, 1], {2, 3, 4, 5, 6}),
        ("step", [2], {1, 3}),  # rules' example: 2, castaway -> 1 or 3
        ("step", [6], {5}),
        ("step", [], {1, 2, 3, 4, 5, 6}),
    ],
)
def test_placement_modes(mode: str, before: list[int], allowed: set[int]) -> None:
    assert {v for v in range(1, 7) if mode_allows(mode, before, v)} == allowed


def test_castaway_boxes_are_forgotten_by_modes() -> None:
    # Rules' examples: [2, 5, castaway] oscillating needs <= 4; [2, castaway] step needs 1 or 3.
    assert track_values([2, 5, CASTAWAY, None]) == [2, 5]
    assert {v for v in range(1, 7) if mode_allows("oscillating", track_values([2, 5, CASTAWAY]), v)} == {1, 2, 3, 4}
    assert {v for v in range(1, 7) if mode_allows("step", track_values([2, CASTAWAY]), v)} == {1, 3}


def test_castaway_box_skipped_on_the_sheet() -> None:
    # Blue track: 2, castaway; mode step. A blue 3 goes into box 3; a blue 4 fits nowhere on blue (crew only).
    state = prepared(2, modes="tempest")
    sheet = state.sheets[0]
    sheet["boxes"]["blue"][:2] = [2, CASTAWAY]
    sheet["modes"]["blue"] = "step"
    sheet["rudders"]["blue"] = 0
    give(state, ("blue", 3), ("blue", 4), ("green", 1))
    play(state, 0, "die blue 3", "track blue")
    assert sheet["boxes"]["blue"][:3] == [2, CASTAWAY, 3]
    # A blue 4 after [2, castaway, 3] in step mode is fine; a blue 6 fits only on the Crew track.
    assert GAME.fitting_tracks(state, sheet, ["blue", 4], "pool") == ["blue", "crew"]
    assert GAME.fitting_tracks(state, sheet, ["blue", 6], "pool") == ["crew"]


def test_each_mode_used_once_per_sheet() -> None:
    state = prepared(2)
    sheet = state.sheets[0]
    sheet["modes"].update(blue="odd", yellow="even", green="different", red="ascending")
    give(state, ("red", 4), ("yellow", 3), ("green", 2))
    state.sheets[0]["boxes"]["red"][0] = 5  # red ascending from 5: a 4 cannot go there (no red rudder)
    play(state, 0, "die red 4")
    # Only the Crew track is left and only "descending" is still unused: both steps resolve by themselves.
    assert sheet["modes"]["crew"] == "descending"
    assert sheet["boxes"]["crew"][0] == 4


@pytest.mark.parametrize(
    ("mode", "boxes", "allowed"),
    [
        # A castaway (c) is an inert box: every mode looks only at the numbers around it.
        ("even", [CASTAWAY], {2, 4, 6}),
        ("odd", [3, CASTAWAY], {1, 3, 5}),
        ("low", [CASTAWAY, 2, CASTAWAY], {1, 2, 3}),
        ("high", [5, CASTAWAY], {4, 5, 6}),
        ("different", [1, CASTAWAY, 6], {2, 3, 4, 5}),
        ("ascending", [CASTAWAY], {1, 2, 3, 4, 5, 6}),  # a castaway first: the first number is free
        ("ascending", [3, CASTAWAY], {4, 5, 6}),
        ("descending", [4, CASTAWAY, 2, CASTAWAY], {1}),
        ("equal", [5, CASTAWAY], {5}),
        ("oscillating", [2, 5, CASTAWAY], {1, 2, 3, 4}),
        ("oscillating", [4, CASTAWAY, 1], {2, 3, 4, 5, 6}),
        ("step", [2, CASTAWAY], {1, 3}),
        ("step", [CASTAWAY, 1, CASTAWAY], {2}),
    ],
)
def test_every_mode_skips_castaway_boxes(mode: str, boxes: list, allowed: set[int]) -> None:
    assert {v for v in range(1, 7) if mode_allows(mode, track_values(boxes), v)} == allowed
    # The same through the engine: a die of each allowed value fits the track, the others only the Crew track.
    # (One more castaway in front when the next box would print a rudder, which would widen the reach.)
    if len(boxes) in D.RUDDER_BOXES["yellow"]:
        boxes = [CASTAWAY, *boxes]
    state = prepared(2, modes="tempest")
    sheet = state.sheets[0]
    sheet["boxes"]["yellow"][: len(boxes)] = boxes
    sheet["modes"]["yellow"] = mode
    sheet["rudders"]["yellow"] = 0
    for value in range(1, 7):
        assert ("yellow" in GAME.fitting_tracks(state, sheet, ["yellow", value], "pool")) == (value in allowed), value
