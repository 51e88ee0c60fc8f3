"""Property tests: random legal games for every expansion combination and player count."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import RandomAI
from games.core import IllegalAction
from games.trails import GAME
from games.trails.actions import CONFIRM, UNDO, figure, place

COMBOS = ["", "river", "inns", "traders", "river,inns", "river,traders", "inns,traders", "river,inns,traders"]


def _initial_supply(expansions: str) -> dict[str, int]:
    return {"normal": 7, "big": int("inns" in expansions), "builder": int("traders" in expansions),
            "keeper": int("traders" in expansions)}


def _check_figures(state, expansions: str) -> None:
    initial = _initial_supply(expansions)
    for seat in range(state.players):
        on_board = {kind: 0 for kind in initial}
        for owner, kind in state.figures.values():
            if owner == seat:
                on_board[kind] += 1
        assert {k: state.supply[seat][k] + on_board[k] for k in initial} == initial


def _illegal_attempts(state):
    seat = GAME.to_act(state)[0]
    other = (seat + 1) % state.players
    yield other, CONFIRM  # not your turn
    yield seat, place(999, 999, 0)
    yield seat, figure("city:9")
    if state.phase == "place":
        yield seat, CONFIRM
        yield seat, UNDO
        yield seat, figure("field:0")
    else:
        yield seat, place(0, 0, 0)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(COMBOS), st.integers(2, 6), st.booleans(), st.integers(0, 10**6))
def test_random_games_keep_every_invariant(expansions, players, fields, seed):
    state = GAME.setup(players, {"expansions": expansions, "fields": fields}, seed)
    pile = len(state.deck) + 1 + len(state.set_aside)
    ai = RandomAI(seed)
    step = 0
    while not GAME.is_over(state):
        if step % 11 == 0:
            before = GAME.to_json(state)
            for seat, action in _illegal_attempts(state):
                try:
                    GAME.apply(state, seat, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"illegal action accepted: {action}")
                assert GAME.to_json(state) == before
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
        _check_figures(state, expansions)
        step += 1
    # Every tile of the pile was placed or set aside (the start tile is not part of the pile).
    assert len(state.placements) - 1 + len(state.set_aside) == pile
    result = GAME.result(state)
    for entry in result.ranking:
        assert set(entry.breakdown) == {"roads", "cities", "monasteries", "fields", "goods"}
        assert sum(entry.breakdown.values()) == entry.score
    if not fields:
        assert all(entry.breakdown["fields"] == 0 for entry in result.ranking)
    json.dumps(GAME.view(state, None))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(COMBOS), st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 400))
def test_json_round_trip_mid_game_gives_an_identical_game(expansions, players, seed, stop):
    state = GAME.setup(players, {"expansions": expansions}, seed)
    ai = RandomAI(seed)
    for _ in range(stop):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
    snapshot = json.loads(json.dumps(GAME.to_json(state)))
    copy = GAME.from_json(snapshot)
    assert GAME.to_json(copy) == snapshot
    assert GAME.view(copy, None) == GAME.view(state, None)
    # Both games continue identically under the same random player.
    ai_a, ai_b = RandomAI(seed + 1), RandomAI(seed + 1)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        assert GAME.legal_actions(copy, seat) == GAME.legal_actions(state, seat)
        events_a = GAME.apply(state, seat, ai_a.choose(GAME, state, seat))
        events_b = GAME.apply(copy, seat, ai_b.choose(GAME, copy, seat))
        assert events_a == events_b
    assert GAME.is_over(copy) and GAME.to_json(copy) == GAME.to_json(state)
    assert GAME.result(copy) == GAME.result(state)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(COMBOS), st.integers(3, 6), st.integers(0, 10**6), st.integers(0, 200))
def test_eliminations_end_the_game_with_eliminated_players_last(expansions, players, seed, stop):
    state = GAME.setup(players, {"expansions": expansions}, seed)
    ai = RandomAI(seed)
    for _ in range(stop):
        if GAME.is_over(state):
            return
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
    out = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.eliminate(state, seat)
        out.append(seat)
        _check_figures(state, expansions)
    assert len(out) == players - 1
    ranking = GAME.result(state).ranking
    assert not ranking[0].eliminated and all(p.eliminated for p in ranking[1:])


def test_view_shape():
    state = GAME.setup(3, {"expansions": "river,inns,traders"}, 7)
    view = GAME.view(state, None)
    assert set(view) == {"game", "players", "board", "figures", "turn", "remaining", "set_aside", "last_placed",
                         "last_turn", "options"}
    assert set(view["players"][0]) == {"seat", "color", "score", "figures_left", "big_left", "builder_left",
                                       "keeper_left", "goods", "eliminated", "points"}
    assert set(view["turn"]) == {"seat", "tile", "placed", "legal_positions", "legal_rotations", "phase"}
    assert view["turn"]["phase"] == "place" and view["turn"]["placed"] is None
    assert "deck" not in json.dumps(view).replace('"deck": ""', "")  # the draw order is never shown
    assert GAME.view(state, 0) == view  # no hidden information


def test_the_view_tells_the_last_turn_and_what_it_scored():
    """The board's header reads the last confirmed turn from the public view: who laid which tile where, the
    figure on it, and every seat's points from that turn (before the end-of-game scoring)."""
    state = GAME.setup(3, {"expansions": "river,inns,traders"}, 5)
    ai = RandomAI(5)
    assert GAME.view(state, None)["last_turn"] is None
    scored = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        action = ai.choose(GAME, state, seat)
        totals = [p["score"] for p in GAME.view(state, None)["players"]]
        pending = state.pending_figure
        GAME.apply(state, seat, action)
        view = GAME.view(state, None)
        if action != CONFIRM:
            continue
        last = view["last_turn"]
        assert (last["seat"], [last["x"], last["y"]]) == (seat, view["last_placed"])
        assert last["figure"] == ({"kind": pending.kind, "feature": pending.feature} if pending else None)
        if not GAME.is_over(state):
            assert last["points"] == [p["score"] - t for p, t in zip(view["players"], totals, strict=True)]
            scored += any(last["points"])
        assert GAME.view(GAME.from_json(GAME.to_json(state)), None)["last_turn"] == last
    assert scored >= 3  # this seed closes a few roads and cities along the way
    assert all(sum(p["points"].values()) == p["score"] for p in GAME.view(state, None)["players"])
