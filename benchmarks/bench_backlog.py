"""A backlog of due boards at start: the real bot, as its own process, restarted on N stored tables in play
that all owe their channel a board (a long Discord outage, then a restart), against the fake Discord on
127.0.0.1. Measured from the bot's start:

- connected: until the first answer to a command (``/game status`` sent every 0.2 s once the bot has
  identified);
- commands: for ``--seconds``, ``/game status`` (and every tenth a ``/game board``) to random tables at
  ``--rate`` a second; each one's latency from the interaction sent to the bot's first callback (median, p90,
  p99, max), and how many were not answered within Discord's 3 s; ``/game board`` also to its image;
- the event loop: the fake asks for a gateway heartbeat every second (Discord: 41.25 s), so the longest gap
  between two of the bot's heartbeats is the longest its event loop was blocked, plus one second;
- the drain: boards posted (channel messages with an attachment) per second, the time to the first and to the
  1,000th board (watched after the commands until the 1,000th, or ``--drain-seconds`` after connecting), and
  whether the first boards posted are the newest turns' (the players most likely waiting);
- the bot process's peak resident memory (VmHWM) and CPU time.

    .venv/bin/python benchmarks/bench_backlog.py [--tables 10000] [--seconds 30] [--bot-dir DIR]

``--bot-dir`` runs another checkout's bot (e.g. a ``git worktree add /tmp/pbc-old HEAD`` of the code before
a change) on the same data: the database's schema is made by that checkout's store, and the bot runs with
``PYTHONPATH`` set to it (this process keeps the fake Discord and the filling code of this checkout).

The database is filled directly: N copies of one real mid-game Trails snapshot (2 players, seated by two of
the fake's users so the boards' mentions resolve), each table in its own channel of one guild (the guild the
commands are synced to), every one with ``board_due = 1`` and the last turn's moves and events held for its
board. Their turns began at random times within the last 23 hours (the deadline is a day after), so the
newest turn is not the newest table; this turn's reminders were sent, and no deadline passes while measuring.
(One guild of N channels, where Discord allows 500: the bot's work on a table does not depend on its guild.)

The fake Discord runs in this process, the bot in its own: on a machine of few cores they share them, as
anything else running does; the bench prints the load average at its start and end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from tests.e2e.fake_discord import CapturedMessage, FakeChannel, FakeDiscord, FakeInteraction, FakeUser  # noqa: E402
from tests.e2e.fake_discord import server as fake_server  # noqa: E402
from tests.e2e.fake_discord.server import TOKEN, GatewaySession  # noqa: E402

DAY = 86400
HEARTBEAT_SECONDS = 1.0  # asked of the bot by the fake's HELLO
DISCORD_ANSWER_LIMIT = 3.0  # an interaction not answered by then fails in Discord's client
ANSWER_GRACE = 10.0  # after the commands: how long the last ones may still be answered
START_TIMEOUT = 300.0
BOARD_EVERY = 10  # every tenth command is a /game board (drawn, deferred first), the rest /game status
NEWEST = 100  # the first boards posted, compared with the newest turns
# The schema, made by the measured checkout's own store (its migrations).
SCHEMA = """
import asyncio, sys
from bot.store import SqliteStore

async def schema():
    store = SqliteStore(sys.argv[1])
    await store.open()
    await store.close()

asyncio.run(schema())
"""
# The bot's own entry point; the first line of its output says which checkout it runs.
LAUNCH = ("import sys, bot; print('bot package:', bot.__file__, flush=True); "
          "from bot.__main__ import main; sys.exit(main(['run']))")


# ---------------------------------------------------------------------------------------- the fake Discord

class QuickHeartbeats(GatewaySession):
    """A gateway session whose HELLO asks for a heartbeat every ``HEARTBEAT_SECONDS``; ``bench`` puts it in
    place of the fake's own class (the fake makes one per connection)."""

    async def send(self, op: int, data: Any = None, event: str | None = None) -> None:
        if op == 10:
            data = {"heartbeat_interval": int(HEARTBEAT_SECONDS * 1000)}
        await super().send(op, data, event)


