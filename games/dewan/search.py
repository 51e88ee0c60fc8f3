"""The Dewan placement search, built for speed: the map as bitsets, cost multisets packed in ints.

Three questions, asked in this order by a turn:

* ``reachable``: which hexes can take a camp at all (``legal_actions``). Who receives a card does not change
  whether the hand pays, so this search drops recipients and moves whole sets of hexes at once: a label
  (multiset of terrains paid so far) carries the bitset of hexes first reached with it.
* ``routes_to``: the minimal cost-item multisets (with recipients) of the routes to one chosen hex, each with
  one route, for the payment steps. A breadth-first search over (hex, items) with dominance, pruned by the
  fewest items any route from a hex to the destination still needs.
* ``pick_options`` / ``paid``: which card may be picked next, and when the picks pay a route. Each cost set
  keeps the remainders the picks can leave (every way of assigning the picks to its items); a pick is
  possible when one remainder, less that pick, is paid by the cards numbered above it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.dewan import data as D
from games.dewan.board import Board, Layout, build

ANY = "*"
KINDS = ("B", "M", "D", "F", "W", ANY)
WATER = KINDS.index("W")
_LAND = tuple(KINDS.index(t) for t in D.LAND)
# A multiset is packed in an int, one 5-bit field per count; the top bit of each field stays clear (counts
# never exceed 7), so a guard-bit subtraction compares two multisets in one operation.
# Terrain multisets ("kinds"): one field per kind. Cost-item multisets ("labels"): one field per (recipient,
# kind), recipient 0 = the discard pile, s + 1 = seat s's hand; so merging recipients is adding 30-bit words.
_WIDTH = 5
_KIND_BITS = _WIDTH * len(KINDS)
_KIND_WORD = (1 << _KIND_BITS) - 1
RECIPIENTS = 5
_KIND_GUARD = sum(1 << (_WIDTH * i + 4) for i in range(len(KINDS)))
_GUARD = sum(1 << (_WIDTH * i + 4) for i in range(len(KINDS) * RECIPIENTS))
KIND_TOKEN = tuple(1 << (_WIDTH * k) for k in range(len(KINDS)))


def token(kind: int, recipient: int = 0) -> int:
    """The packed label holding one item of kind index ``kind`` for ``recipient`` (0: discard)."""
    return 1 << (_KIND_BITS * recipient + _WIDTH * kind)


def submultiset(small: int, big: int) -> bool:
    """Whether packed label ``small`` is contained in ``big`` (no field borrows)."""
    return ((big | _GUARD) - small) & _GUARD == _GUARD


def merged(label: int) -> int:
    """A label's items with recipients dropped: the terrains the hand must pay."""
    kinds = 0
    while label:
        kinds += label & _KIND_WORD
        label >>= _KIND_BITS
    return kinds


def size_of(label: int) -> int:
    kinds = merged(label)
    return sum((kinds >> (_WIDTH * k)) & 31 for k in range(len(KINDS)))


def unpack(label: int) -> list[tuple[str, int | None]]:
    """A label -> its items (terrain or ``*``, the seat the card goes to or None), by recipient then kind."""
    items: list[tuple[str, int | None]] = []
    for index in range(len(KINDS) * RECIPIENTS):
        count = (label >> (_WIDTH * index)) & 31
        if count:
            recipient, kind = divmod(index, len(KINDS))
            items += [(KINDS[kind], recipient - 1 if recipient else None)] * count
    return items


def card_kinds(card: str) -> tuple[int, ...]:
    """The kinds a card can pay: its terrains, and any item (``*``)."""
    return _CARD_KINDS[card]


_CARD_KINDS = {c: (*(KINDS.index(t) for t in terrains), KINDS.index(ANY)) for c, (terrains, _) in D.CARDS.items()}
_CARD_MASK = {c: sum(1 << KINDS.index(t) for t in terrains) for c, (terrains, _) in D.CARDS.items()}


# -- what a hand pays -----------------------------------------------------------------------------
# Hall's condition decides whether distinct cards pay a multiset of kinds (a card shows one or two terrains,
# ``*`` takes any card): for every set T of terrains, the items of T need at most as many cards showing one of
# them, and all items at most the whole hand. The 31 sets and the total are packed as 7-bit fields of one int
# (field 0 the total, field T the set T), so one subtraction checks them all: a "demand" (items per field)
# against a purse's "room" (cards per field). Adding an item of kind k adds ``DEMAND[k]`` to the demand.
_SET_WIDTH = 7
_SET_GUARD = sum(1 << (_SET_WIDTH * i + 6) for i in range(32))
DEMAND = (*(1 + sum(1 << (_SET_WIDTH * t) for t in range(1, 32) if t >> k & 1) for k in range(5)), 1)


