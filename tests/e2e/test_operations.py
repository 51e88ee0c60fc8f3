"""What an operator meets, through the real bot and the fake Discord: commands of one channel a few
milliseconds apart on PostgreSQL, a database busy in another process or full, a backlog of due boards."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.pg import pg_database, pg_url  # noqa: F401  (fixtures)

from .harness import open_table, start_bot


@pytest.fixture
def make_pg_bot(fake, world, pg_url):  # noqa: F811  (the fixture imported above)
    from bot.app import PlayByChatBot, apply_endpoints
    from bot.config import Config

    from .harness import bot_env

    async def factory() -> PlayByChatBot:
        env = bot_env(fake) | {"DATABASE_URL": pg_url, "DEV_GUILD_ID": str(world.guild.id)}
        config = Config.from_env(env, dotenv=None)
        apply_endpoints(config)
        return PlayByChatBot(config)

    return factory


async def test_a_channels_commands_apply_in_the_order_they_were_acknowledged_on_postgresql(fake, world, make_pg_bot):
    """``/game join`` sent as soon as ``/game new`` is acknowledged, then ``/game start`` as soon as the join
    is: each sees the one before (on PostgreSQL the table's creation is a network round trip)."""
    await start_bot(fake, make_pg_bot)
    await commands_in_a_row(fake, world)


async def test_a_channels_commands_apply_in_the_order_they_were_acknowledged_on_sqlite(fake, world, make_bot):
    await start_bot(fake, make_bot)
    await commands_in_a_row(fake, world)


async def commands_in_a_row(fake, world) -> None:
    for channel in (world.general, world.thread):
        new = await fake.slash("/game new", user=world.alice, channel=channel, game="trails")
        await new.response()
        status = await fake.slash("/game status", user=world.carol, channel=channel)
        join = await fake.slash("/game join", user=world.bob, channel=channel)
        await join.response()
        start = await fake.slash("/game start", user=world.alice, channel=channel)
        await start.response()
        lobby = await new.reply()
        assert lobby.embeds, lobby.content
        joined = await join.reply()
        assert "Bob" in (joined.content or ""), joined.content
        seated = await status.reply()
        assert "Alice" in seated.content and "no game table" not in seated.content, seated.content
        started = await start.reply()
        assert "no game table" not in (started.content or "").lower(), started.content
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
        assert board.attachments


@pytest.mark.parametrize(("damage", "said"), [
    ("UPDATE snapshots SET state = '{not json' WHERE table_id = ?", "its saved position is damaged"),
    ("UPDATE game_tables SET game = 'chess' WHERE id = ?", "the game chess is no longer installed"),
    ("UPDATE snapshots SET state = '{\"v\": 99}' WHERE table_id = ?", "a version of the game this bot does not know"),
    ("UPDATE moves SET action = 'take 99' WHERE table_id = ?", "a saved move no longer fits"),
])
async def test_a_broken_table_says_what_is_wrong_on_status_and_its_host_closes_it(fake, world, make_bot, damage,
                                                                                  said):
    bot = await start_bot(fake, make_bot)
    _, first_board = await open_table(fake, world, "nim", world.bob, options="pile=9")
    await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 1")).response()
    table_id = bot.client.tables.tables[world.general.id].record.id
    await bot.client.store.flush()
    await bot.client.store.db.execute(damage, (table_id,))
    await bot.client.store.db.commit()
    await bot.stop()
    await start_bot(fake, make_bot)
    # A player, a spectator, whatever they ask: each reads what is wrong and who can close it.
    for user, command in ((world.bob, "/game status"), (world.carol, "/game status"), (world.bob, "/game board"),
                          (world.bob, "/game hand"), (world.alice, "/game move")):
        options = {"action": "take 1"} if command == "/game move" else {}
        status = await (await fake.slash(command, user=user, channel=world.general, **options)).reply()
        assert status.ephemeral and said in status.content, (command, status.content)
        assert f"number {table_id}" in status.content and "/game abort" in status.content
    # The Take turn button of a board posted before says the same, privately.
    clicked = await (await fake.click(first_board, "pbc:panel:turn", user=world.bob)).reply(lambda m: m.ephemeral)
    assert said in clicked.content and "/game abort" in clicked.content, clicked.content
    refused = await (await fake.slash("/game abort", user=world.bob, channel=world.general)).reply()
    assert refused.ephemeral and "host" in refused.content.lower()
    mark = fake.mark()
    await (await fake.slash("/game abort", user=world.alice, channel=world.general)).response()
    closed = await fake.wait_for_message(world.general, lambda m: "closed by Alice" in (m.content or ""), after=mark)
    assert not closed.ephemeral
    status = await (await fake.slash("/game status", user=world.bob, channel=world.general)).reply()
    assert "no game table" in status.content


def problems(caplog) -> list[logging.LogRecord]:
    """What the bot logged at WARNING and above (discord.py's own start-up warnings aside)."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING and not r.name.startswith("discord")]


async def a_move_is_refused_then_played(fake, world, caplog, said: str, release) -> None:
    """Alice's move while the database refuses writes: a private answer that says so, one log line without a
    traceback, the table unchanged; once the database is back, the same move is played."""
    caplog.clear()
    before = len(fake.channel_messages(world.general))
    mark = fake.mark()
    refused = await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 1")).reply()
    assert refused.ephemeral and said in refused.content and "nothing was changed" in refused.content, refused.content
    logged = problems(caplog)
    assert len(logged) == 1 and logged[0].exc_info is None, [r.getMessage() for r in logged]
    assert len(fake.channel_messages(world.general)) == before  # no board: no move
    await release()
    played = await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 1")).reply()
    assert played.ephemeral and "busy" not in played.content and "full" not in played.content, played.content
    board = await fake.wait_for_message(world.general, lambda m: bool(m.attachments), after=mark)
    assert board.mentions == [world.bob.id]


async def test_a_database_locked_by_another_process_is_waited_for_then_the_player_is_told(fake, world, make_bot,
                                                                                       tmp_path, caplog,
                                                                                       monkeypatch):
    monkeypatch.setattr("bot.store.sqlite.BUSY_TIMEOUT_MS", 300)
    bot = await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=30")
    await bot.client.store.flush()  # the first board's bookkeeping written: the move is the write refused
    holder = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)  # another process, say a backup
    holder.execute("BEGIN IMMEDIATE")

    async def release() -> None:
        holder.execute("COMMIT")
        holder.close()

    await a_move_is_refused_then_played(fake, world, caplog, "busy", release)


async def test_a_row_locked_in_another_postgresql_session_is_waited_for_then_the_player_is_told(
        fake, world, make_pg_bot, pg_url, caplog, monkeypatch):  # noqa: F811  (the fixture imported above)
    monkeypatch.setattr("bot.store.postgres.LOCK_TIMEOUT_MS", 300)
    bot = await start_bot(fake, make_pg_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=30")
    table_id = bot.client.tables.tables[world.general.id].record.id
    await bot.client.store.flush()
    holder = await asyncpg.connect(pg_url)
    holder_tx = holder.transaction()
    await holder_tx.start()
    await holder.execute("SELECT 1 FROM game_tables WHERE id = $1 FOR UPDATE", table_id)

    async def release() -> None:
        await holder_tx.rollback()
        await holder.close()

    try:
        await a_move_is_refused_then_played(fake, world, caplog, "busy", release)
    finally:
        if not holder.is_closed():
            await holder.close()


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A 4 MiB file system of its own (tmpfs: needs root, as CI runs), unmounted after the test."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root to mount a small file system (CI runs as root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


async def test_a_full_disk_refuses_the_move_in_one_line_and_loses_nothing(fake, world, small_disk, caplog):
    from bot.app import PlayByChatBot, apply_endpoints
    from bot.config import Config

    from .harness import bot_env

    async def make_bot() -> PlayByChatBot:
        env = bot_env(fake) | {"DATABASE_PATH": str(small_disk / "db.sqlite3"), "DEV_GUILD_ID": str(world.guild.id)}
        config = Config.from_env(env, dotenv=None)
        apply_endpoints(config)
        return PlayByChatBot(config)

    bot = await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=30")
    await bot.client.store.flush()
    version = bot.client.tables.tables[world.general.id].version
    filler = small_disk / "filler"
    with contextlib.suppress(OSError), filler.open("wb", buffering=0) as out:  # every byte left, until no more
        while True:
            out.write(b"\0" * 4096)

    async def release() -> None:
        filler.unlink()

    await a_move_is_refused_then_played(fake, world, caplog, "disk is full", release)
    assert bot.client.tables.tables[world.general.id].version == version + 1  # the refused move left no trace


async def test_a_backlog_of_due_boards_is_posted_newest_turn_first_while_commands_are_answered(
        fake, world, make_bot, tmp_path):
    """After an outage 30 tables owe their channel a board: the restarted bot posts every one, the newest turn
    first, a few at a time; a command sent meanwhile is answered before the backlog is done."""
    from bot.store import SqliteStore
    from bot.tables import TableService

    channels = [fake.world.add_channel(world.guild, f"table-{n}") for n in range(30)]
    store = SqliteStore(str(tmp_path / "db.sqlite3"))
    await store.open()
    now = [0.0]
    service = TableService(store, clock=lambda: now[0])
    for number, channel in enumerate(channels):  # the turn of table n began at n minutes past the hour
        now[0] = 1_800_000_000.0 + 60 * number
        await service.create(world.guild.id, channel.id, "nim", world.alice.id, "Alice", {"pile": "20"})
        await service.join(channel.id, world.bob.id, "Bob")
        await service.start(channel.id, world.alice.id)  # its first board due: nobody posted it
    await store.close()
    mark = fake.mark()
    await start_bot(fake, make_bot)
    status = await (await fake.slash("/game status", user=world.bob, channel=channels[0])).reply()
    assert "Turn 1" in status.content or "turn 1" in status.content.lower(), status.content
    boards = []
    for channel in channels:
        boards.append(await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark, timeout=30))
    assert all(board.mentions == [world.alice.id] for board in boards)
    posted_order = [channels.index(c) for c in sorted(channels, key=lambda c: boards[channels.index(c)].seq)]
    # Newest first; two workers may finish neighbours in either order.
    assert all(abs(place - (29 - rank)) <= 1 for rank, place in enumerate(posted_order)), posted_order
    assert status.seq < boards[0].seq  # the oldest table's board came last, after the command's answer
    assert all(len([m for m in fake.channel_messages(c) if m.attachments]) == 1 for c in channels)  # once each


async def test_a_new_table_sent_as_soon_as_the_old_one_is_closed_opens(fake, world, make_pg_bot):
    """``/game new`` sent as soon as ``/game abort`` was acknowledged: the abort is applied first, so the new
    table opens instead of "this channel already has a table"."""
    await start_bot(fake, make_pg_bot)
    for _ in range(3):
        lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general, game="nim")).reply()
        assert not lobby.ephemeral, lobby.content
        await (await fake.slash("/game abort", user=world.alice, channel=world.general)).response()
        new = await fake.slash("/game new", user=world.alice, channel=world.general, game="nim")
        reopened = await new.reply()
        assert not reopened.ephemeral and reopened.embeds, reopened.content
        await (await fake.slash("/game abort", user=world.alice, channel=world.general)).response()
        await fake.wait_for_message(world.general, lambda m: "closed" in (m.content or ""))
