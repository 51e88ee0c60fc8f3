"""The Trails & Fortresses rules engine (base game, River, Inns & Cathedrals, Traders & Builders).

Speed matters (random play-outs for AI and fuzzing), so the board is kept incrementally:

* every tile type is precomputed in its four rotations (edge string, which segment sits on each edge
  and half-edge);
* the open positions next to the map ("frontier") carry a 4-char pattern of the edges they must match,
  and ``(tile, pattern) -> rotations`` is cached for the whole process;
* roads, cities and fields are union-find nodes (one per segment); a feature's data lives on its root
  and is merged when tiles join them. A road or city is complete when its count of open edges is 0.

A placement is only *pending* until the turn is confirmed (figure legality is computed from the
neighbouring features without touching them), so ``undo`` needs no copies of the board.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

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
)
from games.trails.actions import (
    CONFIRM,
    UNDO,
    Confirm,
    Figure,
    Place,
    TrailsAction,
    Undo,
    clip,
    figure,
    format_action,
    parse,
    place,
)
from games.trails.tiles import (
    EXPANSIONS,
    GOODS,
    LAKE_TILE_ID,
    SPRING_TILE_ID,
    START_TILE_ID,
    TILE_TYPES,
    TileType,
    facing_half,
)

COLORS = ("red", "blue", "green", "yellow", "black", "purple")
CATEGORIES = ("roads", "cities", "monasteries", "fields", "goods")
FIGURES_PER_PLAYER = 7
WEIGHT = {"normal": 1, "big": 2, "builder": 0, "keeper": 0}  # builder and keeper never count in majorities
SUPPLY_KEY = {"normal": "figures_left", "big": "big_left", "builder": "builder_left", "keeper": "keeper_left"}
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W; y grows southwards
EMPTY_PATTERN = "...."

Pos = tuple[int, int]


# -- precomputed geometry ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Oriented:
    """A tile type as it lies in one rotation; all indexes are positions on the board (absolute)."""

    edges: str  # N,E,S,W after rotation
    city_at: tuple[int, ...]  # side -> city segment index (unrotated numbering) or -1
    road_at: tuple[int, ...]
    field_at: tuple[int, ...]  # absolute half-edge -> field segment index or -1
    rivers: tuple[int, ...]  # sides with water


def _orient(tile: TileType, rot: int) -> Oriented:
    city_at = [-1] * 4
    road_at = [-1] * 4
    field_at = [-1] * 8
    for index, seg in enumerate(tile.cities):
        for edge in seg.edges:
            city_at[(edge + rot) % 4] = index
    for index, seg in enumerate(tile.roads):
        for edge in seg.edges:
            road_at[(edge + rot) % 4] = index
    for index, seg in enumerate(tile.fields):
        for half in seg.halves:
            field_at[(half + 2 * rot) % 8] = index
    edges = "".join(tile.edges[(side - rot) % 4] for side in range(4))
    rivers = tuple(sorted((e + rot) % 4 for river in tile.rivers for e in river))
    return Oriented(edges, tuple(city_at), tuple(road_at), tuple(field_at), rivers)


ORIENTED: dict[str, tuple[Oriented, ...]] = {tid: tuple(_orient(t, r) for r in range(4)) for tid, t in TILE_TYPES.items()}
FACING = tuple(facing_half(h) for h in range(8))
_FITS: dict[tuple[str, str], tuple[int, ...]] = {}  # (tile id, frontier pattern) -> fitting rotations


def _fits(tile_id: str, pattern: str) -> tuple[int, ...]:
    key = (tile_id, pattern)
    rots = _FITS.get(key)
    if rots is None:
        rots = tuple(
            r for r, o in enumerate(ORIENTED[tile_id]) if all(p == "." or p == e for p, e in zip(pattern, o.edges, strict=True))
        )
        _FITS[key] = rots
    return rots


# -- state ---------------------------------------------------------------------------------------
class Feature:
    """Data of a connected road / city / field, kept on its union-find root."""

    __slots__ = ("kind", "tiles", "open", "pennants", "special", "goods", "figs", "cities")

    def __init__(self, kind: str, tiles: set[Pos] | None, open_edges: int, pennants: int = 0,
                 special: bool = False, goods: list[int] | None = None, cities: set[int] | None = None) -> None:
        self.kind = kind  # "C" city, "R" road, "F" field
        self.tiles = tiles  # positions (roads and cities)
        self.open = open_edges  # edges not yet matched by a neighbour (roads and cities)
        self.pennants = pennants
        self.special = special  # a cathedral (city) or an inn (road)
        self.goods = goods  # [honey, grain, flax] symbols (cities of Traders & Builders)
        self.figs: list[tuple[int, int, str]] = []  # keys into TrailsState.figures
        self.cities = cities  # city nodes a field borders


class TrailsState:
    """A game in progress. Mutable; ``apply`` changes it in place."""

    def __init__(self) -> None:
        self.players = 0
        self.options: dict[str, Any] = {}
        self.fields_on = True
        self.order: list[Seat] = []  # turn order from the dice
        self.turn_index = 0
        self.deck: list[str] = []  # draw order; never shown
        self.tile: str | None = None  # the tile being placed (public)
        self.bonus = False  # this is a builder's extra turn
        self.phase = "place"  # place | figure | confirm | over
        self.pending: tuple[int, int, int] | None = None
        self.pending_figure: Figure | None = None
        self.board: dict[Pos, tuple[str, int]] = {}
        self.placements: list[tuple[int, int, str, int, int]] = []  # x, y, tile, rot, seat (-1: start)
        self.frontier: dict[Pos, str] = {}
        self.by_pattern: dict[str, dict[Pos, None]] = {}  # the frontier grouped by pattern (ordered sets)
        self.nodes: dict[Pos, tuple[list[int], list[int], list[int]]] = {}
        self.parent: list[int] = []
        self.feats: list[Feature | None] = []
        self.figures: dict[tuple[int, int, str], tuple[Seat, str]] = {}
        self.monasteries: dict[Pos, tuple[int, int, str]] = {}  # occupied monasteries only
        self.supply: list[dict[str, int]] = []
        self.builder_node: list[int | None] = []
        self.score: list[dict[str, int]] = []
        self.goods: list[list[int]] = []
        self.special: list[int] = []  # points each seat owes to inns and sanctuaries (completed features)
        self.eliminated: list[bool] = []
        self.set_aside: list[str] = []
        self.river_end: tuple[int, int, int] | None = None  # empty cell the river flows into, flow side
        self.river_turn = 0  # turn of the last river tile: 0 straight/none, 1 right, 3 left
        self.setup_events: list[Event] = []
        self.turns = 0
        self.over = False
        self.last_placed: Pos | None = None
        # The last confirmed turn, for the board's header: who laid which tile where, the figure put on it and
        # the points every seat scored by it (public facts, like the board itself).
        self.last_turn: dict[str, Any] | None = None
        # caches of the current step (rebuilt, never serialised)
        self.legal_placements: dict[Pos, tuple[int, ...]] = {}
        self.place_actions: list[Place] = []
        self.figure_actions: list[Figure] = []

    @property
    def seat(self) -> Seat:
        return self.order[self.turn_index]


def _find(parent: list[int], node: int) -> int:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def _feature(state: TrailsState, root: int) -> Feature:
    """The feature kept on the union-find root ``root`` (a node merged into another keeps none)."""
    feat = state.feats[root]
    assert feat is not None, "a union-find root keeps its feature"
    return feat


def _union(state: TrailsState, a: int, b: int) -> int:
    parent = state.parent
    ra = _find(parent, a)
    rb = _find(parent, b)
    if ra == rb:
        return ra
    feats = state.feats
    fa = feats[ra]
    fb = feats[rb]
    assert fa is not None and fb is not None, "a union-find root keeps its feature"
    tiles_a, tiles_b = fa.tiles, fb.tiles
    if tiles_a is not None:
        assert tiles_b is not None, "only features of one kind join: roads and cities both keep tiles"
        if len(tiles_a) < len(tiles_b):
            ra, rb, fa, fb, tiles_a, tiles_b = rb, ra, fb, fa, tiles_b, tiles_a
        tiles_a |= tiles_b  # in place: the set of fa.tiles
        fa.open += fb.open
        fa.pennants += fb.pennants
        fa.special = fa.special or fb.special
        if fb.goods is not None:
            fa.goods = [x + y for x, y in zip(fa.goods, fb.goods, strict=True)] if fa.goods else list(fb.goods)
    else:
        cities_a, cities_b = fa.cities, fb.cities
        assert cities_a is not None and cities_b is not None, "only fields join fields; a field keeps its cities"
        if len(cities_a) < len(cities_b):
            ra, rb, fa, fb, cities_a, cities_b = rb, ra, fb, fa, cities_b, cities_a
        cities_a |= cities_b  # in place: the set of fa.cities
    if fb.figs:
        fa.figs.extend(fb.figs)
    parent[rb] = ra
    feats[rb] = None
    return ra


# -- the game ------------------------------------------------------------------------------------
class TrailsGame(Game[TrailsState, TrailsAction]):
    key = "trails"
    names = {"en": "Trails & Fortresses", "ru": "Тропы и крепости"}
    min_players = 2
    max_players = 6
    option_specs = (
        OptionSpec("expansions", "multi", (), choices=EXPANSIONS),
        OptionSpec("fields", "bool", True),
        OptionSpec("deck", "text", ""),
    )
    json_version = 1

    # -- setup -----------------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """The shared checks, then everything ``setup`` would refuse about the ``deck`` (so a table is refused
        when it is opened, not when it starts); ``deck`` comes back normalised (``BA-U,BA-E``, or empty).
        Refusals echo at most ``ECHO_LIMIT`` characters of what was typed."""
        try:
            opts = super().parse_options(raw)
        except InvalidOptions as error:  # the shared checks echo values whole
            params = {k: clip(v) if isinstance(v, str) else v for k, v in error.params.items()}
            raise InvalidOptions(error.code, **params) from None
        deck = _validate_deck(opts["deck"], tuple(opts["expansions"]))
        opts["deck"] = ",".join(deck) if deck is not None else ""
        return opts

    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> TrailsState:
        self.check_players(players)
        opts = self.parse_options(options)
        expansions = tuple(opts["expansions"])
        fixed_deck = opts["deck"].split(",") if opts["deck"] else None
        state = TrailsState()
        state.players = players
        state.options = opts
        state.fields_on = bool(opts["fields"])
        rng = random.Random(seed)
        state.supply = [
            {
                "normal": FIGURES_PER_PLAYER,
                "big": 1 if "inns" in expansions else 0,
                "builder": 1 if "traders" in expansions else 0,
                "keeper": 1 if "traders" in expansions else 0,
            }
            for _ in range(players)
        ]
        state.builder_node = [None] * players
        state.score = [dict.fromkeys(CATEGORIES, 0) for _ in range(players)]
        state.goods = [[0, 0, 0] for _ in range(players)]
        state.special = [0] * players
        state.eliminated = [False] * players
        state.order = _roll_order(state, players, rng)
        river = "river" in expansions
        start = SPRING_TILE_ID if river else START_TILE_ID
        state.deck = fixed_deck if fixed_deck is not None else _shuffled_deck(rng, expansions)
        _commit_tile(state, 0, 0, start, 0, -1)
        if river:
            state.river_end = (1, 0, 1)  # the spring's water leaves eastwards
        state.setup_events.extend(_start_turn(state))
        return state

    def initial_events(self, state: TrailsState) -> list[Event]:
        """The setup events (dice rolls, turn order) for the bot to announce."""
        return list(state.setup_events)

    # -- turn ------------------------------------------------------------------------------------
    def to_act(self, state: TrailsState) -> list[Seat]:
        return [] if state.over else [state.seat]

    def turn_number(self, state: TrailsState) -> int:
        return state.turns

    def legal_actions(self, state: TrailsState, seat: Seat) -> list[TrailsAction]:
        if state.over or seat != state.seat:
            return []
        phase = state.phase
        if phase == "place":
            return list(state.place_actions)
        if phase == "figure":
            return [*state.figure_actions, CONFIRM, UNDO]
        return [CONFIRM, UNDO]

    def apply(self, state: TrailsState, seat: Seat, action: TrailsAction) -> list[Event]:
        if state.over:
            raise IllegalAction("game_over")
        if seat != state.seat:
            raise IllegalAction("not_your_turn")
        phase = state.phase
        # Exact type checks (no isinstance): they also narrow ``action`` for the type checker.
        if phase == "place":
            if type(action) is not Place:
                raise IllegalAction("wrong_step", step=phase)
            rots = state.legal_placements.get((action.x, action.y))
            if rots is None or action.rot not in rots:
                raise IllegalAction("illegal_placement", tile=state.tile, x=action.x, y=action.y, rot=action.rot * 90)
            state.pending = (action.x, action.y, action.rot)
            state.figure_actions = _figure_options(state, action.x, action.y, action.rot)
            state.phase = "figure"
            return [Event("tile_placed", {"seat": seat, "tile": state.tile, "x": action.x, "y": action.y,
                                          "rot": action.rot * 90})]
        if type(action) is Confirm:
            return _confirm(state)
        if type(action) is Undo:
            if phase == "confirm":
                state.pending_figure = None
                state.phase = "figure"
                return [Event("figure_undone", {"seat": seat})]
            state.pending = None
            state.figure_actions = []
            state.phase = "place"
            return [Event("tile_undone", {"seat": seat})]
        if type(action) is Figure and phase == "figure":
            if action not in state.figure_actions:
                raise IllegalAction("illegal_figure", feature=action.feature, kind=action.kind)
            assert state.pending is not None, "the figure step follows a placement"
            state.pending_figure = action
            state.phase = "confirm"
            x, y, _ = state.pending
            return [Event("figure_placed", {"seat": seat, "kind": action.kind, "feature": action.feature, "x": x, "y": y})]
        raise IllegalAction("wrong_step", step=phase)

    def default_action(self, state: TrailsState, seat: Seat) -> TrailsAction:
        """Timeout: lay the tile if it is not laid yet (first legal placement), end the turn without a new
        figure (a figure chosen but not confirmed is taken back first; the clock plays until the turn ends)."""
        if state.phase == "place":
            return state.place_actions[0]
        if state.phase == "confirm":
            return UNDO
        return CONFIRM

    def eliminate(self, state: TrailsState, seat: Seat) -> list[Event]:
        if state.over or state.eliminated[seat]:
            return []
        state.eliminated[seat] = True
        events = [Event("eliminated", {"seat": seat})]
        if sum(1 for s in state.order if not state.eliminated[s]) <= 1:
            events.extend(_end_game(state))
            return events
        if state.seat == seat:
            # The unconfirmed placement is taken back; the drawn tile goes to the next player.
            state.pending = None
            state.pending_figure = None
            state.figure_actions = []
            state.phase = "place"
            state.bonus = False
            _advance_seat(state)
            events.append(Event("turn", {"seat": state.seat, "tile": state.tile}))
        return events

    def is_over(self, state: TrailsState) -> bool:
        return state.over

    def result(self, state: TrailsState) -> Result:
        totals = {seat: sum(state.score[seat].values()) for seat in range(state.players)}
        eliminated = [seat for seat in range(state.players) if state.eliminated[seat]]
        ranks = rank_players({seat: (score,) for seat, score in totals.items()}, eliminated)
        ranking = [
            PlayerResult(seat, ranks[seat], totals[seat], dict(state.score[seat]), state.eliminated[seat])
            for seat in sorted(range(state.players), key=lambda s: (ranks[s], s))
        ]
        goods = {seat: dict(zip(GOODS, state.goods[seat], strict=True)) for seat in range(state.players)}
        # The part of each seat's roads and cities points that inns and sanctuaries added (already in them).
        special = {seat: state.special[seat] for seat in range(state.players)}
        return Result(ranking, state.turns, {"goods": goods, "inns_cathedrals": special,
                                             "expansions": sorted(state.options["expansions"])})

    # -- view ------------------------------------------------------------------------------------
    def view(self, state: TrailsState, seat: Seat | None) -> JSON:
        """The confirmed position for everyone. Only the player to move also sees their unconfirmed
        placement (``turn.placed`` with the chosen ``figure``, and the step they are at); every other view
        shows the turn at its place step, as it was before the tile was laid."""
        players: list[JSON] = []
        for s in range(state.players):
            supply = state.supply[s]
            players.append({
                "seat": s,
                "color": COLORS[s],
                "score": sum(state.score[s].values()),
                "figures_left": supply["normal"],
                "big_left": supply["big"],
                "builder_left": supply["builder"],
                "keeper_left": supply["keeper"],
                "goods": dict(zip(GOODS, state.goods[s], strict=True)),
                "eliminated": state.eliminated[s],
                "points": dict(state.score[s]),  # by category: the final board's breakdown
            })
        turn = None
        if not state.over:
            mover = seat is not None and seat == state.seat
            phase = state.phase if mover else "place"
            placed = None
            if mover and state.pending is not None:
                x, y, rot = state.pending
                chosen = state.pending_figure
                placed = {"x": x, "y": y, "rot": rot,
                          "figure": {"kind": chosen.kind, "feature": chosen.feature} if chosen else None}
            in_place = phase == "place"
            turn = {
                "seat": state.seat,
                "tile": state.tile,
                "placed": placed,
                "legal_positions": [[x, y] for x, y in sorted(state.legal_placements)] if in_place else [],
                "legal_rotations": (
                    {f"{x},{y}": list(rots) for (x, y), rots in sorted(state.legal_placements.items())} if in_place else {}
                ),
                "phase": phase,
            }
        figures = [
            {"seat": owner, "x": x, "y": y, "kind": kind, "feature": ref}
            for (x, y, ref), (owner, kind) in state.figures.items()
        ]
        return {
            "game": self.key,
            "players": players,
            "board": [{"x": x, "y": y, "tile": tid, "rot": rot} for x, y, tid, rot, _ in state.placements],
            "figures": figures,
            "turn": turn,
            "remaining": len(state.deck),
            "set_aside": list(state.set_aside),
            "last_placed": list(state.last_placed) if state.last_placed else None,
            "last_turn": copy.deepcopy(state.last_turn),
            "options": {
                "expansions": list(state.options["expansions"]),
                "fields": state.options["fields"],
                "deck": state.options["deck"],
            },
        }

    # -- persistence -----------------------------------------------------------------------------
    def to_json(self, state: TrailsState) -> JSON:
        return {
            "v": self.json_version,
            "players": state.players,
            "options": {
                "expansions": list(state.options["expansions"]),
                "fields": state.options["fields"],
                "deck": state.options["deck"],
            },
            "order": list(state.order),
            "turn_index": state.turn_index,
            "deck": list(state.deck),
            "tile": state.tile,
            "bonus": state.bonus,
            "phase": state.phase,
            "pending": list(state.pending) if state.pending else None,
            "pending_figure": (
                [state.pending_figure.feature, state.pending_figure.kind] if state.pending_figure else None
            ),
            "placements": [list(p) for p in state.placements],
            "figures": [[x, y, ref, owner, kind] for (x, y, ref), (owner, kind) in state.figures.items()],
            "supply": [dict(s) for s in state.supply],
            "score": [dict(s) for s in state.score],
            "goods": [list(g) for g in state.goods],
            "special": list(state.special),
            "eliminated": list(state.eliminated),
            "set_aside": list(state.set_aside),
            "river_end": list(state.river_end) if state.river_end else None,
            "river_turn": state.river_turn,
            "setup_events": [{"code": e.code, "params": e.params} for e in state.setup_events],
            "turns": state.turns,
            "over": state.over,
            "last_placed": list(state.last_placed) if state.last_placed else None,
            "last_turn": copy.deepcopy(state.last_turn),
        }

    def from_json(self, data: JSON) -> TrailsState:
        if data.get("v") != self.json_version:
            raise ValueError(f"trails: unsupported snapshot version {data.get('v')}")
        state = TrailsState()
        state.players = data["players"]
        opts = data["options"]
        state.options = {"expansions": tuple(opts["expansions"]), "fields": opts["fields"], "deck": opts["deck"]}
        state.fields_on = bool(opts["fields"])
        state.order = list(data["order"])
        state.turn_index = data["turn_index"]
        # The dice for the order and the shuffle are all the chance there is: the generator ends with setup
        # (older snapshots carried it as "rng", never used after; it is ignored).
        state.supply = [dict(s) for s in data["supply"]]
        state.score = [dict(s) for s in data["score"]]
        state.goods = [list(g) for g in data["goods"]]
        state.special = list(data.get("special") or [0] * state.players)  # absent in older snapshots
        state.eliminated = list(data["eliminated"])
        state.set_aside = list(data["set_aside"])
        state.builder_node = [None] * state.players
        # Rebuild the board by replaying the placements in order: the same merges, the same frontier order.
        for x, y, tid, rot, owner in data["placements"]:
            _commit_tile(state, x, y, tid, rot, owner)
        for x, y, ref, owner, kind in data["figures"]:
            _put_figure(state, x, y, ref, owner, kind)
        state.deck = list(data["deck"])
        state.tile = data["tile"]
        state.bonus = data["bonus"]
        state.river_end = tuple(data["river_end"]) if data["river_end"] else None
        state.river_turn = data["river_turn"]
        state.setup_events = [Event(e["code"], dict(e["params"])) for e in data["setup_events"]]
        state.turns = data["turns"]
        state.over = data["over"]
        state.last_placed = tuple(data["last_placed"]) if data["last_placed"] else None
        state.last_turn = copy.deepcopy(data.get("last_turn"))  # absent in older snapshots
        state.phase = data["phase"]
        if not state.over and state.tile is not None:
            _compute_placements(state)
            if data["pending"]:
                x, y, rot = data["pending"]
                state.pending = (x, y, rot)
                state.figure_actions = _figure_options(state, x, y, rot)
            if data["pending_figure"]:
                state.pending_figure = figure(*data["pending_figure"])
        return state

    # -- notation --------------------------------------------------------------------------------
    def parse(self, text: str) -> TrailsAction:
        return parse(text)

    def format(self, action: TrailsAction) -> str:
        return format_action(action)


# -- setup helpers -------------------------------------------------------------------------------
def _roll_order(state: TrailsState, players: int, rng: random.Random) -> list[Seat]:
    """Two dice each, highest sum first; tied players re-roll among themselves (recursively)."""
    order: list[Seat] = []

    def resolve(group: list[Seat], round_no: int) -> None:
        totals: dict[Seat, int] = {}
        for seat in group:
            die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
            totals[seat] = die1 + die2
            state.setup_events.append(Event("dice_rolled", {"seat": seat, "die1": die1, "die2": die2,
                                                            "total": die1 + die2, "round": round_no}))
        for total in sorted(set(totals.values()), reverse=True):
            tied = [seat for seat in group if totals[seat] == total]
            if len(tied) == 1:
                order.append(tied[0])
            else:
                resolve(tied, round_no + 1)

    resolve(list(range(players)), 1)
    state.setup_events.append(Event("turn_order", {"first_seat": order[0], "order": list(order)}))
    return order


def _available(expansions: tuple[str, ...]) -> dict[str, int]:
    """Tiles that may be drawn: the start tile (base start, or the spring with the River) is on the table;
    with the River the base start tile is out of the game (the spring replaces it)."""
    sets = ("base", *expansions)
    counts = {tid: t.count for tid, t in TILE_TYPES.items() if t.expansion in sets}
    counts[START_TILE_ID] -= 1
    if "river" in expansions:
        counts[SPRING_TILE_ID] -= 1
    return counts


def _shuffled_deck(rng: random.Random, expansions: tuple[str, ...]) -> list[str]:
    counts = _available(expansions)
    land = [tid for tid, n in counts.items() if TILE_TYPES[tid].expansion != "river" for _ in range(n)]
    rng.shuffle(land)
    if "river" not in expansions:
        return land
    river = [tid for tid, n in counts.items() if TILE_TYPES[tid].expansion == "river" and tid != LAKE_TILE_ID
             for _ in range(n)]
    rng.shuffle(river)
    return [*river, LAKE_TILE_ID, *land]


# The longest sensible ``deck``: every tile of every set, each id with a separator and a space.
DECK_TEXT_LIMIT = sum(t.count for t in TILE_TYPES.values()) * (max(len(tid) for tid in TILE_TYPES) + 2)


def _validate_deck(raw: str, expansions: tuple[str, ...]) -> list[str] | None:
    """The ``deck`` option: the whole draw pile after the start tile, in order (tests and puzzles); ``None``
    when it names no tile (a shuffled pile)."""
    if len(raw) > DECK_TEXT_LIMIT:
        raise InvalidOptions("deck_too_long", length=len(raw), maximum=DECK_TEXT_LIMIT, deck=clip(raw))
    ids = [part.strip().upper() for part in raw.split(",") if part.strip()]
    if not ids:
        return None
    available = _available(expansions)
    sets = ("base", *expansions)
    used: dict[str, int] = {}
    for tid in ids:
        tile = TILE_TYPES.get(tid)
        if tile is None:
            raise InvalidOptions("deck_unknown_tile", tile=clip(tid))
        if tile.expansion not in sets:
            raise InvalidOptions("deck_needs_expansion", tile=tid, expansion=tile.expansion)
        if tid == SPRING_TILE_ID:
            raise InvalidOptions("deck_start_tile", tile=tid)
        used[tid] = used.get(tid, 0) + 1
        if used[tid] > available[tid]:
            raise InvalidOptions("deck_too_many", tile=tid, available=available[tid])
    # River tiles come first, the lake last among them (the river is laid before any land tile).
    is_river = [TILE_TYPES[tid].expansion == "river" for tid in ids]
    river_count = sum(is_river)
    if any(is_river[river_count:]) or (LAKE_TILE_ID in ids and ids.index(LAKE_TILE_ID) != river_count - 1):
        raise InvalidOptions("deck_river_order")
    return ids


# -- board mechanics -----------------------------------------------------------------------------
def _commit_tile(state: TrailsState, x: int, y: int, tid: str, rot: int, seat: Seat) -> bool:
    """Put a tile on the board and merge its segments into the features around it. Returns whether it
    extends a feature holding ``seat``'s builder (checked before the merge, so a builder placed on this
    very tile cannot trigger)."""
    tile = TILE_TYPES[tid]
    orient = ORIENTED[tid][rot]
    pos = (x, y)
    board = state.board
    board[pos] = (tid, rot)
    state.placements.append((x, y, tid, rot, seat))
    parent = state.parent
    feats = state.feats
    city_nodes: list[int] = []
    for seg in tile.cities:
        node = len(parent)
        parent.append(node)
        goods = None
        if seg.goods is not None:
            goods = [0, 0, 0]
            goods[GOODS.index(seg.goods)] = 1
        feats.append(Feature("C", {pos}, len(seg.edges), seg.pennants, seg.cathedral, goods))
        city_nodes.append(node)
    road_nodes: list[int] = []
    for seg in tile.roads:
        node = len(parent)
        parent.append(node)
        feats.append(Feature("R", {pos}, len(seg.edges), 0, seg.inn))
        road_nodes.append(node)
    field_nodes: list[int] = []
    fields_on = state.fields_on
    if fields_on:
        for seg in tile.fields:
            node = len(parent)
            parent.append(node)
            feats.append(Feature("F", None, 0, cities={city_nodes[c] for c in seg.cities}))
            field_nodes.append(node)
    state.nodes[pos] = (city_nodes, road_nodes, field_nodes)

    builder = state.builder_node[seat] if seat >= 0 else None
    extends_builder = False
    frontier = state.frontier
    by_pattern = state.by_pattern
    old = frontier.pop(pos, None)
    if old is not None:
        _unfile(by_pattern, old, pos)
    edges = orient.edges
    for side in range(4):
        dx, dy = STEP[side]
        npos = (x + dx, y + dy)
        neighbour = board.get(npos)
        opposite = (side + 2) % 4
        if neighbour is None:
            pattern = frontier.get(npos)
            if pattern is None:
                pattern = EMPTY_PATTERN
            else:
                _unfile(by_pattern, pattern, npos)
            pattern = pattern[:opposite] + edges[side] + pattern[opposite + 1:]
            frontier[npos] = pattern
            group = by_pattern.get(pattern)
            if group is None:
                by_pattern[pattern] = {npos: None}
            else:
                group[npos] = None
            continue
        ntid, nrot = neighbour
        nor = ORIENTED[ntid][nrot]
        nnodes = state.nodes[npos]
        letter = edges[side]
        if letter == "C" or letter == "R":
            if letter == "C":
                mine, theirs = city_nodes[orient.city_at[side]], nnodes[0][nor.city_at[opposite]]
            else:
                mine, theirs = road_nodes[orient.road_at[side]], nnodes[1][nor.road_at[opposite]]
            if builder is not None and not extends_builder and _find(parent, theirs) == _find(parent, builder):
                extends_builder = True
            root = _union(state, mine, theirs)
            _feature(state, root).open -= 2  # both sides of the shared edge are closed now
        if fields_on and letter != "C":
            for half in (2 * side, 2 * side + 1):
                _union(state, field_nodes[orient.field_at[half]], nnodes[2][nor.field_at[FACING[half]]])
    return extends_builder


def _unfile(by_pattern: dict[str, dict[Pos, None]], pattern: str, pos: Pos) -> None:
    group = by_pattern[pattern]
    del group[pos]
    if not group:
        del by_pattern[pattern]


def _segment_node(state: TrailsState, x: int, y: int, ref: str) -> int:
    kind, _, index = ref.partition(":")
    group = {"city": 0, "road": 1, "field": 2}[kind]
    return state.nodes[(x, y)][group][int(index)]


def _put_figure(state: TrailsState, x: int, y: int, ref: str, seat: Seat, kind: str) -> None:
    key = (x, y, ref)
    state.figures[key] = (seat, kind)
    if ref == "monastery":
        state.monasteries[(x, y)] = key
        return
    node = _segment_node(state, x, y, ref)
    _feature(state, _find(state.parent, node)).figs.append(key)
    if kind == "builder":
        state.builder_node[seat] = node


def _compute_placements(state: TrailsState) -> None:
    """Legal positions and rotations of the current tile (cached for the whole turn)."""
    tid = state.tile
    assert tid is not None, "placements are computed for a drawn tile"
    tile = TILE_TYPES[tid]
    result: dict[Pos, tuple[int, ...]] = {}
    if tile.expansion == "river" and state.river_end is not None:
        rx, ry, _flow = state.river_end
        pattern = state.frontier.get((rx, ry))
        if pattern is not None:
            rots = tuple(r for r in _fits(tid, pattern) if _river_ok(state, tid, r))
            if rots:
                result[(rx, ry)] = rots
    elif tile.expansion != "river":
        # Open positions sharing an edge pattern share the fitting rotations: one lookup per pattern.
        for pattern, positions in state.by_pattern.items():
            rots = _FITS.get((tid, pattern))
            if rots is None:
                rots = _fits(tid, pattern)
            if rots:
                for pos in positions:
                    result[pos] = rots
    actions: list[Place] = []
    for pos, rots in result.items():
        key = (pos, rots)
        group = _PLACE_GROUPS.get(key)
        if group is None:
            group = _PLACE_GROUPS[key] = tuple(place(pos[0], pos[1], r) for r in rots)
        actions += group
    state.legal_placements = result
    state.place_actions = actions


# (position, rotations) -> the Place actions, shared by every game of the process (they are values).
_PLACE_GROUPS: dict[tuple[Pos, tuple[int, ...]], tuple[Place, ...]] = {}


def _river_turn(flow: int, out: int) -> int:
    return (out - flow) % 4  # 0 straight on, 1 right, 3 left


def _river_ok(state: TrailsState, tid: str, rot: int) -> bool:
    """The river continues from its open end, never turns the same way twice in a row and never
    flows into an occupied square."""
    assert state.river_end is not None, "only a river with an open end is continued"
    rx, ry, flow = state.river_end
    rivers = ORIENTED[tid][rot].rivers
    back = (flow + 2) % 4
    if back not in rivers:
        return False
    outs = [side for side in rivers if side != back]
    if not outs:
        return True  # the lake ends the river
    out = outs[0]
    turn = _river_turn(flow, out)
    if turn != 0 and turn == state.river_turn:
        return False
    dx, dy = STEP[out]
    return (rx + dx, ry + dy) not in state.board


def legal_spots(state: TrailsState) -> dict[Pos, tuple[int, ...]]:
    """Where the drawn tile may be laid and the rotations (quarter turns) at each spot, in reading order
    (north to south, then west to east). A pending placement does not change them; empty when the game is over."""
    return {pos: state.legal_placements[pos] for pos in sorted(state.legal_placements, key=lambda p: (p[1], p[0]))}


def figure_options(state: TrailsState, x: int, y: int, rot: int) -> list[Figure]:
    """The figures the player to move could put on the drawn tile laid at (x, y) turned ``rot`` quarter
    turns, whatever step the turn is at (a pending placement is left aside). ``IllegalAction``
    ``illegal_placement`` when that placement is not legal."""
    if state.over or rot not in state.legal_placements.get((x, y), ()):
        raise IllegalAction("illegal_placement", tile=state.tile, x=x, y=y, rot=rot * 90)
    return _figure_options(state, x, y, rot)


def _figure_options(state: TrailsState, x: int, y: int, rot: int) -> list[Figure]:
    """The figures the player may put on the pending tile: on a segment whose connected feature
    (after the placement) holds no normal or big figure; builder/keeper where the player already has one."""
    tid = state.tile
    assert tid is not None, "figures go on the drawn tile"
    tile = TILE_TYPES[tid]
    orient = ORIENTED[tid][rot]
    seat = state.seat
    supply = state.supply[seat]
    parent = state.parent
    traders = supply["builder"] > 0 or supply["keeper"] > 0
    if supply["normal"] == 0 and supply["big"] == 0 and not traders:
        return []
    city_roots: list[set[int]] = [set() for _ in tile.cities]
    road_roots: list[set[int]] = [set() for _ in tile.roads]
    fields_on = state.fields_on
    field_roots: list[set[int]] = [set() for _ in tile.fields] if fields_on else []
    board = state.board
    for side in range(4):
        dx, dy = STEP[side]
        npos = (x + dx, y + dy)
        neighbour = board.get(npos)
        if neighbour is None:
            continue
        nor = ORIENTED[neighbour[0]][neighbour[1]]
        nnodes = state.nodes[npos]
        opposite = (side + 2) % 4
        letter = orient.edges[side]
        if letter == "C":
            city_roots[orient.city_at[side]].add(_find(parent, nnodes[0][nor.city_at[opposite]]))
            continue
        if letter == "R":
            road_roots[orient.road_at[side]].add(_find(parent, nnodes[1][nor.road_at[opposite]]))
        if fields_on:
            for half in (2 * side, 2 * side + 1):
                field_roots[orient.field_at[half]].add(_find(parent, nnodes[2][nor.field_at[FACING[half]]]))
    options: list[Figure] = []
    for prefix, roots_per_segment, allows_builder in (
        ("city", city_roots, True), ("road", road_roots, True), ("field", field_roots, False),
    ):
        for index, roots in enumerate(_joined(roots_per_segment)):
            occupied = own = False
            for root in roots:
                for key in _feature(state, root).figs:
                    owner, kind = state.figures[key]
                    if kind == "normal" or kind == "big":
                        occupied = True
                        if owner == seat:
                            own = True
            ref = f"{prefix}:{index}"
            if not occupied:
                if supply["normal"]:
                    options.append(figure(ref, "normal"))
                if supply["big"]:
                    options.append(figure(ref, "big"))
            elif own:
                if allows_builder and supply["builder"]:
                    options.append(figure(ref, "builder"))
                if not allows_builder and supply["keeper"]:
                    options.append(figure(ref, "keeper"))
    if tile.monastery:
        if supply["normal"]:
            options.append(figure("monastery", "normal"))
        if supply["big"]:
            options.append(figure("monastery", "big"))
    return options


def _joined(roots_per_segment: list[set[int]]) -> list[set[int]]:
    """Segments of one tile that reach a common neighbouring feature become one feature; each segment
    gets the roots of everything it will be connected to."""
    if len(roots_per_segment) < 2:
        return roots_per_segment
    groups = [set(r) for r in roots_per_segment]
    changed = True
    while changed:
        changed = False
        for i in range(len(groups)):
            for j in range(len(groups)):
                if i != j and groups[i] & groups[j] and groups[i] != groups[j]:
                    merged = groups[i] | groups[j]
                    groups[i] = merged
                    groups[j] = merged
                    changed = True
    return groups


# -- confirming a turn, scoring ------------------------------------------------------------------
def _majority(state: TrailsState, keys: list[tuple[int, int, str]]) -> list[Seat]:
    weights: dict[Seat, int] = {}
    for key in keys:
        owner, kind = state.figures[key]
        weight = WEIGHT[kind]
        if weight:
            weights[owner] = weights.get(owner, 0) + weight
    if not weights:
        return []
    top = max(weights.values())
    return sorted(seat for seat, weight in weights.items() if weight == top)


def _return_figures(state: TrailsState, keys: list[tuple[int, int, str]]) -> None:
    for key in keys:
        owner, kind = state.figures.pop(key)
        state.supply[owner][kind] += 1
        if kind == "builder":
            state.builder_node[owner] = None
    keys.clear()


def _award(state: TrailsState, seats: list[Seat], category: str, points: int) -> None:
    for seat in seats:
        state.score[seat][category] += points


def _award_special(state: TrailsState, seats: list[Seat], points: int) -> None:
    for seat in seats:
        state.special[seat] += points


def _score_completed(state: TrailsState, root: int, closer: Seat) -> list[Event]:
    feat = _feature(state, root)
    assert feat.tiles is not None, "only roads and cities are completed"
    tiles = len(feat.tiles)
    seats = _majority(state, feat.figs)
    events: list[Event] = []
    if feat.kind == "C":
        per = 3 if feat.special else 2  # a cathedral makes a closed city worth 3 per tile and pennant
        points = per * (tiles + feat.pennants)
        _award(state, seats, "cities", points)
        _award_special(state, seats, points - 2 * (tiles + feat.pennants))
        events.append(Event("city_scored", {"seat": closer, "seats": seats, "tiles": tiles,
                                            "pennants": feat.pennants, "cathedral": feat.special, "points": points}))
        if feat.goods and any(feat.goods):
            for index, count in enumerate(feat.goods):
                state.goods[closer][index] += count
            events.append(Event("goods_taken", {"seat": closer, **dict(zip(GOODS, feat.goods, strict=True))}))
    else:
        points = (2 if feat.special else 1) * tiles  # an inn doubles a closed road
        _award(state, seats, "roads", points)
        _award_special(state, seats, points - tiles)
        events.append(Event("road_scored", {"seat": closer, "seats": seats, "tiles": tiles, "inn": feat.special,
                                            "points": points}))
    _return_figures(state, feat.figs)
    return events


def _neighbourhood(state: TrailsState, x: int, y: int) -> int:
    board = state.board
    return sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) in board)


def _confirm(state: TrailsState) -> list[Event]:
    seat = state.seat
    assert state.pending is not None and state.tile is not None, "a turn is confirmed once its tile is laid"
    x, y, rot = state.pending
    tid = state.tile
    chosen = state.pending_figure
    events: list[Event] = [Event("turn_confirmed", {
        "seat": seat, "tile": tid, "x": x, "y": y, "rot": rot * 90,
        "kind": chosen.kind if chosen else None, "feature": chosen.feature if chosen else None,
    })]
    extends_builder = _commit_tile(state, x, y, tid, rot, seat)
    if state.river_end is not None and TILE_TYPES[tid].expansion == "river":
        _advance_river(state, tid, rot)
    if chosen is not None:
        state.supply[seat][chosen.kind] -= 1
        _put_figure(state, x, y, chosen.feature, seat, chosen.kind)
    state.pending = None
    state.pending_figure = None
    state.figure_actions = []
    state.last_placed = (x, y)
    state.turns += 1
    before = [sum(score.values()) for score in state.score]

    parent = state.parent
    city_nodes, road_nodes, _ = state.nodes[(x, y)]
    done: set[int] = set()
    for node in (*city_nodes, *road_nodes):
        root = _find(parent, node)
        if root not in done and _feature(state, root).open == 0:
            done.add(root)
            events.extend(_score_completed(state, root, seat))
    if state.monasteries:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                key = state.monasteries.get((x + dx, y + dy))
                if key is not None and _neighbourhood(state, x + dx, y + dy) == 9:
                    events.extend(_score_monastery(state, key, final=False))
    state.last_turn = {"seat": seat, "tile": tid, "x": x, "y": y, "rot": rot,
                       "figure": {"kind": chosen.kind, "feature": chosen.feature} if chosen else None,
                       "points": [sum(score.values()) - was for score, was in zip(state.score, before, strict=True)]}

    if extends_builder and not state.bonus and state.deck:
        state.bonus = True  # one extra tile, never a chain of them
        events.append(Event("builder_bonus", {"seat": seat}))
    else:
        state.bonus = False
        _advance_seat(state)
    events.extend(_start_turn(state))
    return events


def _score_monastery(state: TrailsState, key: tuple[int, int, str], final: bool) -> list[Event]:
    x, y, _ = key
    owner, _kind = state.figures[key]
    points = 9 if not final else _neighbourhood(state, x, y)
    state.score[owner]["monasteries"] += points
    del state.monasteries[(x, y)]
    if not final:
        _return_figures(state, [key])
    return [Event("monastery_final" if final else "monastery_scored", {"seat": owner, "x": x, "y": y, "points": points})]


def _advance_river(state: TrailsState, tid: str, rot: int) -> None:
    assert state.river_end is not None, "only a river with an open end flows on"
    rx, ry, flow = state.river_end
    back = (flow + 2) % 4
    outs = [side for side in ORIENTED[tid][rot].rivers if side != back]
    if not outs:
        state.river_end = None  # the lake: the river is finished
        return
    out = outs[0]
    state.river_turn = _river_turn(flow, out)
    dx, dy = STEP[out]
    state.river_end = (rx + dx, ry + dy, out)


def _advance_seat(state: TrailsState) -> None:
    count = len(state.order)
    for step in range(1, count + 1):
        index = (state.turn_index + step) % count
        if not state.eliminated[state.order[index]]:
            state.turn_index = index
            return


def _start_turn(state: TrailsState) -> list[Event]:
    """Draw the next tile; tiles that fit nowhere are set aside. An empty pile ends the game."""
    events: list[Event] = []
    state.phase = "place"
    while state.deck:
        state.tile = state.deck.pop(0)
        _compute_placements(state)
        if state.place_actions:
            events.append(Event("turn", {"seat": state.seat, "tile": state.tile}))
            return events
        state.set_aside.append(state.tile)
        events.append(Event("tile_set_aside", {"tile": state.tile}))
    state.tile = None
    events.extend(_end_game(state))
    return events


def _end_game(state: TrailsState) -> list[Event]:
    """Score every unfinished feature, the fields and the goods; the game is over."""
    state.over = True
    state.phase = "over"
    state.tile = None
    state.pending = None
    state.pending_figure = None
    state.legal_placements = {}
    state.place_actions = []
    state.figure_actions = []
    events: list[Event] = []
    parent = state.parent
    seen: set[int] = set()
    for key in list(state.figures):
        if key not in state.figures or key[2] == "monastery":
            continue
        root = _find(parent, _segment_node(state, *key))
        if root in seen:
            continue
        seen.add(root)
        feat = _feature(state, root)
        seats = _majority(state, feat.figs)
        if not seats:
            continue
        if feat.kind == "C":
            assert feat.tiles is not None, "a city keeps its tiles"
            points = 0 if feat.special else len(feat.tiles) + feat.pennants
            _award(state, seats, "cities", points)
            events.append(Event("city_final", {"seats": seats, "tiles": len(feat.tiles), "pennants": feat.pennants,
                                               "cathedral": feat.special, "points": points}))
        elif feat.kind == "R":
            assert feat.tiles is not None, "a road keeps its tiles"
            points = 0 if feat.special else len(feat.tiles)
            _award(state, seats, "roads", points)
            events.append(Event("road_final", {"seats": seats, "tiles": len(feat.tiles), "inn": feat.special,
                                               "points": points}))
        elif state.fields_on:
            events.extend(_score_field(state, feat, seats))
    for key in list(state.monasteries.values()):
        events.extend(_score_monastery(state, key, final=True))
    for index, good in enumerate(GOODS):
        top = max(g[index] for g in state.goods)
        if top == 0:
            continue  # a kind nobody holds gives nobody the 10
        leaders = [seat for seat in range(state.players) if state.goods[seat][index] == top]
        _award(state, leaders, "goods", 10)
        events.append(Event("goods_scored", {"seats": leaders, "good": good, "count": top, "points": 10}))
    events.append(Event("game_end", {"winners": [p.seat for p in TrailsGame.result(GAME, state).ranking if p.rank == 1]}))
    return events


def _score_field(state: TrailsState, feat: Feature, seats: list[Seat]) -> list[Event]:
    """3 per completed city the field borders (each city once per field); 4 for a leader with a keeper here."""
    parent = state.parent
    assert feat.cities is not None, "a field keeps the cities it borders"
    cities = {_find(parent, node) for node in feat.cities}
    completed = sum(1 for root in cities if _feature(state, root).open == 0)
    keepers = {state.figures[key][0] for key in feat.figs if state.figures[key][1] == "keeper"}
    events: list[Event] = []
    for seat in seats:
        points = (4 if seat in keepers else 3) * completed
        state.score[seat]["fields"] += points
        events.append(Event("field_scored", {"seat": seat, "cities": completed, "keeper": seat in keepers,
                                             "points": points}))
    return events


GAME = TrailsGame()
