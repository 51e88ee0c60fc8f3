"""Déole rules engine: drafting dice onto Navigation sheets and tracing voyages on a shared map.

A player's turn is a chain of small decisions (die, track, mode, rudders, port, direction, wreck flip,
castaway, bonus...). The engine keeps a queue of pending tasks for the acting player and resolves any
decision that has a single option by itself, so a chat player only answers real choices. Every choice
is one short action with a text notation (``die blue 5``, ``track crew``, ``mode odd``, ``rudder +1``,
``move N``, ``bonus C``...).
"""

from __future__ import annotations

import copy
import functools
import pickle
import random
import re
from collections import deque
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
    json_text,
    rank_players,
    rng_from_json,
    rng_to_json,
)
from games.deole import data as D

# (kind, *arguments): the kind names the step, the arguments are a colour, track, mode, direction or bonus
# (str) or a value, delta, port or box (int) -- ``parse`` lists every shape, e.g. ("die", "blue", 5).
Action = tuple[Any, ...]
Box = tuple[int, int]

CASTAWAY = "c"  # an inert box: a rescued castaway (placement modes skip it)
DISASTER = "x"  # solo: a box blocked by a Disaster (ticked at the end of the round)


# -- placement modes ------------------------------------------------------------------------------
def mode_allows(mode: str, values: list[int], value: int) -> bool:
    """Whether ``value`` may follow ``values`` (the track's numbers, castaways already left out)."""
    last = values[-1] if values else None
    if mode == "even":
        return value % 2 == 0
    if mode == "odd":
        return value % 2 == 1
    if mode == "low":
        return value <= 3
    if mode == "high":
        return value >= 4
    if mode == "different":
        return value not in values
    if last is None:  # every remaining mode compares with the previous value; the first is free
        return mode in ("ascending", "descending", "equal", "step", "oscillating")
    if mode == "ascending":
        return value > last
    if mode == "descending":
        return value < last
    if mode == "equal":
        return value == last
    if mode == "step":
        return abs(value - last) == 1
    if mode == "oscillating":
        if value == last:
            return False
        if len(values) < 2:
            return True  # the second value sets the first direction
        went_up = values[-1] > values[-2]
        return value < last if went_up else value > last
    raise ValueError(f"unknown mode {mode}")


def track_values(boxes: list[Any]) -> list[int]:
    return [b for b in boxes if isinstance(b, int)]


def parse_modes(raw: Any) -> tuple[str, ...]:
    """``modes`` option: a preset name or five distinct mode names separated by commas."""
    text = str(raw).strip().lower()
    if text in D.MODE_PRESETS:
        return D.MODE_PRESETS[text]
    names = [p for p in text.replace(" ", "").split(",") if p]
    for name in names:
        if name not in D.MODES:
            raise InvalidOptions("modes_unknown", value=name, choices=", ".join(D.MODES))
    if len(names) != 5 or len(set(names)) != 5:
        raise InvalidOptions("modes_count", value=raw)
    return tuple(names)


# -- state ----------------------------------------------------------------------------------------
def _new_sheet(seat: int, colour: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "colour": colour,
        "boxes": {t: [None] * D.TRACK_LENGTH[t] for t in D.TRACKS},
        "modes": {t: None for t in D.TRACKS},
        "rudders": dict(D.START_RUDDERS),  # available (circled, not crossed out)
        "rudders_used": {t: 0 for t in D.TRACKS},
        "flipped": [],  # crew boxes (0-based) turned from - to + by wrecks
        "bonuses": [],  # letters used
        "eolia": False,
        "eolia_bonus": False,
        "columns": [],  # completed columns (0-based)
        "round_dice": [],  # [track, box, colour] dice lying on the sheet this round
        # the ship: pos is the last traced box (or the sea lane outside the chosen port), heading
        # the side it left that box through; the next trace enters pos + heading.
        "port": None,
        "pos": None,
        "heading": None,
        "docked": False,
        "path": [],  # [row, col, entry heading, exit heading] per traced box
        "max_depth": -1,
        # solo
        "helping_hands": 0,
        "disaster_values": [],
        "disasters": [],  # [track, box, value] of every Disaster written (the box shows its value)
    }


@dataclass
class DeoleState:
    players: int
    modes: list[str]
    rng: random.Random
    seat_colours: list[str]
    sheets: list[dict[str, Any]]
    bag: list[str] = field(default_factory=list[str])
    compass: list[list[Any]] = field(default_factory=list[list[Any]])  # discarded dice [colour, value]
    # dice rolled this turn, still on the dice track
    pool: list[list[Any]] = field(default_factory=list[list[Any]])
    round: int = 1
    turn: int = 1
    turn_counter: int = 1  # turns since the start, for "reached Éolia in the same turn"
    first_player: int = 0
    order: list[int] = field(default_factory=list[int])  # seats still to play this turn, actor first
    ctx: dict[str, Any] = field(default_factory=dict[str, Any])
    castaways: list[list[int]] = field(default_factory=list[list[int]])
    castaway_symbol: str = ""
    eolia_first_turn: int | None = None
    eliminated: list[int] = field(default_factory=list[int])
    over: bool = False
    outcome: str = ""  # solo: won / not_home / shipwreck / crash / abandoned
    storms: dict[str, int] = field(default_factory=lambda: {c: 0 for c in D.WIND_COLOURS})
    # solo: wind tracks given a Disaster this round
    round_disasters: list[str] = field(default_factory=list[str])
    actions: int = 0
    # setup's events [code, params], told at the start
    opening: list[list[Any]] = field(default_factory=list[list[Any]])
    # the last turn, for the board's header: {"seat", "score_before": the seat's total when its turn began,
    # "dice": [[colour, value, track or None (discarded) or "disaster"], ...]}; empty before the first pick
    last: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def actor(self) -> int | None:
        return None if self.over or not self.order else self.order[0]


def _fresh_ctx() -> dict[str, Any]:
    # disaster (solo): the die not chosen this roll, placed once the chosen die's steps A-E are over
    return {"die": None, "source": "", "track": None, "delta": 0, "tasks": [], "bonus": 0, "started": False,
            "disaster": None}


# -- geometry -------------------------------------------------------------------------------------
def _in_grid(box: Box) -> bool:
    return 0 <= box[0] < D.SIZE and 0 <= box[1] < D.SIZE


def _step(box: Box, direction: str) -> Box:
    dr, dc = D.STEP[direction]
    return box[0] + dr, box[1] + dc


