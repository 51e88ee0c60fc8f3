"""Two bot processes (``python -m bot run``, shards 0 and 1 of 2) on one PostgreSQL database, against the fake
Discord routing each guild's events and interactions to its shard: a game in a guild of each shard played to
the end, the process of shard 1 killed (SIGKILL) right after a move and restarted; nothing is lost, and each
table is clocked by its own shard's process only."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg

from tests.pg import pg_database, pg_url  # noqa: F401  (fixtures)

from .fake_discord import FakeChannel, FakeDiscord, FakeUser
from .fake_discord.server import TOKEN

ROOT = Path(__file__).resolve().parents[2]
# The bot's own entry point, with the tests' small game registered first (a real game's boards would only make
# the test longer; the sharding under test is the same).
LAUNCH = ("import sys; from games import registry; from games.registry import GameEntry; "
          "registry.register(GameEntry('nim', 'tests.nim:GAME', 'rendering:render_text_card', catalogs='tests')); "
          "from bot.__main__ import main; sys.exit(main(['run']))")
START_TIMEOUT = 60.0
PILE = 7


class ShardProcess:
    """One bot process running shard ``shard_id`` of 2; its output kept in a file for the failure message."""

    def __init__(self, fake: FakeDiscord, database: str, shard_id: int, folder: Path) -> None:
        self.shard_id = shard_id
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN,
                    "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY_URL": fake.gateway_url,
                    "DATABASE_URL": database, "SHARD_COUNT": "2", "SHARD_IDS": str(shard_id), "LOG_LEVEL": "INFO"}
        self.folder = folder
        self.log = folder / f"shard{shard_id}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:  # cwd: a folder with no .env of a developer's
            self.process = subprocess.Popen([sys.executable, "-c", LAUNCH], env=self.env, cwd=self.folder,
                                            stdout=out, stderr=subprocess.STDOUT)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL: no clean shutdown, as a crash or an OOM kill
            self.process.wait(10)
        self.process = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


async def until(check: Any, what: str, processes: list[ShardProcess], timeout: float = START_TIMEOUT) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > deadline:
            logs = "\n".join(f"--- shard {p.shard_id}:\n{p.output()}" for p in processes)
            raise TimeoutError(f"timed out waiting for {what}\n{logs}")
        await asyncio.sleep(0.05)


async def test_two_shard_processes_one_database_a_crash_and_a_restart(
    fake: FakeDiscord, pg_url: str, tmp_path: Path,  # noqa: F811  (the fixture imported above)
) -> None:
    world = fake.world
    alice, bob = world.add_user("alice2"), world.add_user("bob2")
    channels: list[FakeChannel] = []
    for shard_id in (0, 1):
        guild = world.add_guild(f"Shard {shard_id} club", owner=alice, shard=(shard_id, 2))
        assert (guild.id >> 22) % 2 == shard_id
        world.add_member(guild, bob)
        channels.append(world.add_channel(guild, "games"))
    users = {alice.id: alice, bob.id: bob}

    processes = [ShardProcess(fake, pg_url, shard_id, tmp_path) for shard_id in (0, 1)]
    db = await asyncpg.connect(pg_url)
    try:
        for process in processes:
            process.start()
        await fake.wait_for_shards(2, timeout=START_TIMEOUT)
        await until(lambda: _true(bool(fake.global_commands)), "the commands to be synced", processes)

        async def table_id(channel: FakeChannel) -> int:
            return await db.fetchval("SELECT id FROM game_tables WHERE channel_id = $1", channel.id)

        async def logged(channel: FakeChannel) -> list[tuple[int, str]]:
            rows = await db.fetch("SELECT seat, action FROM moves WHERE table_id = $1 ORDER BY seq",
                                  await table_id(channel))
            return [(row[0], row[1]) for row in rows]

        async def board_after(channel: FakeChannel, mark: int) -> Any:
            return await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral,
                                               after=mark, timeout=START_TIMEOUT)

        async def move(channel: FakeChannel, user: FakeUser, action: str) -> Any:
            """A move by ``user``; returns the private answer, given once the move is committed."""
            reply = await (await fake.slash("/game move", user=user, channel=channel, action=action)).reply()
            assert reply.ephemeral and "on the board" in reply.content, reply.content
            return reply

        # A table in a guild of each shard, each answered by its own shard's process.
        boards = {}
        for channel in channels:
            lobby = await (await fake.slash("/game new", user=alice, channel=channel,
                                            options={"game": "nim", "options": f"pile={PILE}"})).reply()
            await (await fake.click(lobby, "pbc:lobby:join", user=bob)).response()
            mark = fake.mark()
            await fake.click(lobby, "pbc:lobby:start", user=alice)
            boards[channel.id] = await board_after(channel, mark)
        sent: dict[int, list[tuple[int, str]]] = {channel.id: [] for channel in channels}

        async def play(channel: FakeChannel, count: int) -> Any:
            board = boards[channel.id]
            for _ in range(count):
                user = users[board.mentions[0]]
                mark = fake.mark()
                await move(channel, user, "take 1")
                sent[channel.id].append((0 if user is alice else 1, "take 1"))
                board = boards[channel.id] = await board_after(channel, mark)
            return board

        await asyncio.gather(*(play(channel, 2) for channel in channels))

        # Shard 1's process dies right after a move is committed, before or while its board is posted.
        user = users[boards[channels[1].id].mentions[0]]
        mark = fake.mark()
        await move(channels[1], user, "take 1")
        sent[channels[1].id].append((0 if user is alice else 1, "take 1"))
        processes[1].kill()
        # Shard 0 plays on meanwhile.
        await play(channels[0], 1)
        # Both turns' deadlines pass in the database while shard 1 is down: the restarted shard 1 must play
        # the timeout of its own table once, and never touch shard 0's table (whose process keeps its clock).
        await db.execute("UPDATE game_tables SET deadline = $1 WHERE status = 'playing'", time.time() - 1)
        before = {channel.id: len(await logged(channel)) for channel in channels}
        processes[1].start()
        await fake.wait_for_shards(2, timeout=START_TIMEOUT)

        async def timed_out() -> bool:
            return len(await logged(channels[1])) == before[channels[1].id] + 1

        await until(timed_out, "shard 1 to play its table's timeout", processes)
        to_move = 1 - sent[channels[1].id][-1][0]
        sent[channels[1].id].append((to_move, "take 1"))  # the default action of the one who missed the turn
        boards[channels[1].id] = await fake.wait_for_message(
            channels[1], lambda m: bool(m.attachments) and not m.ephemeral and m.mentions == [
                (alice if to_move == 1 else bob).id], after=mark, timeout=START_TIMEOUT)
        await asyncio.sleep(1.0)  # a second clock pass of either process would show now
        assert len(await logged(channels[1])) == before[channels[1].id] + 1  # clocked once
        assert len(await logged(channels[0])) == before[channels[0].id]  # not clocked by shard 1's process

        # Both games to the end.
        remaining = {channel.id: PILE - len(sent[channel.id]) for channel in channels}
        finals = await asyncio.gather(*(play(channel, remaining[channel.id]) for channel in channels))
        for channel, final in zip(channels, finals, strict=True):
            assert "game over" in final.content.lower() and final.mentions == []
            assert await logged(channel) == sent[channel.id]  # every move, once, in order
            status = await db.fetchval("SELECT status FROM game_tables WHERE channel_id = $1", channel.id)
            assert status == "finished"
        # Commands are global: synced once, by the process holding shard 0.
        assert len(fake.requests_to("PUT", "/applications/*/commands")) == 1
        assert fake.unknown_routes == []
    finally:
        await db.close()
        for process in processes:
            process.kill()


async def _true(value: bool) -> bool:
    return value


async def test_one_process_runs_both_shards_and_each_guild_is_answered(fake: FakeDiscord, tmp_path: Path) -> None:
    """SHARD_COUNT=2 without SHARD_IDS: one auto-sharded process identifies both shards; the fake routes each
    guild's interactions to its shard's session, and each is answered."""
    from bot.app import make_bot
    from bot.config import Config

    from .harness import bot_env, start_bot

    world = fake.world
    alice = world.add_user("alice2")
    channels = []
    for shard_id in (0, 1):
        guild = world.add_guild(f"Shard {shard_id} club", owner=alice, shard=(shard_id, 2))
        channels.append(world.add_channel(guild, "games"))

    async def factory() -> Any:
        env = bot_env(fake) | {"DATABASE_PATH": str(tmp_path / "db.sqlite3"), "SHARD_COUNT": "2"}
        return make_bot(Config.from_env(env, dotenv=None))

    bot = await start_bot(fake, factory)
    sessions = await fake.wait_for_shards(2)
    assert [s.shard for s in sessions] == [(0, 2), (1, 2)]
    assert sorted(bot.client.shards) == [0, 1]
    for shard_id, channel in enumerate(channels):
        received = sessions[shard_id].seq, sessions[1 - shard_id].seq
        lobby = await (await fake.slash("/game new", user=alice, channel=channel, options={"game": "nim"})).reply()
        assert not lobby.ephemeral and "pbc:lobby:join" in lobby.custom_ids()
        # The interaction (and the lobby's MESSAGE_CREATE) went to the guild's shard only.
        assert sessions[shard_id].seq > received[0] and sessions[1 - shard_id].seq == received[1]

    # Shard 1's connection drops; discord.py resumes it, and the resumed session keeps its shard.
    identified, old = fake.identify_count, sessions[1]
    await old.ws.close(code=4000)  # "unknown error": the client reconnects and resumes
    resumed = await fake.notifier.wait_for(
        lambda: next((s for s in fake.sessions if s is not old and s.identified and s.shard == (1, 2)), None),
        15, "shard 1 to resume")
    assert fake.identify_count == identified  # a RESUME, not a new IDENTIFY
    before = resumed.seq
    status = await (await fake.slash("/game status", user=alice, channel=channels[1])).reply()
    assert status.ephemeral and resumed.seq > before
    await bot.stop()
