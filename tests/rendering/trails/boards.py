"""Public views for renderer tests, examples and the benchmark.

``game_view`` plays a real game with random AI up to a number of tiles; ``matched_view`` lays tiles with
matching edges without the engine's rules (quick, any size); ``grid_view`` just fills a rectangle, for
size limits.
"""

from __future__ import annotations

import random
from typing import Any

from games.ai import RandomAI
from games.registry import get
from rendering.trails.data import tile_types

STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
COLORS = ["red", "blue", "green", "yellow", "black", "purple"]


def _edge(tile_id: str, rot: int, direction: int) -> str:
    return tile_types()[tile_id].edges[(direction - rot) % 4]


def _fits(board: dict[tuple[int, int], tuple[str, int]], tile_id: str, x: int, y: int, rot: int) -> bool:
    touching = 0
    for direction, (dx, dy) in STEP.items():
        other = board.get((x + dx, y + dy))
        if other is None:
            continue
        touching += 1
        if _edge(tile_id, rot, direction) != _edge(other[0], other[1], (direction + 2) % 4):
            return False
    return touching > 0


def legal_spots(board: dict[tuple[int, int], tuple[str, int]], tile_id: str) -> dict[tuple[int, int], list[int]]:
    frontier = {(x + dx, y + dy) for (x, y) in board for dx, dy in STEP.values()} - set(board)
    spots: dict[tuple[int, int], list[int]] = {}
    for x, y in sorted(frontier):
        rots = [r for r in range(4) if _fits(board, tile_id, x, y, r)]
        if rots:
            spots[(x, y)] = rots
    return spots


def _features(tile_id: str) -> list[str]:
    tile = tile_types()[tile_id]
    return ([f"city:{i}" for i in range(len(tile.cities))] + [f"road:{i}" for i in range(len(tile.roads))]
            + [f"field:{i}" for i in range(len(tile.fields))] + ["monastery"] * tile.monastery)


def matched_view(n_tiles: int, seed: int = 1, players: int = 4,
                 expansions: tuple[str, ...] = ("river", "inns", "traders")) -> dict[str, Any]:
    rng = random.Random(seed)
    types = tile_types()
    river = [t for t in types.values() if t.expansion == "river" and not t.spring and not t.lake]
    land = [t for t in types.values() if t.expansion in ("base",) + expansions and t.expansion != "river"]
    river_bag = [t.id for t in river for _ in range(t.count)] if "river" in expansions else []
    rng.shuffle(river_bag)
    land_bag = [t.id for t in land for _ in range(t.count)]
    rng.shuffle(land_bag)
    start = "RI-A" if "river" in expansions else "BA-D"
    if "river" not in expansions:
        land_bag.remove("BA-D")
    else:
        land_bag.remove("BA-D")  # the spring replaces the start tile
        river_bag.append("RI-L")
    board: dict[tuple[int, int], tuple[str, int]] = {(0, 0): (start, 0)}
    order = [(0, 0)]
    bag = river_bag + land_bag
    while bag and len(board) < n_tiles:
        tile_id = bag.pop(0)
        spots = legal_spots(board, tile_id)
        if types[tile_id].expansion == "river":
            # Keep the river a line: the new piece must continue the open water.
            spots = {p: [r for r in rs if _continues_river(board, tile_id, p, r)] for p, rs in spots.items()}
            spots = {p: rs for p, rs in spots.items() if rs}
        if not spots:
            continue
        # Prefer snug spots so the board grows compactly, like people play.
        best = max(spots, key=lambda p: (sum((p[0] + dx, p[1] + dy) in board for dx, dy in STEP.values()),
                                         rng.random()))
        board[best] = (tile_id, rng.choice(spots[best]))
        order.append(best)
    figures = []
    for index, pos in enumerate(order[1:], start=1):
        if rng.random() < 0.3:
            tile_id = board[pos][0]
            kind = rng.choice(["normal"] * 8 + ["big", "builder", "keeper"])
            figures.append({"seat": index % players, "x": pos[0], "y": pos[1], "kind": kind,
                            "feature": rng.choice(_features(tile_id))})
    next_tile = bag[0] if bag else None
    spots = legal_spots(board, next_tile) if next_tile else {}
    view = {
        "game": "trails",
        "players": [
            {"seat": s, "color": COLORS[s], "score": rng.randrange(0, 12 + n_tiles), "figures_left": rng.randrange(0, 8),
             "big_left": 1, "builder_left": rng.randrange(2), "keeper_left": rng.randrange(2),
             "goods": {"honey": rng.randrange(4), "grain": rng.randrange(3), "flax": rng.randrange(3)},
             "eliminated": False}
            for s in range(players)
        ],
        "board": [{"x": x, "y": y, "tile": t, "rot": r} for (x, y), (t, r) in board.items()],
        "figures": figures,
        "turn": None if next_tile is None else {
            "seat": len(order) % players, "tile": next_tile, "placed": None,
            "legal_positions": [list(p) for p in spots],
            "legal_rotations": {f"{x},{y}": rs for (x, y), rs in spots.items()}, "phase": "place"},
        "remaining": len(bag),
        "set_aside": [],
        "last_placed": list(order[-1]),
        "options": {"expansions": list(expansions)},
    }
    return view


