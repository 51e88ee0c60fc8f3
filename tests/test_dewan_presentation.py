"""Dewan's presentation (presentation/dewan.py) as plain data: no discord.py anywhere in this file."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import presentation.dewan as dewan
from games.core import Event
from games.dewan import GAME
from games.dewan.engine import DewanState
from presentation.core import Done, Step, walk
from presentation.dewan import (
    destinations,
    event_line,
    flow,
    narrate,
    payments,
    plan_camp,
    score_pad,
    token_of,
)
from tests.cogs.test_dewan_panel import camp_positions


def _snapshot(state: DewanState) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)


def test_the_first_step_offers_the_takes_and_the_camps_spaces() -> None:
    state = camp_positions(1, 1)[0]
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    assert isinstance(step, Step) and not step.can_undo and "round" in step.prompt
    actions = GAME.legal_actions(state, seat)
    steps = [token_of(GAME.format(a)) for a in actions if a[0] != "camp"]
    assert [c.key for c in step.choices] == [*steps, *(h.lower() for h in destinations(GAME, state, seat))]
    done = walk(dewan, state, seat, (steps[0],), "en")
    assert isinstance(done, Done) and done.notations == (steps[0].replace("_", " "),)


def test_every_camp_the_flow_offers_is_one_commit_of_the_planned_camp() -> None:
    seen_payments = seen_rewards = 0
    for state in camp_positions(2, 4):
        seat = GAME.to_act(state)[0]
        before = _snapshot(state)
        for hex_ in destinations(GAME, state, seat)[:6]:
            found = payments(GAME, state, seat, hex_)
            at = walk(dewan, state, seat, (hex_.lower(),), "ru")
            chosen: tuple[str, ...] = (hex_.lower(),)
            if len(found) > 1:
                assert isinstance(at, Step) and at.can_undo and len(at.choices) == len(found)
                seen_payments += 1
                chosen += (at.choices[-1].key,)
                at = walk(dewan, state, seat, chosen, "ru")
            plan = plan_camp(GAME, state, seat, hex_, found[-1][0])
            # The confirm step: its preview picture, and one Confirm per reward (else a single Confirm).
            assert isinstance(at, Step) and at.can_undo and at.picture is not None
            assert [c.key for c in at.choices] == ([token_of(GAME.format(a)) for a in plan.rewards] or ["ok"])
            assert all(c.notations[:len(plan.notations)] == tuple(plan.notations) for c in at.choices)
            seen_rewards += bool(plan.rewards)
            at = walk(dewan, state, seat, (*chosen, at.choices[0].key), "ru")
            assert isinstance(at, Done) and list(at.notations[:len(plan.notations)]) == plan.notations
            work = GAME.from_json(GAME.to_json(state))
            events = [e for n in at.notations for e in GAME.apply(work, seat, GAME.parse(n))]
            assert any(e.code == "camp" and e.params["hex"] == hex_ for e in events)
        assert _snapshot(state) == before  # flow plays on copies only
    assert seen_payments > 0 and seen_rewards > 0


def test_the_first_step_groups_takes_as_buttons_and_camps_under_their_placeholder() -> None:
    state = camp_positions(6, 1)[0]
    seat = GAME.to_act(state)[0]
    step = flow(state, seat, (), "en")
    assert isinstance(step, Step)
    groups = {c.group for c in step.choices}
    assert groups == {"take", "camp"} and dict(step.placeholders)["camp"] == "Place a camp on…"
    assert all(c.style == "primary" for c in step.choices if c.group == "camp")
    assert sum(c.group == "take" for c in step.choices) <= 5  # a row of buttons in any layout


def test_the_preview_is_the_movers_view_after_the_camp_drawn_with_the_names() -> None:
    state = camp_positions(7, 1)[0]
    seat = GAME.to_act(state)[0]
    hex_ = destinations(GAME, state, seat)[0]
    chosen: tuple[str, ...] = (hex_.lower(),)
    at = walk(dewan, state, seat, chosen, "en")
    if isinstance(at, Step) and at.picture is None:
        chosen += (at.choices[0].key,)
        at = walk(dewan, state, seat, chosen, "en")
    assert isinstance(at, Step) and at.picture is not None
    found = payments(GAME, state, seat, hex_)
    payment = found[int(chosen[1])][0] if len(chosen) > 1 else found[0][0]
    view = GAME.view(plan_camp(GAME, state, seat, hex_, payment).state, seat)
    assert hex_ in view["camps"] and "hand" in view
    from rendering.dewan import render_board

    names = ["Ann", "Bob", "Cy"][:state.players]
    GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])  # the position moves on: the picture does not
    assert at.picture(names) == render_board(view, names, "en")


def test_reword_names_the_step_in_words() -> None:
    from games.core import IllegalAction

    error = dewan.reword(IllegalAction("wrong_step", step="pay", action="take 3"), "en")
    assert error.code == "wrong_step" and error.params["step"] == dewan.tr("en", "step.pay")
    assert error.params["action"] == "take 3" and dewan.TELLS_STEPS
    other = IllegalAction("no_route")
    assert dewan.reword(other, "en") is other


def test_a_forged_key_is_refused_by_the_walk() -> None:
    state = camp_positions(3, 1)[0]
    seat = GAME.to_act(state)[0]
    assert walk(dewan, state, seat, ("h9",), "en") is None
    assert walk(dewan, state, seat, ("take_9",), "en") is None


def test_narrate_tells_cards_by_terrain_and_leaves_the_final_score_to_the_pad() -> None:
    events = [(0, Event("took", {"seat": 0, "cards": "c05 c17"})), (0, Event("final_score", {"seat": 0})),
              (1, Event("no_such_event", {}))]
    lines = narrate(events, ["Ann", "Bob"], "en")
    assert len(lines) == 1 and lines[0].startswith("Ann") and "c05" not in lines[0]
    assert lines == [event_line(events[0][1], ["Ann", "Bob"], "en")]


def test_the_score_pad_has_a_row_per_player_best_first() -> None:
    state = GAME.setup(2, {}, 5)
    rng = random.Random(5)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    title, rows, footer = score_pad(GAME, state, ["Ann", "Bob"], "en")
    result = GAME.result(state)
    assert title and footer and len(rows) == 2
    for (name, value), player in zip(rows, result.ranking, strict=True):
        assert name.startswith(f"{player.rank}. {['Ann', 'Bob'][player.seat]}: {player.score} ")
        assert str(player.breakdown["berries"]) in value


def test_the_module_imports_no_discord() -> None:
    code = "import sys, presentation.dewan; print('discord' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() \
        == "False"
