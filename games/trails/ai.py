"""AI players of Trails & Fortresses (every expansion), per level (see ``games/ai.py``).

``normal`` lays each placement with each figure it allows (or none) in its head and keeps the one whose
position it values best. The value of a position for a seat (:class:`Evaluator`) is its points, plus each
unfinished road, city, field and monastery it holds the majority of, worth what it would score completed
times the chance that it will be (fewer open edges and more tiles left: likelier), plus what it scores if
not, plus the figures still in hand (worth less as the pile runs out); minus the best other seat's value.
A placement changes a few features only, so each is valued from the features it touches (no copy of the
board): about a hundred placements a turn in a few milliseconds. The evaluator's constants are
:class:`Weights`: ``normal`` keeps its hand-set ones (:data:`NORMAL`).

``hard`` values with weights of its own, tuned by self-play (:data:`HARD`: fields worth much less, the
majorities of goods counted, the objective against the mean of the others as much as the best one), keeps its
best few turns and plays each out on copies: the pile it cannot see is dealt anew from what it holds (never
from its order; the river first), every seat plays ``normal`` for a round, and the position is valued; the
turn with the best average wins. ``easy`` plays random steps.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field

from games.ai import Deadline, EasyAI, Factory
from games.core import Seat
from games.trails.actions import CONFIRM, Figure, Place, TrailsAction, place
from games.trails.engine import (
    FACING,
    ORIENTED,
    STEP,
    TILE_TYPES,
    WEIGHT,
    Feature,
    TrailsGame,
    TrailsState,
    figure_options,
)
from games.trails.tiles import GOODS, LAKE_TILE_ID, CitySegment, RoadSegment

Pos = tuple[int, int]
FigureKey = tuple[int, int, str]
Turn = tuple[Place, Figure | None]  # a placement and the figure put with it (None: no figure)


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluator's constants. ``NORMAL`` are ``normal``'s (hand-set); ``hard`` has its own, tuned."""

    city_odds: float = 0.84  # chance, per open edge, that a city still gets closed
    road_odds: float = 0.9  # the same for a road
    time_factor: float = 5.0  # tiles left per open edge for the odds to be limited by the pile only
    figure_value: float = 2.2  # a figure in hand, while the pile is long: what a future placement may earn
    figure_horizon: float = 4.0  # rounds of tiles left below which a figure in hand is worth less
    builder_value: float = 1.5  # a builder on an own open feature: extra turns to come
    good_value: float = 1.5  # a trade good taken: a share of the 10-point majority
    fill_max: float = 0.85  # the largest share of a monastery's empty neighbours still to come
    fill_tiles: float = 40.0  # tiles left for that share
    field_points: float = 3.0  # a field's points per city it borders, times the city's odds
    goods_lead: float = 0.0  # per kind of good a seat holds the most of (ties too): a part of its 10 points
    others_max: float = 1.0  # the objective: own value - (others_max * best other + (1 - others_max) * mean other)


NORMAL = Weights()
# ``hard``'s weights, found by self-play (benchmarks/bench_trails_weights.py): each variant played one turn ahead
# in one seat of 4-player games (river, inns, traders) against three ``normal``, 200 games on the same seeds; how
# often it ranks first (a fair share is 25%; NORMAL's weights: 23%). One weight at a time: field_points 2.0 45%,
# 1.5 50%, 1.0 53%, 0.5 56%, 0 51%; others_max 0.5 30%, 0 26%; figure_value 3.0 34%, 1.5 25%; good_value 3.0 30%;
# time_factor 3.0 23%; city_odds 0.9 and road_odds 0.93 17%. Combined, others_max 0.5 with field_points 1.5 62%,
# with 1.0 60% (others_max 0.25: 58%); adding goods_lead 4 to the latter 62%. On 200 other seeds, from field_points
# 1.0, others_max 0.5, goods_lead 4 (59%): field_points 1.5 66%; builder_value 3.0 57%, figure_value 3.0 57%,
# time_factor 7.0 60%, fill_max 0.6 60% (left as normal's). With the search on top (field_points 1.0, others_max
# 0.5): first in 33 of 40 games, against 28 of the same 40 one turn ahead. In 2-player base games, one turn ahead,
# they beat normal in 90% (36 of 40); with the search 92.5%.
HARD = Weights(field_points=1.5, others_max=0.5, goods_lead=4.0)


