"""A small game with hidden hands, used only by tests of hidden information: each player is dealt three
gems (private); in turn, each plays one face up and scores its value (its place in GEMS, from 1). When
the hands are empty, the highest total wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.core import Event, Game, IllegalAction, PlayerResult, Result, rank_players

GEMS = ("amethyst", "beryl", "citrine", "diamond", "emerald", "fluorite", "garnet", "hematite", "iolite",
        "jade", "kunzite", "lapis")
HAND_SIZE = 3


@dataclass
class GemsState:
    hands: list[list[str]]
    played: list[list[str]] = field(default_factory=list)
    turn: int = 0
    turns: int = 0
    eliminated: list[int] = field(default_factory=list)


class Gems(Game):
    key = "gems"
    names = {"en": "Gems", "ru": "Самоцветы"}
    min_players = 2
    max_players = 4
    option_specs = ()
    private_views = True

    def setup(self, players, options, seed):
        self.check_players(players)
        self.parse_options(options)
        deck = list(GEMS)
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(players)]
        return GemsState(hands, [[] for _ in range(players)])

    def is_over(self, state):
        return all(not hand for seat, hand in enumerate(state.hands) if seat not in state.eliminated)

    def to_act(self, state):
        return [] if self.is_over(state) else [state.turn]

    def legal_actions(self, state, seat):
        return list(state.hands[seat]) if seat in self.to_act(state) else []

    def apply(self, state, seat, action):
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn")
        if action not in state.hands[seat]:
            raise IllegalAction("not_in_hand", gem=action)
        state.hands[seat].remove(action)
        state.played[seat].append(action)
        state.turns += 1
        self._advance(state)
        return [Event("played", {"seat": seat, "gem": action})]

    def _advance(self, state):
        for step in range(1, len(state.hands) + 1):
            candidate = (state.turn + step) % len(state.hands)
            if candidate not in state.eliminated and state.hands[candidate]:
                state.turn = candidate
                return

    def view(self, state, seat):
        public = {"played": state.played, "hand_sizes": [len(h) for h in state.hands], "turn": state.turn}
        if seat is not None:
            public["hand"] = list(state.hands[seat])
        return public

    def default_action(self, state, seat):
        return state.hands[seat][0]

    def eliminate(self, state, seat):
        state.eliminated.append(seat)
        if state.turn == seat:
            self._advance(state)
        return [Event("eliminated", {"seat": seat})]

    def result(self, state):
        totals = {s: sum(GEMS.index(g) + 1 for g in played) for s, played in enumerate(state.played)}
        ranks = rank_players({s: (v,) for s, v in totals.items()}, state.eliminated)
        return Result([PlayerResult(s, ranks[s], totals[s], {"gems": totals[s]}, s in state.eliminated)
                       for s in sorted(ranks, key=ranks.get)], state.turns)

    def to_json(self, state):
        return {"hands": state.hands, "played": state.played, "turn": state.turn, "turns": state.turns,
                "eliminated": state.eliminated}

    def from_json(self, data):
        return GemsState([list(h) for h in data["hands"]], [list(p) for p in data["played"]], data["turn"],
                         data["turns"], list(data["eliminated"]))

    def parse(self, text):
        gem = text.strip().lower().removeprefix("play").strip()
        if gem not in GEMS:
            raise IllegalAction("notation", text=text[:100])
        return gem

    def format(self, action):
        return f"play {action}"


GAME = Gems()
