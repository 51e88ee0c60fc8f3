"""The built-in AI that fills seats (GreedyAI) plays legally and better than random in every game: over fixed
seeds (so the figures are the same on every run), against a random player, it scores more, completes more
of Dewan's story tiles and crafts more of Maple Valley's favors and festivities."""

from __future__ import annotations

from typing import Any

import pytest

from games import registry
from games.ai import UNDO, GreedyAI, RandomAI

SEEDS = range(4)


def duel(key: str, seed: int) -> tuple[dict[str, int], dict[str, int]]:
    """A 2-player game, GreedyAI against RandomAI (seats alternating by seed): the two breakdowns."""
    game = registry.get(key)
    state = game.setup(2, {}, seed)
    greedy = seed % 2
    players: dict[int, Any] = {greedy: GreedyAI(seed), 1 - greedy: RandomAI(seed + 7)}
    for _ in range(20_000):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        action = players[seat].choose(game, state, seat)
        if seat == greedy and len(game.legal_actions(state, seat)) > 1:
            assert game.format(action) != UNDO  # it never takes a step back when it can go on
        game.apply(state, seat, action)  # IllegalAction here would fail the test: every choice is legal
    assert game.is_over(state)
    breakdowns = {p.seat: p.breakdown for p in game.result(state).ranking}
    return breakdowns[greedy], breakdowns[1 - greedy]


@pytest.mark.parametrize("key", ["trails", "deole", "dewan", "maple"])
def test_the_ai_scores_more_than_random_play(key: str) -> None:
    games = [duel(key, seed) for seed in SEEDS]
    greedy = sum(sum(g.values()) for g, _ in games)
    rival = sum(sum(r.values()) for _, r in games)
    assert greedy > rival * 1.3, (key, greedy, rival)
    assert sum(sum(g.values()) > sum(r.values()) for g, r in games) >= 3  # it wins most games
    if key == "dewan":  # it completes story tiles
        assert sum(g["story"] for g, _ in games) > sum(r["story"] for _, r in games)
    if key == "maple":  # it crafts favors and scores festivities
        assert sum(g["favors"] for g, _ in games) > sum(r["favors"] for _, r in games)
        assert sum(g["festivities"] for g, _ in games) > sum(r["festivities"] for _, r in games)
