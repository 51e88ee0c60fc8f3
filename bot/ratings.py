"""Ratings per server and game: openskill's Plackett-Luce model over each finished game's places.

A game is recorded once, when it ends (``record_finished``, started by the table service with the move that
ends it, which does not wait for it: ``TableService.results_recorded``) or, if the bot stopped in between, at
the next start (``catch_up``): the store marks the table recorded in the same transaction that writes the
results and the new ratings, so a retry or a restart never counts a game twice. Every finished game's results
are kept (games, wins, scores for ``/game stats``); ratings change only when at least two people played. A
built-in AI is rated as one player per level ("ai:hard"), so beating the hard AI means something.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from openskill.models import PlackettLuce

from bot.store import Seat, Store, TableRecord
from bot.store.base import SeatResult
from games import registry
from games.core import AnyGame

log = logging.getLogger(__name__)

MODEL = PlackettLuce()  # mu 25, sigma 25/3, as openskill defaults
NO_GUILD = 0  # tables outside a server (DMs) are rated together under guild 0
MIN_HUMANS = 2
AI_PREFIX = "ai:"


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown to players (openskill's ordinal: mu - 3 sigma, 0 for a newcomer)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def player_of(seat: Seat) -> str:
    """A seat's rated identity: the member, or the built-in AI of the seat's level."""
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    return f"{AI_PREFIX}{getattr(seat, 'ai_level', None) or 'normal'}"


def user_player(user_id: int) -> str:
    return f"user:{user_id}"


def seat_results(game: AnyGame, state: Any, seats: list[Seat]) -> list[SeatResult]:
    """Each seat's place (as ``game.result`` ranks it: ties share a place, eliminated seats come last) and
    score."""
    result = game.result(state)
    by_position = {s.position: s for s in seats}
    solo_won = bool(result.extra.get("won")) if len(seats) == 1 else False
    return [SeatResult(p.seat, player_of(by_position[p.seat]), by_position[p.seat].display, p.rank, p.score,
                       solo_won if len(seats) == 1 else p.rank == 1)
            for p in sorted(result.ranking, key=lambda p: p.seat)]


def humans(results: list[SeatResult]) -> int:
    return len({r.player for r in results if not r.player.startswith(AI_PREFIX)})


def rate(results: list[SeatResult], current: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) of every player of the game, each seat a team of one ranked by its place. An AI level
    seated more than once plays as copies of one rating; its new rating is the copies' mean."""
    teams = [[MODEL.rating(*current.get(r.player, (MODEL.mu, MODEL.sigma)), name=r.player)] for r in results]
    rated = MODEL.rate(teams, ranks=[float(r.place) for r in results])
    found: dict[str, list[tuple[float, float]]] = {}
    for r, [after] in zip(results, rated, strict=True):
        found.setdefault(r.player, []).append((after.mu, after.sigma))
    return {player: (sum(m for m, _ in values) / len(values), sum(s for _, s in values) / len(values))
            for player, values in found.items()}


async def record_finished(store: Store, record: TableRecord, game: AnyGame, state: Any) -> bool:
    """Record a finished game's results and, with two humans or more, rate it. ``False`` if it was recorded
    already (a retry, a restart). The store rates the game in the transaction that records it, on the ratings
    as the games recorded before it left them: two games ending at once are rated one after the other, and
    share one commit."""
    results = seat_results(game, state, record.seats)
    update = functools.partial(rate, results) if humans(results) >= MIN_HUMANS else None
    return await store.record_game(record.id, record.guild_id or NO_GUILD, record.game,
                                   record.finished_at or record.created_at, results, update)


async def catch_up(store: Store, owns_guild: Callable[[int | None], bool] = lambda guild_id: True) -> int:
    """Record the finished games not recorded yet (oldest first, so ratings follow the order games ended),
    from their final snapshot. Returns how many were recorded; a game that cannot be read is logged and
    skipped (it stays unrecorded). With shards, each process records its own guilds' games (``owns_guild``),
    so one server's ratings are updated by one process."""
    count = 0
    for record in await store.unrecorded_games():
        if not owns_guild(record.guild_id):
            continue
        try:
            game = registry.get(record.game)
            found = await store.snapshot(record.id)
            if found is None or record.load_error:
                continue
            count += await record_finished(store, record, game, game.from_json(json.loads(found[1])))
        except Exception:  # one unreadable table must not stop the others
            log.exception("could not record the results of table %s", record.id)
    return count
