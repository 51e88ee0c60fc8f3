"""The slow reference placement searches, kept only to check the fast one (``games/dewan/search.py``).

* ``search``: the engine's search before it was made fast (one label-correcting search over every
  destination, payment steps by bipartite matching). With ``cap`` it is the search of the time when routes
  stopped at 7 cost items (issue 39 lifted that cap).
* ``brute_costs``: every simple path from an own camp, costed by ``route_cost``, for small hands: it checks
  that the searches over (hex, items) lose no minimal cost.

The destinations and payment steps here answer the main turn and the payment steps as the engine must; the
tests compare them with the engine on many random positions.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from games.dewan import data as D
from games.dewan.engine import DewanState

Item = tuple[str, "int | None"]
Pick = tuple[str, "int | None"]
Payment = tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...], list[str]]
ANY = "*"
KINDS = ("B", "M", "D", "F", "W", ANY)
_RECIPIENTS = 5
_FIELDS = len(KINDS) * _RECIPIENTS
_GUARD = sum(1 << (5 * i + 4) for i in range(_FIELDS))


def _token(kind: str, recipient: int = 0) -> int:
    return 1 << (5 * (KINDS.index(kind) * _RECIPIENTS + recipient))


def _submultiset(small: int, big: int) -> bool:
    return ((big | _GUARD) - small) & _GUARD == _GUARD


def _unpack(label: int) -> list[Item]:
    items: list[Item] = []
    for index in range(_FIELDS):
        count = (label >> (5 * index)) & 31
        if count:
            kind, recipient = divmod(index, _RECIPIENTS)
            items += [(KINDS[kind], recipient - 1 if recipient else None)] * count
    return items


def card_pays(card: str, kind: str) -> bool:
    return kind == ANY or kind in D.CARDS[card][0]


_SUBSETS = [(subset, [t for t in range(5) if subset >> t & 1]) for subset in range(1, 32)]


@lru_cache(maxsize=256)
def _showing(hand: tuple[str, ...]) -> tuple[int, ...]:
    """Per set of terrains (bit t: terrain t), the cards of ``hand`` showing one of them."""
    masks = [sum(1 << KINDS.index(t) for t in D.CARDS[c][0]) for c in hand]
    return tuple(sum(1 for m in masks if m & subset) for subset in range(32))


def pays(hand: list[str], counts: list[int]) -> bool:
    """Hall's condition over the five terrains, every subset checked."""
    if sum(counts) > len(hand):
        return False
    showing = _showing(tuple(hand))
    return all(sum([counts[t] for t in terrains]) <= showing[subset] for subset, terrains in _SUBSETS)


def _route(node: Any) -> list[str]:
    hexes: list[str] = []
    while node is not None:
        hexes.append(node[0])
        node = node[1]
    return hexes[::-1]


def _split(picks: list[Pick]) -> tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]:
    gives: dict[int, list[str]] = {}
    for card, recipient in picks:
        if recipient is not None:
            gives.setdefault(recipient, []).append(card)
    return (tuple(sorted(c for c, r in picks if r is None)),
            tuple((s, tuple(sorted(gives[s]))) for s in sorted(gives)))


OLD_CAP = 7  # cost items: the longest route before issue 39


_SEARCHED: dict[Any, dict[str, dict[int, Any]]] = {}


def search(state: DewanState, seat: int, cap: int | None = None) -> dict[str, dict[int, Any]]:
    """Destination -> minimal cost-item multisets (packed) -> one route with that cost (routes of at most
    ``cap`` cost items, if given). Remembered per position, as every payment step asks again: callers must
    not change the result."""
    key = (state.players, str(state.layout), tuple(sorted(state.camps.items())), seat,
           tuple(state.seats[seat]["hand"]), cap)
    if key not in _SEARCHED:
        if len(_SEARCHED) > 64:
            _SEARCHED.clear()
        _SEARCHED[key] = _search(state, seat, cap)
    return _SEARCHED[key]