class BacklogDiscord(FakeDiscord):
    """The fake Discord, noting the moments the benchmark measures as they happen: each interaction's first
    callback and first answer with an image, each board posted (a channel message with an attachment) and each
    heartbeat of the bot."""

    def __init__(self) -> None:
        super().__init__()
        self.answered_at: dict[int, float] = {}  # interaction id -> its first callback's arrival
        self.imaged_at: dict[int, float] = {}  # interaction id -> when an answer of it first had an image
        self.boards: list[tuple[float, int]] = []  # (when, channel id) of each board posted
        self.heartbeats: list[float] = []

    def _note_image(self, message: CapturedMessage) -> None:
        if message.interaction is not None and message.attachments and not message.loading:
            self.imaged_at.setdefault(message.interaction.id, time.monotonic())

    async def _interaction_callback(self, request: Any) -> Any:  # aiohttp's Request and StreamResponse
        with contextlib.suppress(ValueError):
            self.answered_at.setdefault(int(request.match_info["interaction_id"]), time.monotonic())
        return await super()._interaction_callback(request)

    def _store_message(
        self, channel: FakeChannel, author: FakeUser, body: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]], *, source: str, interaction: FakeInteraction | None = None,
        extra_flags: int = 0,
    ) -> CapturedMessage:
        message = super()._store_message(channel, author, body, files, source=source, interaction=interaction,
                                         extra_flags=extra_flags)
        if source == "channel" and message.attachments:
            self.boards.append((time.monotonic(), channel.id))
        self._note_image(message)
        return message

    def _edit(self, message: CapturedMessage, body: dict[str, Any],
              files: dict[int, tuple[str, bytes, str | None]]) -> None:
        super()._edit(message, body, files)
        self._note_image(message)  # a deferred answer's followup edits its "thinking" message

    async def _gateway_frame(self, session: GatewaySession, op: int, data: Any) -> None:
        if op == 1:
            self.heartbeats.append(time.monotonic())
        await super()._gateway_frame(session, op, data)


@dataclass
class World:
    guild_id: int
    players: list[FakeUser]  # the two seats of every table
    channels: list[FakeChannel]  # one per table


def build_world(fake: FakeDiscord, tables: int) -> World:
    """One guild with a channel per table (before the fake starts: GUILD_CREATE tells the bot of them)."""
    world = fake.world
    owner = world.add_user("owner")
    guild = world.add_guild("Backlog Club", owner=owner)
    players = [world.add_user("alice"), world.add_user("bob")]
    for user in players:
        world.add_member(guild, user)
    channels = [world.add_channel(guild, f"table-{n}") for n in range(1, tables + 1)]
    return World(guild.id, players, channels)


# ---------------------------------------------------------------------------------------- the database

def mid_game() -> tuple[str, int, list[Any]]:
    """A 2-player Trails game after 60 random actions (as bench_scale.py's snapshot) and on to the end of that
    turn: (the state as stored, its number of actions, the events the turn's board tells)."""
    game = registry.get("trails")
    state = game.setup(2, {}, 1)
    rng = random.Random(1)
    actions = 0
    while True:
        seat = game.to_act(state)[0]
        turn = game.turn_number(state)
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        events = game.apply(state, seat, action)
        actions += 1
        if actions >= 60 and game.turn_number(state) != turn:  # a turn confirmed: its board is due
            held = [[seat, "@move", {"notation": game.format(action)}]]
            held += [[seat, event.code, event.params] for event in events]
            return game.dumps(state), actions, held


def make_schema(bot_dir: Path, path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(bot_dir)}
    subprocess.run([sys.executable, "-c", SCHEMA, str(path)], env=env, cwd=path.parent, check=True)