def fits(room: int, demand: int) -> bool:
    """Whether a purse with ``room`` (guard bits set) pays ``demand``: no field of the difference borrows."""
    return (room - demand) & _SET_GUARD == _SET_GUARD


def demand_of(kinds: int) -> int:
    """The packed demand of a terrain multiset."""
    demand = 0
    for kind in range(len(KINDS)):
        count = (kinds >> (_WIDTH * kind)) & 31
        if count:
            demand += count * DEMAND[kind]
    return demand


class Purse:
    """What a set of cards can pay (see ``fits``)."""

    def __init__(self, hand: tuple[str, ...]) -> None:
        masks = [_CARD_MASK[c] for c in hand]
        self.room = _SET_GUARD | len(hand) | sum(
            sum(1 for m in masks if m & subset) << (_SET_WIDTH * subset) for subset in range(1, 32))
        self.memo: dict[int, bool] = {}

    def pays(self, kinds: int) -> bool:
        """``kinds``: items per kind in 5-bit fields, in ``KINDS`` order."""
        known = self.memo.get(kinds)
        if known is None:
            known = self.memo[kinds] = (self.room - demand_of(kinds)) & _SET_GUARD == _SET_GUARD
        return known


_PURSES: dict[tuple[str, ...], Purse] = {}


def purse_of(cards: tuple[str, ...] | list[str]) -> Purse:
    """The (memoised) purse of some cards: later searches with the same cards reuse its answers."""
    key = tuple(sorted(cards))
    purse = _PURSES.get(key)
    if purse is None:
        if len(_PURSES) > 2048:
            _PURSES.clear()
        purse = _PURSES[key] = Purse(key)
    return purse


# -- the map as bitsets ---------------------------------------------------------------------------
@dataclass
class Grid:
    """A board's hexes as bits of an int laid out row by row (axial r, then q) with one spare column, so a
    neighbour is a shift and no row wraps into the next."""

    board: Board
    bit: dict[str, int]  # hex -> its bit
    hexes: dict[int, str]  # bit index -> hex
    valid: int
    width: int
    kinds: tuple[int, ...]  # per KINDS index: the hexes of that kind (``*``: the start hexes)
    kind_of: dict[str, int]  # hex -> its kind index
    land: int  # the land hexes (a camp's possible destinations)
    water_runs: dict[int, int] = field(default_factory=dict[int, int])  # water hexes -> their whole runs
    distances: dict[str, dict[str, int]] = field(default_factory=dict[str, dict[str, int]])

    def neighbours(self, hexes: int) -> int:
        w = self.width
        return ((hexes << 1) | (hexes >> 1) | (hexes << w) | (hexes >> w) | (hexes << (w - 1))
                | (hexes >> (w - 1))) & self.valid

    def mask(self, hexes: Any) -> int:
        bit = self.bit
        return sum(1 << bit[h] for h in hexes)

    def labels(self, mask: int) -> list[str]:
        out: list[str] = []
        while mask:
            low = mask & -mask
            out.append(self.hexes[low.bit_length() - 1])
            mask ^= low
        return out

    def runs(self, water: int) -> int:
        """The water hexes ``water`` and every water hex joined to them: a run is crossed for one card."""
        whole = self.water_runs.get(water)
        if whole is None:
            whole, grown = water, water
            while grown:
                more = self.neighbours(grown) & self.kinds[WATER] & ~whole
                whole |= more
                grown = more
            if len(self.water_runs) < 4096:
                self.water_runs[water] = whole
        return whole

    def items_to(self, target: str) -> dict[str, int]:
        """Hex -> the fewest cost items any route standing there still needs to end on ``target`` (the
        target's own item included): one per hex crossed, none for a step from water to water."""
        known = self.distances.get(target)
        if known is None:
            board = self.board
            terrain = board.terrain
            known = {h: 1 for h in board.neighbours[target]}
            queue: deque[str] = deque(known)
            while queue:  # 0-1 breadth-first search backwards: a free step goes to the front
                here = queue.popleft()
                cost = known[here]
                for other in board.neighbours[here]:
                    if other == target:
                        continue
                    step = 0 if terrain[other] == "W" and terrain[here] == "W" else 1
                    if other not in known or known[other] > cost + step:
                        known[other] = cost + step
                        if step:
                            queue.append(other)
                        else:
                            queue.appendleft(other)
            # Crossing the target itself never helps, but the search may do it: out and back costs 2.
            known[target] = 2
            self.distances[target] = known
        return known


