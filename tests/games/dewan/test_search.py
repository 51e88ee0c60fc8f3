"""The fast placement search against the slow reference (``reference.py``, the engine's former search) on
many random positions: the same destinations, the same minimal costs with the same routes, the same payment
steps and the same payments listed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import RandomAI
from games.dewan import GAME
from games.dewan import data as D
from games.dewan import search as S
from games.dewan.engine import DewanState
from tests.games.dewan import reference as R
from tests.games.dewan.helpers import camp, fixture, give


def _items(items: list[tuple[str, int | None]]) -> list[tuple[str, int]]:
    return sorted((kind, -1 if seat is None else seat) for kind, seat in items)


def _costs(state: DewanState, seat: int, hex_: str) -> list[tuple[list[tuple[str, int]], list[str]]]:
    labels, nodes = GAME._labels(state, seat, hex_)
    return [(_items(S.unpack(label)), S.route_of(node)) for label, node in zip(labels, nodes, strict=True)]


def _same_as_reference(state: DewanState, seat: int, rng: random.Random, payments: int = 2) -> None:
    """Destinations; the costs, routes and payments of a few of them; the steps of the payment in play."""
    if state.phase == "turn":
        camps = [a[1] for a in GAME.legal_actions(state, seat) if a[0] == "camp"]
        assert camps == R.destinations(state, seat)
        every = R.search(state, seat)
        for hex_ in rng.sample(camps, min(payments, len(camps))):
            expected = [(_items(R._unpack(label)), R._route(node)) for label, node in every[hex_].items()]
            assert _costs(state, seat, hex_) == expected
            assert GAME.payments(state, seat, hex_, limit=40) == R.payments(state, seat, hex_, limit=40)
        if camps:  # a destination nobody can reach has no cost
            unreachable = [h for h in state.board.labels if h not in every]
            assert all(_costs(state, seat, h) == [] for h in unreachable[:3])
    elif state.phase == "pay":
        expected = [("pay", c) if r is None else ("give", c, r) for c, r in R.pending_options(state, seat)]
        assert GAME.legal_actions(state, seat) == expected


def _play(players: int, seed: int, extra: int = 0, stride: int = 1) -> int:
    """A random game checked against the reference at every ``stride``-th decision; with ``extra``, the
    seat to act is dealt that many more cards first (bigger hands than random play makes)."""
    state = GAME.setup(players, {}, seed)
    ai = RandomAI(seed)
    rng = random.Random(seed)
    checked = 0
    step = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        if extra and state.phase == "turn" and state.deck and rng.random() < 0.3:
            deal = [state.deck.pop() for _ in range(min(extra, len(state.deck)))]
            state.seats[seat]["hand"] = sorted(state.seats[seat]["hand"] + deal)
        if step % stride == 0:
            _same_as_reference(state, seat, rng)
            checked += 1
        step += 1
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_match_the_reference(players: int) -> None:
    for seed in range(4):
        assert _play(players, 500 + seed) > 20


def test_big_hands_match_the_reference() -> None:
    # Up to 7 items a route, so hands of 7 to 14 cards make the most incomparable costs.
    for seed in range(3):
        _play(4, 900 + seed, extra=5, stride=3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(2, 4), size=st.integers(0, 12),
       camps=st.integers(0, 14))
def test_dealt_positions_match_the_reference(seed: int, players: int, size: int, camps: int) -> None:
    # Any hand on any map with camps scattered for every seat: the turn, then each payment step in turn.
    rng = random.Random(seed)
    state = GAME.setup(players, {}, seed)
    for player in state.seats:
        state.deck += player["hand"]
        player["hand"] = []
    state.setup_order, state.phase, state.actor = [], "turn", 0
    rng.shuffle(state.deck)
    state.seats[0]["hand"] = sorted(state.deck.pop() for _ in range(size))
    open_land = [h for h in state.board.labels if state.board.terrain[h] in D.LAND and h not in state.camps]
    for hex_ in rng.sample(open_land, camps):
        state.camps[hex_] = rng.randrange(players)
    _same_as_reference(state, 0, rng, payments=3)
    camps_now = [a for a in GAME.legal_actions(state, 0) if a[0] == "camp"]
    if camps_now:
        GAME.apply(state, 0, rng.choice(camps_now))
        while state.phase == "pay":
            _same_as_reference(state, 0, rng)
            GAME.apply(state, 0, rng.choice(GAME.legal_actions(state, 0)))


def test_water_runs_and_start_camps_in_one_route() -> None:
    # F2 map: from A0 (start camp, any card) across the water run of C, Blue's start camp B0 (a card for Blue)
    # and a land hex; the fast search and the reference agree on every destination, cost and payment.
    state = fixture(2)
    give(state, 0, "c16", "c17", "c18", "c21", "c22", "c38", "c41", "c44")
    camp(state, 1, "C3")
    _same_as_reference(state, 0, random.Random(1), payments=40)


def test_limits_of_the_search() -> None:
    # No route with fewer than two cards; a hand of one card reaches nothing; a hex that is water, taken or
    # off the map has no cost.
    state = fixture(2)
    give(state, 0, "c16")
    assert S.reachable(state.grid, state.camps, 0, ["c16"]) == []
    give(state, 0, "c17")
    grid = state.grid
    assert S.reachable(grid, state.camps, 0, state.seats[0]["hand"]) == R.destinations(state, 0)
    for hex_ in ("A0", "B0", "Z9", next(h for h in state.board.labels if state.board.terrain[h] == "W")):
        assert S.routes_to(grid, state.camps, 0, state.seats[0]["hand"], hex_) == {}


def test_purse_is_halls_condition() -> None:
    # Every multiset of up to 5 kinds against random hands: the packed check equals the plain one.
    rng = random.Random(3)
    cards = list(D.CARDS)
    for _ in range(60):
        hand = rng.sample(cards, rng.randrange(0, 8))
        room = S.room_of(hand)
        for _ in range(40):
            counts = [0] * 6
            for _ in range(rng.randrange(0, 6)):
                counts[rng.randrange(6)] += 1
            kinds = sum(c << (5 * k) for k, c in enumerate(counts))
            assert S.fits(room, S.demand_of(kinds)) == R.pays(hand, counts), (hand, counts)
