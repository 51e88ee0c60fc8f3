"""Maple Valley rules engine: friends walk the valley, gather supplies, craft favors for festivities.

A turn is built in small steps, one decision at a time, like Trails' place / figure / confirm:
the card (``friend f05 F`` or ``dawdle forage``), the walk one path at a time (``path 4``,
``path 16 tok``, ``path 9 free``, ``stop``), the location's choices (``favor tr05``, ``cube spring 3``,
``patch deck``, ``buy f13 fl,pe``, ``pay a,b``, ``take h``...), crafts (``craft tr05``, ``craft tr05 -a``,
``craft tr05 a=fl``) and ``end``. ``undo`` takes the last step back until the turn ends, except past
a step that drew a hidden card (a deck draw or a display refill). A choice with a single option is made
by the engine itself; hour ends, sun tiles, refills, dawdle dealing and the worm are automatic.
"""

from __future__ import annotations

import marshal
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
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
    clip,
    rank_players,
    rng_from_json,
    rng_to_json,
)
from games.maple import data as D

# (kind, *arguments): the kind names the step; ``_parse`` lists every shape, e.g. ("path", 4, "main"),
# ("take", ("a", "b")), ("craft", "tr05", "-a", "") or ("stop",). Arguments are str, int or tuples of str.
Action = tuple[Any, ...]
# [kind, *arguments]: a pending choice of the acting player (``_task_options`` lists every shape), e.g.
# ["goods", None, 1, False] or ["exchange", "mill", 2]. A list, so that the state stays JSON.
Task = list[Any]
Player = dict[str, Any]  # one seat's belongings, as ``_new_player`` makes them (JSON)
Walk = dict[str, Any]  # the walk of a friend turn, as ``_play_friend`` starts it (JSON)
Snapshot = tuple[tuple[Any, ...], bytes]  # the generator's state and the marshalled turn fields

NEUTRAL = -1  # a blocking cube on a festivity space


# -- state ----------------------------------------------------------------------------------------
def _new_player(seat: int) -> Player:
    return {
        "seat": seat,
        "pos": "V",
        "hand": [],  # friends in hand
        "backpack": [],  # friends played this hour
        "dawdle": [],  # dawdle cards in hand (kinds)
        "favors": [],  # favor cards waiting to be crafted (face up)
        "crafted": [],
        "patches": [],
        "patch_cubes": [],  # hour patches used this hour (a cube lies on them)
        "goods": {g: 0 for g in D.GOODS},
        "curios": {c: 0 for c in D.CURIOS},
        "map": 0,
        "cubes": D.CUBES,  # cubes still in the player's supply
        "fest_vp": 0,  # VP rewards for filling festivities
        "owed": 0,  # Helper patch: goods of their choice still to take
        "keep": [],  # setup: the three favors drawn, two to keep
    }


@dataclass
class MapleState:
    players: int
    rng: random.Random
    hour: int = 1
    sun: str = ""
    sun_deck: list[str] = field(default_factory=list[str])
    worm: int = 0
    actor: int | None = None
    keep_order: list[int] = field(default_factory=list[int])
    groves: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    spots: dict[str, str] = field(default_factory=dict[str, str])  # str(path number) -> curiosity kind
    clearings: dict[str, str] = field(default_factory=dict[str, str])  # X1/X2 -> clearing code
    fests: list[JSON] = field(default_factory=list[JSON])  # {"code", "cubes": [seat|-1|None]*6}
    # friends/favors/patches: deck, display, discard
    rows: dict[str, dict[str, list[str]]] = field(default_factory=dict[str, dict[str, list[str]]])
    dawdle_deck: list[str] = field(default_factory=list[str])
    supply: dict[str, int] = field(default_factory=dict[str, int])
    seats: list[Player] = field(default_factory=list[Player])
    ctx: JSON = field(default_factory=dict[str, Any])  # the turn under way, as ``_fresh_ctx`` makes it
    turn_steps: list[str] = field(default_factory=list[str])
    turn_snap: Snapshot | None = None
    undo_floor: int = 0
    revealed: bool = False
    eliminated: list[int] = field(default_factory=list[int])
    over: bool = False
    actions: int = 0
    turns: int = 0
    opening: list[list[Any]] = field(default_factory=list[list[Any]])  # [code, params] for initial_events
    turn_base: int = 0  # the mover's total when the turn began (the last turn's points, for the board)
    last_turn: JSON = field(default_factory=dict[str, Any])  # seat, card, main, at, crafted, points
    # The last options listed by legal_actions and the position they were listed for (not saved): apply
    # checks an action against them instead of working the step out a second time.
    listed: tuple[tuple[Any, ...], set[Action]] | None = field(default=None, compare=False, repr=False)

    @property
    def solo(self) -> bool:
        return self.players == 1


_FIELDS = (
    "players", "hour", "sun", "sun_deck", "worm", "actor", "keep_order", "groves", "spots", "clearings", "fests",
    "rows", "dawdle_deck", "supply", "seats", "ctx", "turn_steps", "turn_snap", "undo_floor", "revealed",
    "eliminated", "over", "actions", "turns", "opening", "turn_base", "last_turn",
)
_LATER_FIELDS = ("turn_base", "last_turn")  # absent from states saved before them
_SNAP_FIELDS = tuple(f for f in _FIELDS if f != "turn_snap")
# What a turn can change, kept at its start for ``undo`` (the hour, sun, board and eliminations cannot).
_TURN_FIELDS = ("actor", "fests", "rows", "dawdle_deck", "supply", "seats", "ctx", "turn_steps", "undo_floor",
                "revealed")


def _fresh_ctx(phase: str = "card") -> JSON:
    return {"phase": phase, "card": None, "main": None, "tasks": [], "walk": None, "crafted": 0, "used": [],
            "ending": False}


def _copy(value: Any) -> Any:
    return marshal.loads(marshal.dumps(value))


# -- options --------------------------------------------------------------------------------------
def _pick_names(raw: str, table: Mapping[str, D.Festivity | D.Clearing], count: int,
                option: str) -> list[str] | None:
    text = str(raw).strip().lower()
    if text in ("", "random"):
        return None
    by_name = {code: code for code in table} | {item.name.lower(): code for code, item in table.items()}
    picked: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        code = by_name.get(part)
        if code is None:
            raise InvalidOptions("unknown_card", option=option, value=part, choices=", ".join(table))
        if code not in picked:
            picked.append(code)
    if len(picked) != count:
        raise InvalidOptions("card_count", option=option, count=count)
    return picked


