"""Where AI seats think, off the event loop: a pool of worker processes for ``hard``, a thread for the rest."""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from games import registry
from games.ai import DEFAULT_LEVEL, forward_actions, make_player, plan_of
from games.core import AnyGame

log = logging.getLogger("bot.tables")  # the table service's log, as before it was split in modules

HARD_AI_SECONDS = 0.8  # the search budget of a hard AI's decision (it stops at the first check past it)
AI_WORKER_GRACE = 10.0  # beyond the budget, before a late worker is given up for a normal decision


def think_in_worker(key: str, level: str, seed: int, state_json: str, seat: int, seconds: float) -> list[str]:
    """An AI decision in a worker process: the state as the engine's JSON in, the notation of the steps it
    means to play out (the rest of its turn if it plans one, else one step)."""
    game = registry.get(key)
    state = game.from_json(json.loads(state_json))
    end = time.monotonic() + seconds
    player = make_player(key, level, seed, deadline=lambda: time.monotonic() >= end)
    return [game.format(action) for action in plan_of(player, game, state, seat)]


class AIThinker:
    """Where AI seats think, off the event loop: ``hard`` searches in a pool of worker processes (one per
    CPU, started on first use; the state goes as JSON) with a deadline per decision, so no table waits for
    another's AI; the lighter levels in a thread. ``worker`` is the function the processes run."""

    def __init__(self, processes: int | None = None, hard_seconds: float = HARD_AI_SECONDS,
                 worker: Callable[[str, str, int, str, int, float], list[str]] = think_in_worker) -> None:
        self.processes = processes or os.cpu_count() or 1
        self.hard_seconds = hard_seconds
        self.worker = worker
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            # forkserver: a clean process to fork from, not this one with its threads and open database
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("forkserver"))
        return self._pool

    async def steps(self, game: AnyGame, state: Any, seat: int, level: str, seed: int) -> list[Any]:
        """The steps the AI of ``seat`` means to play, the first legal now (the caller checks the others as it
        plays them). The state is only read (nothing changes it while the table is locked). A worker that
        fails or misses its deadline is logged and a normal decision is played instead."""
        if level == "hard" and len(forward_actions(game, state, seat)) > 1:
            text = game.dumps(state)
            loop = asyncio.get_running_loop()
            try:
                notations = await asyncio.wait_for(
                    loop.run_in_executor(self._executor(), self.worker, game.key, level, seed, text, seat,
                                         self.hard_seconds),
                    self.hard_seconds + AI_WORKER_GRACE)
                actions = [game.parse(notation) for notation in notations]
                if actions and actions[0] in game.legal_actions(state, seat):
                    return actions
                log.error("%s: the hard AI chose %r, not a legal action; normal plays", game.key, notations)
            except Exception as error:  # a broken pool, a worker past its deadline: the table goes on
                log.error("%s: the hard AI failed (%s: %s); normal plays", game.key, type(error).__name__, error)
            level = DEFAULT_LEVEL
        player = make_player(game.key, level, seed)
        return [await asyncio.to_thread(player.choose, game, state, seat)]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
