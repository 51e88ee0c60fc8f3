"""AI levels (games/ai.py and the games' own ai modules): every level of every game plays only legal actions
and decides the same for the same seed; the Trails evaluator values a turn in its head as the position the
engine reaches; Trails normal beats easy and Déole hard outscores easy over fixed seeds."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from games import registry
from games.ai import LEVELS, UNDO, EasyAI, GreedyAI, SearchAI, make_player
from games.deole.ai import HardAI as DeoleHard
from games.deole.ai import NormalAI as DeoleNormal
from games.trails.ai import (
    HARD,
    NORMAL,
    Evaluator,
    HardAI,
    NormalAI,
    Weights,
    determinize,
    play_turn,
    ranked_turns,
    turns,
)
from games.trails.tiles import LAKE_TILE_ID, TILE_TYPES

KEYS = ["trails", "deole", "dewan", "maple"]
OPTIONS: dict[str, dict[str, Any]] = {"trails": {"expansions": "river,inns,traders"}}


def spent() -> bool:
    """A deadline already past: a hard player searches as little as it may (cheap, and still deterministic)."""
    return True


def positions(key: str, players: int, seed: int, every: int, limit: int) -> list[Any]:
    """States along a random game (copies), one every ``every`` actions, at most ``limit``."""
    game = registry.get(key)
    state = game.setup(players, OPTIONS.get(key, {}), seed)
    walker = EasyAI(seed)
    found: list[Any] = []
    steps = 0
    while not game.is_over(state) and len(found) < limit:
        if steps % every == every - 1:
            found.append(pickle.loads(pickle.dumps(state)))
        seat = game.to_act(state)[0]
        game.apply(state, seat, walker.choose(game, state, seat))
        steps += 1
    return found


@pytest.mark.parametrize("key", KEYS)
def test_every_level_chooses_a_legal_action(key: str) -> None:
    game = registry.get(key)
    for state in positions(key, 3 if key != "maple" else 2, seed=4, every=9, limit=6):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        for level in LEVELS:
            player = make_player(key, level, seed=7, deadline=spent)
            action = player.choose(game, state, seat)
            assert action in legal, (key, level, game.format(action))
            if len(legal) > 1:
                assert game.format(action) != UNDO  # no level ever takes a step back when it can go on


@pytest.mark.parametrize("key", KEYS)
def test_levels_are_deterministic_for_a_seed(key: str) -> None:
    game = registry.get(key)
    for state in positions(key, 2, seed=9, every=13, limit=3):
        seat = game.to_act(state)[0]
        for level in LEVELS:
            first = [game.format(make_player(key, level, seed, deadline=spent).choose(game, state, seat))
                     for seed in (1, 2, 3)]
            again = [game.format(make_player(key, level, seed, deadline=spent).choose(game, state, seat))
                     for seed in (1, 2, 3)]
            assert first == again, (key, level)


def test_the_games_own_players_and_the_generic_ones() -> None:
    assert isinstance(make_player("trails", "normal", 1), NormalAI)
    assert isinstance(make_player("trails", "hard", 1), HardAI)
    assert isinstance(make_player("deole", "normal", 1), DeoleNormal)
    assert isinstance(make_player("deole", "hard", 1), DeoleHard)
    assert isinstance(make_player("dewan", "normal", 1), GreedyAI)
    assert isinstance(make_player("maple", "hard", 1), SearchAI)
    assert isinstance(make_player("maple", "easy", 1), EasyAI)
    with pytest.raises(ValueError):
        make_player("trails", "grandmaster", 1)


def test_trails_hard_full_budget_is_deterministic_and_legal() -> None:
    game = registry.get("trails")
    state = positions("trails", 2, seed=3, every=40, limit=1)[0]
    seat = game.to_act(state)[0]
    chosen = [game.format(HardAI(5, width=3, samples=2).choose(game, state, seat)) for _ in range(2)]
    assert chosen[0] == chosen[1]
    assert game.parse(chosen[0]) in game.legal_actions(state, seat)


@pytest.mark.parametrize("options,players,weights", [({}, 2, NORMAL), ({"expansions": "river,inns,traders"}, 4, NORMAL),
                                                     ({"expansions": "river,inns,traders"}, 4, HARD)])
def test_trails_turn_in_the_head_matches_the_engine(options: dict[str, Any], players: int, weights: Weights) -> None:
    """Every turn valued without touching the board (features joined through the new tile, features closed,
    figures back in hand, monastery neighbours, fields whose cities changed) against the value of the
    position the engine reaches when the turn is played; rare joins of two features sharing a tile may
    differ a little."""
    game = registry.get("trails")
    compared = differ = 0
    for seed in range(2):
        state = game.setup(players, options, seed)
        walker = EasyAI(seed)
        steps = 0
        while not state.over:
            if state.phase == "place" and steps % 11 == 5:
                seat = state.seat
                evaluator = Evaluator(state, weights=weights)
                for chosen_place, chosen in turns(state):
                    after = pickle.loads(pickle.dumps(state))
                    play_turn(game, after, seat, (chosen_place, chosen))
                    engine = Evaluator(after, remaining=len(state.deck), weights=weights).position(seat)
                    head = evaluator.turn(seat, chosen_place.x, chosen_place.y, chosen_place.rot, chosen)
                    compared += 1
                    differ += abs(engine - head) > 1e-6
                    assert abs(engine - head) < 3.0
            seat = game.to_act(state)[0]
            game.apply(state, seat, walker.choose(game, state, seat))
            steps += 1
    assert compared > 300 and differ <= compared // 100, (compared, differ)


def test_trails_determinize_keeps_the_river_first_and_the_tiles() -> None:
    game = registry.get("trails")
    state = game.setup(2, {"expansions": "river"}, 1)
    deck = list(state.deck)
    determinize(state, random.Random(2))
    assert sorted(state.deck) == sorted(deck) and state.deck != deck
    river = [tid for tid in deck if TILE_TYPES[tid].expansion == "river"]
    assert sorted(state.deck[: len(river)]) == sorted(river) and state.deck[len(river) - 1] == LAKE_TILE_ID


def shuffled_pile(state: Any, seed: int) -> Any:
    """A copy of ``state`` whose hidden pile is in another order (the river's tiles before the lake, the land
    tiles after it, each shuffled): what the seats see is the same."""
    other = pickle.loads(pickle.dumps(state))
    deck = other.deck
    river = [tid for tid in deck if TILE_TYPES[tid].expansion == "river" and tid != LAKE_TILE_ID]
    land = [tid for tid in deck if TILE_TYPES[tid].expansion != "river"]
    rng = random.Random(seed)
    rng.shuffle(river)
    rng.shuffle(land)
    deck[:] = [*river, *[tid for tid in deck if tid == LAKE_TILE_ID], *land]
    return other


def test_trails_determinize_does_not_read_the_pile_order() -> None:
    game = registry.get("trails")
    state = game.setup(4, {"expansions": "river,inns,traders"}, 3)
    other = shuffled_pile(state, 1)
    assert other.deck != state.deck
    determinize(state, random.Random(5))
    determinize(other, random.Random(5))
    assert other.deck == state.deck


@pytest.mark.parametrize("players", [2, 4])
def test_trails_hard_never_reads_the_pile_order(players: int) -> None:
    """Two states differing only in the order of the hidden pile: hard (searching with its whole budget where
    it searches) makes the same choice for the same seed."""
    game = registry.get("trails")
    for state in positions("trails", players, seed=8, every=17, limit=3):
        seat = game.to_act(state)[0]
        other = shuffled_pile(state, 2)
        assert other.deck != state.deck
        for seed in (1, 2):
            plans = [[game.format(a) for a in HardAI(seed, width=3, samples=2).plan(game, s, seat)]
                     for s in (state, other)]
            assert plans[0] == plans[1]


def test_trails_normal_keeps_its_weights_and_hard_has_its_own() -> None:
    """``normal`` values positions with the hand-set constants it always had; ``hard`` with its tuned weights."""
    hand_set = Weights(city_odds=0.84, road_odds=0.9, time_factor=5.0, figure_value=2.2, figure_horizon=4.0,
                       builder_value=1.5, good_value=1.5, fill_max=0.85, fill_tiles=40.0, field_points=3.0,
                       goods_lead=0.0, others_max=1.0)
    assert hand_set == NORMAL
    assert HARD != NORMAL
    hard = make_player("trails", "hard", 1)
    assert isinstance(hard, HardAI)
    assert hard.weights is HARD
    state = positions("trails", 4, seed=2, every=25, limit=1)[0]
    seat = state.seat
    default = [turn for _, turn in ranked_turns(state, seat, random.Random(3))]
    assert default == [turn for _, turn in ranked_turns(state, seat, random.Random(3), NORMAL)]
    evaluator = Evaluator(state)
    assert evaluator.w is NORMAL


def trails_duel(levels: tuple[str, str], seed: int) -> list[int]:
    """A 2-player base game, ``levels[i]`` in seat i: the scores."""
    game = registry.get("trails")
    state = game.setup(2, {}, seed)
    players = [make_player("trails", level, seed * 2 + n) for n, level in enumerate(levels)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.apply(state, seat, players[seat].choose(game, state, seat))
    scores = game.scores(state)
    return [scores[0], scores[1]]


def test_trails_normal_beats_easy() -> None:
    for seed in range(4):
        order = ("normal", "easy") if seed % 2 == 0 else ("easy", "normal")
        scores = trails_duel(order, seed)
        normal = order.index("normal")
        assert scores[normal] > scores[1 - normal] + 20, (seed, order, scores)
        assert scores[normal] >= 50, scores


def test_deole_hard_outscores_easy_in_three_players() -> None:
    game = registry.get("deole")
    hard = easy = 0
    for seed in range(2):
        state = game.setup(3, {}, seed)
        players = [make_player("deole", level, seed * 3 + n) for n, level in enumerate(("hard", "easy", "easy"))]
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            game.apply(state, seat, players[seat].choose(game, state, seat))
        scores = game.scores(state)
        hard += scores[0]
        easy += (scores[1] + scores[2]) / 2
    assert hard > easy, (hard, easy)


def test_trails_hard_plans_its_whole_turn() -> None:
    """Hard searches once per turn: its plan plays the whole turn legally, and its first step is its choice."""
    game = registry.get("trails")
    for state in positions("trails", 2, seed=6, every=21, limit=4):
        seat = game.to_act(state)[0]
        turn = game.turn_number(state)
        plan = HardAI(3, deadline=spent).plan(game, state, seat)
        assert game.format(plan[0]) == game.format(HardAI(3, deadline=spent).choose(game, state, seat))
        assert game.format(plan[-1]) == "confirm"
        for action in plan:
            assert game.turn_number(state) == turn
            game.apply(state, seat, action)
        assert game.turn_number(state) == turn + 1