def _root(parent: list[int], node: int) -> int:
    """The union-find root of ``node`` (without compressing paths: the state is only read)."""
    while parent[node] != node:
        node = parent[node]
    return node


def _feature(state: TrailsState, root: int) -> Feature:
    feat = state.feats[root]
    assert feat is not None, "a union-find root keeps its feature"
    return feat


def _joined(roots_per_segment: list[set[int]]) -> list[int]:
    """For each segment of a tile, the index of its group: segments reaching a common feature are one."""
    group = list(range(len(roots_per_segment)))
    for i in range(len(roots_per_segment)):
        for j in range(i):
            if roots_per_segment[i] & roots_per_segment[j]:
                old, new = group[i], group[j]
                group = [new if g == old else g for g in group]
    return group


@dataclass(slots=True, eq=False)  # compared and hashed by identity: a feature of one turn in the head
class Virtual:
    """A road, city or field as it would be after a placement (features joined through the new tile)."""

    kind: str  # C, R, F
    roots: set[int]
    tiles: int = 0
    open: int = 0
    pennants: int = 0
    special: bool = False
    goods: int = 0
    kinds: list[int] | None = None  # goods per kind (only counted when the weights value majorities)
    figs: list[tuple[Seat, str]] = field(default_factory=list[tuple[Seat, str]])
    cities: set[int | Virtual] = field(default_factory=set["int | Virtual"])  # fields: cities bordered


