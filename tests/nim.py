"""A tiny game used only by the tests of the table service: players take 1-3 sticks in turn from a
pile; who takes the last stick wins. Small enough to reason about, complete under the contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.core import JSON, Event, Game, IllegalAction, OptionSpec, PlayerResult, Result, Seat, rank_players


@dataclass
class NimState:
    players: int
    pile: int
    turn: int = 0
    turns: int = 0
    winner: int | None = None
    eliminated: list[int] = field(default_factory=list[int])


class Nim(Game[NimState, int]):  # the state, and an action: how many sticks to take
    key = "nim"
    names = {"en": "Nim", "ru": "Ним"}
    min_players = 2
    max_players = 4
    option_specs = (OptionSpec("pile", "int", 10, minimum=1, maximum=100),)

    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> NimState:
        self.check_players(players)
        return NimState(players, self.parse_options(options)["pile"])

    def to_act(self, state: NimState) -> list[Seat]:
        return [] if self.is_over(state) else [state.turn]

    def legal_actions(self, state: NimState, seat: Seat) -> list[int]:
        return [] if seat not in self.to_act(state) else list(range(1, min(3, state.pile) + 1))

    def apply(self, state: NimState, seat: Seat, action: int) -> list[Event]:
        if self.is_over(state):
            raise IllegalAction("game_over")
        if seat != state.turn:
            raise IllegalAction("not_your_turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("take_range", count=action)
        state.pile -= action
        state.turns += 1
        events = [Event("took", {"seat": seat, "count": action, "left": state.pile})]
        if state.pile == 0:
            state.winner = seat
        else:
            self._advance(state)
        return events

    def _advance(self, state: NimState) -> None:
        for step in range(1, state.players + 1):
            candidate = (state.turn + step) % state.players
            if candidate not in state.eliminated:
                state.turn = candidate
                return

    def view(self, state: NimState, seat: Seat | None) -> JSON:
        return {"pile": state.pile, "turn": state.turn}

    def default_action(self, state: NimState, seat: Seat) -> int:
        return 1

    def eliminate(self, state: NimState, seat: Seat) -> list[Event]:
        state.eliminated.append(seat)
        alive = [s for s in range(state.players) if s not in state.eliminated]
        if len(alive) == 1:
            state.winner = alive[0]
        elif state.turn == seat:
            self._advance(state)
        return [Event("eliminated", {"seat": seat})]

    def is_over(self, state: NimState) -> bool:
        return state.winner is not None

    def result(self, state: NimState) -> Result:
        scores = {s: (1 if s == state.winner else 0,) for s in range(state.players)}
        ranks = rank_players(scores, state.eliminated)
        ranking = [PlayerResult(s, ranks[s], scores[s][0], {"win": scores[s][0]}, s in state.eliminated)
                   for s in sorted(ranks, key=lambda seat: ranks[seat])]
        return Result(ranking, state.turns)

    def to_json(self, state: NimState) -> JSON:
        return {"v": 1, "players": state.players, "pile": state.pile, "turn": state.turn, "turns": state.turns,
                "winner": state.winner, "eliminated": list(state.eliminated)}

    def from_json(self, data: JSON) -> NimState:
        return NimState(data["players"], data["pile"], data["turn"], data["turns"], data["winner"],
                        list(data["eliminated"]))

    def parse(self, text: str) -> int:
        count = text.strip().lower().removeprefix("take").strip()
        if not count.isdigit() or len(count) > 3:  # no int() of thousands of digits
            raise IllegalAction("notation", text=text[:100])
        return int(count)

    def format(self, action: int) -> str:
        return f"take {action}"


GAME = Nim()