@cache
def grid_of(players: int, layout: Layout) -> Grid:
    board = build(players, layout)
    qs = [q for q, _ in board.coords.values()]
    rs = [r for _, r in board.coords.values()]
    width = max(qs) - min(qs) + 2
    bit = {h: (r - min(rs)) * width + (q - min(qs)) for h, (q, r) in board.coords.items()}
    kind_of = {h: KINDS.index(ANY if t == "X" else t) for h, t in board.terrain.items()}
    kinds = tuple(sum(1 << bit[h] for h, k in kind_of.items() if k == index) for index in range(len(KINDS)))
    return Grid(board=board, bit=bit, hexes={b: h for h, b in bit.items()}, valid=sum(1 << b for b in bit.values()),
                width=width, kinds=kinds, kind_of=kind_of, land=sum(kinds[k] for k in _LAND))


# -- the searches ---------------------------------------------------------------------------------
def origins(grid: Grid, camps: dict[str, int], seat: int) -> list[tuple[str, int]]:
    """The seat's camps a route may start from, each with its kind index: its terrain, any card from the start
    camp."""
    start = grid.board.starts[seat]
    return [(h, KINDS.index(ANY) if h == start else grid.kind_of[h]) for h in sorted(camps) if camps[h] == seat]


def reachable(grid: Grid, camps: dict[str, int], seat: int, hand: list[str]) -> list[str]:
    """The hexes a camp of ``seat`` can be placed on with ``hand``, in label order.

    Breadth-first by the number of cards: each terrain multiset paid so far carries the hexes it reached
    first (a hex already reached with a sub-multiset is dropped: from there it can only cost more). Routes
    stop at ``D.MAX_ROUTE_ITEMS`` items and never exceed the hand.
    """
    limit = min(len(hand), D.MAX_ROUTE_ITEMS)
    if limit < 2:
        return []
    room = purse_of(hand).room
    kinds = grid.kinds
    neighbours = grid.neighbours
    bit = grid.bit
    taken = 0
    level: dict[int, int] = {}  # terrains paid -> hexes reached with them
    demands: dict[int, int] = {}  # terrains paid -> their packed demand
    start = grid.board.starts[seat]
    for hex_, owner in camps.items():
        taken |= 1 << bit[hex_]
        if owner == seat:
            kind = len(KINDS) - 1 if hex_ == start else grid.kind_of[hex_]
            if (room - DEMAND[kind]) & _SET_GUARD == _SET_GUARD:
                first = KIND_TOKEN[kind]
                level[first] = level.get(first, 0) | (1 << bit[hex_])
                demands[first] = DEMAND[kind]
    free = grid.land & ~taken
    land = [(kinds[kind], KIND_TOKEN[kind], DEMAND[kind]) for kind in _LAND]
    every = [(kinds[kind], KIND_TOKEN[kind], DEMAND[kind], kind == WATER) for kind in range(len(KINDS))]
    done: list[tuple[int, int]] = []  # (terrains paid, hexes first reached with them) of the shorter levels
    found = 0
    for size in range(1, limit):
        ahead: dict[int, int] = {}
        fresh: list[tuple[int, int]] = []
        crossing = size + 2 <= limit
        for paid, hexes in level.items():
            for smaller, reached in done:
                if hexes & reached and ((paid | _KIND_GUARD) - smaller) & _KIND_GUARD == _KIND_GUARD:
                    hexes &= ~reached
                    if not hexes:
                        break
            if not hexes:
                continue
            fresh.append((paid, hexes))
            demand = demands[paid]
            around = neighbours(hexes)
            if around & free & ~found:
                for of_kind, _, more in land:
                    ends = around & of_kind & free & ~found
                    if ends and (room - demand - more) & _SET_GUARD == _SET_GUARD:
                        found |= ends
            if crossing:
                for of_kind, item, more, water in every:
                    crossed = around & of_kind
                    if crossed and (room - demand - more) & _SET_GUARD == _SET_GUARD:
                        if water:
                            crossed = grid.runs(crossed)
                        key = paid + item
                        if key in ahead:
                            ahead[key] |= crossed
                        else:
                            ahead[key] = crossed
                            demands[key] = demand + more
        done += fresh
        level = ahead
        if not level:
            break
    return sorted(grid.labels(found))


Node = Any  # a route as a linked list: (hex, previous node) or None


def route_of(node: Node) -> list[str]:
    """A route kept as a linked list (hex, previous node) -> its hexes from the origin."""
    hexes: list[str] = []
    while node is not None:
        hexes.append(node[0])
        node = node[1]
    return hexes[::-1]