class Evaluator:
    """Values positions of one state for every seat, and the positions one turn (placement and figure) of the
    seat to move would lead to, from the features that turn touches."""

    def __init__(self, state: TrailsState, remaining: int | None = None, weights: Weights = NORMAL) -> None:
        self.state = state
        self.w = weights
        self.players = state.players
        remaining = len(state.deck) if remaining is None else remaining  # tiles still to come
        self.remaining = remaining
        self.figure_value = weights.figure_value * min(1.0, remaining / (weights.figure_horizon * state.players))
        self.fill = min(weights.fill_max, remaining / weights.fill_tiles)  # of a monastery's empty neighbours, to come
        parent = state.parent
        self.parent = parent
        # Features holding figures (the only ones worth anything to anyone), by root.
        self.figs: dict[int, list[tuple[Seat, str]]] = {}
        for (x, y, ref), owner_kind in state.figures.items():
            if ref == "monastery":
                continue
            self.figs.setdefault(self._node_root(x, y, ref), []).append(owner_kind)
        self.field_cities: dict[int, set[int]] = {}
        self.fields_of_city: dict[int, list[int]] = {}
        for root in self.figs:
            feat = _feature(state, root)
            if feat.kind == "F":
                assert feat.cities is not None, "a field keeps the cities it borders"
                cities = {_root(parent, node) for node in feat.cities}
                self.field_cities[root] = cities
                for city in cities:
                    self.fields_of_city.setdefault(city, []).append(root)
        self.base: dict[object, list[float]] = {}  # feature (root, or monastery position) -> value per seat
        for root in self.figs:
            self.base[root] = self._feature_values(root)
        for pos, key in state.monasteries.items():
            owner, kind = state.figures[key]
            self.base[pos] = self._share([(owner, kind)], self._monastery(self._neighbours(pos)))
        self.totals = [float(sum(state.score[s].values())) + weights.good_value * sum(state.goods[s])
                       + sum(self.base_value(s)) for s in range(self.players)]
        self.leads = self._leads(state.goods) if weights.goods_lead else []
        for s, value in enumerate(self.leads):
            self.totals[s] += value

    def _leads(self, goods: list[list[int]]) -> list[float]:
        """Per seat, ``goods_lead`` for each kind of good it holds the most of (ties too)."""
        leads = [0.0] * self.players
        for kind in range(len(GOODS)):
            top = max(g[kind] for g in goods)
            if top:
                for s in range(self.players):
                    if goods[s][kind] == top:
                        leads[s] += self.w.goods_lead
        return leads

    # -- values of whole features ------------------------------------------------------------------------
    def base_value(self, seat: Seat) -> list[float]:
        supply = self.state.supply[seat]
        hand = (supply["normal"] + 1.3 * supply["big"]) * self.figure_value
        return [hand, *(values[seat] for values in self.base.values())]

    def _node_root(self, x: int, y: int, ref: str) -> int:
        kind, _, index = ref.partition(":")
        group = {"city": 0, "road": 1, "field": 2}[kind]
        return _root(self.parent, self.state.nodes[(x, y)][group][int(index)])

    def _neighbours(self, pos: Pos, extra: Pos | None = None) -> int:
        board = self.state.board
        x, y = pos
        return sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   if (x + dx, y + dy) in board or (x + dx, y + dy) == extra)

    def _monastery(self, neighbours: int) -> float:
        return 9.0 if neighbours >= 9 else neighbours + (9 - neighbours) * self.fill

    def odds(self, kind: str, open_edges: int) -> float:
        """The chance that a road or city with ``open_edges`` open edges gets closed before the pile runs out."""
        if open_edges <= 0:
            return 1.0
        w = self.w
        time = min(1.0, self.remaining / (w.time_factor * open_edges))
        return (w.city_odds if kind == "C" else w.road_odds) ** open_edges * time

    def _share(self, figs: list[tuple[Seat, str]], points: float, open_feature: bool = True) -> list[float]:
        """``points`` to each seat of the majority among ``figs`` (0 to the others), and a builder's worth of
        extra turns to come to its owner while the feature is open."""
        weights = [0] * self.players
        builders = [0] * self.players
        for owner, kind in figs:
            weights[owner] += WEIGHT[kind]
            builders[owner] += kind == "builder"
        top = max(weights)
        return [(points if top and weights[s] == top else 0.0) + self.w.builder_value * builders[s] * open_feature
                for s in range(self.players)]

    def _road_city(self, kind: str, tiles: int, pennants: int, open_edges: int, special: bool) -> float:
        if kind == "C":
            closed = (3 if special else 2) * (tiles + pennants)
            unfinished = 0 if special else tiles + pennants
        else:
            closed = (2 if special else 1) * tiles
            unfinished = 0 if special else tiles
        p = self.odds(kind, open_edges)
        return p * closed + (1 - p) * unfinished

    def _city_odds(self, root: int) -> float:
        feat = _feature(self.state, root)
        return self.odds("C", feat.open)

    def _field(self, figs: list[tuple[Seat, str]], city_odds: float) -> list[float]:
        values = self._share(figs, self.w.field_points * city_odds)
        keepers = {owner for owner, kind in figs if kind == "keeper"}
        return [v + (city_odds if s in keepers and v else 0.0) for s, v in enumerate(values)]

    def _feature_values(self, root: int) -> list[float]:
        feat = _feature(self.state, root)
        figs = self.figs[root]
        if feat.kind == "F":
            return self._field(figs, sum(self._city_odds(c) for c in self.field_cities[root]))
        assert feat.tiles is not None, "roads and cities keep their tiles"
        return self._share(figs, self._road_city(feat.kind, len(feat.tiles), feat.pennants, feat.open, feat.special))

    def position(self, seat: Seat) -> float:
        """The seat's value minus the best other seat's (its own value alone in a solo count)."""
        return _lead(self.totals, seat, self.w.others_max)

    # -- a turn in the head --------------------------------------------------------------------------------
    def turn(self, seat: Seat, x: int, y: int, rot: int, chosen: Figure | None) -> float:
        """``position`` after ``seat`` lays the drawn tile at (x, y) turned ``rot`` with ``chosen`` and confirms."""
        state = self.state
        tid = state.tile
        assert tid is not None, "a turn lays the drawn tile"
        tile = TILE_TYPES[tid]
        orient = ORIENTED[tid][rot]
        parent = self.parent
        board = state.board
        pos = (x, y)
        city_roots: list[set[int]] = [set() for _ in tile.cities]
        road_roots: list[set[int]] = [set() for _ in tile.roads]
        fields_on = state.fields_on
        field_roots: list[set[int]] = [set() for _ in tile.fields] if fields_on else []
        city_matched = [0] * len(tile.cities)
        road_matched = [0] * len(tile.roads)
        for side in range(4):
            dx, dy = STEP[side]
            neighbour = board.get((x + dx, y + dy))
            if neighbour is None:
                continue
            nor = ORIENTED[neighbour[0]][neighbour[1]]
            nnodes = state.nodes[(x + dx, y + dy)]
            opposite = (side + 2) % 4
            letter = orient.edges[side]
            if letter == "C":
                index = orient.city_at[side]
                city_roots[index].add(_root(parent, nnodes[0][nor.city_at[opposite]]))
                city_matched[index] += 1
                continue
            if letter == "R":
                index = orient.road_at[side]
                road_roots[index].add(_root(parent, nnodes[1][nor.road_at[opposite]]))
                road_matched[index] += 1
            if fields_on:
                for half in (2 * side, 2 * side + 1):
                    field_roots[orient.field_at[half]].add(_root(parent, nnodes[2][nor.field_at[FACING[half]]]))
        new_figs: dict[str, list[tuple[Seat, str]]] = {}
        if chosen is not None:
            new_figs[chosen.feature] = [(seat, chosen.kind)]
        changed: dict[object, list[float]] = {}  # feature -> its value per seat after the turn
        gained = [0.0] * self.players  # points scored now, figures back in hand, goods
        majorities = bool(self.leads)
        taken = [0] * len(GOODS)  # goods of the cities the turn closes, per kind
        city_of_segment: list[Virtual] = []
        city_of_root: dict[int, Virtual] = {}
        parts: tuple[tuple[str, tuple[CitySegment | RoadSegment, ...], list[set[int]], list[int]], ...] = (
            ("city", tile.cities, city_roots, city_matched), ("road", tile.roads, road_roots, road_matched))
        for prefix, segments, roots_list, matched in parts:
            kind = "C" if prefix == "city" else "R"
            groups = _joined(roots_list)
            virtuals: dict[int, Virtual] = {}
            for index, segment in enumerate(segments):
                virtual = virtuals.get(groups[index])
                if virtual is None:
                    virtual = virtuals[groups[index]] = Virtual(kind, set())
                fresh = roots_list[index] - virtual.roots
                virtual.roots |= fresh
                for root in fresh:
                    feat = _feature(state, root)
                    virtual.tiles += len(feat.tiles or ())
                    virtual.open += feat.open
                    virtual.pennants += feat.pennants
                    virtual.special = virtual.special or feat.special
                    if feat.goods:
                        virtual.goods += sum(feat.goods)
                        if majorities:
                            kinds = virtual.kinds = virtual.kinds or [0] * len(GOODS)
                            for n, count in enumerate(feat.goods):
                                kinds[n] += count
                    virtual.figs += self.figs.get(root, ())
                virtual.open += len(segment.edges) - 2 * matched[index]
                virtual.figs += new_figs.get(f"{prefix}:{index}", ())
                if isinstance(segment, CitySegment):
                    virtual.pennants += segment.pennants
                    virtual.special = virtual.special or segment.cathedral
                    if segment.goods is not None:
                        virtual.goods += 1
                        if majorities:
                            kinds = virtual.kinds = virtual.kinds or [0] * len(GOODS)
                            kinds[GOODS.index(segment.goods)] += 1
                    city_of_segment.append(virtual)
                else:
                    virtual.special = virtual.special or segment.inn
            for virtual in virtuals.values():
                virtual.tiles += 1  # the new tile (tiles shared by two joined features are rare: not subtracted)
                for root in virtual.roots:
                    changed[root] = [0.0] * self.players  # replaced by the joined feature
                    if kind == "C":
                        city_of_root[root] = virtual
                if kind == "C" and virtual.open <= 0:
                    gained[seat] += self.w.good_value * virtual.goods  # the goods of a closed city go to its closer
                    if virtual.kinds:
                        for n, count in enumerate(virtual.kinds):
                            taken[n] += count
                if not virtual.figs:
                    continue
                points = self._road_city(kind, virtual.tiles, virtual.pennants, virtual.open, virtual.special)
                values = self._share(virtual.figs, points, virtual.open > 0)
                if virtual.open <= 0:  # closed now: scored, and the figures come back
                    for s in range(self.players):
                        gained[s] += values[s]
                    for owner, fig_kind in virtual.figs:
                        gained[owner] += self.figure_value * (1.3 if fig_kind == "big" else 1.0) * (
                            fig_kind in ("normal", "big"))
                else:
                    changed[virtual] = values
        # Fields: joined through the tile, and those whose cities the turn changed.
        if fields_on:
            groups = _joined(field_roots)
            virtual_fields: dict[int, Virtual] = {}
            for index, segment in enumerate(tile.fields):
                virtual = virtual_fields.get(groups[index])
                if virtual is None:
                    virtual = virtual_fields[groups[index]] = Virtual("F", set())
                fresh = field_roots[index] - virtual.roots
                virtual.roots |= fresh
                for root in fresh:
                    virtual.figs += self.figs.get(root, ())
                    feat = _feature(state, root)
                    assert feat.cities is not None, "a field keeps the cities it borders"
                    virtual.cities |= {_root(parent, node) for node in feat.cities}
                virtual.figs += new_figs.get(f"field:{index}", ())
                virtual.cities |= {city_of_segment[c] for c in segment.cities}
            touched_fields = {f for city in city_of_root for f in self.fields_of_city.get(city, ())}
            for virtual in virtual_fields.values():
                for root in virtual.roots:
                    changed[root] = [0.0] * self.players
                    touched_fields.discard(root)
                if virtual.figs:
                    changed[virtual] = self._field(virtual.figs, self._virtual_odds(virtual.cities, city_of_root))
            for root in touched_fields:
                cities: set[int | Virtual] = set(self.field_cities[root])
                changed[root] = self._field(self.figs[root], self._virtual_odds(cities, city_of_root))
        # Monasteries: the new tile is a neighbour of those around it; a monastery on it may get a figure.
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                key = state.monasteries.get((x + dx, y + dy))
                if key is not None:
                    count = self._neighbours((x + dx, y + dy), pos)
                    owner, fig_kind = state.figures[key]
                    if count >= 9:
                        changed[(x + dx, y + dy)] = [0.0] * self.players
                        gained[owner] += 9 + self.figure_value
                    else:
                        changed[(x + dx, y + dy)] = self._share([(owner, fig_kind)], self._monastery(count))
        if chosen is not None and chosen.feature == "monastery":
            changed[pos] = self._share([(seat, chosen.kind)], self._monastery(self._neighbours(pos, pos)))
        if any(taken):
            goods = [list(g) for g in state.goods]
            goods[seat] = [g + t for g, t in zip(goods[seat], taken, strict=True)]
            for s, (after, before) in enumerate(zip(self._leads(goods), self.leads, strict=True)):
                gained[s] += after - before
        totals = list(self.totals)
        for feature, values in changed.items():
            before = self.base.get(feature)
            for s in range(self.players):
                totals[s] += values[s] - (before[s] if before is not None else 0.0)
        for s in range(self.players):
            totals[s] += gained[s]
        if chosen is not None and chosen.kind in ("normal", "big"):
            totals[seat] -= self.figure_value * (1.3 if chosen.kind == "big" else 1.0)
        return _lead(totals, seat, self.w.others_max)

    def _virtual_odds(self, cities: set[int | Virtual], city_of_root: dict[int, Virtual]) -> float:
        """The summed chances of a field's cities to be closed, the cities joined by the turn counted once."""
        joined: set[Virtual] = set()
        total = 0.0
        for city in cities:
            if isinstance(city, int) and city not in city_of_root:
                total += self._city_odds(city)
            else:
                joined.add(city if isinstance(city, Virtual) else city_of_root[city])
        return total + sum(self.odds("C", virtual.open) for virtual in joined)


