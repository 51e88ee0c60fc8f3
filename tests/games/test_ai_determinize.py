"""The hard AI of Dewan and Maple Valley plays on what its seat can see (games/dewan/ai.py, games/maple/ai.py):
a determinized copy shows the seat the same view, keeps every card in the game once, redeals the hidden order
and hands, still plays to the end, and the hard player decides alike on two positions that differ only in
what its seat cannot see."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from games import registry
from games.ai import SearchAI, make_player, play_out
from games.dewan import data as DD
from games.dewan.ai import determinize as dewan_determinize
from games.dewan.engine import DewanState
from games.maple import data as MD
from games.maple.ai import determinize as maple_determinize
from games.maple.engine import MapleState
from tests.games.test_ai_levels import positions  # states along a random game

Determinize = Any


def spent() -> bool:
    """A deadline already past: the hard player searches as little as it may (cheap, still deterministic)."""
    return True


def copy_of(key: str, state: Any) -> Any:
    game = registry.get(key)
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


# -- what each game keeps -----------------------------------------------------------------------------
def dewan_cards(state: DewanState) -> Counter[str]:
    cards = Counter(state.deck + state.discard + [c for c in state.row if c])
    for player in state.seats:
        cards.update(player["hand"] + player["tucked"])
    return cards


def dewan_stories(state: DewanState) -> Counter[str]:
    return Counter(state.story_deck + state.story_display + [t for p in state.seats for t, _ in p["stories"]])


def dewan_hidden(state: DewanState, seat: int) -> Any:
    return (state.deck, state.story_deck, [p["hand"] for p in state.seats if p["seat"] != seat])


def maple_cards(state: MapleState) -> Counter[str]:
    cards: Counter[str] = Counter()
    for row in state.rows.values():
        cards.update(row["deck"] + row["display"] + row["discard"])
    for p in state.seats:
        cards.update(p["hand"] + p["backpack"] + p["favors"] + p["crafted"] + p["keep"] + p["patches"])
        cards.update(f"dawdle:{kind}" for kind in p["dawdle"])
    cards.update(f"dawdle:{kind}" for kind in state.dawdle_deck)
    return cards


def maple_hidden(state: MapleState, seat: int) -> Any:
    return ({name: row["deck"] for name, row in state.rows.items()}, state.dawdle_deck, state.sun_deck)


GAMES: dict[str, tuple[Determinize, int]] = {"dewan": (dewan_determinize, 3), "maple": (maple_determinize, 3)}


def check_conserved(key: str, before: Any, after: Any) -> None:
    if key == "dewan":
        assert dewan_cards(after) == dewan_cards(before)
        assert sorted(dewan_cards(after)) == sorted(DD.CARDS)  # each of the 55 once
        assert dewan_stories(after) == dewan_stories(before)
        assert [len(p["hand"]) for p in after.seats] == [len(p["hand"]) for p in before.seats]
        assert all(p["hand"] == sorted(p["hand"]) for p in after.seats)
    else:
        assert maple_cards(after) == maple_cards(before)
        assert len(after.sun_deck) == len(before.sun_deck) == len(set(after.sun_deck))
        assert after.sun not in after.sun_deck and after.opening[0][1]["sun"] not in after.sun_deck
        assert set(after.sun_deck) <= set(MD.SUN_TILES)


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("players", [2, 3])
def test_the_seat_sees_the_same_and_every_card_stays(key: str, players: int) -> None:
    game = registry.get(key)
    determinize = GAMES[key][0]
    for n, state in enumerate(positions(key, players, seed=players, every=7, limit=12)):
        for seat in range(players):
            trial = copy_of(key, state)
            determinize(trial, seat, random.Random(n * 10 + seat))
            assert game.view(trial, seat) == game.view(state, seat), (key, n, seat)
            assert game.legal_actions(trial, seat) == [a for a in game.legal_actions(state, seat)
                                                       if game.format(a) != "undo"]
            check_conserved(key, state, trial)
            assert game.to_json(game.from_json(json.loads(json.dumps(game.to_json(trial))))) == game.to_json(trial)


@pytest.mark.parametrize("key", list(GAMES))
def test_what_the_seat_cannot_see_is_redealt(key: str) -> None:
    game = registry.get(key)
    determinize = GAMES[key][0]
    hidden = dewan_hidden if key == "dewan" else maple_hidden
    state = positions(key, 3, seed=5, every=11, limit=2)[-1]
    seat = game.to_act(state)[0]
    redealt = []
    for seed in range(8):
        trial = copy_of(key, state)
        determinize(trial, seat, random.Random(seed))
        redealt.append(json.dumps(hidden(trial, seat)))
    assert len(set(redealt)) == len(redealt)  # each seed its own deal
    # Each hidden part changes for some seed, one by one (not only one of them).
    for part in range(3):
        assert any(json.loads(r)[part] != json.loads(json.dumps(hidden(state, seat)))[part] for r in redealt), part


def test_dewan_the_other_hands_are_redealt_and_the_own_is_kept() -> None:
    state = positions("dewan", 3, seed=2, every=10, limit=2)[-1]
    seat = state.actor
    assert seat is not None
    others = [p["hand"] for p in state.seats if p["seat"] != seat]
    assert all(others)
    changed = 0
    for seed in range(6):
        trial = copy_of("dewan", state)
        dewan_determinize(trial, seat, random.Random(seed))
        assert trial.seats[seat]["hand"] == state.seats[seat]["hand"]
        changed += [p["hand"] for p in trial.seats if p["seat"] != seat] != others
        assert trial.rng.getstate() != state.rng.getstate()  # the next reshuffle is not the real one
    assert changed == 6


def test_maple_a_deck_card_the_seat_is_offered_stays_on_top() -> None:
    """Lynx: the seat chooses among the patch deck's top three, which it sees; the rest is shuffled."""
    state = positions("maple", 2, seed=3, every=5, limit=1)[0]
    game = registry.get("maple")
    seat = game.to_act(state)[0]
    state.ctx["tasks"].insert(0, ["patch", True])
    state.listed = None
    top = state.rows["patches"]["deck"][:3]
    offered = game.legal_actions(state, seat)
    assert all(("patch", pid) in offered for pid in top)
    rest = state.rows["patches"]["deck"][3:]
    shuffled = 0
    for seed in range(5):
        trial = copy_of("maple", state)
        maple_determinize(trial, seat, random.Random(seed))
        assert trial.rows["patches"]["deck"][:3] == top
        assert sorted(trial.rows["patches"]["deck"][3:]) == sorted(rest)
        shuffled += trial.rows["patches"]["deck"][3:] != rest
        game.apply(trial, seat, ("patch", top[1]))  # the option listed before the redeal is still legal
    assert shuffled == 5


