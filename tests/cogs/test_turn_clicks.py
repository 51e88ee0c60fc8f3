"""Clicks per turn through the panels' own flow logic, over many games played to the end by model players:
a Trails turn from its board post to Confirm (cogs/trails.py: the offers a board post and a panel make and
the panel's ``step``), a Déole pick from Take turn to its last answer (cogs/deole.py: ``panel_choices``).
The players are the games' ``normal`` AI and random players (random positions, rotations and figures; random
step answers), and each turn is clicked the shortest way the panels offer.

Asserted on the sample: a median of at most 3 clicks and at most 5 for any turn. Printed by
``python -m tests.cogs.test_turn_clicks`` (the distributions, by game and player)."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.trails import (
    TrailsPanel,
)
from games import registry
from games.deole.ai import NormalAI as DeoleNormal
from games.deole.engine import DeoleGame, DeoleState
from games.trails.actions import CONFIRM, Figure, place
from games.trails.ai import ranked_turns
from games.trails.engine import figure_options, legal_spots
from presentation.deole import Choice, choices, panel_choices
from presentation.trails import (
    PanelState,
    board_offers,
    encode_figure,
    opening_panel,
    panel_offers,
)

Turn = tuple[int, int, int, Figure | None]


# -- Trails --------------------------------------------------------------------------------------------
def trails_clicks(game: Any, state: Any, version: int, turn: Turn) -> int:
    """The clicks that play ``turn`` from the board post: its position picked under the board (or Take turn
    and the panel's pages and selects), the rotation and the figure if they are not the panel's first
    offer, then Confirm. Each click is one the board or the panel offers, read by the panel's ``step``."""
    x, y, rot, chosen = turn
    table = SimpleNamespace(state=state, game=game)
    panel_logic = TrailsPanel(None)
    facts = panel_logic.facts(table)  # type: ignore[arg-type]  # what the panel reads of a table
    value = f"{x},{y}"
    on_board = next((o for o in board_offers(facts.labels, version) if value in o.values), None)
    start = TrailsPanel.step(facts, on_board.state, "pos", None, [value]) if on_board is not None \
        else opening_panel(facts, version)  # else Take turn, then the position in the panel
    assert start is not None
    panel: PanelState = start
    clicks = 1

    def click(op: str, arg: int | None = None, values: tuple[str, ...] = ()) -> PanelState:
        figures = panel_logic.figures_for(table, panel)  # type: ignore[arg-type]
        offer = next(o for o in panel_offers(facts, panel, figures) if o.op == op and not o.disabled
                     and (arg is None or o.arg == arg) and set(values) <= set(o.values))
        after = TrailsPanel.step(facts, offer.state, op, None if arg is None else str(arg), list(values))
        assert after is not None and panel_logic.offered(table, facts, after)  # type: ignore[arg-type]
        return after

    while panel.spot != (x, y):
        figures = panel_logic.figures_for(table, panel)  # type: ignore[arg-type]
        offers = panel_offers(facts, panel, figures)
        if any(value in o.values for o in offers if o.op == "pos"):
            panel = click("pos", values=(value,))
        else:  # the next pair of pages
            panel = click("page", arg=next(o.arg for o in offers if o.op == "page" and not o.disabled
                                             and o.arg is not None and o.arg > panel.page))
        clicks += 1
    if panel.rot != rot:
        panel, clicks = click("rot", arg=rot), clicks + 1
    if chosen is not None:
        panel, clicks = click("fig", values=(encode_figure(chosen),)), clicks + 1
    figures = panel_logic.figures_for(table, panel)  # type: ignore[arg-type]
    assert any(o.op == "ok" and not o.disabled for o in panel_offers(facts, panel, figures))
    assert (panel.spot, panel.rot, panel.figure) == ((x, y), rot, chosen)
    return clicks + 1  # Confirm


def random_turn(state: Any, rng: random.Random) -> Turn:
    spots = legal_spots(state)
    x, y = rng.choice(sorted(spots))
    rot = rng.choice(list(spots[(x, y)]))
    figures = figure_options(state, x, y, rot)
    return x, y, rot, rng.choice(figures) if figures and rng.random() < 0.5 else None


def ai_turn(state: Any, rng: random.Random) -> Turn:
    chosen_place, chosen = ranked_turns(state, state.seat, rng)[0][1]
    return chosen_place.x, chosen_place.y, chosen_place.rot, chosen


def trails_sample(model: Callable[[Any, random.Random], Turn], games: int, seed: int = 0) -> list[int]:
    game = registry.get("trails")
    rng = random.Random(seed)
    out: list[int] = []
    for n in range(games):
        expansions = ("", "river", "inns,traders", "river,inns,traders")[n % 4]
        state = game.setup(2 + n % 5, {"expansions": expansions} if expansions else {}, seed * 100 + n)
        version = 0
        while not game.is_over(state):
            x, y, rot, chosen = model(state, rng)
            out.append(trails_clicks(game, state, version, (x, y, rot, chosen)))
            for action in (place(x, y, rot), *([chosen] if chosen else []), CONFIRM):
                game.apply(state, state.seat, action)
            version += 1
    return out


# -- Déole ---------------------------------------------------------------------------------------------
Model = Callable[[DeoleGame, DeoleState, int, list[Choice]], Choice]


def random_answer(rng: random.Random) -> Model:
    return lambda game, state, seat, answers: rng.choice(answers)


def ai_answer(seed: int) -> Model:
    player = DeoleNormal(seed)

    def answer(game: DeoleGame, state: DeoleState, seat: int, answers: list[Choice]) -> Choice:
        wanted = game.format(player.choose(game, state, seat))
        return next((a for a in answers if a.notations[0] == wanted), answers[0])

    return answer


def deole_pick_clicks(game: DeoleGame, state: DeoleState, seat: int, model: Model, take_turn: bool) -> int:
    """The clicks of one pick: one per answer, the first on the board post's select menu (cogs/deole.py's
    ``board_answers``: the panel's answers when 25 fit; else Take turn first, unless the panel goes on
    from the last pick: solo). The player decides step by step; the answer clicked is the panel's answer
    that plays the most of the player's own next steps."""
    offered = panel_choices(game, state, seat, "en")
    clicks = 1 if take_turn and len(offered) > 25 else 0
    while True:
        trial, path = game.clone(state), ()
        while True:  # the player's own next steps, as far as one of the panel's answers goes
            step = model(game, trial, seat, choices(game, trial, seat, "en"))
            for notation in step.notations:
                game.apply(trial, seat, game.parse(notation))
            path = (*path, *step.notations)
            if game.pick_over(trial, seat) or not any(
                    o.notations[:len(path)] == path and len(o.notations) > len(path) for o in offered):
                break
        answer = max((o for o in offered if path[:len(o.notations)] == o.notations), key=lambda o: len(o.notations))
        for notation in answer.notations:
            game.apply(state, seat, game.parse(notation))
        clicks += 1
        if game.pick_over(state, seat):
            return clicks
        offered = panel_choices(game, state, seat, "en")


def deole_sample(model_of: Callable[[int], Model], games: int, seed: int = 0) -> list[int]:
    game = registry.get("deole")
    assert isinstance(game, DeoleGame)
    out: list[int] = []
    for n in range(games):
        players = 1 + n % 4
        state = game.setup(players, {}, seed * 100 + n)
        model = model_of(seed * 100 + n)
        first = True
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            out.append(deole_pick_clicks(game, state, seat, model, take_turn=players > 1 or first))
            first = False
    return out


# -- the distributions ---------------------------------------------------------------------------------
SAMPLES: dict[str, Callable[[], list[int]]] = {
    "trails random": lambda: trails_sample(random_turn, 5, seed=1),
    "trails normal AI": lambda: trails_sample(ai_turn, 2, seed=2),
    "deole random": lambda: deole_sample(lambda s: random_answer(random.Random(s)), 12, seed=3),
    "deole normal AI": lambda: deole_sample(ai_answer, 6, seed=4),
}


def describe(clicks: list[int]) -> str:
    counts = dict(sorted(Counter(clicks).items()))
    return (f"{len(clicks)} turns, median {statistics.median(clicks)}, mean {statistics.mean(clicks):.2f}, "
            f"worst {max(clicks)}; clicks: turns {counts}")


@pytest.mark.parametrize("name", list(SAMPLES))
def test_a_turn_takes_three_clicks_at_the_median_and_five_at_worst(name: str) -> None:
    clicks = SAMPLES[name]()
    print(f"{name}: {describe(clicks)}")
    assert len(clicks) > 100
    assert statistics.median(clicks) <= 3 and max(clicks) <= 5, describe(clicks)


def test_a_trails_position_picked_on_the_board_opens_the_panel_on_it() -> None:
    game = registry.get("trails")
    state = game.setup(2, {}, 3)
    (x, y), rots = sorted(legal_spots(state).items())[0]
    assert trails_clicks(game, state, 0, (x, y, rots[0], None)) == 2  # the position on the board, Confirm
    if len(rots) > 1:
        assert trails_clicks(game, state, 0, (x, y, rots[-1], None)) == 3  # and a rotation


if __name__ == "__main__":
    for sample, make in SAMPLES.items():
        print(f"{sample}: {describe(make())}")