def _lead(totals: list[float], seat: Seat, others_max: float = 1.0) -> float:
    others = [v for s, v in enumerate(totals) if s != seat]
    if not others:
        return totals[seat]
    if others_max == 1.0:
        return totals[seat] - max(others)
    return totals[seat] - others_max * max(others) - (1.0 - others_max) * sum(others) / len(others)


def turns(state: TrailsState) -> list[Turn]:
    """Every turn the seat to move may play now: each legal placement with each figure it allows, and none
    (at the figure step: the pending placement only)."""
    if state.pending is not None:
        x, y, rot = state.pending
        return [(place(x, y, rot), chosen) for chosen in (None, *state.figure_actions)]
    found: list[Turn] = []
    for (x, y), rots in state.legal_placements.items():
        for rot in rots:
            found += [(place(x, y, rot), chosen) for chosen in (None, *figure_options(state, x, y, rot))]
    return found


def ranked_turns(state: TrailsState, seat: Seat, rng: random.Random,
                 weights: Weights = NORMAL) -> list[tuple[float, Turn]]:
    """The turns of ``seat``, best first by the evaluator (ties in an order drawn from ``rng``)."""
    evaluator = Evaluator(state, weights=weights)
    valued = [(evaluator.turn(seat, p.x, p.y, p.rot, chosen), rng.random(), (p, chosen))
              for p, chosen in turns(state)]
    valued.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [(value, turn) for value, _, turn in valued]


