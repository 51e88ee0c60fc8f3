"""The fast placement search against the slow references (``reference.py``) on many random positions: the
same destinations, the same minimal costs with the same routes, the same payment steps and the same payments
listed as the engine's former search (now without its cap of 7 cost items); the same minimal costs as every
simple path (small hands); and, for routes of up to 7 items, the same costs and routes as with the cap."""

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
from tests.games.dewan.helpers import all_cards, camp, fixture, give, legal, play


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
    # Hands grow 5 cards at a time, to about 20: long routes and many incomparable costs.
    for seed in range(3):
        _play(4, 900 + seed, extra=5, stride=3)


def _dealt(seed: int, players: int, size: int, camps: int) -> tuple[DewanState, random.Random]:
    """A map with ``camps`` camps scattered for every seat; seat 0 to act with ``size`` cards dealt."""
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
    return state, rng


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(2, 4), size=st.integers(0, 12),
       camps=st.integers(0, 14))
def test_dealt_positions_match_the_reference(seed: int, players: int, size: int, camps: int) -> None:
    # Any hand on any map with camps scattered for every seat: the turn, then each payment step in turn.
    state, rng = _dealt(seed, players, size, camps)
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
            assert S.fits(room, S.demand_of(counts)) == R.pays(hand, counts), (hand, counts)


def test_a_route_of_eight_cards_is_offered() -> None:
    # Issue 39: the seed sets no limit on a route (nor on the hand). From the start camp A0 only, the route
    # A0-A5-E1-E0-E5-H3-H0-H6-C2-G5 costs * W F W D M B F: exactly these 8 cards. Every route to G5 costs 8
    # (two more have another mix), so the camp takes the whole hand.
    state = fixture(4)
    hand = ["c01", "c02", "c06", "c11", "c16", "c17", "c21", "c22"]
    give(state, 0, *hand)
    route = ["A0", "A5", "E1", "E0", "E5", "H3", "H0", "H6", "C2", "G5"]
    cost = GAME.route_cost(state, 0, route)
    assert [k for k, _ in cost] == ["*", "W", "F", "W", "D", "M", "B", "F"]
    assert "camp G5" in legal(state, 0)
    costs = _costs(state, 0, "G5")
    assert _items(cost) in [items for items, _ in costs]
    assert sorted(items for items, _ in costs) == R.brute_costs(state, 0)["G5"]
    events = play(state, 0, "camp G5")
    while state.phase == "pay":
        events += play(state, 0, legal(state, 0)[0])
    placed = next(e for e in events if e.code == "camp")
    assert placed.params["hex"] == "G5" and placed.params["cards"] == " ".join(hand)
    assert state.camps["G5"] == 0 and state.seats[0]["hand"] == []


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(2, 4), size=st.integers(2, 8),
       camps=st.integers(0, 14))
def test_costs_are_those_of_every_simple_path(seed: int, players: int, size: int, camps: int) -> None:
    # Small hands, so every simple path from an own camp can be costed: the searches over (hex, items) with
    # dominance find exactly the minimal costs the hand pays, at every destination; each route found is a path
    # of neighbouring hexes with that cost.
    state, _ = _dealt(seed, players, size, camps)
    every = R.brute_costs(state, 0)
    assert [a[1] for a in GAME.legal_actions(state, 0) if a[0] == "camp"] == sorted(every)
    neighbours = state.board.neighbours
    for hex_, expected in every.items():
        costs = _costs(state, 0, hex_)
        assert sorted(items for items, _ in costs) == expected
        for items, route in costs:
            assert all(b in neighbours[a] for a, b in zip(route, route[1:], strict=False))
            assert _items(GAME.route_cost(state, 0, route)) == items


@pytest.mark.parametrize("players", [2, 3, 4])
def test_routes_of_up_to_seven_items_are_those_of_the_former_cap(players: int) -> None:
    # The search before issue 39 stopped at 7 cost items. Every cost it found is still found, with the same
    # route (the event and the board show the same), and nothing it found is lost.
    for seed in range(4):
        state, _ = _dealt(700 + seed, players, 8 + 2 * seed, 6 + seed)
        capped = R.search(state, 0, cap=R.OLD_CAP)
        camps = [a[1] for a in GAME.legal_actions(state, 0) if a[0] == "camp"]
        assert set(capped) <= set(camps)
        for hex_ in camps:
            short = [(items, route) for items, route in _costs(state, 0, hex_) if len(items) <= R.OLD_CAP]
            expected = [(_items(R._unpack(label)), R._route(node)) for label, node in capped.get(hex_, {}).items()]
            assert short == expected


def test_a_big_hand_is_searched_and_paid() -> None:
    # 24 cards on a crowded 4-player map: long routes through many camps make hundreds of minimal costs. The
    # destinations, the costs of each, a page of payments and a whole payment step by step all complete.
    state, rng = _dealt(5, 4, 24, 20)
    grid, hand = state.grid, state.seats[0]["hand"]
    camps = [a[1] for a in GAME.legal_actions(state, 0) if a[0] == "camp"]
    assert len(camps) > 20
    sizes = {hex_: [S.size_of(label) for label in S.routes_to(grid, state.camps, 0, hand, hex_)] for hex_ in camps}
    assert all(sizes.values()) and max(max(s) for s in sizes.values()) > R.OLD_CAP
    farthest = max(camps, key=lambda h: (min(sizes[h]), h))
    assert len(GAME.payments(state, 0, farthest, limit=20)) == 20
    GAME.apply(state, 0, ("camp", farthest))
    while state.phase == "pay":  # a random payment, leaning to the last options (high cards, gifts)
        options = GAME.legal_actions(state, 0)
        GAME.apply(state, 0, options[-1] if rng.random() < 0.7 else rng.choice(options))
    assert state.camps[farthest] == 0
    assert len(state.seats[0]["hand"]) < 24 and len(all_cards(state)) == 55


@pytest.mark.parametrize("players", [2, 3])
def test_random_play_with_hoarded_hands_ends(players: int) -> None:
    # Players who mostly take cards, so camps are paid from hands of 20 cards and more: random play to the end.
    for seed in range(2):
        state = GAME.setup(players, {}, 40 + seed)
        rng = random.Random(seed)
        biggest = 0
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
            takes = [a for a in actions if a[0] in ("take", "take1")]
            hand = len(state.seats[seat]["hand"])
            biggest = max(biggest, hand)
            hoard = takes and hand < 24 and rng.random() < 0.85
            GAME.apply(state, seat, rng.choice(takes if hoard else actions))
        assert biggest >= 20 and len(all_cards(state)) == 55
        assert any(p["placed"] == D.SLOTS for p in state.seats) or state.round_passes