def _search(state: DewanState, seat: int, cap: int | None) -> dict[str, dict[int, Any]]:
    board = state.board
    hand = state.seats[seat]["hand"]
    camps = state.camps
    terrain = board.terrain
    start = board.starts[seat]
    limit = len(hand) if cap is None else min(len(hand), cap)
    memo: dict[int, bool] = {}

    def can_pay(kinds: int) -> bool:
        if kinds not in memo:
            memo[kinds] = pays(hand, [(kinds >> (5 * i)) & 31 for i in range(len(KINDS))])
        return memo[kinds]

    crossing: dict[str, tuple[int, int]] = {}
    for hex_ in board.labels:
        owner = camps.get(hex_)
        kind = ANY if terrain[hex_] == "X" else terrain[hex_]
        crossing[hex_] = (_token(kind, 0 if owner is None or owner == seat else owner + 1),
                          1 << (5 * KINDS.index(kind)))
    arrival = {h: (_token(terrain[h]), 1 << (5 * KINDS.index(terrain[h])))
               for h in board.labels if terrain[h] in D.LAND and h not in camps}
    seen: dict[str, list[int]] = {}
    found: dict[str, dict[int, Any]] = {}
    queue: deque[tuple[str, int, int, int, Any]] = deque()

    def push(hex_: str, label: int, kinds: int, size: int, path: Any) -> None:
        known = seen.setdefault(hex_, [])
        for k in known:
            if _submultiset(k, label):
                return
        known[:] = [k for k in known if not _submultiset(label, k)]
        known.append(label)
        queue.append((hex_, label, kinds, size, path))

    for origin in sorted(h for h, s in camps.items() if s == seat):
        kind = ANY if origin == start else terrain[origin]
        first, first_kinds = _token(kind), 1 << (5 * KINDS.index(kind))
        if limit >= 2 and can_pay(first_kinds):
            push(origin, first, first_kinds, 1, (origin, None))
    while queue:
        hex_, label, kinds, size, path = queue.popleft()
        if label not in seen[hex_]:
            continue
        in_water = terrain[hex_] == "W"
        for other in board.neighbours[hex_]:
            if other in arrival and size < limit:
                token, kind_bit = arrival[other]
                if can_pay(kinds + kind_bit):
                    _record(found.setdefault(other, {}), label + token, path, other)
            if in_water and terrain[other] == "W":
                push(other, label, kinds, size, (other, path))
            elif size + 2 <= limit:
                token, kind_bit = crossing[other]
                if can_pay(kinds + kind_bit):
                    push(other, label + token, kinds + kind_bit, size + 1, (other, path))
    return found


def _record(labels: dict[int, Any], label: int, path: Any, hex_: str) -> None:
    for k in labels:
        if _submultiset(k, label):
            return
    for k in [k for k in labels if _submultiset(label, k)]:
        del labels[k]
    labels[label] = (hex_, path)


def labels(state: DewanState, seat: int, hex_: str) -> list[tuple[list[Item], list[str]]]:
    """The minimal cost-item multisets of the routes to ``hex_``, each with one route."""
    return [(_unpack(label), _route(node)) for label, node in search(state, seat).get(hex_, {}).items()]


def _fits(items: list[Item], picks: list[Pick], rest: list[str]) -> bool:
    if len(picks) > len(items):
        return False

    def matches(lefts: list[Any], rights: list[Any], fits: Callable[[Any, Any], bool]) -> bool:
        owner: dict[int, int] = {}

        def augment(left: int, seen: set[int]) -> bool:
            for right, candidate in enumerate(rights):
                if right in seen or not fits(lefts[left], candidate):
                    continue
                seen.add(right)
                if right not in owner or augment(owner[right], seen):
                    owner[right] = left
                    return True
            return False

        return all(augment(i, set()) for i in range(len(lefts)))

    def pick_pays(pick: Pick, item: Item) -> bool:
        return pick[1] == item[1] and card_pays(pick[0], item[0])

    if not matches(picks, items, pick_pays):
        return False

    def item_paid(item: Item, payer: Pick | str) -> bool:
        return pick_pays(payer, item) if isinstance(payer, tuple) else card_pays(payer, item[0])

    payers: list[Pick | str] = [*picks, *rest]
    return matches(items, payers, item_paid)


