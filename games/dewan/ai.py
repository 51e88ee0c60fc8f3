"""AI players of Dewan, per level (see ``games/ai.py``): the generic ``easy`` and ``normal`` players, and
``hard``, the generic search, each of whose copies of the state is first redealt by :func:`determinize`, so
that it plays on what its seat can see and not on the hidden order of the decks or the others' hands.

What a seat sees is what ``DewanGame.view`` shows it: the map, camps, the row, the discard (face up), the
story display, every seat's story tiles, tucked cards and hand size, and its own hand. Hidden: the order of
the terrain deck and of the story deck, the other players' hands, and the generator that shuffles the
discard back into the deck.
"""

from __future__ import annotations

import random

from games.ai import GENERIC, Deadline, Factory, SearchAI
from games.core import Seat
from games.dewan.engine import DewanState


def determinize(state: DewanState, seat: Seat, rng: random.Random) -> None:
    """Redeal, in place, what ``seat`` cannot see: the other players' hands are pooled with the terrain deck
    and dealt back at their sizes (sorted, as the engine keeps hands), the rest is the deck in a random
    order; the story deck is shuffled; the generator gets a seed drawn from ``rng``. (The placement searches
    cached on the state are keyed by the hand they searched: the redealt hands miss them.) What the seat sees is
    unchanged, and every card and tile stays in the game once."""
    others = [player for player in state.seats if player["seat"] != seat]
    pool = list(state.deck)
    for player in others:
        pool += player["hand"]
    pool.sort()  # the redeal depends on what the seat knows and on rng only, never on the real order
    rng.shuffle(pool)
    for player in others:
        size = len(player["hand"])
        player["hand"] = sorted(pool[:size])
        del pool[:size]
    state.deck = pool
    state.story_deck.sort()
    rng.shuffle(state.story_deck)
    state.rng = random.Random(rng.randrange(2**63))  # the real generator would tell the next reshuffle


def _hard(seed: int, deadline: Deadline | None) -> SearchAI:
    return SearchAI(seed, deadline, determinize=determinize)


LEVELS: dict[str, Factory] = {"easy": GENERIC["easy"], "normal": GENERIC["normal"], "hard": _hard}

__all__ = ["LEVELS", "determinize"]
