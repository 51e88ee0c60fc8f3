"""Trails & Fortresses' presentation (presentation/trails.py) as plain data: no discord.py anywhere in this file."""

from __future__ import annotations

import subprocess
import sys

import presentation.trails as trails
from games.core import Event, PlayerResult, Result
from games.trails import GAME
from games.trails.actions import format_action, place
from games.trails.engine import figure_options, legal_spots
from presentation.core import Done, Step, walk
from presentation.trails import (
    PanelState,
    facts_of,
    final_breakdown,
    flow,
    narrate,
    panel_lines,
    panel_step,
    placement_key,
    step_lines,
    wrong_step_text,
)


def test_the_first_step_offers_every_legal_placement_at_each_rotation() -> None:
    state = GAME.setup(2, {}, 3)
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    spots = legal_spots(state)
    assert isinstance(step, Step) and not step.can_undo
    assert sorted(c.key for c in step.choices) == sorted(placement_key(x, y, r) for (x, y), rots in spots.items()
                                                         for r in rots)
    assert all(c.label for c in step.choices) and state.tile in step.prompt


def test_a_placement_then_a_figure_is_done_and_the_engine_accepts_it() -> None:
    state = GAME.setup(2, {}, 5)
    seat = GAME.to_act(state)[0]
    before = GAME.to_json(state)
    first = flow(state, seat, (), "ru")
    assert isinstance(first, Step)
    key = next(c.key for c in first.choices
               if figure_options(state, *(int(p) for p in c.key[1:].split("_"))))  # a placement allowing a figure
    second = walk(trails, state, seat, (key,), "ru")
    assert isinstance(second, Step) and second.can_undo and second.choices[0].key == "none"
    done = walk(trails, state, seat, (key, second.choices[-1].key), "ru")
    assert isinstance(done, Done) and done.notations == second.choices[-1].notations
    assert done.notations[-1] == "confirm" and GAME.to_json(state) == before  # flow changed nothing
    for notation in done.notations:
        GAME.apply(state, seat, GAME.parse(notation))
    assert state.seat != seat or state.phase == "place"
    assert walk(trails, state, GAME.to_act(state)[0], ("p999_999_0",), "en") is None  # a key flow never offered


def test_a_step_typed_before_is_taken_into_the_turn() -> None:
    state = GAME.setup(2, {}, 7)
    seat = GAME.to_act(state)[0]
    (x, y), rots = next(iter(legal_spots(state).items()))
    GAME.apply(state, seat, GAME.parse(format_action(place(x, y, rots[0]))))
    done = walk(trails, state, seat, (placement_key(x, y, rots[0]), "none"), "en") \
        if figure_options(state, x, y, rots[0]) else walk(trails, state, seat, (placement_key(x, y, rots[0]),), "en")
    assert isinstance(done, Done) and "place" not in " ".join(done.notations)
    for notation in done.notations:
        GAME.apply(state, seat, GAME.parse(notation))


def test_narrate_tells_the_turn_in_sentences() -> None:
    events = [(0, Event("turn", {"seat": 1, "tile": "T7"})), (0, Event("unknown_code", {}))]
    lines = narrate(events, ["Ann", "Bob"], "en")
    assert len(lines) == 1 and "Bob" in lines[0] and "T7" in lines[0]


def test_the_panels_texts_and_a_click() -> None:
    state = GAME.setup(2, {}, 3)
    facts = facts_of(state, GAME.view(state, None))
    (x, y), rots = next(iter(facts.rotations.items()))
    panel = panel_step(facts, PanelState(0), "pos", None, [f"{x},{y}"])
    assert panel == PanelState(0, 0, x, y, rots[0])
    assert panel_step(facts, PanelState(0), "pos", None, ["999,999"]) is None
    lines = panel_lines(facts, panel, figure_options(state, x, y, rots[0]), "en")
    assert len(lines) >= 3 and state.tile in lines[0]
    assert len(step_lines(state, "cmd_reply.placed", "en")) == 2
    assert wrong_step_text("en", "wrong_step", {"step": "figure"}) and wrong_step_text("en", "other", {}) is None


def test_the_final_breakdown_names_players_and_categories() -> None:
    result = Result([PlayerResult(1, 1, 12, {"roads": 10, "cities": 2}), PlayerResult(0, 2, 5, {"roads": 5})],
                    turns=30)
    title, fields, footer = final_breakdown(result, ["Ann", "Bob"], {"traders", "inns"}, "en")
    assert title and len(fields) == 2 and "Bob" in fields[0][0] and "12" in fields[0][0]
    assert fields[0][1].count("\n") == 5 and "30" in footer


def test_the_module_imports_no_discord() -> None:
    code = "import sys, presentation.trails; print('discord' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() \
        == "False"
