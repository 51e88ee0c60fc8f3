"""Nim's presentation (tests/nim_presentation.py) as plain data: no discord.py anywhere in this file."""

from __future__ import annotations

import subprocess
import sys

from games.core import Event
from presentation.core import Choice, Done, Step, walk
from tests import nim_presentation
from tests.nim import GAME


def test_the_first_step_offers_the_legal_counts_in_order_with_their_notations() -> None:
    state = GAME.setup(2, {"pile": 5}, 1)
    step = nim_presentation.flow(state, 0, (), "en")
    assert isinstance(step, Step) and not step.can_undo
    assert step.prompt == "5 sticks are left. How many do you take?"
    assert [(c.key, c.label, c.notations) for c in step.choices] == [
        ("1", "Take 1 stick", ("take 1",)), ("2", "Take 2 sticks", ("take 2",)), ("3", "Take 3 sticks", ("take 3",))]


def test_a_short_pile_offers_fewer_and_speaks_russian() -> None:
    state = GAME.setup(2, {"pile": 2}, 1)
    step = nim_presentation.flow(state, 0, (), "ru")
    assert isinstance(step, Step)
    assert step.prompt == "Осталось 2 палочки. Сколько берёте?"
    assert [c.label for c in step.choices] == ["Взять 1 палочку", "Взять 2 палочки"]


def test_confirm_then_done_with_undo_on_the_way() -> None:
    state = GAME.setup(2, {"pile": 5}, 1)
    confirm = nim_presentation.flow(state, 0, ("2",), "en")
    assert confirm == Step("Take 2, leaving 3?", (Choice("ok", "Confirm", ("take 2",), "primary"),), can_undo=True)
    done = nim_presentation.flow(state, 0, ("2", "ok"), "en")
    assert done == Done(("take 2",), "You took 2.")
    assert GAME.to_json(state) == GAME.to_json(GAME.setup(2, {"pile": 5}, 1))  # flow changed nothing


def test_walk_refuses_keys_the_flow_never_offered() -> None:
    state = GAME.setup(2, {"pile": 2}, 1)
    assert walk(nim_presentation, state, 0, ("3",), "en") is None  # only 2 sticks left
    assert walk(nim_presentation, state, 0, ("1", "no"), "en") is None
    assert walk(nim_presentation, state, 0, ("1", "ok", "ok"), "en") is None  # past Done
    assert walk(nim_presentation, state, 0, ("1", "ok"), "en") == Done(("take 1",), "You took 1.")


def test_narrate_tells_the_events_with_the_players_names() -> None:
    events = [(0, Event("took", {"seat": 0, "count": 2, "left": 3})), (1, Event("eliminated", {"seat": 1}))]
    assert nim_presentation.narrate(events, ["alice", "bob"], "en") == ["alice took 2; 3 left.", "bob is out."]
    assert nim_presentation.narrate(events[:1], ["alice", "bob"], "ru") == ["alice берёт 2; осталось 3."]


def test_the_presentation_runs_without_discord_py() -> None:
    """In a fresh interpreter where importing discord fails: the flow and the narration still work."""
    code = ("import sys; sys.modules['discord'] = None\n"
            "from tests import nim_presentation as p; from tests.nim import GAME\n"
            "s = GAME.setup(2, {'pile': 3}, 1)\n"
            "print(p.flow(s, 0, ('3', 'ok'), 'en').notations, 'discord' in sys.modules and sys.modules['discord'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == ["('take", "3',)", "None"]