def test_maple_the_copy_does_not_step_back_to_the_real_order() -> None:
    game = registry.get("maple")
    for state in positions("maple", 2, seed=8, every=3, limit=20):
        seat = game.to_act(state)[0]
        trial = copy_of("maple", state)
        maple_determinize(trial, seat, random.Random(1))
        assert ("undo",) not in game.legal_actions(trial, seat)


@pytest.mark.parametrize("key", list(GAMES))
def test_a_redealt_position_plays_to_the_end(key: str) -> None:
    game = registry.get(key)
    determinize = GAMES[key][0]
    for n, state in enumerate(positions(key, 3, seed=11, every=17, limit=4)):
        seat = game.to_act(state)[0]
        trial = copy_of(key, state)
        determinize(trial, seat, random.Random(n))

        cards = dewan_cards(trial) if key == "dewan" else maple_cards(trial)

        def check(_seat: int, _action: Any, _events: Any, trial: Any = trial, cards: Counter[str] = cards) -> None:
            assert (dewan_cards(trial) if key == "dewan" else maple_cards(trial)) == cards

        result = play_out(game, trial, seed=n, on_action=check)
        assert game.is_over(trial) and len(result.ranking) == 3


@pytest.mark.parametrize("key", list(GAMES))
def test_hard_is_legal_deterministic_and_blind_to_what_it_cannot_see(key: str) -> None:
    game = registry.get(key)
    determinize = GAMES[key][0]
    player = make_player(key, "hard", 1)
    assert isinstance(player, SearchAI) and player.determinize is determinize
    hidden = dewan_hidden if key == "dewan" else maple_hidden
    for n, state in enumerate(positions(key, 2, seed=6, every=9, limit=6)):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        # A twin: the same for the seat, its hidden cards dealt otherwise.
        twin = copy_of(key, state)
        determinize(twin, seat, random.Random(100 + n))
        assert json.dumps(hidden(twin, seat)) != json.dumps(hidden(state, seat))
        for seed in (1, 2):
            choice = make_player(key, "hard", seed, deadline=spent).choose(game, copy_of(key, state), seat)
            assert choice in legal
            assert make_player(key, "hard", seed, deadline=spent).choose(game, copy_of(key, state), seat) == choice
            assert make_player(key, "hard", seed, deadline=spent).choose(game, twin, seat) == choice
        if n < 2:  # a longer search too: every iteration's copy is redealt the same way from both
            longer = [SearchAI(3, iterations=40, determinize=determinize).choose(game, copy_of(key, s), seat)
                      for s in (state, twin)]
            assert longer[0] == longer[1] and longer[0] in legal
