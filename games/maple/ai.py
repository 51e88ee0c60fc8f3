"""AI players of Maple Valley, per level (see ``games/ai.py``): the generic ``easy`` and ``normal`` players,
and ``hard``, the generic search, each of whose copies of the state is first redealt by :func:`determinize`,
so that it plays on what its seat can see and not on the hidden order of the decks.

Everything on the table is public (``MapleGame.view``: every seat's hand, backpack, dawdle cards and favors,
the displays and discards). Hidden: the order of each row's deck (friends, favors, patches), of the dawdle
deck and of the sun tiles to come, which two sun tiles stay in the box, and the generator that shuffles a
discard back into its deck. A deck card one of the seat's options names (Lynx: the patch deck's top three)
is seen, and stays where it is.
"""

from __future__ import annotations

import random

from games.ai import GENERIC, Deadline, Factory, SearchAI
from games.core import Seat
from games.maple import GAME
from games.maple import data as D
from games.maple.engine import MapleState


def _shuffle_unseen(cards: list[str], seen: set[str], rng: random.Random) -> None:
    """Shuffle ``cards`` in place, those in ``seen`` staying at their positions."""
    slots = [n for n, card in enumerate(cards) if card not in seen]
    hidden = sorted(cards[n] for n in slots)  # the result depends on rng only, never on the real order
    rng.shuffle(hidden)
    for n, card in zip(slots, hidden, strict=True):
        cards[n] = card


def determinize(state: MapleState, seat: Seat, rng: random.Random) -> None:
    """Redeal, in place, what ``seat`` cannot see: each row's deck and the dawdle deck are shuffled (deck cards
    its options name stay put), the sun tiles to come are drawn again from those not seen (every tile but the
    sun of this hour and of the first; the suns of the hours between are not in the state, so they may come
    back: weaker than a player's memory, never more than the seat saw), and the generator is reseeded.
    Stepping back in the copy stops here: the turn's snapshot holds the real order."""
    seen: set[str] = set()
    if seat in GAME.to_act(state):
        seen = {part for action in GAME.legal_actions(state, seat) for part in action[1:] if isinstance(part, str)}
    for row in state.rows.values():
        _shuffle_unseen(row["deck"], seen, rng)
    state.dawdle_deck.sort()
    rng.shuffle(state.dawdle_deck)
    first = state.opening[0][1]["sun"] if state.opening else state.sun
    unseen = [tile for tile in D.SUN_TILES if tile not in (state.sun, first)]
    state.sun_deck = rng.sample(unseen, len(state.sun_deck))
    state.rng = random.Random(rng.randrange(2**63))  # the real generator would tell the next reshuffle
    state.undo_floor = len(state.turn_steps)
    state.listed = None  # the options listed above, for the position before the redeal


def _hard(seed: int, deadline: Deadline | None) -> SearchAI:
    return SearchAI(seed, deadline, determinize=determinize)


LEVELS: dict[str, Factory] = {"easy": GENERIC["easy"], "normal": GENERIC["normal"], "hard": _hard}

__all__ = ["LEVELS", "determinize"]
