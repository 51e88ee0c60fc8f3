"""Moves per second through the table service with the SQLite store (simulated games, no Discord), side by
side with the same moves on the bare engine, and the time of one commit: median and p99.

    python benchmarks/bench_table_service.py [--games 3] [--tables 50] [--repeats 5]

Each game is first played on the bare engine by random players; the service then plays exactly those moves,
committed as the bot commits them: a Trails turn (tile, figure, confirmation) is one commit, as the turn panel
sends it, and a Déole pick is one commit. The last column commits every step on its own (``/trails place``,
``figure``, ``confirm`` typed one by one).

Each commit is ``TableService.act``: the table's lock, the rules on the live state, and one commit (the moves
appended to the log, the clock; a snapshot every ``SNAPSHOT_EVERY`` moves) with ``synchronous=FULL``, so an
acknowledged move survives a power loss; and the bot's note that the board was posted, after each turn. Two
figures: one table at a time (each commit waits for its own fsync: latency), and ``--tables`` tables played
at once, as on a busy server (commits waiting together share one transaction and one fsync: throughput).

The engine's figures are the same moves applied again (``apply`` only, actions parsed beforehand): one game
after the other in a tight loop, and the same tables at once, a commit's moves of each in turn as the service
plays them. The second is the like-for-like measure for the service's tables at once: with fifty games in play
each state is cold in the processor's caches when its turn comes, which halves the bare engine's speed too.
Every rate is the best of ``--repeats`` runs (this machine's runs spread by a third). The ratio against the
engine's tables at once is the median of the rounds' own ratios (each round measures the engine, then the
service, seconds apart), with the lowest and highest (``rounds``).

Before each timed run with ``--tables`` at once, the service plays the same games once at other tables on the
same database, untimed, as a bot that has been running does: its log file at working size (SQLite reuses it
after a checkpoint; a new file's first thousand pages grow it), the notations already parsed. Garbage left
by earlier runs is collected before each timed run, the engine's as the service's.

Under the figures, where the fastest run with ``--tables`` at once spent its time: the store's batches (SQLite's
statements and commits, run on the event loop) and of that the commits alone (the disk sync), as shares of the
run (one run's own figures, so they compare across runs better than the ratios do), with the batches' number,
their writes, and their milliseconds each.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import SqliteStore  # noqa: E402
from bot.tables import MoveOutcome, TableService, tune_garbage_collector, turn_key  # noqa: E402
from games import registry  # noqa: E402

# (game, players, options, a whole turn per commit)
CASES = (("trails", 2, {}, True), ("trails", 4, {"expansions": "river,inns,traders"}, True),
         ("deole", 2, {}, False))


@dataclass
class Recorded:
    """A random game played on the bare engine: its commits (seat, notations, in order) and its moves."""

    seed: int
    commits: list[tuple[int, list[str]]]
    moves: int


def record_game(game_key: str, players: int, options: dict[str, str], seed: int, per_turn: bool) -> Recorded:
    """Play one random game on the bare engine, grouping the steps of a turn when ``per_turn``."""
    game = registry.get(game_key)
    state = game.setup(players, options, seed)
    rng = random.Random(seed)
    commits: list[tuple[int, list[str]]] = []
    open_turn = False  # whether the last commit's turn goes on
    moves = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        before = turn_key(game, state)
        # Players who never take a step back: a turn is what the panel sends (tile, figure, confirmation).
        legal = game.legal_actions(state, seat)
        action = rng.choice([a for a in legal if game.format(a) != "undo"] or legal)
        game.apply(state, seat, action)
        moves += 1
        if per_turn and open_turn and commits[-1][0] == seat:
            commits[-1][1].append(game.format(action))
        else:
            commits.append((seat, [game.format(action)]))
        open_turn = not game.is_over(state) and turn_key(game, state) == before
    return Recorded(seed, commits, moves)


def engine_rate(game_key: str, players: int, options: dict[str, str], games: list[Recorded], repeats: int,
                at_once: bool = False) -> float:
    """Moves per second of the bare engine over the recorded games (``apply`` only, the actions parsed
    beforehand), the best of ``repeats`` runs, as the service's figure is. One game after the other in a tight
    loop, or ``at_once``: every game a commit's moves in turn, round after round, as the service plays its
    tables at once (each game's state goes cold in the processor's caches while the others move, which costs
    the engine alone about half its speed: the fair measure of what the service adds)."""
    game = registry.get(game_key)
    plays = [[(seat, [game.parse(text) for text in texts]) for seat, texts in recorded.commits] for recorded in games]
    best = float("inf")
    for _ in range(repeats):
        states = [game.setup(players, options, recorded.seed) for recorded in games]
        gc.collect()  # as before the service's runs
        spent = 0.0
        if at_once:
            for round_ in range(max(len(commits) for commits in plays)):
                start = time.perf_counter()
                for state, commits in zip(states, plays, strict=True):
                    if round_ < len(commits):
                        seat, actions = commits[round_]
                        for action in actions:
                            game.apply(state, seat, action)
                spent += time.perf_counter() - start
        else:
            for state, commits in zip(states, plays, strict=True):
                start = time.perf_counter()
                for seat, actions in commits:
                    for action in actions:
                        game.apply(state, seat, action)
                spent += time.perf_counter() - start
        best = min(best, spent)
    return sum(recorded.moves for recorded in games) / best


def one_step_each(game: Recorded) -> Recorded:
    """The same game with every step committed on its own."""
    steps = [(seat, [text]) for seat, texts in game.commits for text in texts]
    return Recorded(game.seed, steps, game.moves)


async def posted(service: TableService, outcome: MoveOutcome) -> None:
    """What the bot does once a turn's board is in the channel: what it told is forgotten."""
    if outcome.announce and not outcome.finished:
        await service.board_posted(outcome.table, len(outcome.table.record.held_events), outcome.table.version)


