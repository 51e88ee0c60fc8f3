"""Déole's presentation (presentation/deole.py) as plain data: no discord.py anywhere in this file."""

from __future__ import annotations

import subprocess
import sys

import presentation.deole as deole
from games.core import Event
from games.deole import GAME
from presentation.core import Done, Step, walk
from presentation.deole import flow, narrate, panel_choices
from tests.games.deole.helpers import give, prepared


def test_the_step_offers_the_panels_answers_in_order_keyed_by_index() -> None:
    state = prepared()
    give(state, ("blue", 5), ("red", 2), ("yellow", 3))
    step = flow(state, 0, (), "en")
    answers = panel_choices(GAME, state, 0, "en")
    assert isinstance(step, Step) and not step.can_undo
    assert step.prompt.startswith("Déole · round 1/3, turn 1/5\nDice on the track: blue 5, red 2, yellow 3")
    assert "**Choose a die.**" in step.prompt and step.on_board
    assert [(c.key, c.label, c.notations) for c in step.choices] == [
        (str(i), a.label, a.notations) for i, a in enumerate(answers)]
    assert len(step.choices) > 3  # answers that play several steps at once joined the three dice


def test_a_chosen_answer_is_done_with_its_notations_and_the_engine_accepts_them() -> None:
    state = prepared()
    give(state, ("blue", 5), ("red", 2), ("yellow", 3))
    step = flow(state, 0, (), "ru")
    assert isinstance(step, Step)
    before = GAME.to_json(state)
    done = walk(deole, state, 0, (step.choices[-1].key,), "ru")
    assert isinstance(done, Done) and done.notations == step.choices[-1].notations
    assert GAME.to_json(state) == before  # flow changed nothing
    for notation in done.notations:
        GAME.apply(state, 0, GAME.parse(notation))


def test_narrate_tells_the_events_and_leaves_the_final_score_to_the_embed() -> None:
    events = [(1, Event("die_taken", {"seat": 1, "colour": "blue", "value": 5})),
              (1, Event("final_score", {"seat": 1})), (1, Event("no_such_event", {}))]
    assert narrate(events, ["Ann", "Bob"], "en") == ["Bob takes the blue 5."]


def test_the_module_imports_no_discord() -> None:
    code = "import sys, presentation.deole; print('discord' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() \
        == "False"
