"""Maple Valley's presentation (presentation/maple.py) as plain data: no discord.py anywhere in this file."""

from __future__ import annotations

import subprocess
import sys

import presentation.maple as maple
from games.core import Event, PlayerResult, Result
from games.maple import GAME
from presentation.core import Done, Step, walk
from presentation.maple import choice_label, final_breakdown, flow, narrate, position_choices


def test_the_first_step_offers_the_cards_keyed_by_index_with_the_panels_labels() -> None:
    state = GAME.setup(2, {}, 3)
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    choices = position_choices(GAME, state, seat)
    view = GAME.view(state, None)
    assert isinstance(step, Step) and not step.can_undo and step.choices
    assert step.prompt.startswith("🍁 **Maple Valley**: hour") and "'s turn" not in step.prompt
    assert [(c.key, c.label, c.notations) for c in step.choices] == [
        (str(i), choice_label("en", c, view), c.notations) for i, c in enumerate(choices)]


def test_a_chosen_answer_is_done_and_the_engine_accepts_it() -> None:
    state = GAME.setup(2, {}, 5)
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "ru")
    assert isinstance(step, Step)
    before = GAME.to_json(state)
    done = walk(maple, state, seat, (step.choices[0].key,), "ru")
    assert isinstance(done, Done) and done.notations == step.choices[0].notations
    assert GAME.to_json(state) == before  # flow changed nothing
    for notation in done.notations:
        GAME.apply(state, seat, GAME.parse(notation))
    after = flow(state, GAME.to_act(state)[0], (), "en")
    assert isinstance(after, Step) and after.choices  # the next question: the next flow after the commit
    assert walk(maple, state, seat, ("999",), "en") is None  # a key flow never offered


def test_narrate_joins_a_walk_and_gains_and_keeps_silent_events_out() -> None:
    events = [(0, Event("turn_start", {"seat": 0})),
              (0, Event("walked", {"seat": 0, "path": 3})), (0, Event("walked", {"seat": 0, "path": 11})),
              (0, Event("arrived", {"seat": 0, "location": "T"})),
              (1, Event("gain", {"seat": 1, "item": "a", "count": 2})), (0, Event("final_score", {"seat": 0}))]
    assert narrate(events, ["Ann", "Bob"], "en") == ["Ann walks paths 3, 11 to the Tower.", "Bob gets 2 × acorn."]


def test_the_final_breakdown_names_players_and_categories() -> None:
    result = Result([PlayerResult(1, 1, 12, {"favors": 10, "friends": 2}), PlayerResult(0, 2, 5, {"favors": 5})],
                    turns=30)
    breakdown = final_breakdown(result, ["Ann", "Bob"], "en")
    assert breakdown.description is None and len(breakdown.fields) == 2
    assert "Bob" in breakdown.fields[0][0] and "12" in breakdown.fields[0][0]
    assert breakdown.fields[0][1].count("\n") == 1 and "30" in breakdown.footer


def test_the_module_imports_no_discord() -> None:
    code = "import sys, presentation.maple; print('discord' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() \
        == "False"
