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


@pytest.mark.parametrize(("page", "shown"), [(0, range(0, 25)), (1, range(25, 50)), (2, range(50, 60)), (9, range(50, 60))])
def test_more_choices_are_a_select_paged_by_twenty_five(page: int, shown: range) -> None:
    view = step_view(step(60), ("a",), 3, page, "en")
    (select,) = [i for i in view.children if isinstance(i, discord.ui.Select)]
    assert [o.value for o in select.options] == [f"c{n}" for n in shown]
    assert re.fullmatch(SELECT_TEMPLATE, str(select.custom_id))
    labels = {b.label: b for b in view.children if isinstance(b, discord.ui.Button)}
    assert set(labels) == {"Previous", "More", "Undo"}
    assert labels["Previous"].disabled == (page == 0) and labels["More"].disabled == (page >= 2)
    assert len(set(ids(view))) == len(ids(view)) and all(len(i) <= 100 for i in ids(view))
    assert "Page" in step_text(step(60), page, "en")


def test_chosen_keys_round_trip_and_anything_else_is_stale() -> None:
    assert decode(encode(("1", "ok"))) == ("1", "ok") and decode("") == ()
    for forged in ("A", "x..y", "a.", "a b", "é"):
        with pytest.raises(Stale):
            decode(forged)