# -- the game -------------------------------------------------------------------------------------
class MapleGame(Game[MapleState, Action]):
    key = "maple"
    names = {"en": "Maple Valley", "ru": "Кленовая долина"}
    min_players = 1
    max_players = 5
    json_version = 1
    private_views = False  # decision 17: favors, friends and dawdle cards are all known
    option_specs = (
        OptionSpec("festivities", "text", "random", examples=("random", "spring,lantern,maypole")),
        OptionSpec("clearings", "text", "random", examples=("random", "trading,honey")),
    )

    # -- setup ------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> MapleState:
        self.check_players(players)
        opts = self.parse_options(options)
        fests = _pick_names(opts["festivities"], D.FESTIVITIES, 3, "festivities")
        clearings = _pick_names(opts["clearings"], D.CLEARINGS, 2, "clearings")
        rng = random.Random(seed)
        state = MapleState(players=players, rng=rng)
        tokens = list(D.GROVE_TOKENS)
        rng.shuffle(tokens)
        state.groves = {g: list(tokens[i]) for i, g in enumerate(D.GROVES)}
        spot_tokens = list(D.SPOT_TOKENS)
        rng.shuffle(spot_tokens)
        state.spots = {str(p): spot_tokens[i] for i, p in enumerate(D.SPOT_PATHS)}
        if clearings is None:
            clearings = rng.sample(list(D.CLEARINGS), 2)
        state.clearings = dict(zip(D.CLEARING_SPOTS, clearings, strict=True))
        if players == 1:
            state.fests = [{"code": "feast", "cubes": [None] * 6}]
        else:
            if fests is None:
                fests = rng.sample(list(D.FESTIVITIES), 3)
            state.fests = [{"code": code, "cubes": [NEUTRAL if i in D.BLOCKED_SPACES[players] else None
                                                     for i in range(6)]} for code in fests]
        suns = list(D.SUN_TILES)
        rng.shuffle(suns)
        state.sun, state.sun_deck = suns[0], suns[1:D.HOURS]
        state.supply = {g: D.SUPPLY_PER_KIND for g in (*D.GOODS, *D.CURIOS)} | {"map": D.MAP_TOKENS}
        for row, ids in (("friends", D.DECK_FRIENDS), ("favors", D.FAVORS), ("patches", D.PATCHES)):
            deck = list(ids)
            rng.shuffle(deck)
            state.rows[row] = {"deck": deck[D.DISPLAY:], "display": deck[:D.DISPLAY], "discard": []}
        state.dawdle_deck = [k for k in D.DAWDLE_KINDS for _ in range(D.DAWDLE_PER_KIND)]
        rng.shuffle(state.dawdle_deck)
        state.seats = [_new_player(s) for s in range(players)]
        for p in state.seats:
            p["hand"] = [D.STARTERS[p["seat"]], state.rows["friends"]["deck"].pop(0)]
            p["map"] = 1
            state.supply["map"] -= 1
            for c in D.CURIOS:
                p["curios"][c] = 1
                state.supply[c] -= 1
            p["keep"] = [state.rows["favors"]["deck"].pop(0) for _ in range(3)]
        state.worm = rng.randrange(players)
        state.keep_order = [(state.worm + i) % players for i in range(players)]
        state.ctx = _fresh_ctx("keep")
        state.opening = [["setup", {"worm_seat": state.worm, "sun": state.sun,
                                    "festivities": ",".join(f["code"] for f in state.fests),
                                    "clearings": ",".join(clearings)}]]
        return state

    def initial_events(self, state: MapleState) -> list[Event]:
        return [Event(code, dict(params)) for code, params in state.opening]

    # -- contract ---------------------------------------------------------------------------------
    def to_act(self, state: MapleState) -> list[Seat]:
        if state.over:
            return []
        if state.keep_order:
            return [state.keep_order[0]]
        return [] if state.actor is None else [state.actor]

    def legal_actions(self, state: MapleState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        options = list(self._decision(state)[1])
        state.listed = (_version(state), set(options))
        if self._can_undo(state):
            options.append(("undo",))
        return options

    def apply(self, state: MapleState, seat: Seat, action: Action) -> list[Event]:
        if state.over:
            raise IllegalAction("game_over")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn")
        events: list[Event] = []
        if action == ("undo",):
            if not self._can_undo(state):
                raise IllegalAction("cannot_undo")
            if state.turn_steps[-1].startswith("path ") and not state.ctx["tasks"]:
                self._unwalk(state)
            else:
                self._undo(state)
            events.append(Event("undone", {"seat": seat}))
            state.actions += 1
            return events
        self._step(state, seat, action, events)
        state.actions += 1
        return events

    def _step(self, state: MapleState, seat: Seat, action: Action, events: list[Event], trusted: bool = False) -> None:
        listed = state.listed
        state.listed = None
        fresh = listed is not None and listed[0] == _version(state) and action in listed[1]
        if not trusted and not fresh:  # a replayed step (undo) was checked when it was first played
            step, options = self._decision(state)
            if action not in options:
                raise IllegalAction("not_allowed", step=step, action=self._safe_format(action))
        in_turn = not state.keep_order
        state.revealed = False
        self._do(state, seat, action, events)
        if in_turn and state.actor == seat and not state.over:
            state.turn_steps.append(self.format(action))
            if state.revealed:
                state.undo_floor = len(state.turn_steps)
        self._advance(state, events)

    def _can_undo(self, state: MapleState) -> bool:
        return not state.keep_order and not state.over and len(state.turn_steps) > state.undo_floor

    def _undo(self, state: MapleState) -> None:
        steps = state.turn_steps[:-1]
        assert state.turn_snap is not None, "a turn under way has its snapshot (taken by _advance)"
        rng_state, data = state.turn_snap
        snap = marshal.loads(data)
        for name in _TURN_FIELDS:
            setattr(state, name, snap[name])
        state.rng.setstate(rng_state)
        seat = state.actor
        assert seat is not None, "a turn being replayed has its player"
        for text in steps:
            self._step(state, seat, self.parse(text), [], trusted=True)

    def default_action(self, state: MapleState, seat: Seat) -> Action:
        step, options = self._decision(state) if seat in self.to_act(state) else ("", [])
        if not options:
            raise IllegalAction("not_your_turn")
        if step == "card":
            dawdles = [a for a in options if a[0] == "dawdle"]
            return dawdles[0] if dawdles else options[0]
        if step == "walk":
            if ("stop",) in options:
                return ("stop",)
            mains = [a for a in options if a[0] == "path" and a[2] == "main"]
            return mains[0] if mains else options[0]
        if step == "craft":
            return ("end",)
        if step == "place":  # a matching space first: Dragonfly or Festival Helper stay unused
            symbol = state.ctx["tasks"][0][1]
            matching = [a for a in options if a[0] == "cube" and _space_symbol(a[1], a[2] - 1) == symbol]
            if matching:
                return matching[0]
        for decline in (("skip",), ("done",)):
            if decline in options:
                return decline
        return options[0]

    def eliminate(self, state: MapleState, seat: Seat) -> list[Event]:
        events: list[Event] = []
        if state.over or seat in state.eliminated:
            return events
        state.eliminated.append(seat)
        events.append(Event("eliminated", {"seat": seat}))
        was_keeping = bool(state.keep_order)
        if seat in state.keep_order:
            p = state.seats[seat]
            p["favors"] = p["keep"][:2]
            state.rows["favors"]["discard"] += p["keep"][2:]
            p["keep"] = []
            state.keep_order.remove(seat)
        active = [s for s in range(state.players) if s not in state.eliminated]
        if len(active) <= (0 if state.solo else 1):
            self._finish(state, events)
            return events
        if state.actor == seat and not state.keep_order:
            # The turn stops where it is: the card stays played, pending choices are dropped.
            state.ctx = _fresh_ctx("craft")
            state.ctx["ending"] = True
        if was_keeping and not state.keep_order:
            events.append(Event("hour_start", {"hour": state.hour, "sun": state.sun, "worm_seat": state.worm}))
            self._start_hour_turns(state, events)
        self._advance(state, events)
        return events

    def is_over(self, state: MapleState) -> bool:
        return state.over

    def turn_number(self, state: MapleState) -> int:
        """Each player's setup choice counts as a turn, then every turn started (steps never count)."""
        return state.players - len(state.keep_order) + state.turns

    # -- scoring ----------------------------------------------------------------------------------
    def breakdown(self, state: MapleState, seat: int) -> dict[str, int]:
        p = state.seats[seat]
        crafted = [D.FAVORS[f] for f in p["crafted"]]
        symbols = Counter(f.symbol for f in crafted)
        ids = set(p["crafted"])
        favors = 0
        for f in crafted:
            favors += f.vp
            if f.bonus == "S":
                favors += min(D.S_BONUS_CAP, symbols[f.symbol] - 1)
            elif f.bonus == "P" and f.partner in ids:
                favors += D.P_BONUS
            elif f.bonus == "V":
                favors += len(symbols)
        owned = [*p["hand"], *p["backpack"]]
        fest_with_cube = sum(1 for fest in state.fests if seat in fest["cubes"])
        friends = sum(D.FRIENDS[f].vp for f in owned)
        if "f15" in owned:
            friends += min(4, len(p["patches"]))
        if "f24" in owned:
            friends += fest_with_cube
        if "f28" in owned:
            friends += (len(owned) - 1) // 2
        if "f35" in owned:
            if state.solo:
                friends += 3 if len(crafted) >= 8 else 0
            else:
                most = max(len(q["crafted"]) for q in state.seats)
                friends += 3 if len(crafted) == most and most > 0 else 0
        if "f36" in owned:
            friends += 2 * min(p["curios"].values())
        patches = 0
        for pid in p["patches"]:
            patches += D.PATCHES[pid].vp
            if pid in D.SYMBOL_PATCHES:
                patches += 2 * symbols[D.SYMBOL_PATCHES[pid]]
            elif pid == "p35":
                patches += p["map"]
            elif pid == "p36":
                patches += p["goods"]["y"]
            elif pid == "p37":
                patches += len(owned)
            elif pid == "p38":
                patches += 2 * fest_with_cube
        others = sum(v for g, v in p["goods"].items() if g != "y") + sum(p["curios"].values())
        leftovers = p["map"] + p["goods"]["y"] + others // 3
        out = {"favors": favors, "friends": friends, "patches": patches, "leftovers": leftovers}
        if state.solo:
            cubes = state.fests[0]["cubes"].count(seat)
            out["feast"] = D.FEAST_PER_CUBE * cubes + (D.FEAST_FULL_BONUS if cubes == 6 else 0)
        else:
            out["festivities"] = p["fest_vp"] + sum(_festivity_points(fest["cubes"], seat) for fest in state.fests)
        return out

    def result(self, state: MapleState) -> Result:
        breakdowns = {seat: self.breakdown(state, seat) for seat in range(state.players)}
        totals = {seat: sum(b.values()) for seat, b in breakdowns.items()}
        ranks = rank_players({seat: (total,) for seat, total in totals.items()}, state.eliminated)
        ranking = sorted(
            (PlayerResult(seat, ranks[seat], totals[seat], b, seat in state.eliminated)
             for seat, b in breakdowns.items()),
            key=lambda r: (r.rank, r.seat),
        )
        extra: dict[str, Any] = {}
        if state.solo:
            score = totals[0]
            rating = next(name for minimum, name in D.SOLO_RATINGS if score >= minimum)
            extra = {"solo": True, "rating": rating, "won": score >= D.SOLO_WIN}
        return Result(ranking=ranking, turns=state.turns, extra=extra)

    # -- view and JSON ----------------------------------------------------------------------------
    def view(self, state: MapleState, seat: Seat | None) -> JSON:
        """Everything on the table is public (decision 17); deck orders and the sun tiles to come are not."""
        step, _ = self._decision(state)
        seats: list[Player] = []
        for p in state.seats:
            q = _copy(p)
            seats.append(q)
        ctx = state.ctx
        return {
            "game": self.key,
            "players": state.players,
            "solo": state.solo,
            "hour": state.hour,
            "sun": state.sun,
            "worm": state.worm,
            "actor": self.to_act(state)[0] if self.to_act(state) else None,
            "step": step,
            "groves": _copy(state.groves),
            "spots": _copy(state.spots),
            "clearings": dict(state.clearings),
            "fests": _copy(state.fests),
            "rows": {row: {"display": list(r["display"]), "deck_count": len(r["deck"]),
                           "discard": list(r["discard"])} for row, r in state.rows.items()},
            "dawdle_deck_count": len(state.dawdle_deck),
            "supply": dict(state.supply),
            "seats": seats,
            "turn": {"card": ctx.get("card"), "main": ctx.get("main"), "crafted": ctx.get("crafted", 0),
                     "walk": {k: _copy(v) for k, v in ctx["walk"].items() if k != "back"}
                     if ctx.get("walk") else None},
            "eliminated": list(state.eliminated),
            "over": state.over,
            "last_turn": _copy(state.last_turn),  # who played the last turn, what and where, its points
            "scores": {str(s): self.breakdown(state, s) for s in range(state.players)},
        }

    def to_json(self, state: MapleState) -> JSON:
        out: JSON = {"v": self.json_version, "rng": rng_to_json(state.rng)}
        for name in _SNAP_FIELDS:
            out[name] = _copy(getattr(state, name))
        if state.turn_snap is not None:
            rng_state, data = state.turn_snap
            version, internal, gauss = rng_state
            out["turn_snap"] = {"rng": [version, list(internal), gauss], **marshal.loads(data)}
        else:
            out["turn_snap"] = None
        return out

    def from_json(self, data: JSON) -> MapleState:
        if data.get("v") != self.json_version:
            raise ValueError(f"maple: unsupported state version {data.get('v')}")
        state = MapleState(players=data["players"], rng=rng_from_json(data["rng"]))
        for name in _SNAP_FIELDS:
            if name in data or name not in _LATER_FIELDS:
                setattr(state, name, _copy(data[name]))
        snap = data["turn_snap"]
        if snap is not None:
            rng = rng_from_json(snap["rng"])
            state.turn_snap = (rng.getstate(), marshal.dumps({name: snap[name] for name in _TURN_FIELDS}))
        return state

    def _snapshot(self, state: MapleState) -> Snapshot:
        """The state at the start of the turn, for ``undo``: the generator's state and the other fields."""
        return state.rng.getstate(), marshal.dumps({name: getattr(state, name) for name in _TURN_FIELDS})

    # -- notation ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        action = _parse(text)
        if action is None:
            raise IllegalAction("notation", text=clip(text))
        return action

    def format(self, action: Action) -> str:
        kind = action[0]
        if kind in ("stop", "skip", "done", "end", "undo", "stay", "village"):
            return kind
        if kind == "keep":
            return f"keep {','.join(action[1])}"
        if kind == "friend":
            return f"friend {action[1]} {action[2]}"
        if kind == "path":
            return f"path {action[1]}" + ("" if action[2] == "main" else f" {action[2]}")
        if kind == "cube":
            return f"cube {action[1]} {action[2]}"
        if kind in ("buy",):
            return f"buy {action[1]} {','.join(action[2])}"
        if kind in ("pay", "take"):
            return f"{kind} {','.join(action[1])}"
        if kind == "craft":
            return " ".join(["craft", action[1], *(m for m in action[2:] if m)])
        return f"{kind} {action[1]}"

    def describe(self, action: Action, locale: str = "en") -> str:
        """A label for buttons and autocomplete: the card and place names behind the notation."""
        words = _WORDS_RU if locale == "ru" else _WORDS_EN
        kind = action[0]
        if kind == "keep":
            return f"{words['keep']}: " + " + ".join(D.FAVORS[f].name for f in action[1])
        if kind == "friend":
            friend = D.FRIENDS[action[1]]
            return f"{friend.name} · {action[2]} · {friend.vp} VP · {friend.ability}"
        if kind == "dawdle":
            return f"{words['dawdle']}: {D.DAWDLE_NAMES[action[1]]}"
        if kind == "path":
            path = D.PATHS[action[1]]
            extra = {"main": "", "tok": f", {words['tok']}", "free": f", {words['free']}"}[action[2]]
            spot = " ★" if path.spot else ""
            return f"{words['path']} {action[1]} ({path.type}{spot}){extra}"
        if kind == "favor" and action[1] != "deck":
            favor = D.FAVORS[action[1]]
            return f"{favor.name} [{favor.symbol}] {' '.join(favor.cost)} · {favor.vp} VP {favor.bonus}".rstrip()
        if kind == "patch" and action[1] != "deck":
            patch = D.PATCHES[action[1]]
            return f"{patch.name} ({patch.kind}, {patch.vp} VP) {patch.text}".rstrip()
        if kind == "cube":
            fest = D.FEAST if action[1] == "feast" else D.FESTIVITIES[action[1]]
            return f"{fest.name} {action[2]} ({fest.spaces[action[2] - 1]})"
        if kind == "buy":
            return f"{words['buy']} {D.FRIENDS[action[1]].name} ({','.join(action[2])})"
        if kind == "craft":
            return f"{words['craft']} {D.FAVORS[action[1]].name} {' '.join(m for m in action[2:] if m)}".rstrip()
        return words.get(self.format(action), self.format(action))

    def _safe_format(self, action: Any) -> str:
        try:
            return self.format(action)
        except (TypeError, IndexError, ValueError, KeyError):
            return str(action)

    # -- decisions --------------------------------------------------------------------------------
    def _decision(self, state: MapleState) -> tuple[str, list[Action]]:
        if state.over:
            return "over", []
        if state.keep_order:
            keep = state.seats[state.keep_order[0]]["keep"]
            return "keep", [("keep", tuple(sorted(pair))) for pair in combinations(keep, 2)]
        ctx = state.ctx
        seat = state.actor
        if seat is None:
            return "over", []
        if ctx["tasks"]:
            task = ctx["tasks"][0]
            return task[0], self._task_options(state, seat, task)
        phase = ctx["phase"]
        if phase == "card":
            return "card", self._card_options(state, seat)
        if phase == "walk":
            return "walk", self._walk_options(state, seat)
        return "craft", self._craft_options(state, seat)

    def _card_options(self, state: MapleState, seat: int) -> list[Action]:
        p = state.seats[seat]
        out: list[Action] = []
        for fid in p["hand"]:
            for t in D.FRIENDS[fid].paths:
                out.append(("friend", fid, t))
        for kind in sorted(set(p["dawdle"]), key=D.DAWDLE_KINDS.index):
            out.append(("dawdle", kind))
        return out

    # -- tasks ------------------------------------------------------------------------------------
    def _task_options(self, state: MapleState, seat: int, task: Task) -> list[Action]:
        p = state.seats[seat]
        kind = task[0]
        if kind == "goods":  # ["goods", allowed kinds or None, count, distinct]
            allowed = task[1] or D.GOODS
            kinds = [g for g in allowed if state.supply[g] > 0]
            if task[2] == 2:
                return [("take", pair) for pair in combinations(kinds, 2)] or [("take", (g,)) for g in kinds]
            return [("take", (g,)) for g in kinds]
        if kind == "curio":  # ["curio", excluded kind or None]
            return [("take", (c,)) for c in D.CURIOS if c != task[1] and state.supply[c] > 0]
        if kind == "favor":  # ["favor", "any" | "display" | "display_opt"]
            row = state.rows["favors"]
            out: list[Action] = [("favor", f) for f in row["display"]]
            if task[1] == "any" and (row["deck"] or row["discard"]):
                out.append(("favor", "deck"))
            if task[1] == "display_opt" and out:
                out.append(("skip",))
            return out
        if kind == "patch":  # ["patch", lynx]
            row = state.rows["patches"]
            out = [("patch", pid) for pid in row["display"]]
            if task[1]:
                out += [("patch", pid) for pid in row["deck"][:3]]
            elif row["deck"] or row["discard"]:
                out.append(("patch", "deck"))
            return out
        if kind == "cube":  # ["cube", symbol or None (any space), optional]
            if p["cubes"] <= 0:
                return []
            out = [cast(Action, ("cube", fest["code"], i + 1)) for fest in state.fests
                   for i, s in enumerate(fest["cubes"])
                   if s is None and (task[1] is None or _space_symbol(fest["code"], i) == task[1])]
            if task[2] and out:
                out.append(("skip",))
            return out
        if kind == "place":  # ["place", symbol, any_space_allowed]: the cube of a crafted favor
            if p["cubes"] <= 0:
                return []
            free = [(fest["code"], i) for fest in state.fests for i, s in enumerate(fest["cubes"]) if s is None]
            matching = [("cube", code, i + 1) for code, i in free if _space_symbol(code, i) == task[1]]
            if not task[2]:
                return matching
            out = [cast(Action, ("cube", code, i + 1)) for code, i in free]
            if not matching and out:
                out.append(("skip",))
            return out
        if kind == "buy":  # ["buy", discount]
            out = []
            for fid in state.rows["friends"]["display"]:
                cost = D.FRIENDS[fid].cost
                size = max(1, len(cost) - task[1])
                for pay in sorted({_canon(c) for c in combinations(cost, size)}, key=lambda c: [ORDER[i] for i in c]):
                    need = Counter(pay)
                    if all(p["curios"][c] >= n for c, n in need.items()):
                        out.append(("buy", fid, pay))
            return [*out, ("skip",)]
        if kind == "exchange":  # ["exchange", source, uses left]
            return [*self._exchange_options(state, p, task[1]), ("done",)]
        if kind == "discard":
            return [("discard", f) for f in p["favors"]]
        if kind == "bat":
            return [("stay",), ("village",)]
        raise AssertionError(task)

    def _exchange_options(self, state: MapleState, p: Player, source: str) -> list[Action]:
        held = [g for g in D.GOODS if p["goods"][g] > 0]
        curios = [c for c in D.CURIOS if p["curios"][c] > 0]
        if source in ("trading", "rabbit"):
            return [("pay", (g,)) for g in held]
        if source in ("honey", "mill"):
            return [("pay", pair) for pair in combinations_with_replacement(held, 2)
                    if pair[0] != pair[1] or p["goods"][pair[0]] >= 2]
        if source in ("lookout", "pond", "well", "moose"):
            return [("pay", (c,)) for c in curios]
        raise AssertionError(source)

    # -- walking ----------------------------------------------------------------------------------
    def _walk_options(self, state: MapleState, seat: int) -> list[Action]:
        walk = state.ctx["walk"]
        p = state.seats[seat]
        out: list[Action] = []
        if not walk["used"] and walk["mole"] and walk["at"] != "V":
            out.append(("from", "V"))
        friend = D.FRIENDS[state.ctx["card"]]
        origin = walk["origin"]
        for number, path_kind, other, how in self._steps(p, walk, friend, p["map"]):
            if other == origin and not walk["shortcut"]:
                after = _after(walk, number, path_kind, other, how)
                left = p["map"] - (after["spent"] - walk["spent"])
                if not self._steps(p, after, friend, left):
                    continue  # back where the turn began with no way on: a dead end
            out.append(("path", number, path_kind))
        if walk["used"] and (walk["at"] != origin or walk["shortcut"]):
            out.append(("stop",))
        return out

    @staticmethod
    def _steps(p: Player, walk: Walk, friend: D.Friend,
               tokens: int) -> list[tuple[int, str, str, str]]:
        """Every single path the walk may take next (``tokens`` map tokens in hand): (number, kind, the
        location it leads to, how a main path is allowed)."""
        out: list[tuple[int, str, str, str]] = []
        used = walk["used"]
        patches = p["patches"]
        stage = walk["stage"]
        token_ok = not walk["turtle"] and (walk["credit"] > 0 or tokens > 0)
        free_ok = walk["otter"] or walk["trail"]
        for number, other in D.ADJACENT[walk["at"]]:
            if number in used:
                continue
            if stage != "post":
                how = _main_ok(walk, friend, D.PATHS[number].type, patches)
                if how:
                    out.append((number, "main", other, how))
            if token_ok:
                out.append((number, "tok", other, ""))
            if free_ok:
                out.append((number, "free", other, ""))
        return out

    # -- crafting ---------------------------------------------------------------------------------
    def _craft_options(self, state: MapleState, seat: int) -> list[Action]:
        p = state.seats[seat]
        used = state.ctx["used"]
        card = state.ctx["card"]
        discount = (card == "s4" and "cub" not in used) or self._hour_ready(p, "p06")
        swap = None
        if card == "f06" and "badger" not in used:
            swap = "goods"
        elif card == "f22" and "mink" not in used:
            swap = "curio"
        out: list[Action] = []
        for fid in dict.fromkeys(p["favors"]):
            cost = Counter(D.FAVORS[fid].cost)
            variants: list[tuple[str, Counter[str]]] = [("", cost)]
            if discount and sum(cost.values()) >= 2:
                for g in cost:
                    variants.append((f"-{g}", cost - Counter({g: 1})))
            for mod, need in variants:
                short = {g: n - p["goods"][g] for g, n in need.items() if p["goods"][g] < n}
                if not short:
                    out.append(("craft", fid, mod, ""))
                elif swap and sum(short.values()) == 1:
                    missing = next(iter(short))
                    if swap == "goods":
                        subs = [g for g in D.GOODS if g != missing and p["goods"][g] > need.get(g, 0)]
                    else:
                        subs = [c for c in D.CURIOS if p["curios"][c] > 0]
                    out += [("craft", fid, mod, f"{missing}={s}") for s in subs]
        if self._hour_ready(p, "p02"):
            out += [("trader", g) for g in D.GOODS if p["goods"][g] > 0]
        if self._hour_ready(p, "p11"):
            out += [("barter", c) for c in D.CURIOS if p["curios"][c] > 0]
        out.append(("end",))
        return out

    @staticmethod
    def _hour_ready(p: Player, pid: str) -> bool:
        return pid in p["patches"] and pid not in p["patch_cubes"] and p["cubes"] > 0

    def _use_hour(self, p: Player, pid: str) -> None:
        p["patch_cubes"].append(pid)
        p["cubes"] -= 1

    # -- doing ------------------------------------------------------------------------------------
    def _do(self, state: MapleState, seat: int, action: Action, events: list[Event]) -> None:
        p = state.seats[seat]
        ctx = state.ctx
        kind = action[0]
        if kind == "keep":
            dropped = [f for f in p["keep"] if f not in action[1]]
            p["favors"] = list(action[1])
            state.rows["favors"]["discard"] += dropped
            p["keep"] = []
            state.keep_order.pop(0)
            events.append(Event("kept", {"seat": seat, "favors": ",".join(action[1])}))
            if not state.keep_order:
                events.append(Event("hour_start", {"hour": state.hour, "sun": state.sun, "worm_seat": state.worm}))
                self._start_hour_turns(state, events)
            return
        if ctx["tasks"]:
            self._do_task(state, seat, ctx["tasks"].pop(0), action, events)
            return
        if kind == "friend":
            self._play_friend(state, seat, action[1], action[2], events)
        elif kind == "dawdle":
            self._play_dawdle(state, seat, action[1], events)
        elif kind == "from":
            ctx["walk"]["at"] = "V"
            ctx["walk"]["mole"] = False
            p["pos"] = "V"
            events.append(Event("mole", {"seat": seat}))
        elif kind == "path":
            self._walk_path(state, seat, action[1], action[2], events)
        elif kind == "stop":
            self._stop(state, seat, events)
        elif kind == "craft":
            self._craft(state, seat, action, events)
        elif kind == "trader":
            self._use_hour(p, "p02")
            self._pay(state, p, {action[1]: 1})
            ctx["tasks"].insert(0, ["goods", None, 1, False])
            events.append(Event("paid", {"seat": seat, "what": action[1]}))
        elif kind == "barter":
            self._use_hour(p, "p11")
            self._pay(state, p, {action[1]: 1})
            ctx["tasks"][0:0] = [["goods", None, 1, False], ["goods", None, 1, False]]
            events.append(Event("paid", {"seat": seat, "what": action[1]}))
        elif kind == "end":
            ctx["ending"] = True
            if self._hour_ready(p, "p04") and state.rows["favors"]["display"]:
                ctx["tasks"].append(["favor", "display_opt", "p04"])
        else:
            raise AssertionError(action)

    def _do_task(self, state: MapleState, seat: int, task: Task, action: Action, events: list[Event]) -> None:
        p = state.seats[seat]
        ctx = state.ctx
        kind = action[0]
        if kind == "take":
            for item in action[1]:
                self._gain(state, p, item, 1, events)
        elif kind == "favor":
            if len(task) > 2 and task[2] == "p04":
                self._use_hour(p, "p04")
            self._take_favor(state, p, action[1], events)
        elif kind == "patch":
            self._take_patch(state, p, action[1], events)
        elif kind == "cube":
            if task[0] == "place":
                symbol = _space_symbol(action[1], action[2] - 1)
                if symbol != task[1]:  # an unmatched space: Dragonfly first, else Festival Helper
                    if state.ctx["card"] == "f27" and "dragonfly" not in ctx["used"]:
                        ctx["used"].append("dragonfly")
                    else:
                        self._use_hour(p, "p09")
            self._place_cube(state, seat, action[1], action[2] - 1, events)
        elif kind == "buy":
            fid, pay = action[1], action[2]
            self._pay(state, p, Counter(pay))
            row = state.rows["friends"]
            row["display"].remove(fid)
            self._refill(state, "friends")
            p["hand"].append(fid)
            events.append(Event("friend_bought", {"seat": seat, "friend": fid, "paid": ",".join(pay)}))
        elif kind == "pay":
            self._exchange(state, seat, task, action[1], events)
        elif kind == "discard":
            p["favors"].remove(action[1])
            state.rows["favors"]["discard"].append(action[1])
            events.append(Event("favor_discarded", {"seat": seat, "favor": action[1]}))
        elif kind == "stay":
            events.append(Event("cliff_stay", {"seat": seat}))
        elif kind == "village":
            p["pos"] = "V"
            events.append(Event("to_village", {"seat": seat}))
            self._arrive(state, seat, "V", events)
        elif kind in ("skip", "done"):
            pass
        else:
            raise AssertionError(action)

    # -- gains and payments -----------------------------------------------------------------------
    def _gain(self, state: MapleState, p: Player, item: str, count: int, events: list[Event]) -> int:
        """Take from the limited supply; an empty supply gives nothing. Returns how many were taken."""
        got = min(count, state.supply[item])
        if got <= 0:
            return 0
        state.supply[item] -= got
        if item == "map":
            p["map"] += got
        elif item in p["goods"]:
            p["goods"][item] += got
        else:
            p["curios"][item] += got
        events.append(Event("gain", {"seat": p["seat"], "item": item, "count": got}))
        return got

    def _pay(self, state: MapleState, p: Player, items: dict[str, int]) -> None:
        for item, n in items.items():
            bucket = p["goods"] if item in p["goods"] else p["curios"]
            bucket[item] -= n
            state.supply[item] += n

    def _gain_fixed(self, state: MapleState, p: Player, items: list[str], events: list[Event]) -> None:
        """A fixed gain at the Cliff, a clearing or from a dawdle card; Sun Seeker adds 1 sun goods to it."""
        took_sun = False
        for item in items:
            got = self._gain(state, p, item, 1, events)
            took_sun = took_sun or (got and item == state.sun)
        if took_sun and "p23" in p["patches"]:
            self._gain(state, p, state.sun, 1, events)

    def _draw(self, state: MapleState, row_name: str) -> str | None:
        row = state.rows[row_name]
        if not row["deck"] and row["discard"]:
            row["deck"] = row["discard"]
            row["discard"] = []
            state.rng.shuffle(row["deck"])
        if not row["deck"]:
            return None
        state.revealed = True
        return row["deck"].pop(0)

    def _refill(self, state: MapleState, row_name: str) -> None:
        row = state.rows[row_name]
        while len(row["display"]) < D.DISPLAY:
            card = self._draw(state, row_name)
            if card is None:
                return
            row["display"].append(card)

    def _take_favor(self, state: MapleState, p: Player, source: str, events: list[Event]) -> None:
        if source == "deck":
            card = self._draw(state, "favors")
            if card is None:
                return
        else:
            card = source
            state.rows["favors"]["display"].remove(card)
            self._refill(state, "favors")
        p["favors"].append(card)
        events.append(Event("favor_taken", {"seat": p["seat"], "favor": card, "from": "deck" if source == "deck"
                                            else "display"}))

    def _take_patch(self, state: MapleState, p: Player, source: str, events: list[Event]) -> None:
        row = state.rows["patches"]
        if source == "deck":
            card = self._draw(state, "patches")
            if card is None:
                return
        elif source in row["display"]:
            card = source
            row["display"].remove(card)
            self._refill(state, "patches")
        else:  # Lynx: one of the deck's top three
            card = source
            row["deck"].remove(card)
            state.revealed = True
        p["patches"].append(card)
        events.append(Event("patch_taken", {"seat": p["seat"], "patch": card}))
        tasks = state.ctx["tasks"]
        if card == "p24":
            self._gain(state, p, "map", 2, events)
        elif card == "p25":
            self._gain(state, p, "y", 2, events)
        elif card == "p26":
            tasks.insert(0, ["cube", None, False])
        elif card == "p27":
            for c in D.CURIOS:
                self._gain(state, p, c, 1, events)
        elif card == "p28":
            for _ in range(2):
                self._take_favor(state, p, "deck", events)

    def _place_cube(self, state: MapleState, seat: int, code: str, index: int, events: list[Event]) -> None:
        p = state.seats[seat]
        fest = next(f for f in state.fests if f["code"] == code)
        fest["cubes"][index] = seat
        p["cubes"] -= 1
        events.append(Event("cube_placed", {"seat": seat, "festivity": code, "space": index + 1}))
        if None in fest["cubes"] or code == "feast":
            return
        events.append(Event("festivity_filled", {"seat": seat, "festivity": code}))
        reward = D.FESTIVITIES[code].reward
        tasks = state.ctx["tasks"]
        if reward in ("vp3", "vp4"):
            p["fest_vp"] += 3 if reward == "vp3" else 4
        elif reward == "curio_map":
            self._gain(state, p, "map", 1, events)
            tasks.insert(0, ["curio", None])
        elif reward == "goods2":
            tasks[0:0] = [["goods", None, 1, False], ["goods", None, 1, False]]
        elif reward == "map2":
            self._gain(state, p, "map", 2, events)
        elif reward == "favor_curio":
            tasks[0:0] = [["favor", "any"], ["curio", None]]
        for other in set(fest["cubes"]):
            if other not in (seat, NEUTRAL) and "p21" in state.seats[other]["patches"]:
                state.seats[other]["owed"] += 1
                events.append(Event("helper", {"seat": other}))

    # -- a friend turn ----------------------------------------------------------------------------
    def _play_friend(self, state: MapleState, seat: int, fid: str, main: str, events: list[Event]) -> None:
        p = state.seats[seat]
        ctx = state.ctx
        p["hand"].remove(fid)
        p["backpack"].append(fid)
        ctx.update(card=fid, main=main, phase="walk")
        events.append(Event("friend_played", {"seat": seat, "friend": fid, "type": main}))
        tasks = ctx["tasks"]
        if fid == "s1":
            self._gain(state, p, state.sun, 1, events)
        elif fid == "s2":
            self._gain(state, p, "map", 1, events)
        elif fid == "s3":
            tasks.append(["curio", None])
        elif fid == "f08":
            tasks.append(["exchange", "rabbit", 2])
        elif fid == "f12":
            self._gain(state, p, "y", 1, events)
        elif fid == "f14":
            tasks.append(["favor", "display"])
        elif fid == "f19":
            tasks.append(["exchange", "moose", 2])
        elif fid == "f26":
            tasks += [["goods", None, 1, False], ["goods", None, 1, False]]
        elif fid == "f34":
            tasks.append(["goods", None, 1, False])
            self._gain(state, p, "map", 1, events)
        ctx["walk"] = {
            "origin": p["pos"], "at": p["pos"], "used": [], "stage": "pre", "main": main, "types": [main],
            "switched": fid != "f31", "hiker": "p15" in p["patches"] and len(D.FRIENDS[fid].paths) >= 2,
            "credit": 0, "spent": 0, "salamander": fid == "f23", "turtle": fid == "f26",
            "otter": fid == "f09", "trail": self._hour_ready(p, "p01"), "mole": fid == "f04",
            "shortcut": self._hour_ready(p, "p05"),
        }

    def _walk_path(self, state: MapleState, seat: int, number: int, path_kind: str, events: list[Event]) -> None:
        p = state.seats[seat]
        walk = state.ctx["walk"]
        friend = D.FRIENDS[state.ctx["card"]]
        how = next(h for n, k, _, h in self._steps(p, walk, friend, p["map"]) if n == number and k == path_kind)
        other = next(o for n, o in D.ADJACENT[walk["at"]] if n == number)
        after = _after(walk, number, path_kind, other, how)
        token = after["spent"] > walk["spent"]
        if token:
            p["map"] -= 1
            state.supply["map"] += 1
        trailblazer = path_kind == "free" and not walk["otter"]
        if trailblazer:
            self._use_hour(p, "p01")
        state.ctx["walk"] = after
        p["pos"] = after["at"]
        events.append(Event("walked", {"seat": seat, "path": number, "to": after["at"], "by": path_kind}))
        spot = state.spots.get(str(number))
        got = 0
        if spot:
            count = 1 + (state.ctx["card"] == "f05") + ("p22" in p["patches"])
            got = self._gain(state, p, spot, count, events)
        # How to take this path back without replaying the turn (undo's common case, cheap).
        after["back"] = [walk, token, trailblazer, spot or "", got]

    def _unwalk(self, state: MapleState) -> None:
        """Undo the last path of the walk."""
        assert state.actor is not None, "a walk is taken back by the player walking"
        p = state.seats[state.actor]
        walk, token, trailblazer, spot, got = state.ctx["walk"]["back"]
        if token:
            p["map"] += 1
            state.supply["map"] -= 1
        if trailblazer:
            p["patch_cubes"].remove("p01")
            p["cubes"] += 1
        if got:
            p["curios"][spot] -= got
            state.supply[spot] += got
        state.ctx["walk"] = walk
        p["pos"] = walk["at"]
        state.turn_steps.pop()

    def _stop(self, state: MapleState, seat: int, events: list[Event]) -> None:
        p = state.seats[seat]
        ctx = state.ctx
        walk = ctx["walk"]
        loc = walk["at"]
        if loc == walk["origin"]:
            self._use_hour(p, "p05")
        ctx["phase"] = "craft"
        events.append(Event("arrived", {"seat": seat, "location": loc, "paths": len(walk["used"])}))
        card = ctx["card"]
        if card == "f16" and any(q["pos"] == loc for q in state.seats if q["seat"] != seat
                                 and q["seat"] not in state.eliminated):
            ctx["tasks"].append(["curio", None])
        if card == "f25" and len(walk["used"]) >= 3:
            ctx["tasks"].append(["goods", None, 1, False])
        self._arrive(state, seat, loc, events)

    def _arrive(self, state: MapleState, seat: int, loc: str, events: list[Event]) -> None:
        """The location effect, with the played friend's Loc ability and the patches that apply there."""
        p = state.seats[seat]
        ctx = state.ctx
        tasks = ctx["tasks"]
        card = ctx["card"]
        kind = D.LOCATIONS[loc][0]
        if kind == "grove":
            token = state.groves[loc]
            took_sun = False
            for g in token:
                got = self._gain(state, p, g, 1, events)
                took_sun = took_sun or (got and g == state.sun)
            if took_sun:
                self._gain(state, p, state.sun, 1, events)
            if self._hour_ready(p, "p03"):
                self._use_hour(p, "p03")
                self._gain(state, p, state.sun, 1, events)
            if card == "f03":
                tasks.append(["goods", list(token), 1, False])
            if card == "f13":
                tasks.append(["curio", None])
            if card == "f21":
                self._gain(state, p, "map", 1, events)
        elif kind == "village":
            discount = (card == "f07") + ("p18" in p["patches"])
            tasks.append(["buy", discount])
            if card == "f32":
                tasks.append(["buy", discount])
        elif kind == "tower":
            self._gain(state, p, "map", 2 + (card == "f02") + ("p16" in p["patches"]), events)
            tasks.append(["favor", "any"])
            if card == "f30":
                tasks.append(["favor", "any"])
        elif kind == "club":
            tasks += [["favor", "any"], ["cube", None, False], ["patch", card == "f20"]]
            if card == "f17":
                tasks.append(["goods", None, 1, False])
        elif kind == "cottage":
            tasks += [["favor", "display"], ["do", "deck_favor"]]
            for _ in range((card == "f11") + ("p19" in p["patches"])):
                tasks += [["do", "deck_favor"], ["discard"]]
        elif kind == "cliff":
            count = 3 + (card == "f01") + ("p17" in p["patches"])
            self._gain_fixed(state, p, [state.sun] * count, events)
            if card == "f33":
                tasks.append(["bat"])
            else:
                p["pos"] = "V"
                events.append(Event("to_village", {"seat": seat}))
        elif kind == "clearing":
            code = state.clearings[loc]
            uses = D.CLEARINGS[code].uses + (card == "f10")
            if code in ("trading", "lookout"):
                self._gain(state, p, "map", 1, events)
            elif code == "honey":
                self._gain_fixed(state, p, ["y"], events)
            elif code == "mill":
                self._gain_fixed(state, p, [state.sun], events)
            elif code == "pond":
                self._gain_fixed(state, p, ["c", "l"], events)
            elif code == "well":
                tasks.append(["do", "deck_favor"])
            if card == "f21":
                self._gain(state, p, "map", 1, events)
            tasks.append(["exchange", code, uses])
        if self._hour_ready(p, "p07"):
            tasks.append(["do", "second_wind"])

    def _exchange(self, state: MapleState, seat: int, task: Task, pay: tuple[str, ...],
                  events: list[Event]) -> None:
        p = state.seats[seat]
        source = task[1]
        self._pay(state, p, Counter(pay))
        events.append(Event("paid", {"seat": seat, "what": ",".join(pay)}))
        tasks = state.ctx["tasks"]
        if task[2] > 1:
            tasks.insert(0, ["exchange", source, task[2] - 1])
        follow: list[Task] = []
        if source == "trading":
            follow = [["goods", [g for g in D.GOODS if g != pay[0]], 1, False]]
        elif source == "rabbit":
            follow = [["goods", None, 1, False]]
        elif source == "honey":
            self._gain(state, p, "y", 1, events)
        elif source == "mill":
            follow = [["curio", None]]
        elif source == "lookout":
            self._gain(state, p, "map", 2, events)
        elif source == "pond":
            follow = [["goods", None, 1, False], ["goods", None, 1, False]]
        elif source in ("well", "moose"):
            follow = [["curio", pay[0]]]
        tasks[0:0] = follow

    def _play_dawdle(self, state: MapleState, seat: int, kind: str, events: list[Event]) -> None:
        p = state.seats[seat]
        ctx = state.ctx
        p["dawdle"].remove(kind)
        state.dawdle_deck.append(kind)  # under the dawdle deck
        ctx.update(card=f"dawdle:{kind}", phase="craft")
        events.append(Event("dawdle_played", {"seat": seat, "card": kind}))
        tasks = ctx["tasks"]
        if kind == "stroll":
            self._gain_fixed(state, p, [state.sun, state.sun], events)
        elif kind == "hunt":
            tasks += [["goods", None, 1, False], ["curio", None]]
        elif kind == "map":
            self._gain(state, p, "map", 1, events)
            tasks.append(["goods", None, 1, False])
        else:
            tasks.append(["goods", None, 2, True])
        if self._hour_ready(p, "p10"):
            self._use_hour(p, "p10")
            self._gain(state, p, state.sun, 1, events)
        if "p20" in p["patches"]:
            tasks.append(["goods", None, 1, False])

    def _craft(self, state: MapleState, seat: int, action: Action, events: list[Event]) -> None:
        p = state.seats[seat]
        ctx = state.ctx
        fid, discount, swap = action[1], action[2], action[3]
        favor = D.FAVORS[fid]
        need = Counter(favor.cost)
        if discount:
            need -= Counter({discount[1:]: 1})
            if ctx["card"] == "s4" and "cub" not in ctx["used"]:
                ctx["used"].append("cub")
            else:
                self._use_hour(p, "p06")
        if swap:
            missing, sub = swap.split("=")
            need -= Counter({missing: 1})
            need[sub] += 1
            ctx["used"].append("mink" if sub in D.CURIOS else "badger")
        self._pay(state, p, need)
        p["favors"].remove(fid)
        p["crafted"].append(fid)
        ctx["crafted"] += 1
        events.append(Event("crafted", {"seat": seat, "favor": fid, "symbol": favor.symbol}))
        any_space = (ctx["card"] == "f27" and "dragonfly" not in ctx["used"]) or (
            "p09" in p["patches"] and "p09" not in p["patch_cubes"] and p["cubes"] >= 2)
        follow: list[Task] = [["place", favor.symbol, any_space]]
        if ctx["crafted"] == 1 and ctx["card"] == "s5":
            follow.append(["goods", None, 1, False])
        if ctx["crafted"] == 1 and ctx["card"] == "f29":
            follow.append(["favor", "display"])
        if ctx["crafted"] == 2 and ctx["card"] == "f18":
            follow.append(["curio", None])
            self._gain(state, p, "map", 1, events)
        ctx["tasks"][0:0] = follow

    # -- advancing --------------------------------------------------------------------------------
    def _advance(self, state: MapleState, events: list[Event]) -> None:
        """Resolve what needs no decision (automatic tasks, single options, empty walks, turn and hour ends)."""
        while not state.over and not state.keep_order and state.actor is not None:
            ctx = state.ctx
            seat = state.actor
            p = state.seats[seat]
            if ctx["tasks"]:
                task = ctx["tasks"][0]
                if task[0] == "do":
                    ctx["tasks"].pop(0)
                    if task[1] == "deck_favor":
                        self._take_favor(state, p, "deck", events)
                    elif task[1] == "second_wind":
                        self._use_hour(p, "p07")
                        self._gain(state, p, "map", 1, events)
                    continue
                options = self._task_options(state, seat, task)
                if not options or options in ([("done",)], [("skip",)]):
                    ctx["tasks"].pop(0)
                    continue
                if len(options) == 1:
                    self._do_task(state, seat, ctx["tasks"].pop(0), options[0], events)
                    continue
                break
            if ctx["phase"] == "walk" and not ctx["walk"]["used"] and not self._walk_options(state, seat):
                ctx["phase"] = "craft"
                events.append(Event("no_walk", {"seat": seat}))
                continue
            if ctx["phase"] == "craft" and ctx["ending"]:
                self._end_turn(state, events)
                continue
            break
        if state.turn_snap is None and not state.over and not state.keep_order and state.actor is not None:
            state.turn_snap = self._snapshot(state)

    def _has_card(self, state: MapleState, seat: int) -> bool:
        p = state.seats[seat]
        return seat not in state.eliminated and bool(p["hand"] or p["dawdle"])

    def _start_hour_turns(self, state: MapleState, events: list[Event]) -> None:
        for i in range(state.players):
            seat = (state.worm + i) % state.players
            if self._has_card(state, seat):
                self._start_turn(state, seat, events)
                return
        self._end_hour(state, events)

    def _start_turn(self, state: MapleState, seat: int, events: list[Event]) -> None:
        state.actor = seat
        state.ctx = _fresh_ctx("card")
        state.turn_steps = []
        state.turn_snap = None
        state.undo_floor = 0
        state.turns += 1
        state.turn_base = sum(self.breakdown(state, seat).values())
        p = state.seats[seat]
        events.append(Event("turn_start", {"seat": seat, "hour": state.hour}))
        if self._hour_ready(p, "p08"):
            self._use_hour(p, "p08")
            self._gain(state, p, state.sun, 1, events)
        if p["owed"]:
            state.ctx["tasks"] += [["goods", None, 1, False] for _ in range(p["owed"])]
            p["owed"] = 0

    def _end_turn(self, state: MapleState, events: list[Event]) -> None:
        seat = state.actor
        assert seat is not None, "a turn ends for the player who has it"
        events.append(Event("turn_end", {"seat": seat}))
        ctx = state.ctx
        walk: Walk = ctx.get("walk") or {}
        state.last_turn = {"seat": seat, "card": ctx.get("card"), "main": ctx.get("main"),
                           "at": walk.get("at") or state.seats[seat]["pos"], "crafted": ctx.get("crafted", 0),
                           "points": sum(self.breakdown(state, seat).values()) - state.turn_base}
        state.turn_snap = None
        state.turn_steps = []
        state.undo_floor = 0
        for i in range(1, state.players + 1):
            nxt = (seat + i) % state.players
            if self._has_card(state, nxt):
                self._start_turn(state, nxt, events)
                return
        state.actor = None
        self._end_hour(state, events)

    def _end_hour(self, state: MapleState, events: list[Event]) -> None:
        events.append(Event("hour_end", {"hour": state.hour}))
        if state.hour >= D.HOURS:
            self._finish(state, events)
            return
        state.hour += 1
        state.sun = state.sun_deck.pop(0)
        for name, row in state.rows.items():
            row["discard"] += row["display"]
            row["display"] = []
            self._refill(state, name)
        for p in state.seats:
            p["hand"] += p["backpack"]
            p["backpack"] = []
            p["cubes"] += len(p["patch_cubes"])
            p["patch_cubes"] = []
        active = [s for s in range(state.players) if s not in state.eliminated]
        most = max(len(state.seats[s]["hand"]) for s in active)
        for i in range(state.players):
            seat = (state.worm + i) % state.players
            if seat not in active:
                continue
            p = state.seats[seat]
            for _ in range(most - len(p["hand"])):
                if not state.dawdle_deck:
                    break
                p["dawdle"].append(state.dawdle_deck.pop(0))
                events.append(Event("dawdle_dealt", {"seat": seat}))
        if not state.solo:
            state.worm = (state.worm + 1) % state.players
        events.append(Event("hour_start", {"hour": state.hour, "sun": state.sun, "worm_seat": state.worm}))
        self._start_hour_turns(state, events)

    def _finish(self, state: MapleState, events: list[Event]) -> None:
        for p in state.seats:  # Helper goods not taken yet: honey, the one that scores
            for _ in range(p["owed"]):
                kind = next((g for g in ("y", *D.GOODS) if state.supply[g] > 0), None)
                if kind:
                    self._gain(state, p, kind, 1, events)
            p["owed"] = 0
        state.over = True
        state.actor = None
        state.keep_order = []
        state.ctx = _fresh_ctx("over")
        state.turn_snap = None
        state.turn_steps = []
        state.undo_floor = 0
        result = self.result(state)
        if state.solo:
            events.append(Event("solo_rating", {"seat": 0, "score": result.ranking[0].score,
                                                "rating": result.extra["rating"]}))
        for r in result.ranking:
            events.append(Event("final_score", {"seat": r.seat, "rank": r.rank, "score": r.score, **r.breakdown}))


# -- helpers --------------------------------------------------------------------------------------
def _version(state: MapleState) -> tuple[int, int, int, int | None, int]:
    """Changes with every action applied (and with every turn started)."""
    return state.actions, state.turns, len(state.turn_steps), state.actor, len(state.keep_order)


def _space_symbol(code: str, index: int) -> str:
    fest = D.FEAST if code == "feast" else D.FESTIVITIES[code]
    return fest.spaces[index]


def _festivity_points(cubes: list[int | None], seat: int) -> int:
    """1 per own cube; 4 to everyone tied for the most; 2 to everyone tied second if the most is one player."""
    counts = Counter(c for c in cubes if c is not None and c != NEUTRAL)
    own = counts.get(seat, 0)
    if not own:
        return 0
    levels = sorted(set(counts.values()), reverse=True)
    if own == levels[0]:
        return own + 4
    leaders = [s for s, n in counts.items() if n == levels[0]]
    if len(leaders) == 1 and own == levels[1]:
        return own + 2
    return own


def _main_ok(walk: Walk, friend: D.Friend, ptype: str, patches: list[str]) -> str:
    """How the friend may take a path of ``ptype`` as a main path: "same", "hiker", "owl" or "" (not at all)."""
    current = walk["main"]
    if ptype == current or ptype in walk["types"]:
        return "same"
    if (current == "F" and ptype == "W" and "p12" in patches) or (current == "W" and ptype == "M" and "p13" in patches) \
            or (current == "M" and ptype == "F" and "p14" in patches):
        return "same"
    if walk["hiker"] and ptype in friend.paths and len(walk["types"]) < 2:
        return "hiker"
    if not walk["switched"]:  # Owl: the main type changes once
        return "owl"
    return ""


def _after(walk: Walk, number: int, kind: str, other: str, how: str) -> Walk:
    """The walk after taking path ``number`` to ``other`` as a ``kind`` path."""
    after = dict(walk, at=other, used=[*walk["used"], number])
    if kind == "main":
        after["stage"] = "main"
        ptype = D.PATHS[number].type
        if how == "hiker":
            after["types"] = [*walk["types"], ptype]
        elif how == "owl":
            after.update(main=ptype, types=[ptype], switched=True)
        return after
    if walk["stage"] == "main":
        after["stage"] = "post"
    if kind == "tok":
        if walk["credit"] > 0:
            after["credit"] -= 1
        else:
            after["spent"] += 1
            after["credit"] = 1 if walk["salamander"] else 0
    else:  # Otter's free path goes first, then Trailblazer's
        after["otter"] = False
        after["trail"] = walk["trail"] and walk["otter"]
    return after


ORDER = {item: i for i, item in enumerate((*D.GOODS, *D.CURIOS))}


def _canon(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(items, key=ORDER.__getitem__))


_WORDS_EN = {"keep": "Keep", "dawdle": "Dawdle", "path": "Path", "tok": "1 map token", "free": "free",
             "buy": "Buy", "craft": "Craft", "stop": "Stop here", "end": "End the turn", "undo": "Undo",
             "skip": "Skip", "done": "Done", "stay": "Stay on the Cliff", "village": "Go to the Village",
             "favor deck": "Favor from the deck", "patch deck": "Patch from the deck", "from V": "Start from the Village"}
_WORDS_RU = {"keep": "Оставить", "dawdle": "Прогулка", "path": "Путь", "tok": "1 жетон карты", "free": "бесплатно",
             "buy": "Завести", "craft": "Смастерить", "stop": "Остановиться", "end": "Закончить ход",
             "undo": "Отменить", "skip": "Пропустить", "done": "Готово", "stay": "Остаться на утёсе",
             "village": "В деревню", "favor deck": "Гостинец из колоды", "patch deck": "Нашивка из колоды",
             "from V": "Начать из деревни"}
_WORDS = {"stop", "skip", "done", "end", "undo", "stay", "village"}
_ITEMS = set(D.GOODS) | set(D.CURIOS)


def _items(text: str, allowed: set[str]) -> tuple[str, ...] | None:
    parts = tuple(text.split(","))
    return _canon(parts) if parts and all(p in allowed for p in parts) else None


def _parse(text: str) -> Action | None:
    words = str(text).strip().split()
    if not words:
        return None
    head, args = words[0].lower(), words[1:]
    if head in _WORDS and not args:
        return (head,)
    low = [a.lower() for a in args]
    if head == "keep" and len(args) == 1:
        ids = tuple(sorted(low[0].split(",")))
        return ("keep", ids) if len(ids) == 2 and all(i in D.FAVORS for i in ids) else None
    if head == "friend" and len(args) == 2 and low[0] in D.FRIENDS and args[1].upper() in D.PATH_TYPES:
        return ("friend", low[0], args[1].upper())
    if head == "dawdle" and len(args) == 1 and low[0] in D.DAWDLE_KINDS:
        return ("dawdle", low[0])
    if head == "from" and low == ["v"]:
        return ("from", "V")
    # A path number has at most 3 digits: no int() of thousands of digits (ValueError past 4,300).
    if head == "path" and 1 <= len(args) <= 2 and args[0].isdigit() and len(args[0]) <= 3 and int(args[0]) in D.PATHS:
        mode = low[1] if len(args) == 2 else "main"
        return ("path", int(args[0]), mode) if mode in ("main", "tok", "free") else None
    if head in ("take", "pay") and len(args) == 1:
        items = _items(low[0], _ITEMS)
        return (head, items) if items else None
    if head == "favor" and len(args) == 1 and (low[0] in D.FAVORS or low[0] == "deck"):
        return ("favor", low[0])
    if head == "patch" and len(args) == 1 and (low[0] in D.PATCHES or low[0] == "deck"):
        return ("patch", low[0])
    if head == "discard" and len(args) == 1 and low[0] in D.FAVORS:
        return ("discard", low[0])
    if head == "cube" and len(args) == 2 and args[1] in "123456" and len(args[1]) == 1:
        if low[0] in D.FESTIVITIES or low[0] == "feast":
            return ("cube", low[0], int(args[1]))
        return None
    if head == "buy" and len(args) == 2 and low[0] in D.FRIENDS:
        pay = _items(low[1], set(D.CURIOS))
        return ("buy", low[0], pay) if pay else None
    if head == "trader" and len(args) == 1 and low[0] in D.GOODS:
        return ("trader", low[0])
    if head == "barter" and len(args) == 1 and low[0] in D.CURIOS:
        return ("barter", low[0])
    if head == "craft" and 1 <= len(args) <= 3 and low[0] in D.FAVORS:
        discount = swap = ""
        for mod in low[1:]:
            if mod.startswith("-") and mod[1:] in D.GOODS and not discount:
                discount = mod
            elif "=" in mod and not swap:
                missing, _, sub = mod.partition("=")
                if missing not in D.GOODS or sub not in _ITEMS:
                    return None
                swap = mod
            else:
                return None
        return ("craft", low[0], discount, swap)
    return None
