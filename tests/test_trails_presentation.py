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
    final,
    final_breakdown,
    flow,
    narrate,
    spot_key,
    step_lines,
)


def test_the_first_step_offers_every_legal_position_also_under_the_board() -> None:
    state = GAME.setup(2, {}, 3)
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    spots = legal_spots(state)
    assert isinstance(step, Step) and not step.can_undo and step.on_board and step.picture is None
    assert sorted(c.key for c in step.choices) == sorted(spot_key(x, y) for x, y in spots)
    assert all(c.label for c in step.choices) and state.tile in step.prompt


def _keys_to_done(state, seat, key: str, figure_key: str | None) -> tuple[tuple[str, ...], list[Step]]:
    """The keys from a position to its turn's commit (the first rotation, the figure or none), and the steps."""
    keys, steps = (key,), []
    at = walk(trails, state, seat, keys, "ru")
    while isinstance(at, Step):
        steps.append(at)
        pick = at.choices[0].key if at.choices[0].key.startswith("r") else \
            figure_key if figure_key in {c.key for c in at.choices} else at.choices[0].key
        keys = (*keys, pick)
        at = walk(trails, state, seat, keys, "ru")
    return keys, steps


def test_a_position_its_rotation_and_a_figure_are_done_and_the_engine_accepts_it() -> None:
    state = GAME.setup(2, {}, 5)
    seat = GAME.to_act(state)[0]
    before = GAME.to_json(state)
    (x, y), rots = next((s, r) for s, r in legal_spots(state).items() if figure_options(state, *s, r[0]))
    figure = trails.figure_key(figure_options(state, x, y, rots[0])[0])
    keys, steps = _keys_to_done(state, seat, spot_key(x, y), figure)
    assert all(step.can_undo and step.picture is not None for step in steps)  # each shows the tile there
    assert len(steps) == (2 if len(rots) > 1 else 1) and keys[-1] == figure
    assert steps[-1].choices[0].key == "none"  # no figure first
    png = steps[-1].picture(["Ann", "Bob"])
    assert png.startswith(b"\x89PNG")
    done = walk(trails, state, seat, keys, "ru")
    assert isinstance(done, Done) and done.notations[-1] == "confirm" and GAME.to_json(state) == before
    for notation in done.notations:
        GAME.apply(state, seat, GAME.parse(notation))
    assert state.seat != seat or state.phase == "place"
    assert walk(trails, state, GAME.to_act(state)[0], ("999_999",), "en") is None  # a key flow never offered


def test_a_tile_without_a_figure_to_place_is_confirmed() -> None:
    state = GAME.setup(2, {}, 11)
    seat = GAME.to_act(state)[0]
    state.supply[seat] = dict.fromkeys(state.supply[seat], 0)  # every figure of the mover is on the board
    (x, y), _rots = next(iter(legal_spots(state).items()))
    keys, steps = _keys_to_done(state, seat, spot_key(x, y), None)
    assert [c.key for c in steps[-1].choices] == ["ok"] and keys[-1] == "ok"
    assert isinstance(walk(trails, state, seat, keys, "en"), Done)


def test_a_step_typed_before_is_shown_with_its_picture_and_played_or_taken_back() -> None:
    state = GAME.setup(2, {}, 7)
    seat = GAME.to_act(state)[0]
    (x, y), rots = next(iter(legal_spots(state).items()))
    GAME.apply(state, seat, GAME.parse(format_action(place(x, y, rots[0]))))
    step = flow(state, seat, (), "en")
    assert isinstance(step, Step) and "not played yet" in step.prompt and step.picture is not None
    assert step.choices[-1].key == "undo" and step.choices[-1].pinned and step.choices[-1].notations == ("undo",)
    done = walk(trails, state, seat, (step.choices[0].key,), "en")
    assert isinstance(done, Done) and "place" not in " ".join(done.notations) and done.notations[-1] == "confirm"
    for notation in done.notations:
        GAME.apply(state, seat, GAME.parse(notation))
    assert state.seat != seat


def test_narrate_tells_the_turn_in_sentences() -> None:
    events = [(0, Event("turn", {"seat": 1, "tile": "T7"})), (0, Event("unknown_code", {}))]
    lines = narrate(events, ["Ann", "Bob"], "en")
    assert len(lines) == 1 and "Bob" in lines[0] and "T7" in lines[0]


def test_the_step_replies_of_the_typed_commands() -> None:
    state = GAME.setup(2, {}, 3)
    assert len(step_lines(state, "cmd_reply.placed", "en")) == 2


def test_the_final_breakdown_names_players_and_categories() -> None:
    result = Result([PlayerResult(1, 1, 12, {"roads": 10, "cities": 2}), PlayerResult(0, 2, 5, {"roads": 5})],
                    turns=30)
    title, fields, footer = final_breakdown(result, ["Ann", "Bob"], {"traders", "inns"}, "en")
    assert title and len(fields) == 2 and "Bob" in fields[0][0] and "12" in fields[0][0]
    assert fields[0][1].count("\n") == 5 and "30" in footer
    result.extra["expansions"] = ["inns", "traders"]
    breakdown = final(result, ["Ann", "Bob"], "en")
    assert breakdown.title == title and [f[0] for f in breakdown.fields] == [f[0] for f in fields]


def test_the_module_imports_no_discord() -> None:
    code = "import sys, presentation.trails; print('discord' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() \
        == "False"