def pick_options(hand: list[str], labels: list[tuple[list[Item], list[str]]], picks: list[Pick]) -> list[Pick]:
    floor = picks[-1][0] if picks else ""
    left = [c for c in sorted(hand) if c > floor]
    viable = [items for items, _ in labels if len(items) > len(picks) and _fits(items, picks, left)]
    options: list[Pick] = []
    for card in left:
        rest = [c for c in left if c > card]
        wanted = {r for items in viable for kind, r in items if card_pays(card, kind)}
        for recipient in sorted(wanted, key=lambda r: -1 if r is None else r):
            pick = [*picks, (card, recipient)]
            if any(_fits(items, pick, rest) for items in viable):
                options.append((card, recipient))
    return options


def paid(labels: list[tuple[list[Item], list[str]]], picks: list[Pick]) -> list[str] | None:
    for items, path in labels:
        if len(items) == len(picks) and _fits(items, picks, []):
            return path
    return None


def payments(state: DewanState, seat: int, hex_: str, limit: int | None = 200) -> list[Payment]:
    hand = state.seats[seat]["hand"]
    every = labels(state, seat, hex_)
    out: list[Payment] = []
    for size in sorted({len(items) for items, _ in every}):
        targets = [(items, path) for items, path in every if len(items) == size]
        room = None if limit is None else limit - len(out)
        found: list[Payment] = []
        _walk(hand, every, targets, size, [], found, room)
        out += sorted(found, key=lambda o: (o[0], o[1]))
        if limit is not None and len(out) >= limit:
            break
    return out[:limit]


def _walk(hand: list[str], every: list[tuple[list[Item], list[str]]], targets: list[tuple[list[Item], list[str]]],
          size: int, picks: list[Pick], found: list[Payment], room: int | None) -> None:
    if room is not None and len(found) >= room:
        return
    if picks:
        path = paid(every, picks)
        if path is not None:
            if len(picks) == size:
                found.append((*_split(picks), path))
            return
    if len(picks) < size:
        for pick in pick_options(hand, targets, picks):
            _walk(hand, every, targets, size, [*picks, pick], found, room)


def destinations(state: DewanState, seat: int) -> list[str]:
    """The camp destinations of the main turn (empty when no camp is left)."""
    if state.seats[seat]["placed"] >= D.SLOTS:
        return []
    return sorted(search(state, seat))


def pending_options(state: DewanState, seat: int) -> list[Pick]:
    """The picks of the payment step (the engine's ``pay``/``give`` actions)."""
    picks = [(c, r) for c, r in state.pending["picks"]]
    return pick_options(state.seats[seat]["hand"], labels(state, seat, state.pending["hex"]), picks)


def brute_costs(state: DewanState, seat: int) -> dict[str, list[list[tuple[str, int]]]]:
    """Destination -> the minimal cost-item multisets of the routes the hand pays (each sorted, seat -1 for the
    discard), from every simple path out of an own camp: slow, for small hands only."""
    from games.dewan import GAME

    board = state.board
    hand = state.seats[seat]["hand"]
    costs: dict[str, set[tuple[tuple[str, int], ...]]] = {}

    def counts(items: list[Item]) -> list[int]:
        out = [0] * len(KINDS)
        for kind, _ in items:
            out[KINDS.index(kind)] += 1
        return out

    def walk(path: list[str], crossed: list[int]) -> None:
        """``crossed``: the counts per kind of the items of ``path`` (its last hex crossed, not the end)."""
        for other in board.neighbours[path[-1]]:
            if other in path:
                continue
            route = [*path, other]
            if other not in state.camps and board.terrain[other] in D.LAND:
                items = GAME.route_cost(state, seat, route)
                if pays(hand, counts(items)):
                    costs.setdefault(other, set()).add(tuple(sorted((k, -1 if s is None else s) for k, s in items)))
            more = list(crossed)
            terrain = board.terrain[other]
            if terrain != "W" or board.terrain[path[-1]] != "W":  # a water run costs one item
                more[KINDS.index(ANY if terrain == "X" else terrain)] += 1
            if pays(hand, [*more[:-1], more[-1] + 1]):  # and at least a destination still to pay
                walk(route, more)

    for origin in sorted(h for h, s in state.camps.items() if s == seat):
        walk([origin], counts(GAME.route_cost(state, seat, [origin])))
    out: dict[str, list[list[tuple[str, int]]]] = {}
    for hex_, found in costs.items():
        bags = [Counter(c) for c in found]
        out[hex_] = sorted(sorted(c) for c, bag in zip(found, bags, strict=True)
                           if not any(other != bag and not other - bag for other in bags))
    return out
