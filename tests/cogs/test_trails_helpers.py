"""The pure helpers of presentation/trails.py: figures in custom ids, features and events in sentences, the
refusals' words (the panel's paging is tested on any game in tests/cogs/test_generic_panel.py)."""

from __future__ import annotations

from cogs.panel import GenericPanel
from games.core import Event
from games.trails import GAME
from presentation.trails import (
    event_sentence,
    event_sentences,
    feature_text,
    plural,
)

NAMES = ["Alice", "Bob"]


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


def test_a_wrong_step_is_named_in_words():
    from games.core import IllegalAction

    panel = GenericPanel(None)  # the refusal in the game's words: presentation/trails.py ``reword``
    assert panel.error_text("en", IllegalAction("wrong_step", step="place"), "trails") == \
        "That is not possible now: first lay the tile (/trails place)"
    assert "положите плитку" in panel.error_text("ru", IllegalAction("wrong_step", step="place"), "trails")