def _turns(heading: str) -> list[str]:
    """Straight, left, right: every exit but the U-turn, in a stable order."""
    index = D.DIRECTIONS.index(heading)
    return [heading, D.DIRECTIONS[(index - 1) % 4], D.DIRECTIONS[(index + 1) % 4]]


def port_box(colour: str, port: int) -> tuple[Box, str]:
    """The sea lane outside port ``port`` (0-2) of ``colour`` and the heading into the map."""
    i = D.PORT_INDICES[port]
    edge = D.EDGE_OF[colour]
    lane = {"N": (-1, i), "S": (D.SIZE, i), "W": (i, -1), "E": (i, D.SIZE)}[edge]
    return lane, D.OPPOSITE[edge]


def _is_home_exit(box: Box, direction: str, colour: str) -> bool:
    if direction != D.EDGE_OF[colour] or _in_grid(_step(box, direction)):
        return False
    along = box[1] if direction in ("N", "S") else box[0]
    return along in D.PORT_INDICES


def storm_boxes(storms: dict[str, int]) -> frozenset[Box]:
    """The boxes the storms cover: ``rows`` rows from each colour's edge."""
    return _storm_boxes(tuple(sorted(storms.items())))


@functools.lru_cache(maxsize=256)
def _storm_boxes(storms: tuple[tuple[str, int], ...]) -> frozenset[Box]:
    return frozenset((r, c) for colour, rows in storms for r in range(D.SIZE) for c in range(D.SIZE)
                     if D.depth((r, c), colour) < rows)


def _open_exit(box: Box, direction: str, colour: str, storm: frozenset[Box]) -> bool:
    target = _step(box, direction)
    if _in_grid(target):
        return target not in D.ISLAND and target not in storm
    return _is_home_exit(box, direction, colour)


def disaster_boxes(sheet: dict[str, Any], colour: str) -> dict[str, int]:
    """Solo: where a Disaster of ``colour`` may go, track -> box (1-based): the free box furthest to the right
    of its colour's Wind track or of the Crew track (only the Crew track once its colour's track is full;
    nothing at all means shipwreck)."""
    out: dict[str, int] = {}
    for track in (colour, D.CREW):
        free = [i for i, b in enumerate(sheet["boxes"][track]) if b is None]
        if free:
            out[track] = free[-1] + 1
    return out


@dataclass(frozen=True)
class DisasterOutlook:
    """Solo: what becomes of a Disaster die if it is placed now."""

    colour: str
    value: int
    ignored: bool  # its value repeats an earlier placed Disaster: discarded, nothing to place
    boxes: tuple[tuple[str, int], ...]  # (track, box 1-based) it may go to, the player's choice
    helping_hands: int  # castaways' helping hands that could discard it instead

    @property
    def shipwreck(self) -> bool:
        """No room on the sheet and no helping hand: the game is lost."""
        return not self.ignored and not self.boxes and self.helping_hands == 0


def trace_exits(sheet: dict[str, Any], storms: dict[str, int], wind: str) -> tuple[list[str], str | None]:
    """The exits the next trace may take (``wind``: a die's colour, ``crew`` or ``free``) and, when there is
    none, what happens instead: ``crash`` when a storm is on the way (the box ahead, the heading the wind
    forces, or every heading the crew could keep), else ``becalmed`` (only the border or the island)."""
    heading = sheet["heading"]
    box = _step(tuple(sheet["pos"]), heading)
    storm = storm_boxes(storms)
    if box in storm:
        return [], "crash"
    if wind in D.WIND_COLOURS and D.EDGE_OF[wind] != D.OPPOSITE[heading]:
        candidates = [D.EDGE_OF[wind]]  # case A: follow the wind towards its edge
    else:
        candidates = _turns(heading)  # case B (wind at the back), case C (crew), bonus C
    exits = [d for d in candidates if _open_exit(box, d, sheet["colour"], storm)]
    if exits:
        return exits, None
    return [], "crash" if any(_step(box, d) in storm for d in candidates) else "becalmed"


def boxes_to_port(sheet: dict[str, Any], storms: dict[str, int]) -> int | None:
    """Fewest boxes still to trace to sail into a home port (no U-turns); None if impossible."""
    if sheet["docked"] or sheet["pos"] is None:
        return 0
    storm = storm_boxes(storms)
    colour = sheet["colour"]
    start = (_step(tuple(sheet["pos"]), sheet["heading"]), sheet["heading"])
    if start[0] in storm:
        return None
    seen = {start}
    queue = deque([(start, 1)])
    while queue:
        (box, heading), dist = queue.popleft()
        for exit_dir in _turns(heading):
            if _is_home_exit(box, exit_dir, colour):
                return dist
            nxt = _step(box, exit_dir)
            if _in_grid(nxt) and nxt not in D.ISLAND and nxt not in storm and (nxt, exit_dir) not in seen:
                seen.add((nxt, exit_dir))
                queue.append(((nxt, exit_dir), dist + 1))
    return None


def gauge_points(max_depth: int) -> int:
    for minimum, points in D.GAUGE:
        if max_depth >= minimum:
            return points
    return 0


# -- the game -------------------------------------------------------------------------------------
_DIE_RE = re.compile(r"^(die|anchor|take)\s+(blue|yellow|green|red)\s+([1-6])$")
_WORD_ACTIONS = {"track": D.TRACKS, "castaway": D.TRACKS, "disaster": D.TRACKS, "mode": D.MODES}


