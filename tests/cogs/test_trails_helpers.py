"""The pure helpers of cogs/trails.py: panel state in custom ids, paging, the turn's moves, sentences."""

from __future__ import annotations

import pytest

from cogs.trails import (
    TrailsPanel,
)
from games.core import Event
from games.trails import GAME
from games.trails.actions import figure
from games.trails.turn import spot_labels
from presentation.trails import (
    PanelState,
    TurnFacts,
    board_offers,
    decode_figure,
    encode_figure,
    event_sentence,
    event_sentences,
    feature_text,
    opening_panel,
    page_count,
    page_of,
    page_slice,
    panel_offers,
    plural,
)

NAMES = ["Alice", "Bob"]


@pytest.mark.parametrize("chosen", [None, figure("road:1", "big"), figure("monastery"), figure("field:10", "keeper"),
                                    figure("city:0", "builder")])
def test_panel_state_round_trips_through_a_short_custom_id(chosen):
    state = PanelState(1234, 2, -13, 7, 3, chosen)
    encoded = state.encode()
    assert PanelState.decode(encoded) == state
    assert len(f"pbc:trails:rot:{encoded}:3") <= 100 and ":" not in encoded
    assert PanelState.decode(PanelState(0).encode()) == PanelState(0)
    assert decode_figure(encode_figure(chosen)) == chosen


def test_paging_by_25():
    items = list(range(60))
    assert page_count(0) == 1 and page_count(25) == 1 and page_count(26) == 2 and page_count(60) == 3
    assert page_slice(items, 0) == (items[:25], 0)
    assert page_slice(items, 2) == (items[50:], 2)
    assert page_slice(items, 9) == (items[50:], 2)  # clamped
    assert page_slice(items, -1) == (items[:25], 0)
    assert page_of(items, 30) == 1 and page_of(items, 99) == 0


