"""Dewan rules engine: camps on a hex map, terrain cards, story tiles.

A turn is ``take 3`` (``take1 5`` when no two neighbours are left), a camp, or ``pass`` when nothing else is
possible. A camp is built in steps by the same seat: ``camp C6`` (the destination), then the cards that pay a
route to it, one per step in card-number order (``pay c16`` to discard, ``give c17 2`` for the card that goes
to player 2 for crossing their camp), then the reward of the emptied tribe-board slot (``story t07`` /
``story deck`` or ``tuck c16``). Steps with a single possibility are played by the engine, and the camp is
placed as soon as the cards picked pay some route. Setup adds one ``story`` action per player.

The route only witnesses that a payment is legal: the engine searches routes by their cost (the multiset of
cards they need), keeps the minimal ones per destination and reports one route with the placement.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from games.core import (
    JSON,
    Event,
    Game,
    IllegalAction,
    InvalidOptions,
    OptionSpec,
    PlayerResult,
    Result,
    Seat,
    rank_players,
    rng_from_json,
    rng_to_json,
)
from games.dewan import data as D
from games.dewan import search as S
from games.dewan.board import Board, Layout

# (kind, *arguments), e.g. ("take", 3), ("camp", "C6"), ("give", "c17", 1), ("pass",): ``parse_action`` lists them.
Action = tuple[Any, ...]
Item = tuple[str, "int | None"]  # a cost item: terrain (or "*") and the seat its card goes to (None: discard)
Pick = tuple[str, "int | None"]  # a card picked in payment and the seat it goes to (None: discard)
# A payment as listed for a panel: (discarded cards, ((seat, cards given), ...), route).
Payment = tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...], list[str]]
ANY = S.ANY
KINDS = S.KINDS


# story tile -> ((resource, count) pairs, terrain requirements)
_NEEDS = {t: (tuple(Counter(n for n in needs if n in D.RESOURCES).items()), [n for n in needs if n in D.LAND])
          for t, (needs, _, _) in D.STORIES.items()}
# a land terrain or a card -> the terrains it shows (as a story provider)
_SHOWS = {**{t: frozenset(t) for t in D.LAND}, **{c: frozenset(t) for c, (t, _) in D.CARDS.items()}}


def _match(needs: list[str], providers: list[frozenset[str]]) -> bool:
    """Whether each terrain need gets its own provider (a camp, or a tucked card showing that terrain)."""
    owner: dict[int, int] = {}

    def augment(need: int, seen: set[int]) -> bool:
        for index, terrains in enumerate(providers):
            if index in seen or needs[need] not in terrains:
                continue
            seen.add(index)
            if index not in owner or augment(owner[index], seen):
                owner[index] = need
                return True
        return False

    return len(needs) <= len(providers) and all(augment(i, set()) for i in range(len(needs)))


def _position(state: DewanState, seat: int) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """What a placement search depends on besides the map: the seat's hand and every camp (hexes, owners)."""
    camps = state.camps
    return tuple(state.seats[seat]["hand"]), tuple(camps), tuple(camps.values())


def _split(picks: list[Pick]) -> tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]:
    """Picks -> (discarded cards, ((seat, cards given), ...)), sorted."""
    gives: dict[int, list[str]] = {}
    for card, recipient in picks:
        if recipient is not None:
            gives.setdefault(recipient, []).append(card)
    return (tuple(sorted(c for c, r in picks if r is None)),
            tuple((s, tuple(sorted(gives[s]))) for s in sorted(gives)))


# -- state ----------------------------------------------------------------------------------------
def _new_player(seat: int) -> JSON:
    return {
        "seat": seat,
        "hand": [],
        "placed": 0,  # camps moved from the tribe board (slots emptied, left to right)
        "stories": [],  # [tile, completed] in story places 1..5
        "tucked": [],
        "berries": 0,
        "camps": [],  # hexes of the placed camps, in order (the start camp is not listed)
    }


