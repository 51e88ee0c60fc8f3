"""The public questions about a turn (``games.trails.turn``, ``legal_spots``, ``figure_options``,
``feature_sides``): what the Discord panel and the /trails commands ask instead of working rules out."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.trails import GAME
from games.trails.actions import CONFIRM, UNDO, figure, place
from games.trails.engine import figure_options, legal_spots
from games.trails.tiles import feature_sides
from games.trails.turn import (
    figure_moves,
    find_spot,
    parse_figure_choice,
    place_moves,
    spot_label,
    spot_labels,
    turn_moves,
)

from .helpers import new_game, turn


def test_spot_labels_read_north_to_south_then_west_to_east():
    assert [spot_label(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]
    assert spot_labels([[1, 0], (0, -1), (-1, 0), [0, 1], (1, 0)]) == {
        "A": (0, -1), "B": (-1, 0), "C": (1, 0), "D": (0, 1)}
    assert spot_labels([]) == {}


def test_legal_spots_are_the_views_positions_in_label_order_and_a_pending_tile_changes_nothing():
    state = new_game("BA-U,BA-U")
    spots = legal_spots(state)
    view = GAME.view(state, None)
    assert {f"{x},{y}": list(rots) for (x, y), rots in spots.items()} == view["turn"]["legal_rotations"]
    assert list(spot_labels(spots).values()) == list(spots)  # already in reading order
    assert spots[(1, 0)] == (0, 2)  # a straight trail continues the start's trail either way round
    GAME.apply(state, GAME.to_act(state)[0], place(1, 0, 0))
    assert legal_spots(state) == spots


def test_figure_options_are_the_figures_the_engine_offers_after_that_placement():
    state = new_game("BA-U,BA-U")
    b = state.order[1]
    turn(state, "place 1,0 r0", "figure road:0")  # A on the start trail
    before = GAME.to_json(state)
    options = figure_options(state, -1, 0, 0)
    assert set(options) == {figure("field:0"), figure("field:1")}  # the trail is A's already
    assert GAME.to_json(state) == before  # asking changes nothing
    GAME.apply(state, b, place(-1, 0, 0))
    assert [f for f in GAME.legal_actions(state, b) if f not in (CONFIRM, UNDO)] == options
    # Asked about another placement while one is pending: worked out as if that one were laid instead.
    assert set(figure_options(state, 1, 1, 0)) >= {figure("field:0")}
    with pytest.raises(IllegalAction) as err:
        figure_options(state, 5, 5, 0)
    assert err.value.code == "illegal_placement"
    with pytest.raises(IllegalAction):
        figure_options(state, -1, 0, 1)  # a rotation that does not fit there


def test_figure_options_include_big_builder_and_keeper_where_allowed():
    state = new_game("BA-U,BA-U,BA-U", expansions="inns,traders")
    a = state.order[0]
    turn(state, "place 1,0 r0", "figure road:0")
    turn(state, "place -1,0 r0")
    assert GAME.to_act(state) == [a]
    options = figure_options(state, 2, 0, 0)
    assert figure("road:0", "builder") in options and figure("road:0", "normal") not in options
    assert figure("field:0", "big") in options


@pytest.mark.parametrize(("text", "spot"), [
    ("A", (0, -1)), ("b", (-1, 0)), (" 2,-1 ", (2, -1)), ("2, -1", (2, -1)), ("(2, -1)", (2, -1)), ("2 -1", (2, -1)),
])
def test_find_spot_reads_labels_and_coordinates(text, spot):
    assert find_spot(text, {"A": (0, -1), "B": (-1, 0)}) == spot


@pytest.mark.parametrize("text", ["Q", "", "1e400,0", "inf,0", "1" * 4400 + ",0", "x" * 6000, "1,2,3", "١,0"])
def test_find_spot_refuses_anything_else_with_a_short_echo(text):
    with pytest.raises(IllegalAction) as err:
        find_spot(text, {"A": (0, -1)})
    assert err.value.code == "bad_position" and len(err.value.params["position"]) <= 100


def test_figure_choices_typed_by_players():
    assert parse_figure_choice(" None ") is None
    assert parse_figure_choice("city:0") == figure("city:0")
    assert parse_figure_choice("figure big road:1") == figure("road:1", "big")
    assert parse_figure_choice("keeper field:2") == figure("field:2", "keeper")
    for text in ("tower:0", "figure", "place 1,0 r0", "city:" + "9" * 5000):
        with pytest.raises(IllegalAction) as err:
            parse_figure_choice(text)
        assert err.value.code == "notation" and len(err.value.params["text"]) <= 100


def test_moves_from_every_engine_step():
    big = figure("road:0", "big")
    state = new_game("BA-U,BA-U", expansions="inns")
    a = state.order[0]
    # The place step: lay, (figure), confirm.
    assert turn_moves(state, 1, 0, 2, None) == [place(1, 0, 2), CONFIRM]
    assert turn_moves(state, 1, 0, 2, big) == [place(1, 0, 2), big, CONFIRM]
    assert place_moves(state, 1, 0, 2) == [place(1, 0, 2)]
    assert figure_moves(state, big) == [big] and figure_moves(state, None) == []
    # A pending placement (typed with /trails place): kept when it is the chosen one, else taken back.
    GAME.apply(state, a, place(1, 0, 2))
    assert turn_moves(state, 1, 0, 2, big) == [big, CONFIRM]
    assert turn_moves(state, -1, 0, 0, None) == [UNDO, place(-1, 0, 0), CONFIRM]
    assert place_moves(state, -1, 0, 0) == [UNDO, place(-1, 0, 0)]
    assert figure_moves(state, big) == [big]
    # A pending figure too.
    GAME.apply(state, a, big)
    assert turn_moves(state, 1, 0, 2, big) == [CONFIRM]
    assert turn_moves(state, 1, 0, 2, None) == [UNDO, CONFIRM]
    assert turn_moves(state, -1, 0, 0, None) == [UNDO, UNDO, place(-1, 0, 0), CONFIRM]
    assert place_moves(state, -1, 0, 0) == [UNDO, UNDO, place(-1, 0, 0)]
    assert figure_moves(state, None) == [UNDO] and figure_moves(state, figure("field:0")) == [UNDO, figure("field:0")]
    # The moves are legal: played one by one they end the turn as chosen.
    for move in turn_moves(state, -1, 0, 0, figure("field:0")):
        GAME.apply(state, a, move)
    assert state.figures[(-1, 0, "field:0")] == (a, "normal") and GAME.to_act(state) != [a]


def test_feature_sides_as_laid():
    # BA-D: fortress north, trail west-east, meadows north of the trail and south.
    assert feature_sides("BA-D", 0, "city:0") == [0]
    assert feature_sides("BA-D", 1, "city:0") == [1]
    assert feature_sides("BA-D", 0, "road:0") == [1, 3]
    assert feature_sides("BA-D", 3, "road:0") == [0, 2]
    assert feature_sides("BA-B", 0, "monastery") == []
    with pytest.raises(ValueError):
        feature_sides("BA-D", 0, "city:7")