class DeoleGame(Game[DeoleState, Action]):
    key = "deole"
    names = {"en": "Déole", "ru": "Деоль"}
    min_players = 1
    max_players = 4
    json_version = 2  # 2: a solo roll's Disaster waits in ctx["disaster"] (v1 held it as the die in hand)
    option_specs = (
        OptionSpec("modes", "text", "first", examples=tuple(D.MODE_PRESETS)),
        OptionSpec("side", "choice", "blue", choices=D.WIND_COLOURS),
    )

    # -- setup ------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> DeoleState:
        self.check_players(players)
        opts = self.parse_options(options)
        # Solo imposes its five modes (rules, solo setup); otherwise a preset or a custom list.
        modes = D.SOLO_MODES if players == 1 else parse_modes(opts["modes"])
        rng = random.Random(seed)
        colours = (opts["side"],) if players == 1 else D.SEAT_COLOURS[players]
        state = DeoleState(
            players=players,
            modes=list(modes),
            rng=rng,
            seat_colours=list(colours),
            sheets=[_new_sheet(seat, colour) for seat, colour in enumerate(colours)],
        )
        state.bag = [c for c in D.WIND_COLOURS for _ in range(D.DICE_PER_COLOUR[players])]
        state.first_player = rng.randrange(players)  # the spin of the Compass Rose
        state.ctx = _fresh_ctx()
        events: list[Event] = []
        self._place_castaways(state, events)
        self._start_turn(state, events)
        self._advance(state, events)
        state.opening = [[e.code, dict(e.params)] for e in events]
        return state

    def initial_events(self, state: DeoleState) -> list[Event]:
        """The castaways placed and the first roll, for the bot to announce with the first board."""
        return [Event(code, dict(params)) for code, params in state.opening]

    # -- contract -------------------------------------------------------------------------------------
    def to_act(self, state: DeoleState) -> list[Seat]:
        actor = state.actor
        return [] if actor is None else [actor]

    def turn_number(self, state: DeoleState) -> int:
        """A player's turn is one pick: it grows as each pick of a roll ends and with every new roll (by one
        more then, so that a solo roll whose pick ended still differs from the next roll): 0 at the start."""
        return (state.turn_counter - 1) * (state.players + 1) + state.players - len(state.order)

    def legal_actions(self, state: DeoleState, seat: Seat) -> list[Action]:
        if state.actor != seat:
            return []
        return self._decision(state)[1]

    def apply(self, state: DeoleState, seat: Seat, action: Action) -> list[Event]:
        if state.over:
            raise IllegalAction("game_over")
        if state.actor != seat:
            raise IllegalAction("not_your_turn")
        phase, options = self._decision(state)
        if action not in options:
            expected = phase
            kind = _kind(action)
            if kind not in _PHASE_ACTIONS.get(phase, ()):
                raise IllegalAction("wrong_step", step=expected, action=self._safe_format(action))
            raise IllegalAction("not_allowed", action=self._safe_format(action))
        events: list[Event] = []
        state.actions += 1
        self._do(state, action, events)
        self._advance(state, events)
        return events

    def default_action(self, state: DeoleState, seat: Seat) -> Action:
        options = self.legal_actions(state, seat)
        if not options:
            raise IllegalAction("not_your_turn")
        # Prefer writing the die as rolled (rudders cost points) and the first listed choice otherwise.
        return ("place",) if ("place",) in options else options[0]

    def eliminate(self, state: DeoleState, seat: Seat) -> list[Event]:
        events: list[Event] = []
        if state.over or seat in state.eliminated:
            return events
        state.eliminated.append(seat)
        events.append(Event("eliminated", {"seat": seat}))
        if state.actor == seat:
            die = state.ctx.get("die")
            if die is not None:  # the die in hand goes to the Compass Rose
                state.compass.append([die[0], die[1] if die[1] is not None else state.rng.randint(1, 6)])
            if state.ctx.get("disaster") is not None:
                state.compass.append(state.ctx["disaster"])
            state.ctx = _fresh_ctx()
            state.order.pop(0)
        elif seat in state.order:
            state.order.remove(seat)
        active = [s for s in range(state.players) if s not in state.eliminated]
        if state.solo:
            state.outcome = "abandoned"
            self._finish(state, events)
        elif len(active) <= 1:
            self._finish(state, events)
        else:
            self._advance(state, events)
        return events

    def is_over(self, state: DeoleState) -> bool:
        return state.over

    def result(self, state: DeoleState) -> Result:
        breakdowns = {seat: self.breakdown(state, seat) for seat in range(state.players)}
        keys = {
            seat: (sum(b.values()), b["crew"], b["eolia"] + b["gauge"] + b["route"])
            for seat, b in breakdowns.items()
        }
        ranks = rank_players(keys, state.eliminated)
        ranking = sorted(
            (
                PlayerResult(seat, ranks[seat], sum(b.values()), b, seat in state.eliminated)
                for seat, b in breakdowns.items()
            ),
            key=lambda p: (p.rank, p.seat),
        )
        extra: dict[str, Any] = {}
        if state.solo:
            extra = {"solo": True, "outcome": state.outcome or "playing", "won": state.outcome == "won"}
        return Result(ranking=ranking, turns=state.actions, extra=extra)

    def breakdown(self, state: DeoleState, seat: int) -> dict[str, int]:
        sheet = state.sheets[seat]
        wind = 0
        for colour in D.WIND_COLOURS:
            filled = [i for i, b in enumerate(sheet["boxes"][colour]) if b is not None and b != DISASTER]
            if filled:
                wind += D.WIND_SCORES[filled[-1]]
        crew = 0
        for i, b in enumerate(sheet["boxes"][D.CREW]):
            if isinstance(b, int):
                sign = 1 if i in sheet["flipped"] else D.CREW_SIGNS[i]
                crew += sign * b
        distinct = len({(p[0], p[1]) for p in sheet["path"]})
        if sheet["docked"] or sheet["pos"] is None:
            route = 2 * distinct
        else:
            missing = boxes_to_port(sheet, state.storms)
            if missing is None:  # a storm cuts every way home: count the plain distance to the home edge
                last = sheet["path"][-1] if sheet["path"] else None
                missing = D.depth((last[0], last[1]), sheet["colour"]) + 1 if last else 0
            route = distinct - missing
        used = sum(sheet["rudders_used"].values())
        available = sum(sheet["rudders"].values())
        return {
            "wind": wind,
            "crew": crew,
            "eolia": 5 if sheet["eolia"] else 0,
            "gauge": gauge_points(sheet["max_depth"]),
            "route": route,
            "rudders": 0 if "E" in sheet["bonuses"] else -2 * used,
            "spare_rudders": available if "F" in sheet["bonuses"] else 0,
        }

    def view(self, state: DeoleState, seat: Seat | None) -> JSON:
        # Every sheet is public in this game; only the bag's order stays hidden (its size is shown).
        ctx = state.ctx
        return {
            "game": self.key,
            "players": state.players,
            "solo": state.solo,
            "modes": list(state.modes),
            "round": state.round,
            "turn": state.turn,
            "first_player": state.first_player,
            "actor": state.actor,
            "phase": self._decision(state)[0] if not state.over else "over",
            "current": {"die": ctx.get("die"), "track": ctx.get("track"), "source": ctx.get("source"),
                        "bonus_pending": ctx.get("bonus", 0), "started": bool(ctx.get("started")),
                        "disaster": copy.deepcopy(ctx.get("disaster"))},
            "pool": copy.deepcopy(state.pool),
            "compass": copy.deepcopy(state.compass),
            "bag_count": len(state.bag),
            "castaways": copy.deepcopy(state.castaways),
            "castaway_symbol": state.castaway_symbol,
            "storms": dict(state.storms),
            "eolia_first_turn": state.eolia_first_turn,
            "eliminated": list(state.eliminated),
            "over": state.over,
            "outcome": state.outcome,
            "sheets": copy.deepcopy(state.sheets),
            "scores": {str(s): self.breakdown(state, s) for s in range(state.players)},
            "last": copy.deepcopy(state.last),
        }

    # -- JSON -------------------------------------------------------------------------------------
    _FIELDS = (
        "players", "modes", "seat_colours", "sheets", "bag", "compass", "pool", "round", "turn",
        "turn_counter", "first_player", "order", "ctx", "castaways", "castaway_symbol", "eolia_first_turn",
        "eliminated", "over", "outcome", "storms", "round_disasters", "actions", "opening", "last",
    )
    _ADDED_FIELDS = {"opening": list, "last": dict}  # fields newer than some stored snapshots: their empty value

    def to_json(self, state: DeoleState) -> JSON:
        out: JSON = {"v": self.json_version, "rng": rng_to_json(state.rng)}
        for name in self._FIELDS:
            out[name] = copy.deepcopy(getattr(state, name))
        return out

    def dumps(self, state: DeoleState) -> str:
        """``to_json`` encoded without its deep copies (a snapshot every few moves: they cost most of it)."""
        out: JSON = {"v": self.json_version, "rng": rng_to_json(state.rng)}
        for name in self._FIELDS:
            out[name] = getattr(state, name)
        return json_text(out)

    def from_json(self, data: JSON) -> DeoleState:
        if data.get("v") not in (1, self.json_version):
            raise ValueError(f"deole: unsupported state version {data.get('v')}")
        kwargs: dict[str, Any] = {name: copy.deepcopy(data[name]) if name in data else self._ADDED_FIELDS[name]()
                                  for name in self._FIELDS}
        ctx = kwargs["ctx"]
        if data["v"] == 1:  # the Disaster being placed was the die in hand, marked by its source
            ctx["disaster"] = None
            if ctx.get("source") == "disaster":
                ctx.update(disaster=ctx["die"], die=None, source="")
        return DeoleState(rng=rng_from_json(data["rng"]), **kwargs)

    def clone(self, state: DeoleState) -> DeoleState:
        """An independent copy (same random generator state), e.g. to look one move ahead; the same as a
        JSON round trip, faster."""
        fields = pickle.loads(pickle.dumps({name: getattr(state, name) for name in self._FIELDS}, protocol=5))
        rng = random.Random()
        rng.setstate(state.rng.getstate())
        return DeoleState(rng=rng, **fields)

    # -- questions the bot asks (the rules behind what the panel shows) --------------------------
    def write_choices(self, state: DeoleState, seat: Seat) -> dict[int, tuple[Action, ...]]:
        """Writing a die (step ``adjust``, not bonus A): every value it can be written as, each with the
        actions that write it using the fewest rudders (a rudder leaving one way to go writes by itself)."""
        found: dict[int, tuple[Action, ...]] = {}

        def keep(value: int, actions: tuple[Action, ...]) -> None:
            if value not in found or len(found[value]) > len(actions):
                found[value] = actions

        def walk(current: DeoleState, done: tuple[Action, ...]) -> None:
            for action in self.legal_actions(current, seat):
                if action[0] == "place":
                    keep(current.ctx["die"][1], (*done, action))
                elif action[0] == "rudder":
                    working = self.clone(current)
                    placed = [e for e in self.apply(working, seat, action) if e.code == "die_placed"]
                    if placed:
                        keep(placed[0].params["value"], (*done, action))
                    elif self._decision(working)[0] == "adjust" and working.actor == seat:
                        walk(working, (*done, action))

        if self.legal_actions(state, seat) and self._decision(state)[0] == "adjust" and state.ctx["source"] != "A":
            walk(state, ())
        return dict(sorted(found.items()))

    def pick_over(self, state: DeoleState, seat: Seat) -> bool:
        """The seat's pick (a die and every step it brings, the solo Disaster included) is over: the game
        ended, another seat acts, or a fresh roll awaits the same seat (solo)."""
        if state.over or state.actor != seat:
            return True
        return self._decision(state)[0] == "die" and not state.ctx.get("started")

    def disaster_outlook(self, state: DeoleState, seat: Seat, die: Any) -> DisasterOutlook:
        """Solo: where the Disaster ``die`` ([colour, value]) would go if placed now, or why it would not."""
        sheet = state.sheets[seat]
        ignored = die[1] in sheet["disaster_values"]
        boxes = () if ignored else tuple(disaster_boxes(sheet, die[0]).items())
        return DisasterOutlook(die[0], die[1], ignored, boxes, sheet["helping_hands"])

    def roll_outlook(self, state: DeoleState, seat: Seat, action: Action) -> DisasterOutlook | None:
        """Solo, choosing a die: the Disaster that ``die X`` or ``anchor X`` leaves (the other die), as things
        stand now (a die taken goes through steps A-E first, which may change where it goes)."""
        if not state.solo or action[0] not in ("die", "anchor") or len(state.pool) != 2:
            return None
        rest = [list(d) for d in state.pool]
        if [action[1], action[2]] not in rest:
            return None
        rest.remove([action[1], action[2]])
        return self.disaster_outlook(state, seat, rest[0])

    def pending_disaster(self, state: DeoleState) -> DisasterOutlook | None:
        """Solo: the Disaster of this roll still to be placed (after the chosen die's steps), if any."""
        die = state.ctx.get("disaster")
        return None if die is None or state.actor is None else self.disaster_outlook(state, state.actor, die)

    # -- notation ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        raw = " ".join(str(text).strip().split())
        low = raw.lower()
        match = _DIE_RE.match(low)
        if match:
            return (match.group(1), match.group(2), int(match.group(3)))
        parts = low.split(" ")
        head, args = parts[0], parts[1:]
        if head in ("place", "help") and not args:
            return (head,)
        if len(args) == 1:
            arg = args[0]
            if head in _WORD_ACTIONS and arg in _WORD_ACTIONS[head]:
                return (head, arg)
            if head in ("colour", "color") and arg in D.WIND_COLOURS:
                return ("colour", arg)
            if head == "rudder" and arg in ("+1", "-1"):
                return ("rudder", int(arg))
            if head == "value" and arg in "123456" and len(arg) == 1:
                return ("value", int(arg))
            if head == "port" and arg in ("1", "2", "3"):
                return ("port", int(arg))
            if head == "flip" and arg in "123456" and len(arg) == 1:
                return ("flip", int(arg))
            if head == "move" and arg.upper() in D.DIRECTIONS:
                return ("move", arg.upper())
            if head == "bonus" and arg.upper() in D.BONUSES:
                return ("bonus", arg.upper())
        raise IllegalAction("notation", text=_echo(text))

    def format(self, action: Action) -> str:
        kind = action[0]
        if kind in ("die", "anchor", "take"):
            return f"{kind} {action[1]} {action[2]}"
        if kind in ("place", "help"):
            return kind
        if kind == "rudder":
            return f"rudder {action[1]:+d}"
        return f"{kind} {action[1]}"

    def _safe_format(self, action: Any) -> str:
        try:
            return self.format(action)
        except (TypeError, IndexError, ValueError):
            return str(action)

    # -- decisions --------------------------------------------------------------------------------
    def _decision(self, state: DeoleState) -> tuple[str, list[Action]]:
        """The pending decision of the actor and its options (possibly none or one)."""
        if state.over or state.actor is None:
            return "over", []
        ctx = state.ctx
        sheet = state.sheets[state.actor]
        die = ctx["die"]
        if die is not None:
            if ctx["track"] is None:
                return "track", [("track", t) for t in self.fitting_tracks(state, sheet, die, ctx["source"])]
            if sheet["modes"][ctx["track"]] is None:
                modes = self._fitting_modes(state, sheet, ctx["track"], die, ctx["source"])
                return "mode", [("mode", m) for m in modes]
            return "adjust", self._adjust_options(sheet, ctx)
        if ctx["tasks"]:
            task = ctx["tasks"][0]
            if task.startswith("trace:"):
                if sheet["docked"]:
                    return "docked", []
                if sheet["pos"] is None:
                    return "port", self._port_options(state, sheet)
                return "move", self._move_options(state, sheet, task[6:])
            if task == "flip":
                return "flip", [("flip", i + 1) for i in D.CREW_FLIPPABLE if i not in sheet["flipped"]]
            if task == "castaway":
                return "castaway", [("castaway", t) for t in D.TRACKS if self._castaway_box(sheet, t) is not None]
            if task == "colour":
                return "colour", [("colour", c) for c in D.WIND_COLOURS if c in state.bag]
            if task == "take":
                dice = _distinct(state.compass)
                # a taken die keeps its value (rudders may change it), whatever die came before it
                fitting = [d for d in dice if self.fitting_tracks(state, sheet, d, "D")]
                return "take", [("take", c, v) for c, v in (fitting or dice)]
            raise AssertionError(task)
        if ctx["bonus"] > 0:
            return "bonus", [("bonus", b) for b in self._bonus_options(state, sheet)]
        if ctx.get("disaster") is not None:  # solo: after steps A-E of the chosen die (or dropping anchor)
            return "disaster", self._disaster_options(sheet, ctx["disaster"])
        if ctx.get("started"):
            return "done", []
        dice = _distinct(state.pool)
        fitting = [d for d in dice if self.fitting_tracks(state, sheet, d, "pool")]
        options: list[Action] = [("die", c, v) for c, v in (fitting or dice)]
        if state.solo and len(state.pool) == 2:
            options += [("anchor", c, v) for c, v in dice]
        return "die", options

    def _first_free(self, sheet: dict[str, Any], track: str) -> int | None:
        for i, b in enumerate(sheet["boxes"][track]):
            if b is None:
                return i
        return None

    def _reach(self, value: int | None, rudders: int, source: str) -> list[int]:
        if source == "A" or value is None:
            return [1, 2, 3, 4, 5, 6]
        return [v for v in range(1, 7) if abs(v - value) <= rudders]

    def fitting_tracks(self, state: DeoleState, sheet: dict[str, Any], die: Any, source: str) -> list[str]:
        """The tracks where ``die`` ([colour, value]; value None for bonus A) can be written, rudders
        included; ``source`` is where it comes from (``pool``, ``A``, ``B``, ``D``)."""
        colour, value = die[0], die[1]
        out: list[str] = []
        for track in (colour, D.CREW):
            box = self._first_free(sheet, track)
            if box is None:
                continue
            rudders = sheet["rudders"][track] + (1 if box in D.RUDDER_BOXES[track] else 0)
            values = self._reach(value, rudders, "A" if value is None else source)
            modes = [sheet["modes"][track]] if sheet["modes"][track] else self._unused_modes(state, sheet)
            existing = track_values(sheet["boxes"][track])
            if any(mode_allows(m, existing, v) for m in modes for v in values):
                out.append(track)
        return out

    def _unused_modes(self, state: DeoleState, sheet: dict[str, Any]) -> list[str]:
        taken = set(sheet["modes"].values())
        return [m for m in state.modes if m not in taken]

    def _fitting_modes(
        self, state: DeoleState, sheet: dict[str, Any], track: str, die: list[Any], source: str
    ) -> list[str]:
        values = self._reach(die[1], sheet["rudders"][track], source)
        existing = track_values(sheet["boxes"][track])
        return [m for m in self._unused_modes(state, sheet) if any(mode_allows(m, existing, v) for v in values)]

    def _adjust_options(self, sheet: dict[str, Any], ctx: dict[str, Any]) -> list[Action]:
        track = ctx["track"]
        mode = sheet["modes"][track]
        existing = track_values(sheet["boxes"][track])
        value = ctx["die"][1]
        if ctx["source"] == "A":
            return [("value", v) for v in range(1, 7) if mode_allows(mode, existing, v)]
        options: list[Action] = []
        if mode_allows(mode, existing, value):
            options.append(("place",))
        rudders = sheet["rudders"][track]
        for delta in (1, -1):
            if ctx["delta"] in (0, delta) and rudders > 0:
                reachable = [value + delta * k for k in range(1, rudders + 1) if 1 <= value + delta * k <= 6]
                if any(mode_allows(mode, existing, v) for v in reachable):
                    options.append(("rudder", delta))
        return options

    def _port_options(self, state: DeoleState, sheet: dict[str, Any]) -> list[Action]:
        storm = storm_boxes(state.storms)
        out: list[Action] = []
        for port in range(3):
            lane, heading = port_box(sheet["colour"], port)
            if _step(lane, heading) not in storm:
                out.append(("port", port + 1))
        return out

    def _move_options(self, state: DeoleState, sheet: dict[str, Any], wind: str) -> list[Action]:
        return [("move", d) for d in trace_exits(sheet, state.storms, wind)[0]]

    def _castaway_box(self, sheet: dict[str, Any], track: str) -> int | None:
        box = self._first_free(sheet, track)
        return None if box is None or box == D.NO_CASTAWAY_BOX else box

    def _bonus_options(self, state: DeoleState, sheet: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for letter in D.BONUSES:
            if letter in sheet["bonuses"]:
                continue
            if letter in ("A", "B") and not (state.bag or state.compass):
                continue
            if letter == "C" and sheet["docked"]:
                continue
            if letter == "D" and not state.compass:
                continue
            out.append(letter)
        return out

    def _disaster_options(self, sheet: dict[str, Any], die: list[Any]) -> list[Action]:
        options: list[Action] = [("disaster", track) for track in disaster_boxes(sheet, die[0])]
        if sheet["helping_hands"] > 0:
            options.append(("help",))
        return options

    # -- applying ---------------------------------------------------------------------------------
    def _advance(self, state: DeoleState, events: list[Event]) -> None:
        """Resolve forced steps until a real choice (two options or more) awaits a player."""
        for _ in range(10_000):
            if state.over:
                return
            if not state.order:
                self._end_turn(state, events)
                continue
            phase, options = self._decision(state)
            seat = _acting(state)
            if phase == "die" and not state.pool:
                events.append(Event("no_die", {"seat": seat}))
                self._next_player(state, events)
            elif phase == "done":
                self._next_player(state, events)
            elif phase == "disaster" and (die := state.ctx.get("disaster")) and die[1] in state.sheets[seat]["disaster_values"]:
                events.append(Event("disaster_ignored", {"seat": seat, "colour": die[0], "value": die[1]}))
                state.compass.append(die)
                state.ctx["disaster"] = None
            elif len(options) == 1:
                self._do(state, options[0], events)
            elif not options:
                self._resolve_empty(state, phase, events)
            else:
                return
        raise RuntimeError("deole: too many forced steps")

    def _resolve_empty(self, state: DeoleState, phase: str, events: list[Event]) -> None:
        seat = _acting(state)
        ctx = state.ctx
        sheet = state.sheets[seat]
        if phase in ("track", "mode", "adjust"):
            die = ctx["die"]
            value = die[1] if die[1] is not None else state.rng.randint(1, 6)
            state.compass.append([die[0], value])
            events.append(Event("die_discarded", {"seat": seat, "colour": die[0], "value": value}))
            self._record_last(state, seat, [die[0], value, None])
            ctx["die"], ctx["track"], ctx["delta"] = None, None, 0
        elif phase == "move":
            if trace_exits(sheet, state.storms, ctx["tasks"][0][6:])[1] == "crash":
                self._lose(state, "crash", events)  # led into the storm (solo): onto the reefs
                return
            ctx["tasks"].pop(0)
            events.append(Event("becalmed", {"seat": seat}))
        elif phase == "port":
            self._lose(state, "crash", events)
        elif phase in ("flip", "castaway", "colour", "take", "docked"):
            ctx["tasks"].pop(0)
        elif phase == "bonus":
            events.append(Event("bonus_lost", {"seat": seat, "count": ctx["bonus"]}))
            ctx["bonus"] = 0
        elif phase == "disaster":
            self._lose(state, "shipwreck", events)
        elif phase == "die":
            self._next_player(state, events)
        else:
            raise AssertionError(phase)

    def _do(self, state: DeoleState, action: Action, events: list[Event]) -> None:
        seat = _acting(state)
        sheet = state.sheets[seat]
        ctx = state.ctx
        kind = action[0]
        if kind == "die":
            die = [action[1], action[2]]
            rolled = len(state.pool)
            state.pool.remove(die)
            ctx.update(die=die, source="pool", started=True)
            self._begin_last(state, seat)
            events.append(Event("die_taken", {"seat": seat, "colour": die[0], "value": die[1]}))
            if state.solo and rolled == 2:  # the die not chosen is the Disaster, placed after steps A-E
                ctx["disaster"] = state.pool.pop(0)
                events.append(Event("disaster_due", {"seat": seat, "colour": ctx["disaster"][0],
                                                     "value": ctx["disaster"][1]}))
        elif kind == "anchor":
            dropped = [action[1], action[2]]
            state.pool.remove(dropped)
            state.compass.append(dropped)
            disaster = state.pool.pop(0)
            ctx.update(disaster=disaster, started=True)
            self._begin_last(state, seat)
            events.append(Event("anchor", {"seat": seat, "colour": dropped[0], "value": dropped[1],
                                           "disaster_colour": disaster[0], "disaster_value": disaster[1]}))
        elif kind == "track":
            track = action[1]
            box = self._first_free(sheet, track)
            ctx["track"] = track
            if box in D.RUDDER_BOXES[track]:
                sheet["rudders"][track] += 1
                events.append(Event("rudder_gained", {"seat": seat, "track": track}))
        elif kind == "mode":
            sheet["modes"][ctx["track"]] = action[1]
            events.append(Event("track_started", {"seat": seat, "track": ctx["track"], "mode": action[1]}))
        elif kind == "rudder":
            track = ctx["track"]
            sheet["rudders"][track] -= 1
            sheet["rudders_used"][track] += 1
            ctx["die"][1] += action[1]
            ctx["delta"] = action[1]
            events.append(Event("rudder_used", {"seat": seat, "track": track, "delta": f"{action[1]:+d}",
                                                "value": ctx["die"][1]}))
        elif kind in ("place", "value"):
            if kind == "value":
                ctx["die"][1] = action[1]
            self._place(state, seat, events)
        elif kind == "port":
            lane, heading = port_box(sheet["colour"], action[1] - 1)
            sheet.update(port=action[1] - 1, pos=list(lane), heading=heading)
            events.append(Event("port_left", {"seat": seat, "port": action[1]}))
        elif kind == "move":
            ctx["tasks"].pop(0)
            self._trace(state, seat, action[1], events)
        elif kind == "flip":
            ctx["tasks"].pop(0)
            sheet["flipped"].append(action[1] - 1)
            events.append(Event("wreck", {"seat": seat, "box": action[1]}))
        elif kind == "castaway":
            ctx["tasks"].pop(0)
            track = action[1]
            box = self._castaway_box(sheet, track)
            assert box is not None  # offered only where one fits
            sheet["boxes"][track][box] = CASTAWAY
            events.append(Event("castaway_written", {"seat": seat, "track": track, "box": box + 1}))
            if box in D.RUDDER_BOXES[track]:
                sheet["rudders"][track] += 1
                events.append(Event("rudder_gained", {"seat": seat, "track": track}))
            self._check_columns(sheet, ctx, seat, events)
        elif kind == "bonus":
            self._take_bonus(state, seat, action[1], events)
        elif kind == "colour":
            ctx["tasks"].pop(0)
            state.bag.remove(action[1])
            die = [action[1], state.rng.randint(1, 6)]
            ctx.update(die=die, source="B", track=None, delta=0)
            events.append(Event("bonus_die", {"seat": seat, "colour": die[0], "value": die[1]}))
        elif kind == "take":
            ctx["tasks"].pop(0)
            die = [action[1], action[2]]
            state.compass.remove(die)
            ctx.update(die=die, source="D", track=None, delta=0)
            events.append(Event("bonus_die", {"seat": seat, "colour": die[0], "value": die[1]}))
        elif kind == "disaster":
            self._place_disaster(state, seat, action[1], events)
        elif kind == "help":
            die = ctx["disaster"]
            sheet["helping_hands"] -= 1
            state.compass.append(die)
            events.append(Event("helping_hand", {"seat": seat, "colour": die[0], "value": die[1]}))
            ctx["disaster"] = None
        else:
            raise AssertionError(action)

    def _begin_last(self, state: DeoleState, seat: int) -> None:
        state.last = {"seat": seat, "score_before": sum(self.breakdown(state, seat).values()), "dice": []}

    def _record_last(self, state: DeoleState, seat: int, die: list[Any]) -> None:
        if state.last.get("seat") != seat:  # a turn begun before this field existed (an older snapshot)
            self._begin_last(state, seat)
        state.last["dice"].append(die)

    def _place(self, state: DeoleState, seat: int, events: list[Event]) -> None:
        ctx = state.ctx
        sheet = state.sheets[seat]
        track, die = ctx["track"], ctx["die"]
        box = self._first_free(sheet, track)
        assert box is not None  # a track is offered only with a free box
        sheet["boxes"][track][box] = die[1]
        sheet["round_dice"].append([track, box, die[0]])
        self._record_last(state, seat, [die[0], die[1], track])
        events.append(Event("die_placed", {"seat": seat, "track": track, "box": box + 1, "colour": die[0],
                                           "value": die[1]}))
        if track == D.CREW and box == D.CREW_BONUS_BOX:
            ctx["bonus"] += 1
            events.append(Event("bonus_crew", {"seat": seat}))
        self._check_columns(sheet, ctx, seat, events)
        ctx["die"], ctx["track"], ctx["delta"] = None, None, 0
        if not sheet["docked"]:
            ctx["tasks"].insert(0, f"trace:{track if track == D.CREW else die[0]}")

    def _check_columns(self, sheet: dict[str, Any], ctx: dict[str, Any], seat: int, events: list[Event]) -> None:
        for column in range(D.CREW_LENGTH):
            if column in sheet["columns"]:
                continue
            cells = [sheet["boxes"][t][column] for t in D.TRACKS]
            if any(c is None for c in cells):
                continue
            sheet["columns"].append(column)
            if column in D.STAR_COLUMNS:
                if DISASTER in cells:  # solo: a Disaster in the column forbids its bonus
                    events.append(Event("column_spoiled", {"seat": seat, "column": column + 1}))
                else:
                    ctx["bonus"] += 1
                    events.append(Event("bonus_column", {"seat": seat, "column": column + 1}))

    def _trace(self, state: DeoleState, seat: int, direction: str, events: list[Event]) -> None:
        sheet = state.sheets[seat]
        ctx = state.ctx
        heading = sheet["heading"]
        box = _step(tuple(sheet["pos"]), heading)
        before = sheet["max_depth"]
        sheet["path"].append([box[0], box[1], heading, direction])
        sheet["pos"], sheet["heading"] = list(box), direction
        sheet["max_depth"] = max(before, D.depth(box, sheet["colour"]))
        events.append(Event("moved", {"seat": seat, "direction": direction, "box": _box_name(box)}))
        follow: list[str] = []
        if box in D.WRECKS:
            if any(i not in sheet["flipped"] for i in D.CREW_FLIPPABLE):
                follow.append("flip")
            else:
                events.append(Event("wreck_nothing", {"seat": seat}))
        if list(box) in state.castaways:
            state.castaways.remove(list(box))
            if state.solo:
                sheet["helping_hands"] += 1
            events.append(Event("castaway_rescued", {"seat": seat, "box": _box_name(box)}))
            follow.append("castaway")
        if box in D.COASTS[sheet["colour"]] and not sheet["eolia"]:
            sheet["eolia"] = True
            first = state.eolia_first_turn in (None, state.turn_counter)
            if state.solo:
                first = before < D.SOLO_ISLAND_DEPTH_LIMIT  # only on the outward journey
            events.append(Event("eolia", {"seat": seat}))
            if first:
                if not state.solo:
                    state.eolia_first_turn = state.turn_counter
                sheet["eolia_bonus"] = True
                ctx["bonus"] += 1
                events.append(Event("bonus_eolia", {"seat": seat}))
        if not _in_grid(_step(box, direction)):
            sheet["docked"] = True
            events.append(Event("returned_to_port", {"seat": seat}))
        ctx["tasks"][0:0] = follow

    def _take_bonus(self, state: DeoleState, seat: int, letter: str, events: list[Event]) -> None:
        sheet = state.sheets[seat]
        ctx = state.ctx
        ctx["bonus"] -= 1
        sheet["bonuses"].append(letter)
        events.append(Event("bonus_taken", {"seat": seat, "bonus": letter}))
        if letter in ("A", "B") and not state.bag:
            self._refill(state, events)
        if letter == "A":
            colour = state.bag.pop(state.rng.randrange(len(state.bag)))
            ctx.update(die=[colour, None], source="A", track=None, delta=0)
            events.append(Event("bonus_draw", {"seat": seat, "colour": colour}))
        elif letter == "B":
            ctx["tasks"].insert(0, "colour")
        elif letter == "C":
            ctx["tasks"].insert(0, "trace:free")
        elif letter == "D":
            ctx["tasks"].insert(0, "take")

    def _place_disaster(self, state: DeoleState, seat: int, track: str, events: list[Event]) -> None:
        sheet = state.sheets[seat]
        die = state.ctx["disaster"]
        box = disaster_boxes(sheet, die[0])[track] - 1
        sheet["boxes"][track][box] = DISASTER
        sheet["disaster_values"].append(die[1])
        sheet.setdefault("disasters", []).append([track, box, die[1]])  # absent from older snapshots' sheets
        self._record_last(state, seat, [die[0], die[1], "disaster"])
        sheet["round_dice"].append([track, box, die[0]])
        if track != D.CREW:
            state.round_disasters.append(track)
        events.append(Event("disaster_placed", {"seat": seat, "track": track, "box": box + 1,
                                                "colour": die[0], "value": die[1]}))
        self._check_columns(sheet, state.ctx, seat, events)
        state.ctx["disaster"] = None

    def _lose(self, state: DeoleState, outcome: str, events: list[Event]) -> None:
        state.outcome = outcome  # announced by _finish as solo_<outcome>
        self._finish(state, events)

    # -- turns and rounds -------------------------------------------------------------------------
    def _next_player(self, state: DeoleState, events: list[Event]) -> None:
        state.order.pop(0)
        state.ctx = _fresh_ctx()

    def _start_turn(self, state: DeoleState, events: list[Event]) -> None:
        active = [s for s in range(state.players) if s not in state.eliminated]
        need = len(active) + 1
        if len(state.bag) < need:
            self._refill(state, events)
        state.pool = []
        for _ in range(min(need, len(state.bag))):
            colour = state.bag.pop(state.rng.randrange(len(state.bag)))
            state.pool.append([colour, state.rng.randint(1, 6)])
        start = state.first_player
        state.order = [s for s in [(start + i) % state.players for i in range(state.players)] if s in active]
        state.ctx = _fresh_ctx()
        events.append(Event("turn_start", {"round": state.round, "turn": state.turn,
                                           "dice": " ".join(f"{c} {v}" for c, v in state.pool)}))

    def _refill(self, state: DeoleState, events: list[Event]) -> None:
        """The bag runs short: every die on the Compass Rose goes back into the bag."""
        count = len(state.compass)
        state.bag.extend(c for c, _ in state.compass)
        state.compass = []
        events.append(Event("refill", {"count": count}))

    def _end_turn(self, state: DeoleState, events: list[Event]) -> None:
        state.compass.extend(state.pool)  # the die nobody took goes to the Compass Rose
        state.pool = []
        state.turn += 1
        state.turn_counter += 1
        if state.turn > D.TURNS_PER_ROUND:
            self._end_round(state, events)
            if state.over:
                return
        self._start_turn(state, events)

    def _end_round(self, state: DeoleState, events: list[Event]) -> None:
        # Dice leave the sheets (their values stay written) and go back into the bag.
        for sheet in state.sheets:
            state.bag.extend(colour for _, _, colour in sheet["round_dice"])
            sheet["round_dice"] = []
        events.append(Event("round_end", {"round": state.round}))
        if state.solo:
            for track in state.round_disasters:
                state.storms[track] += 1
                events.append(Event("storm", {"colour": track, "rows": state.storms[track]}))
            state.round_disasters = []
            sheet = state.sheets[0]
            storm = storm_boxes(state.storms)
            if sheet["pos"] is not None and not sheet["docked"] and tuple(sheet["pos"]) in storm:
                state.order = [0]
                self._lose(state, "crash", events)
                return
        state.round += 1
        state.turn = 1
        if state.round > D.ROUNDS:
            self._finish(state, events)
            return
        self._place_castaways(state, events)

    def _place_castaways(self, state: DeoleState, events: list[Event]) -> None:
        yellow, red = state.rng.randint(1, 6), state.rng.randint(1, 6)
        symbol = D.CASTAWAY_SYMBOLS[D.ANNEX_GRID[yellow - 1][red - 1]]
        state.castaway_symbol = symbol
        state.castaways = [list(b) for b in D.CASTAWAY_BOXES[symbol]]
        events.append(Event("castaways_placed", {"yellow": yellow, "red": red, "symbol": symbol}))

    def _finish(self, state: DeoleState, events: list[Event]) -> None:
        state.over = True
        state.order = []
        if state.solo and not state.outcome:
            state.outcome = "won" if state.sheets[0]["docked"] else "not_home"
        if state.solo:
            events.append(Event("solo_" + state.outcome, {"seat": 0}))
        result = self.result(state)
        for player in result.ranking:
            events.append(Event("final_score", {"seat": player.seat, "rank": player.rank, "score": player.score,
                                                **player.breakdown}))


def _acting(state: DeoleState) -> int:
    """The seat whose decision is being resolved (there is one whenever the engine resolves a step)."""
    seat = state.actor
    assert seat is not None
    return seat


def _kind(action: object) -> object:
    """An action's kind, or "" when ``apply`` is handed something that is not a non-empty tuple (forged)."""
    if isinstance(action, tuple) and action:
        return cast(tuple[object, ...], action)[0]
    return ""


def _echo(text: Any, limit: int = 60) -> str:
    """What someone typed, cut to a length a refusal can quote (a forged command may send thousands)."""
    shown = str(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _distinct(dice: list[list[Any]]) -> list[tuple[str, int]]:
    seen: list[tuple[str, int]] = []
    for colour, value in dice:
        if (colour, value) not in seen:
            seen.append((colour, value))
    return seen


def _box_name(box: Box) -> str:
    """Chess-like name: column letter A-I (west to east), row number 1-9 (north to south)."""
    return f"{'ABCDEFGHI'[box[1]]}{box[0] + 1}"


_PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "die": ("die", "anchor"), "track": ("track",), "mode": ("mode",), "adjust": ("place", "rudder", "value"),
    "port": ("port",), "move": ("move",), "flip": ("flip",), "castaway": ("castaway",), "bonus": ("bonus",),
    "colour": ("colour",), "take": ("take",), "disaster": ("disaster", "help"),
}
