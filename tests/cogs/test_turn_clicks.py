"""Clicks per turn through the one panel (cogs/panel.py) and the games' flows, over many games played to the
end by model players: a Trails turn from its board post to its commit (presentation/trails.py ``flow``: the
position under the board, or Take turn and the panel's menus and pages; the rotation; the figure or none), a
Déole pick from Take turn to its last answer (presentation/deole.py: ``panel_choices``).
The players are the games' ``normal`` AI and random players (random positions, rotations and figures; random
step answers), and each turn is clicked the shortest way the panels offer.

Asserted on the sample: a median of at most 3 clicks and at most 5 for any turn. Printed by
``python -m tests.cogs.test_turn_clicks`` (the distributions, by game and player)."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from cogs.panel import BOARD_MENUS, OPTIONS, layout, page_count
from games import registry
from games.deole.ai import NormalAI as DeoleNormal
from games.deole.engine import DeoleGame, DeoleState
from games.trails.actions import CONFIRM, Figure, place
from games.trails.ai import ranked_turns
from games.trails.engine import figure_options, legal_spots
from presentation.core import Done, Step
from presentation.deole import Choice, choices, panel_choices
from presentation.trails import figure_key, flow, spot_key

Turn = tuple[int, int, int, Figure | None]


# -- Trails --------------------------------------------------------------------------------------------
def page_of(step: Step, key: str) -> int:
    """The panel page showing ``key``'s choice (0: the first, shown when the step opens)."""
    buttons, menus = layout(step)
    if any(c.key == key for c in buttons):
        return 0
    per_page = 4 - (len(buttons) + 4) // 5
    index = next(i for i, menu in enumerate(menus) if any(c.key == key for c in menu))
    return index // per_page


def trails_clicks(game: Any, state: Any, version: int, turn: Turn) -> int:
    """The clicks that play ``turn`` from the board post: its position picked under the board (or Take turn,
    the pages to it and the pick), the rotation when the spot has several, and the figure or none (which
    commits). Each click is one the board or the panel offers, walked through the game's ``flow``."""
    x, y, rot, chosen = turn
    first = flow(state, state.seat, (), "en")
    assert isinstance(first, Step) and first.on_board
    key = spot_key(x, y)
    on_board = len(first.choices) <= BOARD_MENUS * OPTIONS
    clicks = 1 if on_board else 2 + page_of(first, key)
    keys: tuple[str, ...] = (key,)
    at = flow(state, state.seat, keys, "en")
    if isinstance(at, Step) and at.choices[0].key.startswith("r"):
        keys, clicks = (*keys, f"r{rot}"), clicks + 1
        at = flow(state, state.seat, keys, "en")
    assert isinstance(at, Step) and page_count(at) == 1
    keys = (*keys, figure_key(chosen) if any(c.key == "none" for c in at.choices) else "ok")
    done = flow(state, state.seat, keys, "en")
    assert isinstance(done, Done)
    return clicks + 1


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
    # the position on the board, (the rotation, when it has several), then no figure: the turn is played
    assert trails_clicks(game, state, 0, (x, y, rots[0], None)) == (3 if len(rots) > 1 else 2)


if __name__ == "__main__":
    for sample, make in SAMPLES.items():
        print(f"{sample}: {describe(make())}")