async def open_table(service: TableService, game_key: str, players: int, options: dict[str, str], seed: int,
                     channel: int | None = None) -> int:
    """A table (seeded as the engine's game) with ``players`` seated (users 1..n) and started; its channel."""
    channel = 1000 + seed if channel is None else channel
    await service.create(1, channel, game_key, 1, "p1", options, seed=seed)
    for user in range(2, players + 1):
        await service.join(channel, user, f"p{user}")
    await service.start(channel, 1)
    return channel


async def replay(service: TableService, channel: int, game: Recorded, durations: list[float] | None) -> int:
    """Commit the recorded game's moves at the table; the number of moves."""
    table = service.tables[channel]
    users = {seat.position: seat.user_id for seat in table.seats}
    for seat, notations in game.commits:
        before = time.perf_counter()
        outcome = await service.act(channel, users[seat] or 0, notations)
        await posted(service, outcome)
        if durations is not None:
            durations.append(time.perf_counter() - before)
    assert channel not in service.tables, "the recorded game ends at the table too"
    return game.moves


async def through_service(game_key: str, players: int, options: dict[str, str],
                          games: list[Recorded]) -> tuple[int, float, list[float]]:
    """(moves, seconds, seconds per commit) of the games played one table at a time."""
    durations: list[float] = []
    moves = 0
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.sqlite3"))
        await store.open()
        service = TableService(store)
        for game in games:
            channel = await open_table(service, game_key, players, options, game.seed)
            moves += await replay(service, channel, game, durations)
        await service.results_recorded()
        await store.close()
    return moves, sum(durations), durations


@dataclass
class Run:
    """The games played at once: moves, seconds, and of those seconds the store's batches (SQLite's statements
    and commits, on the event loop) and their commits alone (the disk sync); the batches' count and writes."""

    moves: int
    seconds: float
    store_seconds: float
    sync_seconds: float
    batches: int
    writes: int

    @property
    def rate(self) -> float:
        return self.moves / self.seconds


async def play_at_once(service: TableService, tables: list[tuple[int, Recorded]]) -> int:
    """The games played at once, each table by its own task, and their results recorded; the moves."""
    counts = await asyncio.gather(*(replay(service, channel, game, None) for channel, game in tables))
    await service.results_recorded()  # the finished games' results are the service's work too
    return sum(counts)


async def concurrent_service(game_key: str, players: int, options: dict[str, str], games: list[Recorded],
                             warm: bool = True) -> Run:
    """The games played at once through one service, each table by its own task."""
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.sqlite3"))
        await store.open()
        service = TableService(store)
        if warm:  # the same games played once before, elsewhere: the store and the service as a running bot's
            await play_at_once(service, [(await open_table(service, game_key, players, options, game.seed,
                                                           channel=10**6 + number), game)
                                         for number, game in enumerate(games)])
        channels = [await open_table(service, game_key, players, options, game.seed) for game in games]
        gc.collect()  # what earlier runs left is not this run's work
        before = dataclasses.replace(store.write_stats)
        started = time.perf_counter()
        moves = await play_at_once(service, list(zip(channels, games, strict=True)))
        seconds = time.perf_counter() - started
        after = store.write_stats
        await store.close()
    return Run(moves, seconds, after.seconds - before.seconds, after.syncing - before.syncing,
               after.batches - before.batches, after.jobs - before.jobs)


