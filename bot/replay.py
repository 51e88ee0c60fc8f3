"""Game records and replays: a finished game as a JSON file anyone can download (game, options, seed, seats,
every move in notation, the rules version), and every position rebuilt from it.

Engines are deterministic: the seed and the moves give back every position. A record made under rules the
engine no longer plays (its ``rules_version`` differs) is refused with a clear reason instead of being shown
wrong; so is a record that is not one, or whose moves the engine refuses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from bot.i18n import t
from bot.store import TableRecord
from bot.tables import ELIMINATED, turn_key
from games import registry
from games.core import AnyGame, IllegalAction

RECORD_FORMAT = "play-by-chat game record"
RECORD_VERSION = 1


class RecordError(Exception):
    """A record that cannot be replayed; ``code`` is localised as ``replay.error.<code>``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


def game_record(record: TableRecord, moves: list[tuple[int, int, str, float]]) -> dict[str, Any]:
    """The record of a table's game. Made of finished games only: the seed tells the whole deck order."""
    seats = [{"position": s.position, "name": s.display, "ai": s.is_ai,
              **({"ai_level": getattr(s, "ai_level", None) or "normal"} if s.is_ai else {})}
             for s in sorted(record.seats, key=lambda s: s.position)]
    data = new_record(record.game, record.options, record.seed, seats,
                      [(seq, seat, notation) for seq, seat, notation, _at in moves])
    data.update(table=record.id, finished_at=record.finished_at)
    return data


def new_record(key: str, options: dict[str, Any], seed: int, seats: list[dict[str, Any]],
               moves: list[tuple[int, int, str]]) -> dict[str, Any]:
    """A record from its parts: ``seats`` as ``{"position", "name", "ai"}``, ``moves`` as (seq, seat,
    notation)."""
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": key,
            "rules_version": registry.get(key).rules_version, "options": options, "seed": seed, "seats": seats,
            "moves": [{"seq": seq, "seat": seat, "move": notation} for seq, seat, notation in moves]}


def record_json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def check_record(data: Any) -> AnyGame:
    """The engine that replays ``data``; ``RecordError`` if it is not a record this bot can replay."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError("not_a_record")
    if data.get("version") != RECORD_VERSION:
        raise RecordError("record_version", version=str(data.get("version"))[:20], supported=RECORD_VERSION)
    key = data.get("game")
    if not isinstance(key, str) or not registry.has(key):
        raise RecordError("unknown_game", game=str(key)[:40])
    game = registry.get(key)
    if data.get("rules_version") != game.rules_version:
        raise RecordError("rules_version", game=key, version=str(data.get("rules_version"))[:20],
                          current=game.rules_version)
    seats, moves = data.get("seats"), data.get("moves")
    if not (isinstance(seats, list) and seats and isinstance(moves, list) and isinstance(data.get("options"), dict)
            and isinstance(data.get("seed"), int)
            and all(isinstance(m, dict) and isinstance(m.get("seat"), int) and 0 <= m["seat"] < len(seats)
                    and isinstance(m.get("move"), str) for m in moves)):
        raise RecordError("malformed")
    return game


def turn_states(data: dict[str, Any]) -> Iterator[tuple[AnyGame, Any]]:
    """The game and its state at the start and at the end of every turn (whenever the seats to act or the
    turn number change, and at the end): one position per turn, as the board posts showed them. The same
    state object is yielded each time, changed in between: read it before the next. ``RecordError`` if a
    move does not replay."""
    game = check_record(data)
    try:
        state = game.setup(len(data["seats"]), data["options"], int(data["seed"]))
    except IllegalAction as error:
        raise RecordError("does_not_replay", seq=0, move="setup", reason=error.code) from None
    yield game, state
    for move in data["moves"]:
        seat, notation = move["seat"], move["move"]
        before = turn_key(game, state)
        try:
            if notation == ELIMINATED:
                game.eliminate(state, seat)
            elif not notation.startswith("@"):  # "@replaced_by_ai" changes nothing in the game
                game.apply(state, seat, game.parse(notation))
        except IllegalAction as error:
            raise RecordError("does_not_replay", seq=move.get("seq", "?"), move=notation[:100],
                              reason=error.code) from None
        if turn_key(game, state) != before or game.is_over(state):
            yield game, state


def replay_views(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The spectators' view of every position of ``turn_states`` (copies: safe to keep)."""
    return [json.loads(json.dumps(game.view(state, None))) for game, state in turn_states(data)]


def final_state(data: dict[str, Any]) -> Any:
    """The position after the last move."""
    last: Any = None
    for _game, state in turn_states(data):
        last = state
    return last


def frame_captions(count: int, locale: str = "en") -> list[str]:
    """The turn counter of each of ``count`` replay frames (the start, then the end of every turn), in
    ``locale``: "Start · 71 turns", "Turn 1 of 71", ..."""
    turns = count - 1
    return [t(locale, "replay.frame_start", turns=t(locale, "replay.turns", count=turns)) if number == 0
            else t(locale, "replay.frame", turn=number, turns=turns) for number in range(count)]