@dataclass
class DewanState:
    players: int
    layout: list[list[Any]]  # [tile, rotation] per tile letter
    rng: random.Random
    seats: list[JSON]
    deck: list[str] = field(default_factory=list[str])  # the last card is the top
    discard: list[str] = field(default_factory=list[str])
    row: list[str | None] = field(default_factory=list[str | None])  # position 1 (next to the deck) first
    story_deck: list[str] = field(default_factory=list[str])  # the last tile is the top
    story_display: list[str] = field(default_factory=list[str])
    camps: dict[str, int] = field(default_factory=dict[str, int])  # hex -> seat (start camps included)
    berries: list[str] = field(default_factory=list[str])  # hexes still holding a berry token
    dewan: int = 0  # the Dewan token holder: every round starts with this seat
    actor: int | None = None
    phase: str = "first_story"  # first_story, turn, pay, story, tuck, over
    pending: JSON = field(default_factory=dict[str, Any])  # the camp being paid: hex, picks [[card, seat|None]]
    setup_order: list[int] = field(default_factory=list[int])  # seats still to take their first story tile
    round: int = 1
    final_round: bool = False
    round_passes: list[int] = field(default_factory=list[int])
    eliminated: list[int] = field(default_factory=list[int])
    turns: int = 0
    actions: int = 0
    last: JSON = field(default_factory=dict[str, Any])  # the last placement: seat, route
    # The turn under way (its seat, the mover's total when it began, what it did so far) and the last finished
    # turn, public facts only (no card that went to a hand): the board's header tells them.
    recent: JSON = field(default_factory=dict[str, Any])
    last_turn: JSON = field(default_factory=dict[str, Any])
    opening: list[list[Any]] = field(default_factory=list[list[Any]])  # [code, params] of the setup events
    # Placement searches of the current position (not saved): legal_actions and apply share them.
    cache: dict[Any, Any] = field(default_factory=dict[Any, Any], repr=False, compare=False)

    @property
    def board(self) -> Board:
        return self.grid.board

    @property
    def grid(self) -> S.Grid:
        """The map and its bitsets, kept with the position's searches (the layout never changes)."""
        grid = self.cache.get("grid")
        if grid is None:
            grid = self.cache["grid"] = S.grid_of(self.players, tuple((t, r) for t, r in self.layout))
        return grid

    @property
    def over(self) -> bool:
        return self.phase == "over"


def parse_tiles(raw: str, players: int, rng: random.Random) -> Layout:
    """``tiles`` option: empty for a random map, or one ``tile[:rotation]`` per letter (A, B, ...)."""
    slots = D.LAYOUTS[players]
    text = str(raw or "").strip().upper()
    if not text:
        starts = rng.sample(D.START_TILES, sum(1 for s in slots if s[3]))
        neutrals = rng.sample(D.NEUTRAL_TILES, sum(1 for s in slots if not s[3]))
        return tuple((starts.pop(0) if s[3] else neutrals.pop(0), rng.randrange(6)) for s in slots)
    parts = [p for p in text.replace(" ", "").split(",") if p]
    if len(parts) != len(slots):
        raise InvalidOptions("tiles_count", value=raw, count=len(slots))
    layout: list[tuple[str, int]] = []
    for part, slot in zip(parts, slots, strict=True):
        tile, _, rotation = part.partition(":")
        allowed = D.START_TILES if slot[3] else D.NEUTRAL_TILES
        if tile not in allowed or (rotation and rotation not in "012345") or len(rotation) > 1:
            raise InvalidOptions("tiles_bad", value=part, letter=slot[0])
        layout.append((tile, int(rotation or 0)))
    if len({t for t, _ in layout}) != len(layout):
        raise InvalidOptions("tiles_bad", value=raw, letter="-")
    return tuple(layout)


# -- notation -------------------------------------------------------------------------------------
def format_action(action: Action) -> str:
    kind = action[0]
    if kind == "pass":
        return "pass"
    if kind == "give":
        return f"give {action[1]} {action[2] + 1}"
    return f"{kind} {action[1]}"


def parse_action(text: str) -> Action:
    raw = " ".join(str(text)[:200].strip().lower().split())
    if raw == "pass":
        return ("pass",)
    parts = raw.split(" ")
    head, args = parts[0], parts[1:]
    if len(args) == 1:
        arg = args[0]
        if head == "take" and arg in ("1", "2", "3", "4", "5"):
            return ("take", int(arg))
        if head == "take1" and arg in ("1", "2", "3", "4", "5", "6"):
            return ("take1", int(arg))
        if head == "camp" and re.fullmatch(r"[a-h][0-6]", arg):
            return ("camp", arg.upper())
        if head == "story" and (arg == "deck" or arg in D.STORIES):
            return ("story", arg)
        if head in ("pay", "tuck") and arg in D.CARDS:
            return (head, arg)
    if head == "give" and len(args) == 2 and args[0] in D.CARDS and args[1] in ("1", "2", "3", "4"):
        return ("give", args[0], int(args[1]) - 1)
    raise IllegalAction("notation", text=str(text)[:100])


_WORDS = {
    "en": {"B": "badlands", "M": "mountain", "D": "desert", "F": "forest", "W": "water", "fire": "fire",
           "berry": "berry", "art": "artifact", "pig": "pigment", "cry": "crystal"},
    "ru": {"B": "пустошь", "M": "горы", "D": "пустыня", "F": "лес", "W": "вода", "fire": "огонь",
           "berry": "ягода", "art": "артефакт", "pig": "пигмент", "cry": "кристалл"},
}


PAYMENTS_LIMIT = 200  # payments listed per destination by default: more than a panel shows (75)


