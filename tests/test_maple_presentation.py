"""Maple Valley's presentation (presentation/maple.py) as plain data: no discord.py anywhere in this file."""

from __future__ import annotations

import subprocess
import sys

import presentation.maple as maple
from games.core import Event, IllegalAction, PlayerResult, Result
from games.maple import GAME
from presentation.core import Done, Final, Step, walk
from presentation.maple import (
    STEP,
    choice_label,
    final,
    final_breakdown,
    flow,
    held,
    narrate,
    narrate_at,
    position_choices,
    reword,
    undo_steps,
)


def _play_until(state, wanted: str, seed: int = 0, limit: int = 400):
    """Play the first (or, varied by ``seed``, another) answer of each question until the step is ``wanted``."""
    for turn in range(limit):
        view = GAME.view(state, None)
        if view["step"] == wanted or view["over"]:
            return
        seat = GAME.to_act(state)[0]
        choices = position_choices(GAME, state, seat)
        ends = [c for c in choices if c.group == "end"]
        choice = ends[0] if ends and turn % 3 else choices[(turn + seed) % len(choices)]
        for text in choice.notations:
            GAME.apply(state, seat, GAME.parse(text))
    raise AssertionError(f"no {wanted} step")


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
    assert breakdown.fields[0][1].count("\n") == 1 and "30" in (breakdown.footer or "")


def test_the_module_imports_no_discord() -> None:
    code = "import sys, presentation.maple; print('discord' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() \
        == "False"


def test_end_is_pinned_undo_takes_back_the_last_click_and_groups_have_their_menus_text() -> None:
    state = GAME.setup(2, {}, 3)
    _play_until(state, "walk")
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    assert isinstance(step, Step)
    (undo,) = [c for c in step.choices if c.key == "undo"]
    assert undo.pinned and undo.style == "danger" and undo.label == "Undo"
    assert undo.notations == ("undo",) * undo_steps(GAME, state, seat)
    assert dict(step.placeholders)["dest"] == "Walk to…" and step.picture is None
    assert {c.group for c in step.choices if not c.pinned} <= {"dest", "path"}
    done = walk(maple, state, seat, ("undo",), "en")
    assert isinstance(done, Done) and done.notations == undo.notations
    for notation in done.notations:
        GAME.apply(state, seat, GAME.parse(notation))
    _play_until(state, "craft")
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    assert isinstance(step, Step)
    (end,) = [c for c in step.choices if c.group == "end"]
    assert end.pinned and end.style == "primary" and end.notations == ("end",)
    assert [c.key for c in step.choices if c.pinned][-1] == "show"


def test_show_board_asks_the_same_question_with_the_boards_picture() -> None:
    state = GAME.setup(2, {}, 4)
    _play_until(state, "craft")
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "ru")
    shown = walk(maple, state, seat, ("show",), "ru")
    assert isinstance(step, Step) and isinstance(shown, Step) and shown.picture is not None
    assert [c for c in shown.choices] == [c for c in step.choices if c.key != "show"]
    assert shown.prompt.startswith(step.prompt) and not shown.can_undo
    assert shown.picture(["Аня", "Боря"])[:8] == b"\x89PNG\r\n\x1a\n"
    first = shown.choices[0]
    done = walk(maple, state, seat, ("show", first.key), "ru")
    assert isinstance(done, Done) and done.notations == first.notations
    assert walk(maple, state, seat, ("show", "show"), "ru") is None
    before = GAME.setup(2, {}, 4)
    assert walk(maple, before, GAME.to_act(before)[0], ("show",), "en") is None  # only at the craft step


def test_reword_names_the_step_and_final_is_the_breakdown() -> None:
    error = reword(IllegalAction("not_allowed", action="end", step="walk"), "en")
    assert error.code == "not_allowed" and error.params == {
        "action": "end", "step": "Where do you walk? A destination (the whole walk), or one path at a time."}
    other = IllegalAction("cannot_undo")
    assert reword(other, "en") is other
    result = Result([PlayerResult(0, 1, 12, {"favors": 12})], turns=9, extra={"solo": True, "rating": "good",
                                                                            "won": True})
    assert isinstance(final(result, ["Ann"], "en"), Final) and final(result, ["Ann"], "en") == \
        final_breakdown(result, ["Ann"], "en")


def test_held_splits_an_act_into_steps_and_narrate_at_names_clearings() -> None:
    state = GAME.setup(2, {}, 3)
    _play_until(state, "walk")
    seat = GAME.to_act(state)[0]
    route = next(c for c in position_choices(GAME, state, seat) if c.route is not None)
    before = GAME.to_json(state)
    events = [(seat, e) for text in route.notations for e in GAME.apply(state, seat, GAME.parse(text))]
    moves = [(seat, text) for text in route.notations]
    kept = held(moves, events, before)
    assert [e for _s, e in kept if e.code != STEP] == [e for _s, e in events]
    assert [e.code for _s, e in kept].count(STEP) == len(moves)
    assert [e.code for _s, e in held(moves, events, None)].count(STEP) == 1  # no position: one step
    walked = [(0, Event("walked", {"seat": 0, "path": 3})), (0, Event("arrived", {"seat": 0, "location": "X1"}))]
    clearing = GAME.view(state, None)["clearings"]["X1"]
    name = maple.tr("en", f"clearing.{clearing}")
    assert name not in narrate(walked, ["Ann", "Bob"], "en")[0]  # without the position: the code only
    (line,) = narrate_at(state, walked, ["Ann", "Bob"], "en")
    assert line.startswith("Ann walks paths 3 to ") and name in line