def fill(path: Path, world: World, began: dict[int, float]) -> None:
    """Every table in play, its board due, its turn begun at ``began[channel id]`` (the deadline a day after)."""
    state, version, held = mid_game()
    alice, bob = world.players
    db = sqlite3.connect(path)
    db.executemany(
        "INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, host_id, seed, created_at,"
        " turn_seconds, deadline, reminders_sent, held_events, board_due, version)"
        " VALUES (?, ?, ?, 'trails', '{}', 'playing', ?, 1, ?, ?, ?, 2, ?, 1, ?)",
        [(n, world.guild_id, channel.id, alice.id, began[channel.id] - DAY, DAY, began[channel.id] + DAY,
          json.dumps(held), version) for n, channel in enumerate(world.channels, 1)])
    db.executemany("INSERT INTO seats (table_id, position, user_id, display) VALUES (?, ?, ?, ?)",
                   [(n, position, user.id, user.name.capitalize())
                    for n in range(1, len(world.channels) + 1) for position, user in enumerate((alice, bob))])
    db.executemany("INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)",
                   [(n, version, state) for n in range(1, len(world.channels) + 1)])
    db.commit()
    db.close()


# ---------------------------------------------------------------------------------------- the bot process

class BotProcess:
    """``python -m bot run`` of ``bot_dir`` in its own process (its own event loop and cores), output to a file."""

    def __init__(self, fake: FakeDiscord, bot_dir: Path, database: Path, guild_id: int, folder: Path) -> None:
        cleared = ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "HEALTH_FILE")
        self.env = {**{k: v for k, v in os.environ.items() if k not in cleared},
                    "PYTHONPATH": str(bot_dir), "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_base,
                    "DISCORD_GATEWAY_URL": fake.gateway_url, "DATABASE_PATH": str(database),
                    "DEV_GUILD_ID": str(guild_id), "LOG_LEVEL": "INFO"}
        self.folder = folder
        self.log = folder / "bot.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:  # cwd: a folder with no .env of a developer's
            self.process = subprocess.Popen([sys.executable, "-c", LAUNCH], env=self.env, cwd=self.folder,
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def usage(self) -> tuple[int, float]:
        """(peak resident bytes, CPU seconds user + system) of the running process; zeros if gone."""
        if not self.alive() or self.process is None:
            return 0, 0.0
        peak = 0
        with contextlib.suppress(OSError), open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) * 1024
        cpu = 0.0
        with contextlib.suppress(OSError), open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
        return peak, cpu

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the bot and any worker of its
            self.process.wait(10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


# ---------------------------------------------------------------------------------------- measuring

@dataclass
class Sent:
    kind: str  # status | board
    interaction: FakeInteraction | None = None  # None: the fake could not send it (the bot disconnected)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(value: float) -> str:
    if math.isinf(value):
        return "never"  # not answered by the end of the run
    return f"{value:.1f} s" if value >= 10 else f"{value * 1000:.0f} ms"


class Bench:
    def __init__(self, fake: BacklogDiscord, world: World, rng: random.Random) -> None:
        self.fake, self.world, self.rng = fake, world, rng
        self.tasks: list[asyncio.Task[None]] = []

    def send(self, kind: str) -> Sent:
        """A command to a random table by one of its players, sent as its own task (the fake's sending must not
        hold up the ones to follow when the bot reads its socket late)."""
        sent = Sent(kind)

        async def go() -> None:
            with contextlib.suppress(RuntimeError, ConnectionError):
                sent.interaction = await self.fake.slash(f"/game {kind}", user=self.rng.choice(self.world.players),
                                                         channel=self.rng.choice(self.world.channels))

        self.tasks.append(asyncio.create_task(go()))
        return sent

    def answered(self, sent: Sent) -> float | None:
        return None if sent.interaction is None else self.fake.answered_at.get(sent.interaction.id)

    def imaged(self, sent: Sent) -> float | None:
        return None if sent.interaction is None else self.fake.imaged_at.get(sent.interaction.id)

    def latency(self, sent: Sent, image: bool = False) -> float:
        """From the interaction sent to the bot's first callback (``image``: to its answer with the image)."""
        answered = self.imaged(sent) if image else self.answered(sent)
        if sent.interaction is None or answered is None:
            return math.inf
        return answered - sent.interaction.dispatched_at

    async def until_connected(self, bot: BotProcess, started: float, timeout: float) -> float:
        """When the first command was answered: commands are sent every 0.2 s once the bot has identified and
        synced them."""
        probes: list[Sent] = []
        while True:
            answers = [at for probe in probes if (at := self.answered(probe)) is not None]
            if answers:
                return min(answers)
            if not bot.alive():
                raise RuntimeError(f"the bot stopped before it answered a command:\n{bot.output()[-3000:]}")
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"no command answered {timeout:g} s after the bot's start:\n{bot.output()[-3000:]}")
            identified = any(session.identified for session in self.fake.sessions)
            if identified and self.fake.registered_commands(self.world.guild_id):
                probes.append(self.send("status"))
            await asyncio.sleep(0.2)

    async def commands(self, seconds: float, rate: float) -> list[Sent]:
        """``rate`` commands a second for ``seconds``, on a fixed schedule."""
        sent: list[Sent] = []
        begin = time.monotonic()
        for number in range(int(seconds * rate)):
            await asyncio.sleep(max(0.0, begin + number / rate - time.monotonic()))
            sent.append(self.send("board" if number % BOARD_EVERY == BOARD_EVERY - 1 else "status"))
        return sent

    async def answers(self, sent: list[Sent], within: float) -> None:
        """Until every command is answered (a /game board with its image), at most ``within`` seconds."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if all(self.answered(s) is not None and (s.kind != "board" or self.imaged(s) is not None) for s in sent):
                return
            await asyncio.sleep(0.05)

    async def drain(self, bot: BotProcess, boards: int, until: float) -> None:
        while len(self.fake.boards) < boards and time.monotonic() < until and bot.alive():
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=5)


def latency_line(label: str, values: list[float]) -> str:
    late = sum(1 for v in values if v > DISCORD_ANSWER_LIMIT)
    never = sum(1 for v in values if math.isinf(v))
    return (f"  {label:22} {len(values):4d} sent   median {ms(statistics.median(values))}   "
            f"p90 {ms(percentile(values, 0.9))}   p99 {ms(percentile(values, 0.99))}   "
            f"max {ms(max(values))};   {late} not answered within {DISCORD_ANSWER_LIMIT:g} s ({never} never)")


def report(args: argparse.Namespace, bench: Bench, bot: BotProcess, began: dict[int, float], started: float,
           connected: float, sent: list[Sent], usage: tuple[int, float], ended: float, loads: tuple[str, str]) -> None:
    fake = bench.fake
    first_line = bot.output().splitlines()[:1]
    print(f"backlog of {args.tables} due boards (2-player Trails, turns begun 0-23 h ago), "
          f"{first_line[0] if first_line else 'bot package: ?'}")
    print(f"  machine: {os.cpu_count()} cores, load average {loads[0]} at the start, {loads[1]} at the end")
    print(f"  connected: first command answered {connected - started:.1f} s after the bot's start")
    window = f"{args.seconds:g} s from then, {args.rate:g}/s"
    print(f"  commands ({window}; latency: interaction sent -> the bot's first callback):")
    status = [bench.latency(s) for s in sent if s.kind == "status"]
    board = [s for s in sent if s.kind == "board"]
    if status:
        print(latency_line("/game status", status))
    if board:
        print(latency_line("/game board (deferral)", [bench.latency(s) for s in board]))
        images = [bench.latency(s, image=True) for s in board]
        print(f"  {'/game board (image)':22} {len(images):4d} sent   median {ms(statistics.median(images))}   "
              f"max {ms(max(images))}")
    beats = [b for b in fake.heartbeats if b <= ended]
    if len(beats) >= 2:
        gaps = [later - earlier for earlier, later in zip(beats, beats[1:], strict=False)]
        worst = max(range(len(gaps)), key=gaps.__getitem__)
        print(f"  heartbeats (asked every {HEARTBEAT_SECONDS:g} s): {len(beats)}, longest gap {gaps[worst]:.1f} s "
              f"(ending {beats[worst + 1] - started:.1f} s after the start), "
              f"{sum(1 for g in gaps if g > HEARTBEAT_SECONDS + 1):d} gaps over {HEARTBEAT_SECONDS + 1:g} s "
              f"({sum(g for g in gaps if g > HEARTBEAT_SECONDS + 1):.1f} s in all)")
    boards = [(at, channel) for at, channel in fake.boards if at <= ended]
    in_window = sum(1 for at, _ in boards if connected <= at <= connected + args.seconds)
    print(f"  boards posted: {in_window} in the {args.seconds:g} s of commands ({in_window / args.seconds:.1f}/s); "
          f"{len(boards)} of {args.tables} by the end ({ended - started:.0f} s after the start)")
    if boards:
        first, last = boards[0][0], boards[-1][0]
        rate = (len(boards) - 1) / (last - first) if last > first else 0.0
        wanted = min(1000, args.tables)
        milestone = "1,000th" if wanted == 1000 else f"last ({wanted}th)"
        reached = (f"{boards[wanted - 1][0] - started:.1f} s" if len(boards) >= wanted
                   else f"not reached ({len(boards)} posted)")
        print(f"    first board {first - started:.1f} s after the start, the {milestone} {reached}; "
              f"{rate:.1f}/s from the first to the last")
        count = min(NEWEST, len(boards))
        newest = set(sorted(began, key=began.__getitem__, reverse=True)[:count])
        posted = [channel for _, channel in boards[:count]]
        hours = [(time.time() - began[c]) / 3600 for c in posted]
        print(f"    the first {count} boards: {sum(1 for c in posted if c in newest)} of them among the {count} "
              f"newest turns; their turns began {min(hours):.1f}-{max(hours):.1f} h ago "
              f"(median {statistics.median(hours):.1f} h; all tables: 0.0-23.0 h)")
    peak, cpu = usage
    print(f"  bot process: peak RSS {peak / 2**20:.0f} MiB, CPU {cpu:.1f} s (user + system)")
    lines = bot.output().splitlines()
    errors = [line for line in lines if " ERROR " in line]
    warnings = [line for line in lines if " WARNING " in line]
    print(f"  bot log: {len(errors)} errors, {len(warnings)} warnings"
          f" ({sum(1 for line in warnings if 'heartbeat blocked' in line)} 'heartbeat blocked')")
    for level, found in (("ERROR", errors), ("WARNING", warnings)):
        for line in list(dict.fromkeys(line.split(f" {level} ", 1)[-1][:150] for line in found))[:3]:
            print(f"    {level.lower()}: {line}")


async def bench(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    setattr(fake_server, "GatewaySession", QuickHeartbeats)  # noqa: B010  (a class of the fake's module)
    fake = BacklogDiscord()
    world = build_world(fake, args.tables)
    now = time.time()
    began = {channel.id: now - rng.uniform(60, 23 * 3600) for channel in world.channels}
    with tempfile.TemporaryDirectory(prefix="bench-backlog-") as name:
        folder = Path(name)
        database = folder / "backlog.sqlite3"
        make_schema(args.bot_dir, database)
        fill(database, world, began)
        await fake.start()
        bot = BotProcess(fake, args.bot_dir, database, world.guild_id, folder)
        measure = Bench(fake, world, rng)
        loads = f"{os.getloadavg()[0]:.1f}", ""
        started = time.monotonic()
        bot.start()
        try:
            connected = await measure.until_connected(bot, started, args.start_timeout)
            sent = await measure.commands(args.seconds, args.rate)
            await measure.answers(sent, ANSWER_GRACE)
            await measure.drain(bot, min(1000, args.tables), connected + args.drain_seconds)
            ended = time.monotonic()
            usage = bot.usage()
            loads = loads[0], f"{os.getloadavg()[0]:.1f}"
        finally:
            bot.kill()
            await measure.stop()
            await fake.stop()
        report(args, measure, bot, began, started, connected, sent, usage, ended, loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000, help="stored tables in play, each with a board due")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long commands are sent once connected")
    parser.add_argument("--rate", type=float, default=5.0, help="commands a second")
    parser.add_argument("--bot-dir", type=Path, default=ROOT, help="the checkout whose bot is run")
    parser.add_argument("--drain-seconds", type=float, default=180.0,
                        help="after connecting, how long the drain is watched at most for the 1,000th board")
    parser.add_argument("--start-timeout", type=float, default=START_TIMEOUT,
                        help="how long the bot may take to answer its first command")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.bot_dir = args.bot_dir.resolve()
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)  # posts cut short as the bot is killed
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
