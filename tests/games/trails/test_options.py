"""Options are checked completely when a table is opened (``parse_options``), so a table whose options
``setup`` would refuse is never created; refusals echo at most 100 characters of what was typed."""

from __future__ import annotations

import pytest

from games.core import InvalidOptions
from games.trails import GAME

ECHO = 100


@pytest.mark.parametrize(("options", "code", "params"), [
    ({"deck": "ZZZ"}, "deck_unknown_tile", {"tile": "ZZZ"}),
    ({"deck": "BA-U,BA-Q7"}, "deck_unknown_tile", {"tile": "BA-Q7"}),
    ({"deck": "BA-C,BA-C"}, "deck_too_many", {"tile": "BA-C", "available": 1}),
    ({"deck": "BA-D,BA-D,BA-D,BA-D"}, "deck_too_many", {"tile": "BA-D", "available": 3}),
    ({"deck": "RI-D"}, "deck_needs_expansion", {"tile": "RI-D", "expansion": "river"}),
    ({"deck": "BA-U,ic-01"}, "deck_needs_expansion", {"tile": "IC-01", "expansion": "inns"}),
    ({"deck": "RI-A,RI-L", "expansions": "river"}, "deck_start_tile", {"tile": "RI-A"}),
    ({"deck": "RI-D,BA-E,RI-D", "expansions": "river"}, "deck_river_order", {}),
    ({"deck": "RI-L,RI-D", "expansions": "river"}, "deck_river_order", {}),
])
def test_every_deck_setup_would_refuse_is_refused_when_the_options_are_parsed(options, code, params):
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options(options)
    assert err.value.code == code and err.value.params == params
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(2, options, 0)
    assert err.value.code == code


def test_a_very_long_deck_is_refused_with_a_short_echo():
    deck = ("BA-U," * 1200)[:6000]
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options({"deck": deck})
    assert err.value.code == "deck_too_long"
    assert err.value.params["length"] == 6000 and err.value.params["maximum"] < 1000
    assert len(err.value.params["deck"]) <= ECHO and err.value.params["deck"].startswith("BA-U,BA-U")
    one_word = "X" * 800  # within the length limit, but no tile
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options({"deck": one_word})
    assert err.value.code == "deck_unknown_tile" and len(err.value.params["tile"]) <= ECHO


def test_the_shared_option_checks_echo_little_too():
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options({"expansions": "r" * 6000})
    assert err.value.code == "option_choice" and len(err.value.params["value"]) <= ECHO
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options({"o" * 6000: "1"})
    assert err.value.code == "option_unknown" and len(err.value.params["option"]) <= ECHO
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options({"fields": "maybe" * 1000})
    assert err.value.code == "option_bool" and len(err.value.params["value"]) <= ECHO


def test_the_longest_real_deck_is_accepted_and_comes_back_normalised():
    full = GAME.setup(2, {"expansions": "river,inns,traders"}, 1)
    pile = [full.tile, *full.deck, *full.set_aside]
    typed = ", ".join(tile.lower() for tile in pile)  # every tile of every set, spaced, lower case
    parsed = GAME.parse_options({"expansions": "river,inns,traders", "deck": typed})
    assert parsed["deck"] == ",".join(pile)
    # What the bot stores (each option formatted) is parsed again at start, to the same options.
    stored = {spec.name: spec.format(parsed[spec.name]) for spec in GAME.option_specs}
    assert GAME.parse_options(stored) == parsed
    assert GAME.setup(2, stored, 1).options == parsed
    assert GAME.parse_options({"deck": " , ,"})["deck"] == ""  # names no tile: a shuffled pile