# -- the game -------------------------------------------------------------------------------------
class DewanGame(Game[DewanState, Action]):
    key = "dewan"
    names = {"en": "Dewan", "ru": "Деван"}
    min_players = 2
    max_players = 4
    json_version = 1
    private_views = True
    option_specs = (OptionSpec("tiles", "text", "", examples=("S1:0,S2:0,N1:0,N2:0",)),)

    # -- setup ------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> DewanState:
        self.check_players(players)
        opts = self.parse_options(options)
        rng = random.Random(seed)
        layout = parse_tiles(opts["tiles"], players, rng)
        state = DewanState(players=players, layout=[list(t) for t in layout], rng=rng,
                           seats=[_new_player(s) for s in range(players)])
        board = state.board
        state.camps = {hex_: seat for seat, hex_ in enumerate(board.starts)}
        state.berries = list(board.berry_hexes)
        state.story_deck = list(D.STORY_IDS)
        rng.shuffle(state.story_deck)
        state.story_display = [state.story_deck.pop() for _ in range(D.STORY_DISPLAY)]
        state.deck = list(D.CARD_IDS)
        rng.shuffle(state.deck)
        state.row = [state.deck.pop() for _ in range(D.ROW_SIZE)]
        for player in state.seats:
            player["hand"] = sorted(state.deck.pop() for _ in range(D.START_HAND))
        state.dewan = rng.randrange(players)
        # In reverse turn order each player takes a first story tile.
        state.setup_order = [(state.dewan - k) % players for k in range(1, players + 1)]
        state.actor = state.setup_order[0]
        events = [Event("dewan", {"seat": state.dewan, "map": " ".join(f"{t}:{r}" for t, r in layout)})]
        state.opening = [[e.code, dict(e.params)] for e in events]
        return state

    def initial_events(self, state: DewanState) -> list[Event]:
        return [Event(code, dict(params)) for code, params in state.opening]

    # -- contract ---------------------------------------------------------------------------------
    def to_act(self, state: DewanState) -> list[Seat]:
        return [] if state.over or state.actor is None else [state.actor]

    def legal_actions(self, state: DewanState, seat: Seat) -> list[Action]:
        if state.over or state.actor != seat:
            return []
        if state.phase in ("first_story", "story"):
            return self._story_options(state)
        if state.phase == "tuck":
            return [("tuck", c) for c in sorted(set(state.seats[seat]["hand"]))]
        if state.phase == "pay":
            return [("pay", c) if r is None else ("give", c, r) for c, r in self._pending_options(state, seat)]
        actions = self._take_options(state)
        if state.seats[seat]["placed"] < D.SLOTS:
            actions += [("camp", h) for h in self.destinations(state, seat)]
        return actions or [("pass",)]

    def apply(self, state: DewanState, seat: Seat, action: Action) -> list[Event]:
        if state.over:
            raise IllegalAction("game_over")
        if state.actor != seat:
            raise IllegalAction("not_your_turn")
        self._check(state, seat, action)
        events: list[Event] = []
        if state.phase in ("turn", "first_story"):  # a turn's first action
            state.recent = {"seat": seat, "base": self._total(state, seat), "did": {}}
        turns = state.turns
        self._apply(state, seat, action, events)
        self._note_turn(state, seat, events, finished=state.turns > turns)
        return events

    def _apply(self, state: DewanState, seat: Seat, action: Action, events: list[Event]) -> None:
        state.actions += 1
        kind = action[0]
        if kind == "story":
            self._take_story(state, seat, action[1], events)
            if state.phase == "first_story":
                state.turns += 1  # each first pick is a turn of its own (the clock, one board per turn)
                state.setup_order.pop(0)
                if state.setup_order:
                    state.actor = state.setup_order[0]
                else:
                    state.phase, state.actor = "turn", state.dewan
                    events.append(Event("round_start", {"round": state.round, "seat": state.dewan}))
            else:
                self._end_turn(state, events)
        elif kind == "tuck":
            self._tuck(state, seat, action[1], events)
            self._end_turn(state, events)
        elif kind in ("take", "take1"):
            self._take_cards(state, seat, action, events)
            self._end_turn(state, events)
        elif kind == "camp":
            state.phase = "pay"
            state.pending = {"hex": action[1], "picks": []}
            self._settle_payment(state, seat, events)
        elif kind in ("pay", "give"):
            state.pending["picks"].append([action[1], action[2] if kind == "give" else None])
            self._settle_payment(state, seat, events)
        else:  # pass
            state.round_passes.append(seat)
            events.append(Event("passed", {"seat": seat}))
            self._end_turn(state, events)

    def _total(self, state: DewanState, seat: int) -> int:
        return sum(self.breakdowns(state)[seat].values())

    def _note_turn(self, state: DewanState, seat: int, events: list[Event], finished: bool) -> None:
        """Fold the events of an action into the turn under way; a finished turn becomes ``last_turn`` with
        the points it made (the mover's total now minus at its start)."""
        if state.recent.get("seat") != seat:
            return  # a turn begun before this field existed
        did = state.recent["did"]
        for event in events:
            if event.params.get("seat") != seat:
                continue
            if event.code == "took":  # positions and terrains only: the cards are now in a hand
                did["take"] = event.params["position"]
                did["terrains"] = ["".join(D.CARDS[c][0]) for c in event.params["cards"].split()]
            elif event.code == "camp":
                did["camp"] = event.params["hex"]
            elif event.code in ("story_taken", "story_drawn"):
                did["story"] = event.params["tile"]
            elif event.code == "tucked":
                did["tuck"] = event.params["card"]
            elif event.code == "story_completed":
                did.setdefault("completed", []).append(event.params["tile"])
            elif event.code in ("berry", "passed", "last_camp"):
                did[event.code] = True
        if finished:
            state.last_turn = {"seat": seat, **did, "points": self._total(state, seat) - state.recent["base"]}
            state.recent = {}

    def _check(self, state: DewanState, seat: Seat, given: object) -> None:
        """Raise the most helpful error for an action that is not legal now (``apply`` may be handed anything)."""
        if not isinstance(given, tuple):
            raise IllegalAction("not_allowed", action=str(given))
        action = cast(Action, given)
        if not action:
            raise IllegalAction("not_allowed", action=str(action))
        kind = action[0]
        phase = state.phase
        expected = {"first_story": ("story",), "story": ("story",), "tuck": ("tuck",), "pay": ("pay", "give"),
                    "turn": ("take", "take1", "camp", "pass")}[phase]
        if kind not in expected:
            raise IllegalAction("wrong_step", step=phase, action=self._safe_format(action))
        if kind == "camp":
            self._check_camp(state, seat, action)
            return
        options = self._take_options(state) if kind in ("take", "take1") else self.legal_actions(state, seat)
        if action in options:
            return
        if kind == "take":
            raise IllegalAction("no_pair", position=action[1] if len(action) > 1 else "?")
        if kind == "take1":
            raise IllegalAction("take_one", position=action[1] if len(action) > 1 else "?")
        if kind == "story":
            raise IllegalAction("story_unavailable", tile=action[1] if len(action) > 1 else "?")
        if kind in ("tuck", "pay", "give"):
            card = action[1] if len(action) > 1 else "?"
            if card not in state.seats[seat]["hand"]:
                raise IllegalAction("not_in_hand", card=card)
            raise IllegalAction("card_not_usable" if kind != "tuck" else "not_allowed",
                                card=card, action=self._safe_format(action))
        if kind == "pass":
            raise IllegalAction("cannot_pass")
        raise IllegalAction("not_allowed", action=self._safe_format(action))

    def _check_camp(self, state: DewanState, seat: Seat, action: Action) -> None:
        if len(action) != 2 or not isinstance(action[1], str):
            raise IllegalAction("not_allowed", action=str(action))
        hex_ = action[1]
        board = state.board
        if state.seats[seat]["placed"] >= D.SLOTS:
            raise IllegalAction("no_camp_left")
        if hex_ not in board.terrain:
            raise IllegalAction("no_hex", hex=hex_)
        if board.terrain[hex_] == "W":
            raise IllegalAction("water", hex=hex_)
        if hex_ in state.camps:
            raise IllegalAction("occupied", hex=hex_)
        if hex_ not in self.destinations(state, seat):
            raise IllegalAction("no_route", hex=hex_)

    def default_action(self, state: DewanState, seat: Seat) -> Action:
        if state.phase == "turn" and state.actor == seat and not state.over:
            takes = self._take_options(state)  # listed first: no need to search the placements
            if takes:
                return takes[0]
        options = self.legal_actions(state, seat)
        if not options:
            raise IllegalAction("not_your_turn")
        return options[0]  # the first pair of the row, the first display tile, the first hand card

    def eliminate(self, state: DewanState, seat: Seat) -> list[Event]:
        events: list[Event] = []
        if state.over or seat in state.eliminated:
            return events
        state.eliminated.append(seat)
        events.append(Event("eliminated", {"seat": seat}))
        active = [s for s in range(state.players) if s not in state.eliminated]
        if len(active) <= 1:
            self._finish(state, events)
            return events
        if state.phase == "first_story":
            was_actor = state.actor == seat
            state.setup_order = [s for s in state.setup_order if s != seat]
            if was_actor:
                if state.setup_order:
                    state.actor = state.setup_order[0]
                else:
                    state.phase, state.actor = "turn", state.dewan
                    if state.dewan in state.eliminated:
                        self._next_seat(state, events)
        elif state.actor == seat:
            state.phase, state.pending = "turn", {}
            self._next_seat(state, events)
        return events

    def is_over(self, state: DewanState) -> bool:
        return state.over

    def turn_number(self, state: DewanState) -> int:
        return state.turns

    def result(self, state: DewanState) -> Result:
        breakdowns = self.breakdowns(state)
        keys = {seat: (sum(b.values()), len(state.seats[seat]["hand"])) for seat, b in breakdowns.items()}
        ranks = rank_players(keys, state.eliminated)
        ranking = sorted(
            (PlayerResult(seat, ranks[seat], sum(b.values()), b, seat in state.eliminated)
             for seat, b in breakdowns.items()),
            key=lambda p: (p.rank, p.seat),
        )
        return Result(ranking=ranking, turns=state.turns)

    # -- scoring ----------------------------------------------------------------------------------
    def fire(self, state: DewanState, seat: int) -> int:
        player = state.seats[seat]
        fire = sum(D.STORIES[t][2] for t, done in player["stories"] if done)
        fire += sum(1 for c in player["tucked"] if D.CARDS[c][1] == "fire")
        return fire + (D.LAST_SLOT_FIRE if player["placed"] >= D.SLOTS else 0)

    def groups(self, state: DewanState, seat: int) -> list[list[str]]:
        """The connected groups of the seat's camps (start camp included), largest first."""
        board = state.board
        own = {h for h, s in state.camps.items() if s == seat}
        seen: set[str] = set()
        out: list[list[str]] = []
        for hex_ in sorted(own):
            if hex_ in seen:
                continue
            group: list[str] = []
            stack = [hex_]
            seen.add(hex_)
            while stack:
                current = stack.pop()
                group.append(current)
                for other in board.neighbours[current]:
                    if other in own and other not in seen:
                        seen.add(other)
                        stack.append(other)
            out.append(sorted(group))
        return sorted(out, key=lambda g: (-len(g), g))

    def breakdowns(self, state: DewanState) -> dict[int, dict[str, int]]:
        fires = {seat: self.fire(state, seat) for seat in range(state.players)}
        top = max(fires.values())
        out: dict[int, dict[str, int]] = {}
        for seat, player in enumerate(state.seats):
            berry_symbols = sum(1 for c in player["tucked"] if D.CARDS[c][1] == "berry")
            out[seat] = {
                "story": sum(D.STORIES[t][1] for t, done in player["stories"] if done),
                "fire": fires[seat],
                "fire_bonus": D.FIRE_MAJORITY if top >= 1 and fires[seat] == top else 0,
                "groups": D.GROUP_POINTS * sum(1 for g in self.groups(state, seat) if len(g) >= 2),
                "berries": D.BERRY_POINTS * (player["berries"] + berry_symbols),
            }
        return out

    # -- story requirements -----------------------------------------------------------------------
    def resources(self, state: DewanState, seat: int) -> Counter[str]:
        """Resource sources of a seat: printed symbols touching its camps (each once) and tucked symbols."""
        board = state.board
        touching, symbols = board.touching, board.symbols
        printed: set[int] = set()
        for hex_, owner in state.camps.items():
            if owner == seat:
                printed.update(touching[hex_])
        count = Counter[str]()
        for index in printed:
            count[symbols[index][2]] += 1
        for card in state.seats[seat]["tucked"]:
            symbol = D.CARDS[card][1]
            if symbol in D.RESOURCES:
                count[symbol] += 1
        return count

    def story_met(self, state: DewanState, seat: int, tile: str, resources: Counter[str] | None = None,
                  providers: list[frozenset[str]] | None = None) -> bool:
        wanted, lands = _NEEDS[tile]
        resources = self.resources(state, seat) if resources is None else resources
        if any(resources[r] < k for r, k in wanted):
            return False
        return _match(lands, self.providers(state, seat) if providers is None else providers)

    def providers(self, state: DewanState, seat: int) -> list[frozenset[str]]:
        """What can meet a story tile's terrains: each land camp of the seat, and each tucked card."""
        terrain = state.board.terrain
        out = [_SHOWS[terrain[h]] for h, s in state.camps.items() if s == seat and terrain[h] in D.LAND]
        return out + [_SHOWS[c] for c in state.seats[seat]["tucked"]]

    # -- view -------------------------------------------------------------------------------------
    def view(self, state: DewanState, seat: Seat | None) -> JSON:
        board = state.board
        breakdowns = self.breakdowns(state)
        view: JSON = {
            "game": self.key,
            "players": state.players,
            "phase": state.phase,
            "actor": state.actor,
            "round": state.round,
            "dewan": state.dewan,
            "final_round": state.final_round,
            "over": state.over,
            "eliminated": list(state.eliminated),
            "map": {
                "tiles": [list(t) for t in board.tiles],
                "hexes": [[h, *board.coords[h], board.terrain[h]] for h in board.labels],
                "symbols": [list(s) for s in board.symbols],
                "berry_hexes": list(board.berry_hexes),
                "starts": list(board.starts),
            },
            "camps": dict(state.camps),
            "berries": list(state.berries),
            "row": list(state.row),
            "deck_count": len(state.deck),
            "discard": list(state.discard),  # face up
            "story_display": list(state.story_display),
            "story_deck_count": len(state.story_deck),
            "seats": [
                {
                    "seat": p["seat"],
                    "hand_count": len(p["hand"]),
                    "camps_left": D.SLOTS - p["placed"],
                    "next_reward": D.SLOT_REWARDS[p["placed"]] if p["placed"] < D.SLOTS else None,
                    "stories": [list(s) for s in p["stories"]],
                    "tucked": list(p["tucked"]),
                    "berries": p["berries"],
                    "fire": breakdowns[p["seat"]]["fire"],
                    "score": breakdowns[p["seat"]],
                    "total": sum(breakdowns[p["seat"]].values()),
                }
                for p in state.seats
            ],
            "last": copy.deepcopy(state.last),
            "last_turn": copy.deepcopy(state.last_turn),  # who played the last turn, what it did and scored
            "pending_hex": state.pending.get("hex"),  # the camp being paid for
        }
        if seat is not None and 0 <= seat < state.players:
            view["seat"] = seat
            view["hand"] = sorted(state.seats[seat]["hand"])
            if state.actor == seat and state.pending:
                view["picks"] = copy.deepcopy(state.pending["picks"])
        return view

    # -- JSON -------------------------------------------------------------------------------------
    _FIELDS = (
        "players", "layout", "seats", "deck", "discard", "row", "story_deck", "story_display", "camps",
        "berries", "dewan", "actor", "phase", "setup_order", "round", "final_round", "round_passes",
        "eliminated", "turns", "actions", "last", "opening", "pending", "recent", "last_turn",
    )
    _LATER_FIELDS = ("recent", "last_turn")  # absent from states saved before them

    def to_json(self, state: DewanState) -> JSON:
        out: JSON = {"v": self.json_version, "rng": rng_to_json(state.rng)}
        for name in self._FIELDS:
            out[name] = copy.deepcopy(getattr(state, name))
        return out

    def from_json(self, data: JSON) -> DewanState:
        if data.get("v") != self.json_version:
            raise ValueError(f"dewan: unsupported state version {data.get('v')}")
        return DewanState(rng=rng_from_json(data["rng"]), **{n: copy.deepcopy(data[n]) for n in self._FIELDS
                                                              if n in data or n not in self._LATER_FIELDS})

    # -- notation ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        return parse_action(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def describe(self, action: Action, locale: str = "en") -> str:
        """The notation with the card's terrains and symbol, for autocomplete and buttons."""
        text = self.format(action)
        if action[0] in ("pay", "give", "tuck"):
            names = _WORDS.get(locale, _WORDS["en"])
            terrains, symbol = D.CARDS[action[1]]
            label = "/".join(names[t] for t in terrains) + (f" · {names[symbol]}" if symbol else "")
            return f"{text} ({label})"
        return text

    def _safe_format(self, action: Any) -> str:
        try:
            return self.format(action)
        except (TypeError, IndexError, ValueError, AttributeError):
            return str(action)

    # -- options ----------------------------------------------------------------------------------
    def _story_options(self, state: DewanState) -> list[Action]:
        options: list[Action] = [("story", t) for t in state.story_display]
        if state.story_deck:
            options.append(("story", "deck"))
        return options

    def _take_options(self, state: DewanState) -> list[Action]:
        row = state.row
        pairs: list[Action] = [("take", p + 1) for p in range(D.ROW_SIZE - 1) if row[p] and row[p + 1]]
        return pairs or [("take1", p + 1) for p in range(D.ROW_SIZE) if row[p]]

    # -- placement search -------------------------------------------------------------------------
    def route_cost(self, state: DewanState, seat: int, route: list[str]) -> list[tuple[str, int | None]]:
        """The cost items of a route (origin first): (terrain or ``*``, seat the card goes to or None).

        The same rules as the search: the origin costs its terrain (any card from the own start camp),
        a run of water hexes costs one ``W``, a start hex any card, a card for another player's camp goes
        to that player, the destination costs its terrain.
        """
        terrain = state.board.terrain
        items: list[tuple[str, int | None]] = []
        for index, hex_ in enumerate(route):
            owner = state.camps.get(hex_)
            kind = ANY if terrain[hex_] == "X" else terrain[hex_]
            if 0 < index < len(route) - 1:
                if kind == "W" and terrain[route[index - 1]] == "W":
                    continue
                items.append((kind, owner if owner is not None and owner != seat else None))
            else:
                items.append((kind, None))
        return items

    def destinations(self, state: DewanState, seat: int) -> list[str]:
        """The hexes the seat can place a camp on now, in label order (cached per position)."""
        key = ("reach", seat, *_position(state, seat))
        found = state.cache.get(key)
        if found is None:
            if len(state.cache) > 64:
                state.cache.clear()
            found = state.cache[key] = S.reachable(state.grid, state.camps, seat, state.seats[seat]["hand"])
        return found

    def _labels(self, state: DewanState, seat: int, hex_: str) -> tuple[list[int], list[Any]]:
        """The minimal cost-item multisets (packed) of the routes to ``hex_`` and one route node for each,
        cached per position: every payment step of one camp asks again."""
        key = ("routes", seat, hex_, *_position(state, seat))
        found = state.cache.get(key)
        if found is None:
            if len(state.cache) > 64:
                state.cache.clear()
            routes = S.routes_to(state.grid, state.camps, seat, state.seats[seat]["hand"], hex_)
            found = state.cache[key] = (list(routes), list(routes.values()))
        return found

    def _paid(self, labels: tuple[list[int], list[Any]], picks: list[Pick]) -> list[str] | None:
        """The route the picks pay exactly, if they do."""
        label = S.paid(labels[0], picks)
        return None if label is None else S.route_of(labels[1][labels[0].index(label)])

    def payments(self, state: DewanState, seat: int, hex_: str, limit: int | None = PAYMENTS_LIMIT,
                 ) -> list[Payment]:
        """The payments the steps can reach for a camp on ``hex_``: (discarded cards, ((seat, cards), ...),
        route), fewest cards first, then in card order; at most ``limit`` of them (None: all).

        For a panel listing the choices. Their number grows fast with the hand (a 14-card hand can have
        thousands for one hex), so they are produced size by size and the search stops at ``limit``.
        """
        hand = state.seats[seat]["hand"]
        labels = self._labels(state, seat, hex_)
        sizes = [S.size_of(label) for label in labels[0]]
        out: list[Payment] = []
        for size in sorted(set(sizes)):
            targets = [label for label, n in zip(labels[0], sizes, strict=True) if n == size]
            room = None if limit is None else limit - len(out)
            found: list[Payment] = []
            self._walk_payments(hand, labels, targets, size, [], found, room)
            out += sorted(found, key=lambda o: (o[0], o[1]))
            if limit is not None and len(out) >= limit:
                break
        return out[:limit]

    def _walk_payments(self, hand: list[str], labels: tuple[list[int], list[Any]], targets: list[int], size: int,
                       picks: list[Pick], found: list[Payment], room: int | None) -> None:
        """Depth-first over the pick steps, collecting the payments of exactly ``size`` cards."""
        if room is not None and len(found) >= room:
            return
        if picks:
            path = self._paid(labels, picks)
            if path is not None:  # the steps place the camp here
                if len(picks) == size:
                    found.append((*_split(picks), path))
                return
        if len(picks) < size:
            for pick in S.pick_options(hand, targets, picks):
                self._walk_payments(hand, labels, targets, size, [*picks, pick], found, room)

    # -- applying ---------------------------------------------------------------------------------
    def _draw(self, state: DewanState, events: list[Event]) -> str | None:
        if not state.deck and state.discard:
            state.deck = state.discard
            state.discard = []
            state.rng.shuffle(state.deck)
            events.append(Event("reshuffled", {"count": len(state.deck)}))
        return state.deck.pop() if state.deck else None

    def _take_cards(self, state: DewanState, seat: int, action: Action, events: list[Event]) -> None:
        positions: list[int] = [action[1] - 1] if action[0] == "take1" else [action[1] - 1, action[1]]
        player = state.seats[seat]
        taken: list[str] = []
        for p in positions:
            card = state.row[p]
            assert card is not None, "a legal take names filled row positions"
            taken.append(card)
            state.row[p] = None
        player["hand"] = sorted(player["hand"] + taken)
        events.append(Event("took", {"seat": seat, "cards": " ".join(taken), "position": action[1]}))
        # Refill every empty position, nearest the deck first (gaps left by an empty deck heal later).
        for p in range(D.ROW_SIZE):
            if state.row[p] is None:
                state.row[p] = self._draw(state, events)

    def _pending_options(self, state: DewanState, seat: int) -> list[Pick]:
        picks = tuple((c, r) for c, r in state.pending["picks"])
        key = ("picks", seat, state.pending["hex"], picks, *_position(state, seat))
        if key not in state.cache:
            labels = self._labels(state, seat, state.pending["hex"])[0]
            state.cache[key] = S.pick_options(state.seats[seat]["hand"], labels, list(picks))
        return state.cache[key]

    def _settle_payment(self, state: DewanState, seat: int, events: list[Event]) -> None:
        """Play forced picks; place the camp as soon as the picks pay a route."""
        labels = self._labels(state, seat, state.pending["hex"])
        while True:
            picks = [(c, r) for c, r in state.pending["picks"]]
            route = self._paid(labels, picks) if picks else None
            if route is not None:
                discards, gives = _split(picks)
                self._place(state, seat, state.pending["hex"], discards, gives, route, events)
                return
            options = self._pending_options(state, seat)
            if len(options) != 1:
                return  # the player chooses the next card
            state.pending["picks"].append(list(options[0]))

    def _place(self, state: DewanState, seat: int, hex_: str, discards: tuple[str, ...],
               gives: tuple[tuple[int, tuple[str, ...]], ...], route: list[str], events: list[Event]) -> None:
        state.pending = {}
        player = state.seats[seat]
        for card in discards:
            player["hand"].remove(card)
            state.discard.append(card)
        for other, cards in gives:
            for card in cards:
                player["hand"].remove(card)
            state.seats[other]["hand"] = sorted(state.seats[other]["hand"] + list(cards))
        state.camps[hex_] = seat
        player["camps"].append(hex_)
        player["placed"] += 1
        slot = player["placed"]
        state.last = {"seat": seat, "route": route, "hex": hex_}
        events.append(Event("camp", {"seat": seat, "hex": hex_, "route": "-".join(route), "slot": slot,
                                     "cards": " ".join(discards)}))
        for other, cards in gives:
            events.append(Event("cards_given", {"seat": seat, "to_seat": other, "cards": " ".join(cards)}))
        board = state.board
        zone = board.zones[board.zone[hex_]]
        tokens = [h for h in zone if h in state.berries]
        if tokens:
            berry = hex_ if hex_ in tokens else tokens[0]
            state.berries.remove(berry)
            player["berries"] += 1
            events.append(Event("berry", {"seat": seat, "hex": berry}))
        if slot == D.SLOTS and not state.final_round:
            state.final_round = True
            events.append(Event("last_camp", {"seat": seat}))
        reward = D.SLOT_REWARDS[slot - 1]
        state.phase = reward
        options = self.legal_actions(state, seat)
        if len(options) == 1:
            if reward == "story":
                self._take_story(state, seat, options[0][1], events)
            else:
                self._tuck(state, seat, options[0][1], events)
        elif options:
            return  # the player chooses
        elif reward == "story":
            events.append(Event("story_lost", {"seat": seat}))
        else:
            events.append(Event("tuck_lost", {"seat": seat}))
        self._end_turn(state, events)

    def _take_story(self, state: DewanState, seat: int, choice: str, events: list[Event]) -> None:
        if choice == "deck":
            tile = state.story_deck.pop()
            events.append(Event("story_drawn", {"seat": seat, "tile": tile}))
        else:
            tile = choice
            state.story_display.remove(tile)
            events.append(Event("story_taken", {"seat": seat, "tile": tile}))
            if state.story_deck:
                state.story_display.append(state.story_deck.pop())
        state.seats[seat]["stories"].append([tile, False])

    def _tuck(self, state: DewanState, seat: int, card: str, events: list[Event]) -> None:
        player = state.seats[seat]
        player["hand"].remove(card)
        player["tucked"].append(card)
        events.append(Event("tucked", {"seat": seat, "card": card}))

    def _end_turn(self, state: DewanState, events: list[Event]) -> None:
        """Story check of the seat that played, then the next seat (and maybe the end of the game)."""
        seat = state.actor
        assert seat is not None
        player = state.seats[seat]
        open_ = [story for story in player["stories"] if not story[1]]
        providers = self.providers(state, seat) if open_ else []
        resources: Counter[str] | None = None  # counted once, and only if a story gets that far
        completed = 0
        for story in open_:
            wanted, lands = _NEEDS[story[0]]
            if len(lands) > len(providers):
                continue  # fewer camps and tucked cards than its terrains
            if wanted and resources is None:
                resources = self.resources(state, seat)
            if self.story_met(state, seat, story[0], resources if wanted and resources else Counter[str](), providers):
                story[1] = True
                completed += 1
                events.append(Event("story_completed", {"seat": seat, "tile": story[0],
                                                        "points": D.STORIES[story[0]][1]}))
        drawn = [c for c in (self._draw(state, events) for _ in range(completed)) if c is not None]
        if drawn:
            player["hand"] = sorted(player["hand"] + drawn)
            events.append(Event("cards_drawn", {"seat": seat, "count": len(drawn)}))
        state.turns += 1
        state.phase = "turn"
        self._next_seat(state, events)

    def _next_seat(self, state: DewanState, events: list[Event]) -> None:
        seat = state.actor if state.actor is not None else state.dewan
        active = [s for s in range(state.players) if s not in state.eliminated]
        for _ in range(state.players):
            seat = (seat + 1) % state.players
            if seat == state.dewan:  # a round ends
                everyone_passed = all(s in state.round_passes for s in active)
                if state.final_round or everyone_passed:
                    self._finish(state, events)
                    return
                state.round += 1
                state.round_passes = []
                events.append(Event("round_start", {"round": state.round, "seat": state.dewan}))
            if seat in active:
                state.actor = seat
                return
        self._finish(state, events)

    def _finish(self, state: DewanState, events: list[Event]) -> None:
        state.phase = "over"
        state.actor = None
        for player in state.seats:  # unfinished story tiles are removed
            removed = [t for t, done in player["stories"] if not done]
            if removed:
                player["stories"] = [s for s in player["stories"] if s[1]]
                events.append(Event("stories_removed", {"seat": player["seat"], "tiles": " ".join(removed)}))
        for p in self.result(state).ranking:
            events.append(Event("final_score", {"seat": p.seat, "rank": p.rank, "score": p.score,
                                                "hand": len(state.seats[p.seat]["hand"]), **p.breakdown}))