def best_of(repeats: int, game_key: str, players: int, options: dict[str, str], games: list[Recorded]) -> Run:
    """The fastest of ``repeats`` runs of the games played at once (a fresh database each): what the service
    can do when nothing else on the machine gets in its way."""
    return max((asyncio.run(concurrent_service(game_key, players, options, games)) for _ in range(repeats)),
               key=lambda run: run.rate)


def _spread(ratios: list[float]) -> str:
    """The lowest and highest of the rounds' ratios."""
    return f"{min(ratios):.1f}-{max(ratios):.1f}x"


def rows(games: int, tables: int, repeats: int = 5) -> list[str]:
    """The table of figures, one line per game (used by ``run_all.py`` too). The process collects garbage as the
    bot does (``tune_garbage_collector``), for the engine's figures as for the service's."""
    tune_garbage_collector()
    runs: list[tuple[str, Run]] = []
    lines = [f"{'game':<30} {'engine':>8} {'1 table':>8} {'ratio':>6} {'per commit, p99':>19} | {'engine':>8} "
             f"{f'{tables} tables':>10} {'ratio':>6} {'rounds':>9} {'vs 1 game':>9} {'one step a commit':>18} "
             f"{'ratio':>6} {'rounds':>9}"]
    for game_key, players, options, per_turn in CASES:
        recorded = [record_game(game_key, players, options, seed, per_turn) for seed in range(max(games, tables))]
        moves, seconds, durations = asyncio.run(through_service(game_key, players, options, recorded[:games]))
        alone = moves / seconds
        # The figures compared are measured in turns, round after round: this machine's speed drifts by a third
        # within a minute, and a ratio of figures taken minutes apart would measure the drift. The rates are
        # each the best of their rounds; a ratio is the median of the rounds' own ratios (the engine and the
        # service measured seconds apart), with their range: under drift, a ratio of two bests is decided by
        # whichever got the luckier round.
        engine = engine_at_once = steps = 0.0
        fastest: Run | None = None
        ratios: list[float] = []
        step_ratios: list[float] = []
        for _ in range(repeats):
            engine = max(engine, engine_rate(game_key, players, options, recorded[:tables], 1))
            at_once = engine_rate(game_key, players, options, recorded[:tables], 1, at_once=True)
            engine_at_once = max(engine_at_once, at_once)
            run = best_of(1, game_key, players, options, recorded[:tables])
            fastest = run if fastest is None or run.rate > fastest.rate else fastest
            ratios.append(at_once / run.rate)
            if per_turn:
                one_step = best_of(1, game_key, players, options, [one_step_each(g) for g in recorded[:tables]])
                steps = max(steps, one_step.rate)
                step_ratios.append(at_once / one_step.rate)
        assert fastest is not None
        busy = fastest.rate
        steps = steps or busy
        step_ratios = step_ratios or ratios
        label = f"{game_key} {players}p {','.join(options.values()) or 'base'}"
        runs.append((label, fastest))
        durations.sort()
        p99 = durations[min(len(durations) - 1, int(len(durations) * 0.99))]
        lines.append(f"{label:<30} {engine:8.0f} {alone:8.0f} {engine / alone:5.0f}x "
                     f"{statistics.median(durations) * 1000:6.2f}, {p99 * 1000:5.2f} ms | {engine_at_once:8.0f} "
                     f"{busy:10.0f} {statistics.median(ratios):5.1f}x {_spread(ratios):>9} {engine / busy:8.1f}x "
                     f"{steps:18.0f} {statistics.median(step_ratios):5.1f}x {_spread(step_ratios):>9}")
    # Where the fastest run's time went: the store's batches run on the event loop, and the tables move in
    # step (each waits for its commit), so a batch's time is on every table's path.
    lines.append("")
    lines.append(f"{f'{tables} tables at once':<30} {'store':>8} {'of it sync':>10} {'batches':>8} "
                 f"{'writes each':>11} {'ms a batch':>10} {'sync ms':>8}")
    for label, run in runs:
        lines.append(f"{label:<30} {run.store_seconds / run.seconds:8.0%} {run.sync_seconds / run.seconds:10.0%} "
                     f"{run.batches:8d} {run.writes / max(run.batches, 1):11.0f} "
                     f"{run.store_seconds / max(run.batches, 1) * 1000:10.2f} "
                     f"{run.sync_seconds / max(run.batches, 1) * 1000:8.2f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3, help="games played one table at a time")
    parser.add_argument("--tables", type=int, default=50, help="tables played at once")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each figure (the best is shown)")
    args = parser.parse_args()
    print("\n".join(rows(args.games, args.tables, args.repeats)))


if __name__ == "__main__":
    main()
