"""The generic panel's components (cogs/panel.py) for any step: buttons up to 20, a select paged by 25
past that, Undo inside the turn, custom ids that are unique, short, and read back by the dynamic items."""

from __future__ import annotations

import re

import discord
import pytest

from cogs.panel import BUTTON_TEMPLATE, SELECT_TEMPLATE, Stale, decode, encode, step_text, step_view
from presentation.core import Choice, Step


def step(count: int, can_undo: bool = True) -> Step:
    return Step("Pick one", tuple(Choice(f"c{n}", f"Choice {n}", (f"play {n}",)) for n in range(count)), can_undo)


def ids(view: discord.ui.View) -> list[str]:
    return [str(item.custom_id) for item in view.children if isinstance(item, (discord.ui.Button, discord.ui.Select))]


def test_up_to_twenty_choices_are_buttons_in_order_with_undo_on_the_last_row() -> None:
    view = step_view(step(20), ("a", "b"), 7, 0, "en")
    buttons = [i for i in view.children if isinstance(i, discord.ui.Button)]
    assert [b.label for b in buttons[:20]] == [f"Choice {n}" for n in range(20)]
    assert buttons[3].custom_id == "pbc:panel:do:7:0:a.b.c3"
    assert buttons[-1].label == "Undo" and buttons[-1].custom_id == "pbc:panel:undo:7:0:a" and buttons[-1].row == 4
    assert "Undo" not in [b.label for b in step_view(step(3), (), 7, 0, "en").children
                          if isinstance(b, discord.ui.Button)]  # nothing chosen: nothing to undo
    assert all(re.fullmatch(BUTTON_TEMPLATE, i) for i in ids(view))


def selects(view: discord.ui.View) -> list[discord.ui.Select]:
    return [i for i in view.children if isinstance(i, discord.ui.Select)]


def test_more_choices_are_select_menus_of_twenty_five_four_to_a_page() -> None:
    view = step_view(step(60), ("a",), 3, 0, "en")  # 60 choices: three menus, one page (no paging click)
    assert [[o.value for o in s.options] for s in selects(view)] == [
        [f"c{n}" for n in range(0, 25)], [f"c{n}" for n in range(25, 50)], [f"c{n}" for n in range(50, 60)]]
    assert all(re.fullmatch(SELECT_TEMPLATE, str(s.custom_id)) for s in selects(view))
    assert {b.label for b in view.children if isinstance(b, discord.ui.Button)} == {"Undo"}
    assert "Page" not in step_text(step(60), 0, "en")


@pytest.mark.parametrize(("page", "first", "last"), [(0, 0, 100), (1, 100, 130), (9, 100, 130)])
def test_past_four_menus_the_choices_are_paged(page: int, first: int, last: int) -> None:
    view = step_view(step(130), ("a",), 3, page, "en")
    assert [o.value for s in selects(view) for o in s.options] == [f"c{n}" for n in range(first, last)]
    labels = {b.label: b for b in view.children if isinstance(b, discord.ui.Button)}
    assert set(labels) == {"Previous", "More", "Undo"}
    assert labels["Previous"].disabled == (page == 0) and labels["More"].disabled == (page >= 1)
    assert len(set(ids(view))) == len(ids(view)) and all(len(i) <= 100 for i in ids(view))
    assert "Page" in step_text(step(130), page, "en")


def test_small_groups_are_buttons_large_ones_menus_with_their_own_text_and_pinned_choices_last() -> None:
    takes = tuple(Choice(f"t{n}", f"Take {n}", group="take") for n in range(3))
    places = tuple(Choice(f"p{n}", f"Place {n}", group="place") for n in range(30))
    end = Choice("end", "End turn", ("end",), "primary", pinned=True)
    view = step_view(Step("Go", (*takes, *places, end), placeholders=(("place", "Where to?"),)), (), 5, 0, "en")
    buttons = [b for b in view.children if isinstance(b, discord.ui.Button)]
    assert [(b.label, b.row) for b in buttons] == [("Take 0", 0), ("Take 1", 0), ("Take 2", 0), ("End turn", 4)]
    assert [(s.placeholder, s.row, len(s.options)) for s in selects(view)] == [("Where to?", 1, 25), ("Where to?", 2, 5)]
    assert buttons[-1].style == discord.ButtonStyle.primary and buttons[-1].custom_id == "pbc:panel:do:5:0:end"


def test_chosen_keys_round_trip_and_anything_else_is_stale() -> None:
    assert decode(encode(("1", "ok"))) == ("1", "ok") and decode("") == ()
    for forged in ("A", "x..y", "a.", "a b", "é"):
        with pytest.raises(Stale):
            decode(forged)