def step_towards(state: TrailsState, turn: Turn) -> TrailsAction:
    """The next step of ``turn`` from the step the turn is at."""
    chosen_place, chosen = turn
    if state.phase == "place":
        return chosen_place
    if state.phase == "figure" and chosen is not None:
        return chosen
    return CONFIRM


def turn_steps(state: TrailsState, turn: Turn) -> list[TrailsAction]:
    """The steps that play ``turn`` from the step the turn is at: the placement (unless laid), the figure if
    any, the confirmation."""
    chosen_place, chosen = turn
    steps: list[TrailsAction] = [chosen_place] if state.phase == "place" else []
    return [*steps, *([chosen] if chosen is not None else []), CONFIRM]


class NormalAI:
    """One turn ahead with the evaluator: the best placement and figure, played step by step."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: TrailsGame, state: TrailsState, seat: Seat) -> TrailsAction:
        if state.phase == "confirm":
            return CONFIRM
        return step_towards(state, ranked_turns(state, seat, self.rng)[0][1])


def determinize(state: TrailsState, rng: random.Random) -> None:
    """Deal the pile the players cannot see anew, as the engine deals it: the river tiles left first in a random
    order and the lake after them, then the land tiles shuffled. Only what the pile holds is used (public: the
    box's tiles minus those on the table, set aside or drawn), never its order: it is sorted before the shuffle."""
    deck = state.deck
    river = sorted(tid for tid in deck if TILE_TYPES[tid].expansion == "river" and tid != LAKE_TILE_ID)
    lake = [tid for tid in deck if tid == LAKE_TILE_ID]
    land = sorted(tid for tid in deck if TILE_TYPES[tid].expansion != "river")
    rng.shuffle(river)
    rng.shuffle(land)
    deck[:] = [*river, *lake, *land]


def play_turn(game: TrailsGame, state: TrailsState, seat: Seat, turn: Turn) -> None:
    """Play ``turn`` of ``seat`` through the engine, to its confirmation."""
    before = state.turns
    while not state.over and state.turns == before:
        game.apply(state, seat, step_towards(state, turn))


class HardAI:
    """The best ``width`` turns by the evaluator with ``weights`` (:data:`HARD`), each played on ``samples``
    copies with the pile dealt anew and a round of ``normal`` play after it, then valued with ``weights``; the
    best average value wins (the value one turn ahead breaks ties). A ``deadline`` stops the sampling early
    (each turn keeps the samples it had); ``samples=0``: the best turn one turn ahead."""

    def __init__(self, seed: int = 0, deadline: Deadline | None = None, width: int = 5, samples: int = 6,
                 plies: int | None = None, weights: Weights = HARD) -> None:
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.width = width
        self.samples = samples
        self.plies = plies
        self.weights = weights

    def choose(self, game: TrailsGame, state: TrailsState, seat: Seat) -> TrailsAction:
        return self.plan(game, state, seat)[0]

    def plan(self, game: TrailsGame, state: TrailsState, seat: Seat) -> list[TrailsAction]:
        """The rest of the chosen turn, step by step from the step it is at (the bot plays them all without
        asking again: one search per turn)."""
        if state.phase == "confirm":
            return [CONFIRM]
        return turn_steps(state, self._best(game, state, seat))

    def _best(self, game: TrailsGame, state: TrailsState, seat: Seat) -> Turn:
        weights = self.weights
        ranked = ranked_turns(state, seat, self.rng, weights)
        best = ranked[: self.width]
        if len(best) == 1 or len(state.deck) == 0 or self.samples <= 0:
            return best[0][1]
        plies = self.plies if self.plies is not None else state.players
        frozen = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        sums = [0.0] * len(best)
        counts = [0] * len(best)
        opponent = NormalAI(self.rng.randrange(2**31))
        for sample in range(self.samples):
            shuffle_seed = self.rng.randrange(2**31)
            for index, (_, turn) in enumerate(best):
                if sample and self.deadline is not None and self.deadline():
                    break
                trial: TrailsState = pickle.loads(frozen)
                if trial.pending is not None:  # the figure step: the turn is laid from its placement again
                    trial.pending, trial.pending_figure, trial.figure_actions, trial.phase = None, None, [], "place"
                determinize(trial, random.Random(shuffle_seed))  # the same pile for every turn compared
                play_turn(game, trial, seat, turn)
                for _ in range(plies):
                    if trial.over:
                        break
                    actor = trial.seat
                    play_turn(game, trial, actor, ranked_turns(trial, actor, opponent.rng)[0][1])
                sums[index] += Evaluator(trial, weights=weights).position(seat)
                counts[index] += 1
        scored = [(sums[i] / counts[i] if counts[i] else float("-inf"), best[i][0], i) for i in range(len(best))]
        return best[max(scored)[2]][1]


def _easy(seed: int, deadline: Deadline | None) -> EasyAI:
    return EasyAI(seed)


def _normal(seed: int, deadline: Deadline | None) -> NormalAI:
    return NormalAI(seed)


def _hard(seed: int, deadline: Deadline | None) -> HardAI:
    return HardAI(seed, deadline)


LEVELS: dict[str, Factory] = {"easy": _easy, "normal": _normal, "hard": _hard}

__all__ = ["HARD", "LEVELS", "NORMAL", "Evaluator", "HardAI", "NormalAI", "Weights", "determinize", "ranked_turns",
           "turns"]
