"""Autocomplete of /game new's options string, from each game's option specs."""

from cogs.game import option_suggestions
from games.registry import get

TRAILS = get("trails").option_specs
DEOLE = get("deole").option_specs


def test_names_then_values_default_first():
    assert option_suggestions(TRAILS, "") == [
        "expansions=none", "expansions=river", "expansions=inns", "fields=yes", "fields=no"]  # deck: no hints
    assert option_suggestions(TRAILS, "expansions=r") == ["expansions=river", "expansions=river,inns,traders"]
    assert option_suggestions(DEOLE, "modes=") == [
        "modes=first", "modes=breeze", "modes=trade", "modes=squall", "modes=tempest"]


def test_lists_grow_one_item_at_a_time_and_given_options_are_not_offered_again():
    assert option_suggestions(TRAILS, "expansions=river,") == [
        "expansions=river,inns", "expansions=river,traders"]
    assert option_suggestions(TRAILS, "expansions=river,inns fields=n") == ["expansions=river,inns fields=no"]
    assert option_suggestions(TRAILS, "fields=no ") == [
        "fields=no expansions=none", "fields=no expansions=river", "fields=no expansions=inns"]
    assert option_suggestions(TRAILS, "colour=") == []  # no such option: nothing to offer