def test_plurals_in_both_languages():
    assert [plural("en", "points", n) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert [plural("ru", "points", n) for n in (1, 2, 5, 11, 21, 22, 112)] == [
        "1 очко", "2 очка", "5 очков", "11 очков", "21 очко", "22 очка", "112 очков"]
    assert plural("ru", "tiles", 4) == "4 плиток" and plural("ru", "pennants", 2) == "2 гербами"


def test_scoring_sentences():
    city = {"seat": 0, "seats": [0], "tiles": 4, "pennants": 2, "cathedral": False, "points": 12}
    assert event_sentence("en", NAMES, "city_scored", city) == "Alice closes a fortress of 4 tiles with 2 crests: 12 points"
    assert event_sentence("ru", NAMES, "city_scored", city) == "Alice закрывает крепость из 4 плиток с 2 гербами: 12 очков"
    shared = city | {"seats": [0, 1], "pennants": 0, "cathedral": True, "points": 12}
    assert event_sentence("en", NAMES, "city_scored", shared) == \
        "Alice closes a fortress of 4 tiles with a sanctuary: 12 points each for Alice, Bob"
    road = {"seat": 1, "seats": [0], "tiles": 3, "inn": True, "points": 6}
    assert event_sentence("en", NAMES, "road_scored", road) == "Bob closes a trail of 3 tiles with an inn: 6 points for Alice"
    assert event_sentence("en", NAMES, "road_scored", road | {"seats": [], "inn": False}) == \
        "Bob closes a trail of 3 tiles: no figure there, no points"
    assert event_sentence("en", NAMES, "road_final", {"seats": [1], "tiles": 1, "inn": False, "points": 1}) == \
        "Unfinished trail of 1 tile: 1 point for Bob"
    assert event_sentence("en", NAMES, "goods_taken", {"seat": 0, "honey": 1, "grain": 0, "flax": 2}) == \
        "Alice takes the goods: honey 1, flax 2"
    assert event_sentence("en", NAMES, "field_scored", {"seat": 0, "cities": 0, "keeper": False, "points": 0}) is None
    meadow = {"seat": 0, "cities": 1, "keeper": True, "points": 4}
    assert event_sentence("en", NAMES, "field_scored", meadow) == \
        "Alice's meadow borders 1 finished fortress (with a keeper): 4 points"
    assert event_sentence("ru", NAMES, "field_scored", meadow | {"cities": 2, "keeper": False, "points": 6}) == \
        "Луг игрока Alice у 2 готовых крепостей: 6 очков"


def test_setup_dice_and_a_confirmed_turn_read_well():
    state = GAME.setup(2, {}, 3)
    lines = event_sentences("en", NAMES, [(0, e) for e in GAME.initial_events(state)])
    assert lines[0].startswith("🎲 ") and " rolls " in lines[0]
    assert lines[-2].startswith("Turn order: ") and lines[-1].endswith(f"turn with tile {state.tile}")
    confirmed = Event("turn_confirmed", {"seat": 1, "tile": "BA-D", "x": 0, "y": 1, "rot": 90,
                                         "kind": "big", "feature": "city:0"})
    placed = Event("tile_placed", {"seat": 1, "tile": "BA-D", "x": 0, "y": 1, "rot": 90})
    assert event_sentences("en", NAMES, [(1, placed), (1, confirmed)]) == [
        "Bob lays tile BA-D at 0,1 turned 90° and puts a big figure on the fortress E"]


def test_features_are_named_by_the_sides_they_touch_as_laid():
    # BA-D: fortress north, trail west-east, meadows north-of-trail and south.
    assert feature_text("en", "BA-D", 0, "city:0") == "fortress N"
    assert feature_text("en", "BA-D", 1, "city:0") == "fortress E"
    assert feature_text("ru", "BA-D", 0, "road:0") == "тропа В–З"
    assert feature_text("en", "BA-D", 0, "monastery") == "abbey"


def _facts() -> TurnFacts:
    labels = {"A": (0, -1), "B": (1, 0)}
    return TurnFacts(0, "BA-D", labels, {(0, -1): [0, 2], (1, 0): [1]}, {}, "place", None, None, 10)


def test_panel_steps_and_undo():
    facts = _facts()
    start = PanelState(5)
    chosen = TrailsPanel.step(facts, start, "pos", None, ["0,-1"])
    assert (chosen.x, chosen.y, chosen.rot) == (0, -1, 0)  # the first legal rotation is preselected
    turned = TrailsPanel.step(facts, chosen, "rot", "2", [])
    assert turned.rot == 2
    assert TrailsPanel.step(facts, chosen, "rot", "1", []) is None  # not legal there
    assert TrailsPanel.step(facts, start, "pos", None, ["5,5"]) is None
    with_figure = TrailsPanel.step(facts, turned, "fig", None, [encode_figure(figure("city:0"))])
    assert with_figure.figure == figure("city:0")
    assert TrailsPanel.step(facts, with_figure, "undo", None, []) == turned  # the figure first
    assert TrailsPanel.step(facts, turned, "undo", None, []) == start  # then the tile
    assert TrailsPanel.step(facts, start, "page", "7", []).page == 0  # clamped to the pages there are


def test_a_wrong_step_is_named_in_words():
    from games.core import IllegalAction

    panel = TrailsPanel(None)
    assert panel.error_text("en", IllegalAction("wrong_step", step="place")) == \
        "That is not possible now: first lay the tile (/trails place)"
    assert "положите плитку" in panel.error_text("ru", IllegalAction("wrong_step", step="place"))
    assert panel.error_text("en", IllegalAction("illegal_figure", feature="road:0", kind="big")) is None


# -- the positions on the board post and in two selects (issue 39: a turn took up to 7 clicks) ---------
def _many(count: int) -> TurnFacts:
    spots = [(x, 0) for x in range(count)]
    labels = spot_labels(spots)
    return TurnFacts(0, "BA-D", labels, {s: [0, 1] for s in spots}, {}, "place", None, None, 10)


def _rows(offers) -> dict[int, list[str]]:
    rows: dict[int, list[str]] = {}
    for offer in offers:
        rows.setdefault(offer.row, []).append(offer.custom_id)
    return rows


@pytest.mark.parametrize("count", [1, 3, 25, 26, 50])
def test_up_to_fifty_positions_are_in_two_selects_without_pages(count):
    facts = _many(count)
    offers = panel_offers(facts, PanelState(7), [])
    selects = [o for o in offers if o.op == "pos"]
    assert [len(o.values) for o in selects] == [min(count, 25), *([count - 25] if count > 25 else [])]
    assert len({o.custom_id for o in offers}) == len(offers)  # custom ids differ on one message
    assert not [o for o in offers if o.op == "page"]
    assert sorted({v for o in selects for v in o.values}) == sorted(f"{x},0" for x in range(count))
    # what the board post offers besides Take turn: the same positions, under it
    board = board_offers(facts.labels, 7)
    assert [o.values for o in board] == [o.values for o in selects] and [o.row for o in board] == [1, 2][:len(board)]
    assert all(len(row) <= 5 for row in _rows(offers).values()) and max(_rows(offers)) <= 4


def test_beyond_fifty_positions_pages_turn_in_pairs():
    facts = _many(120)
    offers = panel_offers(facts, PanelState(7), [])
    assert [o.values[0] for o in offers if o.op == "pos"] == ["0,0", "25,0"]
    next_page = next(o for o in offers if o.op == "page" and not o.disabled and o.arg and o.arg > 0)
    panel = TrailsPanel.step(facts, next_page.state, "page", str(next_page.arg), [])
    assert panel is not None
    offers = panel_offers(facts, panel, [])
    assert [o.values[0] for o in offers if o.op == "pos"] == ["50,0", "75,0"]
    assert all(len(row) <= 5 for row in _rows(offers).values()) and max(_rows(offers)) <= 4
    assert [o.values for o in board_offers(facts.labels, 7)] == [o.values for o in panel_offers(
        facts, PanelState(7), []) if o.op == "pos"]  # the board shows the first 50


def test_a_position_picked_on_the_second_select_or_the_board_opens_on_it():
    facts = _many(40)
    second = [o for o in panel_offers(facts, PanelState(7), []) if o.op == "pos"][1]
    panel = TrailsPanel.step(facts, second.state, "pos", None, ["30,0"])
    assert panel is not None and (panel.spot, panel.rot) == ((30, 0), 0)
    offers = panel_offers(facts, panel, [figure("road:1")])
    assert [o.arg for o in offers if o.op == "rot"] == [0, 1]
    assert [o.values for o in offers if o.op == "fig"] == [("none", "nroad1")]
    assert [o.op for o in offers if not o.disabled and o.row == 4] == ["ok", "undo"]
    # the panel Take turn opens: on the only position when there is one, else on nothing
    assert opening_panel(_many(1), 7) == PanelState(7, 0, 0, 0, 0)
    assert opening_panel(facts, 7) == PanelState(7)