def _continues_river(board, tile_id: str, pos: tuple[int, int], rot: int) -> bool:
    for direction, (dx, dy) in STEP.items():
        other = board.get((pos[0] + dx, pos[1] + dy))
        if other and _edge(tile_id, rot, direction) == "~":
            return True
    return False


def grid_view(n_tiles: int, columns: int, seed: int = 1, players: int = 6) -> dict[str, Any]:
    """A rectangle of arbitrary tiles (edges need not match) with a figure on every third tile."""
    rng = random.Random(seed)
    ids = sorted(tile_types())
    board = []
    figures = []
    for i in range(n_tiles):
        x, y = i % columns, i // columns
        tile_id = rng.choice(ids)
        board.append({"x": x, "y": y, "tile": tile_id, "rot": rng.randrange(4)})
        if i % 3 == 0:
            figures.append({"seat": i % players, "x": x, "y": y, "kind": rng.choice(["normal", "big", "builder", "keeper"]),
                            "feature": rng.choice(_features(tile_id))})
    rows = (n_tiles + columns - 1) // columns
    legal = [[x, -1] for x in range(columns)] + [[columns, y] for y in range(rows)]
    return {
        "game": "trails",
        "players": [{"seat": s, "color": COLORS[s], "score": 10 * s, "figures_left": 7 - s, "big_left": 1,
                     "builder_left": 1, "keeper_left": 0, "goods": {"honey": s, "grain": 1, "flax": 0},
                     "eliminated": s == 5} for s in range(players)],
        "board": board,
        "figures": figures,
        "turn": {"seat": 0, "tile": "BA-D", "placed": None, "legal_positions": legal,
                 "legal_rotations": {f"{x},{y}": [0] for x, y in legal}, "phase": "place"},
        "remaining": 0,
        "set_aside": [],
        "last_placed": [0, 0],
        "options": {},
    }


def game_view(tiles: int | None, seed: int = 1, players: int = 4,
              expansions: tuple[str, ...] = ("river", "inns", "traders")) -> dict[str, Any]:
    """The public view of a real game played by random AI until ``tiles`` tiles lie on the board
    (``None``: to the end), stopping at the start of a turn."""
    game = get("trails")
    state = game.setup(players, {"expansions": ",".join(expansions)}, seed)
    ai = RandomAI(seed)
    while not game.is_over(state):
        view = game.view(state, None)
        if tiles is not None and len(view["board"]) >= tiles and view["turn"]["phase"] == "place":
            return view
        seat = game.to_act(state)[0]
        game.apply(state, seat, ai.choose(game, state, seat))
    return game.view(state, None)