def routes_to(grid: Grid, camps: dict[str, int], seat: int, hand: list[str], target: str) -> dict[int, Node]:
    """The minimal cost-item multisets (packed labels) of the routes to ``target`` -> one route each.

    A breadth-first search over (hex, items so far); an arrival is dropped when another arrival at the same
    hex needs a sub-multiset of its items (it can only cost more from there), or when even the cheapest way
    on to the target would pass the item limit. Walks that repeat a hex never beat the simple path they
    contain, so they need no special care. Items never exceed the hand and must stay payable by it.
    """
    found: dict[int, Node] = {}
    board = grid.board
    terrain = board.terrain
    limit = min(len(hand), D.MAX_ROUTE_ITEMS)
    if target in camps or terrain.get(target) not in D.LAND:
        return found
    room = purse_of(hand).room
    need = grid.items_to(target)
    far = limit + 1
    kind_of = grid.kind_of
    arrive = token(kind_of[target])
    arrive_demand = DEMAND[kind_of[target]]
    crossing: dict[str, tuple[int, int]] = {}  # hex -> (its item when crossed, the demand it adds)
    for hex_ in board.labels:
        owner = camps.get(hex_)
        kind = kind_of[hex_]
        crossing[hex_] = (token(kind, 0 if owner is None or owner == seat else owner + 1), DEMAND[kind])
    seen: dict[str, list[int]] = {}
    queue: deque[tuple[str, int, int, int, Node]] = deque()

    def push(hex_: str, label: int, demand: int, size: int, path: Node) -> None:
        if size + need.get(hex_, far) > limit:
            return  # even the cheapest way on is too long
        known = seen.setdefault(hex_, [])
        for k in known:
            if ((label | _GUARD) - k) & _GUARD == _GUARD:
                return
        known[:] = [k for k in known if ((k | _GUARD) - label) & _GUARD != _GUARD]
        known.append(label)
        queue.append((hex_, label, demand, size, path))

    for origin, kind in origins(grid, camps, seat):
        if limit >= 2 and fits(room, DEMAND[kind]):
            push(origin, token(kind), DEMAND[kind], 1, (origin, None))
    neighbours = board.neighbours
    while queue:
        hex_, label, demand, size, path = queue.popleft()
        if label not in seen[hex_]:
            continue  # replaced by a cheaper arrival meanwhile
        in_water = terrain[hex_] == "W"
        for other in neighbours[hex_]:
            if other == target and size < limit and (room - demand - arrive_demand) & _SET_GUARD == _SET_GUARD:
                _record(found, label + arrive, (other, path))
            if in_water and terrain[other] == "W":
                push(other, label, demand, size, (other, path))
            elif size + 2 <= limit:
                item, more = crossing[other]
                if (room - demand - more) & _SET_GUARD == _SET_GUARD:
                    push(other, label + item, demand + more, size + 1, (other, path))
    return found


def _record(labels: dict[int, Node], label: int, path: Node) -> None:
    for k in labels:
        if submultiset(k, label):
            return
    for k in [k for k in labels if submultiset(label, k)]:
        del labels[k]
    labels[label] = path


# -- payment steps --------------------------------------------------------------------------------
Pick = tuple[str, "int | None"]  # a card picked in payment and the seat it goes to (None: discard)


def remainders(label: int, picks: list[Pick]) -> set[int]:
    """What may be left of ``label`` once the picks each pay one of its items (a pick pays an item of its
    own recipient and of a kind the card shows, or ``*``): one remainder per way of assigning them."""
    rest = {label}
    for card, recipient in picks:
        shift = _KIND_BITS * (0 if recipient is None else recipient + 1)
        rest = {r - (1 << (shift + _WIDTH * k)) for r in rest for k in _CARD_KINDS[card]
                if (r >> (shift + _WIDTH * k)) & 31}
        if not rest:
            break
    return rest


def pick_options(hand: list[str], labels: list[int], picks: list[Pick]) -> list[Pick]:
    """The next cards that may be picked, in card order then recipient (discard first): each leaves a
    remainder of some label that the cards numbered above it can still pay (cards are picked in card
    order)."""
    floor = picks[-1][0] if picks else ""
    left = [c for c in sorted(hand) if c > floor]
    open_: list[set[int]] = []
    for label in labels:
        rest = remainders(label, picks)
        rest.discard(0)
        if rest:
            open_.append(rest)
    if not open_:
        return []
    options: list[Pick] = []
    for index, card in enumerate(left):
        pays = purse_of(left[index + 1:]).pays
        choices: set[int] = set()  # recipient fields this card can pay
        for rest in open_:
            for r in rest:
                for kind in _CARD_KINDS[card]:
                    for shift in range(0, r.bit_length(), _KIND_BITS):
                        if shift // _KIND_BITS in choices:
                            continue
                        place = shift + _WIDTH * kind
                        if (r >> place) & 31 and pays(merged(r - (1 << place))):
                            choices.add(shift // _KIND_BITS)
        options += [(card, None if c == 0 else c - 1) for c in sorted(choices)]
    return options


def paid(labels: list[int], picks: list[Pick]) -> int | None:
    """The first label the picks pay exactly, if any."""
    count = len(picks)
    for label in labels:
        if size_of(label) == count and 0 in remainders(label, picks):
            return label
    return None
