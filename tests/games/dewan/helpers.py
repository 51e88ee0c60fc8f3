"""Build Dewan positions by hand so a rule test starts exactly where it needs to.

Fixture F2 of the specification: 2 players, tiles A = S1 (seat 0), B = S2 (seat 1), C = N1, D = N2, no
rotation. Fixture F3: 3 players, S1 S2 S3 / N1 N2 N3, no rotation.
"""

from __future__ import annotations

from typing import Any

from games.dewan import GAME
from games.dewan import data as D
from games.dewan.engine import DewanState

F2_TILES = "S1:0,S2:0,N1:0,N2:0"
F3_TILES = "S1:0,S2:0,S3:0,N1:0,N2:0,N3:0"
F4_TILES = "S1:0,S2:0,S3:0,S4:0,N1:0,N2:0,N3:0,N4:0"


def fixture(players: int = 2, seed: int = 1) -> DewanState:
    """Seat 0 holds the Dewan token and is to act; no hand, no story tile, the first picks skipped."""
    tiles = {2: F2_TILES, 3: F3_TILES, 4: F4_TILES}[players]
    state = GAME.setup(players, {"tiles": tiles}, seed)
    for player in state.seats:
        state.deck += player["hand"]
        player["hand"] = []
    state.setup_order = []
    state.phase, state.actor, state.dewan = "turn", 0, 0
    return state


def take_card(state: DewanState, card: str) -> None:
    """Remove ``card`` from wherever it is (deck, row, discard, a hand)."""
    for pile in (state.deck, state.discard, *(p["hand"] for p in state.seats)):
        if card in pile:
            pile.remove(card)
            return
    if card in state.row:
        state.row[state.row.index(card)] = state.deck.pop(0)
        return
    raise AssertionError(f"{card} not found")


def give(state: DewanState, seat: int, *cards: str) -> None:
    for card in cards:
        take_card(state, card)
    state.seats[seat]["hand"] = sorted(state.seats[seat]["hand"] + list(cards))


def camp(state: DewanState, seat: int, *hexes: str) -> None:
    """Camps already placed (slots emptied) without paying: the test's starting position."""
    for hex_ in hexes:
        state.camps[hex_] = seat
        state.seats[seat]["camps"].append(hex_)
        state.seats[seat]["placed"] += 1


def tuck(state: DewanState, seat: int, *cards: str) -> None:
    for card in cards:
        take_card(state, card)
        state.seats[seat]["tucked"].append(card)


def stories(state: DewanState, seat: int, *tiles: str, done: bool = False) -> None:
    for tile in tiles:
        if tile in state.story_display:
            state.story_display.remove(tile)
            state.story_display.append(state.story_deck.pop())
        else:
            state.story_deck.remove(tile)
        state.seats[seat]["stories"].append([tile, done])


def play(state: DewanState, seat: int, *notations: str) -> list[Any]:
    events = []
    for text in notations:
        events += GAME.apply(state, seat, GAME.parse(text))
    return events


def place(state: DewanState, seat: int, hex_: str, discard: list[str] | tuple[str, ...] = (),
          given: dict[int, list[str]] | None = None) -> list[Any]:
    """Play a whole placement: ``camp hex`` then the picks not already forced, in card order."""
    events = play(state, seat, f"camp {hex_}")
    picks = sorted([(c, None) for c in discard] + [(c, s) for s, cards in (given or {}).items() for c in cards])
    for card, recipient in picks:
        if state.phase != "pay":
            break
        if [card, recipient] in state.pending["picks"]:
            continue
        events += play(state, seat, f"pay {card}" if recipient is None else f"give {card} {recipient + 1}")
    camp_event = next(e for e in events if e.code == "camp")
    assert camp_event.params["cards"] == " ".join(sorted(discard)), camp_event
    return events


def payments(state: DewanState, seat: int, hex_: str) -> set[str]:
    """Each reachable payment as text: ``d:c01,c16 g2:c17`` (players numbered from 1)."""
    out = set()
    for discards, gives, _ in GAME.payments(state, seat, hex_):
        out.add(" ".join([f"d:{','.join(discards)}", *(f"g{s + 1}:{','.join(c)}" for s, c in gives)]))
    return out


def codes(events: list[Any]) -> list[str]:
    return [e.code for e in events]


def legal(state: DewanState, seat: int) -> list[str]:
    return [GAME.format(a) for a in GAME.legal_actions(state, seat)]


def all_cards(state: DewanState) -> list[str]:
    cards = state.deck + state.discard + [c for c in state.row if c]
    for player in state.seats:
        cards += player["hand"] + player["tucked"]
    return cards


def all_stories(state: DewanState) -> list[str]:
    return state.story_deck + state.story_display + [t for p in state.seats for t, _ in p["stories"]]


assert len(D.CARDS) == 55
