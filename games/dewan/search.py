"""The Dewan placement search, built for speed: the map as bitsets, cost multisets packed in ints.

Three questions, asked in this order by a turn:

* ``reachable``: which hexes can take a camp at all (``legal_actions``). Who receives a card does not change
  whether the hand pays, so this search drops recipients and moves whole sets of hexes at once: what the hand
  can still pay (its slack under Hall's condition) carries the bitset of hexes first reached with it.
* ``routes_to``: the minimal cost-item multisets (with recipients) of the routes to one chosen hex, each with
  one route, for the payment steps. A breadth-first search over (hex, items) with dominance, pruned by the
  fewest items any route from a hex to the destination still needs and by the costs already found. Routes
  have no length limit but the hand, so a hex may keep hundreds of incomparable multisets: ``Front`` answers
  "does one of them fit inside this one" with an index instead of a scan.
* ``pick_options`` / ``paid``: which card may be picked next, and when the picks pay a route. Each cost set
  keeps the remainders the picks can leave (every way of assigning the picks to its items); a pick is
  possible when one remainder, less that pick, is paid by the cards numbered above it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from games.dewan import data as D
from games.dewan.board import Board, Layout, build

ANY = "*"
KINDS = ("B", "M", "D", "F", "W", ANY)
WATER = KINDS.index("W")
_LAND = tuple(KINDS.index(t) for t in D.LAND)
# A cost-item multiset ("label") is packed in an int, one byte per (recipient, kind), recipient 0 = the
# discard pile, s + 1 = seat s's hand (a 48-bit word per recipient). The top bit of each field stays clear (a
# route is a path: no kind has 128 hexes on a map), so a guard-bit subtraction compares two labels at once;
# whole bytes are cheap to read one by one (``Front``).
RECIPIENTS = 5
_WIDTH = 8
_FIELD = (1 << _WIDTH) - 1
_FIELDS = len(KINDS) * RECIPIENTS
_KIND_BITS = _WIDTH * len(KINDS)
_GUARD = sum(1 << (_WIDTH * i + _WIDTH - 1) for i in range(_FIELDS))


def token(kind: int, recipient: int = 0) -> int:
    """The packed label holding one item of kind index ``kind`` for ``recipient`` (0: discard)."""
    return 1 << (_KIND_BITS * recipient + _WIDTH * kind)


def submultiset(small: int, big: int) -> bool:
    """Whether packed label ``small`` is contained in ``big`` (no field borrows)."""
    return ((big | _GUARD) - small) & _GUARD == _GUARD


_LAST_FIELD = _WIDTH * (_FIELDS - 1)
_SUM_FIELDS = sum(1 << (_WIDTH * i) for i in range(_FIELDS))


def size_of(label: int) -> int:
    """The number of items of a label: the multiplication adds every field into the last one (a route has
    fewer items than the 56 hexes of the largest map, so no field carries)."""
    return ((label * _SUM_FIELDS) >> _LAST_FIELD) & _FIELD


def unpack(label: int) -> list[tuple[str, int | None]]:
    """A label -> its items (terrain or ``*``, the seat the card goes to or None), by recipient then kind."""
    items: list[tuple[str, int | None]] = []
    for index in range(_FIELDS):
        count = (label >> (_WIDTH * index)) & _FIELD
        if count:
            recipient, kind = divmod(index, len(KINDS))
            items += [(KINDS[kind], recipient - 1 if recipient else None)] * count
    return items


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


def demand_of(counts: Sequence[int]) -> int:
    """The packed demand of a terrain multiset given as a count per ``KINDS`` index."""
    return sum(count * DEMAND[kind] for kind, count in enumerate(counts))


# card -> the room it adds to a purse: 1 in the total and in every set of terrains it shows one of
_ROOM = {c: 1 + sum(1 << (_SET_WIDTH * t) for t in range(1, 32) if t & m) for c, m in _CARD_MASK.items()}


def room_of(cards: Iterable[str]) -> int:
    """The packed room of some cards, guard bits set (see ``fits``)."""
    return _SET_GUARD + sum(_ROOM[c] for c in cards)


# -- the map as bitsets ---------------------------------------------------------------------------
@dataclass
class Grid:
    """A board's hexes as the bits of an int, in label order (bit i: the i-th label), with the neighbours of
    each hex as a mask."""

    board: Board
    bit: dict[str, int]  # hex -> its bit
    hexes: tuple[str, ...]  # bit -> hex
    near: tuple[int, ...]  # bit -> the mask of its neighbours
    kinds: tuple[int, ...]  # per KINDS index: the hexes of that kind (``*``: the start hexes)
    kind_of: dict[str, int]  # hex -> its kind index
    land: int  # the land hexes (a camp's possible destinations)
    one: dict[str, int]  # hex -> its bit as a mask
    crossings: tuple[tuple[int, int, bool], ...]  # per kind: (its hexes, the demand it adds, water?)
    items: dict[str, tuple[int, int]]  # hex -> (its item when crossed, for the discard; the demand it adds)
    steps: dict[str, tuple[tuple[str, bool], ...]]  # hex -> its neighbours, each with: a free step (water)?
    water_runs: dict[int, int] = field(default_factory=dict[int, int])  # water hexes -> their whole runs
    # balls[r][bit]: the hexes a route standing on that hex can still reach with r more items (any cards)
    balls: list[tuple[int, ...]] = field(default_factory=list[tuple[int, ...]])
    distances: dict[str, tuple[int, dict[str, int]]] = field(default_factory=dict[str, tuple[int, dict[str, int]]])

    def neighbours(self, hexes: int) -> int:
        near = self.near
        around = 0
        while hexes:
            low = hexes & -hexes
            around |= near[low.bit_length() - 1]
            hexes ^= low
        return around

    def labels(self, mask: int) -> list[str]:
        """The hexes of a mask, in label order."""
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
            if len(self.water_runs) < 512:
                self.water_runs[water] = whole
        return whole

    def reach(self, items: int) -> tuple[int, ...]:
        """Bit -> the hexes a route standing there reaches with ``items`` more cost items, whatever the cards
        (a hex crossed or arrived on costs one, a water run one for the whole run)."""
        balls = self.balls
        if not balls:  # built whole, then published at once: AI threads may share the map
            water = self.kinds[WATER]
            own = tuple(self.runs(1 << i) if (water >> i) & 1 else 1 << i for i in range(len(self.hexes)))
            onward = [self.bits(self.neighbours(mask) & ~mask) for mask in own]
            balls = [own]
            while True:  # one item more: the balls of the hexes one step on, until they stop growing
                last = balls[-1]
                grown: list[int] = []
                for start, steps in zip(own, onward, strict=True):
                    for g in steps:
                        start |= last[g]
                    grown.append(start)
                if tuple(grown) == last:
                    break
                balls.append(tuple(grown))
            self.balls = balls
        return balls[min(items, len(balls) - 1)]

    @staticmethod
    def bits(mask: int) -> list[int]:
        out: list[int] = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def items_to(self, target: str, most: int) -> dict[str, int]:
        """Hex -> the fewest cost items any route standing there still needs to end on ``target`` (the
        target's own item included): one per hex crossed, none for a step from water to water. Exact up to
        ``most``; the hexes farther off get ``len(hexes)``."""
        depth, known = self.distances.get(target, (0, {}))
        if depth < most:
            here = 1 << self.bit[target]
            water = self.kinds[WATER]
            reached = here
            ring = self.neighbours(here) & ~here
            hexes, near = self.hexes, self.near
            known = dict.fromkeys(hexes, len(hexes))  # beyond any route
            cost = 1
            while ring and cost <= most:  # one more item away: the last ring's neighbours and their water runs
                if ring & water:
                    ring |= self.runs(ring & water) & ~reached
                reached |= ring
                grown = 0
                while ring:
                    low = ring & -ring
                    ring ^= low
                    index = low.bit_length() - 1
                    known[hexes[index]] = cost
                    grown |= near[index]
                ring = grown & ~reached
                cost += 1
            if len(self.distances) >= 16:  # a destination is rarely searched twice: keep a few
                self.distances.clear()
            self.distances[target] = (most, known)
        return known


@lru_cache(maxsize=64)  # a map per table: keep the recent ones
def grid_of(players: int, layout: Layout) -> Grid:
    """The search's view of a map (see ``Grid``), built once per layout."""
    board = build(players, layout)
    hexes = board.labels
    bit = {h: i for i, h in enumerate(hexes)}
    kind_of = {h: KINDS.index(ANY if t == "X" else t) for h, t in board.terrain.items()}
    water = {h for h, t in board.terrain.items() if t == "W"}
    kinds = tuple(sum(1 << bit[h] for h, k in kind_of.items() if k == index) for index in range(len(KINDS)))
    return Grid(board=board, bit=bit, hexes=hexes,
                near=tuple(sum(1 << bit[o] for o in board.neighbours[h]) for h in hexes),
                kinds=kinds, kind_of=kind_of, land=sum(kinds[k] for k in _LAND), one={h: 1 << b for h, b in bit.items()},
                crossings=tuple((kinds[k], DEMAND[k], k == WATER) for k in range(len(KINDS))),
                items={h: (token(k), DEMAND[k]) for h, k in kind_of.items()},
                steps={h: tuple([(o, o in water) for o in around] if h in water else [(o, False) for o in around])
                       for h, around in board.neighbours.items()})


# -- the searches ---------------------------------------------------------------------------------
def reachable(grid: Grid, camps: dict[str, int], seat: int, hand: list[str]) -> list[str]:
    """The hexes a camp of ``seat`` can be placed on with ``hand``, in label order.

    Breadth-first by the number of cards, over whole sets of hexes. What a route has paid so far matters
    only through what the hand can still pay after it (its "slack"): per field of Hall's condition (see
    ``fits``), the cards left over. Routes with the same slack share one entry; a hex already reached with a
    slack at least as large in every field is dropped (everything after it costs no less), and so is a hex
    from which no free hex still unfound lies within the cards left; the search ends when none is left. No
    limit on the route but the hand.
    """
    limit = len(hand)
    if limit < 2:
        return []
    guard = _SET_GUARD
    full = room_of(hand)  # guard bits set
    near = grid.near
    one = grid.one
    taken = mine = 0
    for hex_, owner in camps.items():
        taken |= one[hex_]
        if owner == seat:
            mine |= one[hex_]
    level: dict[int, int] = {}  # slack (no guard bits) -> hexes reached with it
    for of_kind, more, _ in grid.crossings:  # a route starts from an own camp for a card of its terrain
        origins = mine & of_kind  # (any card from the start camp: the only own camp on a start hex)
        left = full - more
        if origins and left & guard == guard:
            level[left - guard] = level.get(left - guard, 0) | origins
    free = grid.land & ~taken
    for k in _LAND:
        if not (full >> (_SET_WIDTH << k)) & 63:  # the field of the set {k}: no card shows k, no camp there
            free &= ~grid.kinds[k]
    every = grid.crossings
    runs = grid.runs
    first: list[list[int] | None] = [None] * len(near)  # per hex: the slacks it was reached with
    found = 0
    hunt = free  # the free hexes not found yet
    for size in range(1, limit):
        ahead: dict[int, int] = {}
        crossing = size + 2 <= limit
        ball = grid.reach(limit - size)
        for slack, hexes in level.items():
            if not hunt:
                return grid.labels(found)  # every free hex found
            around = 0
            while hexes:
                low = hexes & -hexes
                hexes ^= low
                index = low.bit_length() - 1
                if not ball[index] & hunt:
                    continue  # nothing left to find from here
                reached = first[index]
                if reached is None:
                    first[index] = [slack]
                    around |= near[index]
                    continue
                for larger in reached:
                    if ((larger | guard) - slack) & guard == guard:
                        break  # reached before with at least this much to spare
                else:
                    reached.append(slack)
                    around |= near[index]
            if not around:
                continue
            spare = slack | guard
            for of_kind, more, water in every:
                crossed = around & of_kind
                if crossed and (spare - more) & guard == guard:  # the hand pays one more of this kind
                    if crossed & hunt:
                        found |= crossed & hunt
                        hunt = free & ~found
                    if crossing:
                        if water:
                            crossed = runs(crossed)
                        key = slack - more
                        ahead[key] = ahead.get(key, 0) | crossed
        level = ahead
        if not level:
            break
    return grid.labels(found)


_SCAN_UP_TO = 32  # members of a ``Front``: up to this many a plain scan is faster than the index


class Front:
    """Labels none of which holds another (an antichain), asked whether one of them is held in a label.

    Up to ``_SCAN_UP_TO`` members a scan answers. Past that an index answers: per field, ``masks[f][c]`` has
    the bit of every member with more than ``c`` items there, so the members held in a label are the living
    ones in no mask of a count the label lacks (one OR per field in use, however many members). Long routes
    through other players' camps make hundreds of incomparable labels at a hex."""

    __slots__ = ("members", "largest", "labels", "masks", "fields", "alive")

    def __init__(self) -> None:
        self.members: dict[int, None] = {}  # in the order added
        self.largest = 0  # the most items of a member: a newcomer this large holds none of them
        self.labels: list[int] = []  # index bit -> its label (indexed once past ``_SCAN_UP_TO``)
        self.masks: list[list[int]] = []  # field -> count c -> the bits of members with more than c there
        self.fields: list[tuple[int, list[int]]] = []  # (field, its masks) for the fields some member uses
        self.alive = 0  # the bits of the members still held

    def __contains__(self, label: int) -> bool:
        return label in self.members

    def holds_part_of(self, label: int) -> bool:
        """Whether some member is contained in ``label`` (or equals it)."""
        if not self.labels:
            guarded = label | _GUARD
            for k in self.members:
                if (guarded - k) & _GUARD == _GUARD:
                    break
            else:
                return False
            return True
        counts = label.to_bytes(_FIELDS, "little")  # a byte per field: cheaper than shifting a long int
        excess = 0
        for at, masks in self.fields:
            count = counts[at]
            if count < len(masks):
                excess |= masks[count]
        return self.alive & ~excess != 0

    def add(self, label: int, size: int) -> list[int]:
        """Add ``label`` (of ``size`` items, holding no member) and drop the members holding it; returns them."""
        dropped: list[int] = []
        if size < self.largest:  # only a larger member can hold it
            if self.labels:
                held = self.alive
                for at, count in enumerate(label.to_bytes(_FIELDS, "little")):
                    if count:
                        masks = self.masks[at]
                        held &= masks[count - 1] if count <= len(masks) else 0
                self.alive ^= held
                dropped = [self.labels[bit] for bit in Grid.bits(held)]
            else:
                dropped = [k for k in self.members if ((k | _GUARD) - label) & _GUARD == _GUARD]
            for k in dropped:
                del self.members[k]
        else:
            self.largest = size
        self.members[label] = None
        if self.labels:
            self._index(label)
        elif len(self.members) > _SCAN_UP_TO:
            self.masks = [[] for _ in range(_FIELDS)]
            for k in self.members:
                self._index(k)
        return dropped

    def _index(self, label: int) -> None:
        bit = 1 << len(self.labels)
        self.labels.append(label)
        self.alive |= bit
        for at, count in enumerate(label.to_bytes(_FIELDS, "little")):
            if count:
                masks = self.masks[at]
                if count > len(masks):
                    if not masks:
                        self.fields.append((at, masks))
                    masks.extend([0] * (count - len(masks)))
                for c in range(count):
                    masks[c] |= bit


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
    hex needs a sub-multiset of its items (it can only cost more from there), when even the cheapest way on
    to the target would pass the hand, or when it and the target's own item already hold a cost found (all
    its ways on cost more). Walks that repeat a hex never beat the simple path they contain, so they need no
    special care. Items never exceed the hand and must stay payable by it. No limit on the route but the hand.
    """
    found: dict[int, Node] = {}
    board = grid.board
    terrain = board.terrain
    limit = len(hand)
    if target in camps or terrain.get(target) not in D.LAND:
        return found
    room = room_of(hand)
    guard = _SET_GUARD
    steps = grid.steps
    kind_of = grid.kind_of
    arrive = token(kind_of[target])
    arrive_demand = DEMAND[kind_of[target]]
    # A route standing on a hex with ``n`` items still to pay needs the target's terrain and n - 1 more cards.
    tail = [0, *(arrive_demand + n - 1 for n in range(1, limit + 1))]
    items = dict(grid.items)  # hex -> (its item when crossed, the demand it adds)
    mine: list[str] = []
    for hex_, owner in camps.items():
        if owner != seat:  # the card for crossing another player's camp goes to them
            item, more = items[hex_]
            items[hex_] = (item << (_KIND_BITS * (owner + 1)), more)
        else:
            mine.append(hex_)
    seen: dict[str, Front] = {}  # hex -> the labels it was reached with, none holding another
    before = Front()  # the costs found, less the target's own item
    queue: deque[tuple[str, int, int, int, Node]] = deque()
    need = grid.items_to(target, limit)
    for origin in sorted(mine):  # from the start camp any card (the only own camp on a start hex)
        kind = kind_of[origin]
        ahead = need[origin]
        if limit >= 2 and 1 + ahead <= limit and (room - DEMAND[kind] - tail[ahead]) & guard == guard:
            seen[origin] = front = Front()
            front.add(token(kind), 1)
            queue.append((origin, token(kind), DEMAND[kind], 1, (origin, None)))
    while queue:
        hex_, label, demand, size, path = queue.popleft()
        if label not in seen[hex_] or before.holds_part_of(label):
            continue  # replaced by a cheaper arrival meanwhile, or every way on costs more than one found
        budget = limit - size  # items this route may still add
        for other, free in steps[hex_]:
            ahead = need[other]
            if other == target:  # (going on across the target costs more than stopping there)
                if (room - demand - arrive_demand) & guard == guard:
                    for k in before.add(label, size):  # (it holds no cost found: see above)
                        del found[k + arrive]
                    found[label + arrive] = (other, path)
                continue
            if free:  # on along a water run
                if ahead > budget or (room - demand - tail[ahead]) & guard != guard:
                    continue  # even the cheapest way on is too long, or the hand cannot pay it
                more_label, more_demand, more_size = label, demand, size
            else:
                if budget < 2 or ahead >= budget:
                    continue
                item, more = items[other]
                more_demand = demand + more
                if (room - more_demand - tail[ahead]) & guard != guard:
                    continue
                more_label, more_size = label + item, size + 1
            front = seen.get(other)
            if front is None:
                seen[other] = front = Front()
            elif front.holds_part_of(more_label):
                continue  # a sub-multiset got here already
            front.add(more_label, more_size)
            queue.append((other, more_label, more_demand, more_size, (other, path)))
    return found


# -- payment steps --------------------------------------------------------------------------------
Pick = tuple[str, "int | None"]  # a card picked in payment and the seat it goes to (None: discard)


def remainders(label: int, picks: list[Pick]) -> set[int]:
    """What may be left of ``label`` once the picks each pay one of its items (a pick pays an item of its
    own recipient and of a kind the card shows, or ``*``): one remainder per way of assigning them."""
    rest = {label}
    for card, recipient in picks:
        shift = _KIND_BITS * (0 if recipient is None else recipient + 1)
        rest = {r - (1 << (shift + _WIDTH * k)) for r in rest for k in _CARD_KINDS[card]
                if (r >> (shift + _WIDTH * k)) & _FIELD}
        if not rest:
            break
    return rest


def pick_options(hand: list[str], labels: list[int], picks: list[Pick]) -> list[Pick]:
    """The next cards that may be picked, in card order then recipient (discard first): each leaves a
    remainder of some label that the cards numbered above it can still pay (cards are picked in card
    order)."""
    floor = picks[-1][0] if picks else ""
    left = [c for c in sorted(hand) if c > floor]
    # Each remainder once, as (its demand, per kind the recipients (bit r: field r) holding such an item).
    open_: dict[int, tuple[int, list[int]]] = {}
    for label in labels:
        for r in remainders(label, picks):
            if r and r not in open_:
                holders = [0] * len(KINDS)
                demand = 0
                word, recipient = r, 1
                while word:
                    for kind in range(len(KINDS)):
                        count = (word >> (_WIDTH * kind)) & _FIELD
                        if count:
                            holders[kind] |= recipient
                            demand += count * DEMAND[kind]
                    word >>= _KIND_BITS
                    recipient <<= 1
                open_[r] = (demand, holders)
    if not open_:
        return []
    rooms = [_SET_GUARD] * (len(left) + 1)  # rooms[i]: the cards from left[i] on
    for index in range(len(left) - 1, -1, -1):
        rooms[index] = rooms[index + 1] + _ROOM[left[index]]
    options: list[Pick] = []
    for index, card in enumerate(left):
        room = rooms[index + 1]  # what may pay the rest: the cards after this one
        choices = 0  # recipient fields this card can pay
        for demand, holders in open_.values():
            for kind in _CARD_KINDS[card]:
                if holders[kind] & ~choices and (room - demand + DEMAND[kind]) & _SET_GUARD == _SET_GUARD:
                    choices |= holders[kind]
        recipient = 0
        while choices:
            if choices & 1:
                options.append((card, None if recipient == 0 else recipient - 1))
            choices >>= 1
            recipient += 1
    return options


def paid(labels: list[int], picks: list[Pick]) -> int | None:
    """The first label the picks pay exactly, if any."""
    count = len(picks)
    for label in labels:
        if size_of(label) == count and 0 in remainders(label, picks):
            return label
    return None
