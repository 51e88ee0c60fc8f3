"""The move log with a snapshot every few moves: each game's state is rebuilt exactly from its latest snapshot
and the moves logged after it (after a restart, after a failed commit), and the store's writer commits the
writes waiting together, a failing one rolled back alone (the batch is run again with a savepoint per write)."""

import asyncio
import dataclasses
import json
import random
import sqlite3

import pytest

from bot.store import Seat, SqliteStore, VersionConflict
from bot.store import sqlite as sqlite_store
from bot.tables import SNAPSHOT_EVERY, TableError, TableService
from games import registry

CHANNEL = 42
GAMES = [("trails", 2, {"expansions": "river,inns,traders"}), ("deole", 2, {}), ("dewan", 3, {}),
         ("maple", 2, {}), ("nim", 2, {})]


async def _started(db_path: str, game: str, players: int, options: dict[str, str]) -> tuple[SqliteStore, TableService]:
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    await service.create(1, CHANNEL, game, 1, "p1", options, seed=5)
    for user in range(2, players + 1):
        await service.join(CHANNEL, user, f"p{user}")
    await service.start(CHANNEL, 1)
    return store, service


async def _random_move(service: TableService, rng: random.Random) -> None:
    table = service.tables[CHANNEL]
    user = table.seats[table.game.to_act(table.state)[0]].user_id
    assert user is not None
    await service.act(CHANNEL, user, rng.choice(service.legal_notations(CHANNEL, user)))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_game_is_rebuilt_from_snapshot_and_log_after_each_restart(db_path, game, players, options):
    store, service = await _started(db_path, game, players, options)
    rng = random.Random(7)
    moves = 0
    while CHANNEL in service.tables and moves < 130:
        await _random_move(service, rng)
        moves += 1
        if moves % 13 == 0:  # a restart where the snapshot lags behind the log (13 is prime to 20)
            table = service.tables.get(CHANNEL)
            if table is None:
                break
            live = json.dumps(table.game.to_json(table.state), sort_keys=True)
            version = table.version
            await store.close()
            store = SqliteStore(db_path)
            await store.open()
            recovery = store.recovery_now(table.record.id)
            assert recovery is not None and recovery.version == version
            assert recovery.version - recovery.snapshot_version == len(recovery.moves) < SNAPSHOT_EVERY
            service = TableService(store)
            await service.load()
            rebuilt = service.table(CHANNEL)
            assert rebuilt.version == version
            assert json.dumps(rebuilt.game.to_json(rebuilt.state), sort_keys=True) == live
    await store.close()


async def test_a_snapshot_every_few_moves_and_at_the_end(db_path):
    store, service = await _started(db_path, "nim", 2, {"pile": "60"})
    rng = random.Random(1)
    table = service.tables[CHANNEL]
    versions = []
    while CHANNEL in service.tables:
        await _random_move(service, rng)
        stored = await store.snapshot(table.record.id)
        assert stored is not None
        versions.append((table.version, stored[0]))
    assert all(version - snapshot < SNAPSHOT_EVERY for version, snapshot in versions)
    assert {snapshot for _, snapshot in versions} <= {v for v, _ in versions if v % SNAPSHOT_EVERY == 0} | {
        versions[-1][0], 0}
    assert versions[-1][0] == versions[-1][1]  # the finished game's snapshot is its final position
    await store.close()


async def test_a_failed_commit_puts_the_table_back_to_snapshot_plus_log(db_path, monkeypatch):
    store, service = await _started(db_path, "trails", 2, {})
    rng = random.Random(2)
    for _ in range(SNAPSHOT_EVERY + 7):  # the snapshot is 7 moves behind
        await _random_move(service, rng)
    table = service.tables[CHANNEL]
    before, version = json.dumps(table.game.to_json(table.state)), table.version

    async def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "commit_moves", broken)
    with pytest.raises(sqlite3.OperationalError):
        await _random_move(service, rng)
    assert table.version == version
    assert json.dumps(table.game.to_json(table.state)) == before


async def test_waiting_writes_share_one_transaction_and_a_failing_one_fails_alone(db_path, monkeypatch):
    store = SqliteStore(db_path)
    await store.open()
    tables = [await store.create_table(1, 100 + n, "nim", {}, 1, n, 0.0, seats=[Seat(0, 1, "a")]) for n in range(8)]
    for record in tables:
        await store.start_game(record.id, [Seat(0, 1, "a")], "{}")
    transactions = []
    real_batch = sqlite_store._run_batch

    def counted_batch(connection, jobs, *overwritten):
        transactions.append(len(jobs))
        return real_batch(connection, jobs, *overwritten)

    monkeypatch.setattr(sqlite_store, "_run_batch", counted_batch)
    before = dataclasses.replace(store.write_stats)
    # Eight tables move at once, one of them with a stale version.
    results = await asyncio.gather(
        *(store.commit_moves(r.id, 5 if n == 3 else 0, [(0, "take 1")], None, 1.0) for n, r in enumerate(tables)),
        return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["int"] * 3 + ["VersionConflict"] + ["int"] * 4
    assert transactions == [8]  # one transaction, one fsync, for all eight
    # and the writer's figures (printed by the service's benchmark) count it so
    stats = store.write_stats
    assert (stats.batches - before.batches, stats.jobs - before.jobs) == (1, 8)
    assert 0 < stats.syncing - before.syncing < stats.seconds - before.seconds
    await store.close()

    store = SqliteStore(db_path)
    await store.open()
    for n, record in enumerate(tables):
        recovery = store.recovery_now(record.id)
        assert recovery is not None
        assert (recovery.version, recovery.moves) == ((0, []) if n == 3 else (1, [(0, "take 1")]))
    with pytest.raises(VersionConflict):
        await store.commit_moves(tables[0].id, 0, [(0, "take 1")], None, 2.0)
    await store.close()


async def test_a_second_click_on_a_stale_version_is_refused_with_the_log(db_path):
    store, service = await _started(db_path, "nim", 2, {})
    table = service.tables[CHANNEL]
    version = table.version
    user = table.seats[table.game.to_act(table.state)[0]].user_id
    await service.act(CHANNEL, user, service.legal_notations(CHANNEL, user)[0], expected_version=version)
    other = table.seats[table.game.to_act(table.state)[0]].user_id
    with pytest.raises(TableError):
        await service.act(CHANNEL, other, service.legal_notations(CHANNEL, other)[0], expected_version=version)
    assert len(await store.moves(table.record.id)) == 1 and table.version == version + 1
    await store.close()


def test_the_log_entries_games_cannot_replay_are_marked():
    from bot.tables import ELIMINATED, LOG_MARK, REPLACED_BY_AI

    assert ELIMINATED.startswith(LOG_MARK) and REPLACED_BY_AI.startswith(LOG_MARK)
    for key in registry.game_keys():
        game = registry.get(key)
        state = game.setup(game.min_players, {}, 1)
        seat = game.to_act(state)[0]
        assert not any(game.format(a).startswith(LOG_MARK) for a in game.legal_actions(state, seat))


async def test_a_write_whose_caller_gave_up_is_still_written_whole(db_path):
    store = SqliteStore(db_path)
    await store.open()
    record = await store.create_table(1, 100, "nim", {}, 1, 1, 0.0, seats=[Seat(0, 1, "a")])
    await store.start_game(record.id, [Seat(0, 1, "a")], "{}")
    waiting = asyncio.ensure_future(store.commit_moves(record.id, 0, [(0, "take 1"), (0, "take 2")], None, 1.0))
    await asyncio.sleep(0)  # queued for the writer
    waiting.cancel()
    await store.close()  # what was queued is written before the connection closes
    store = SqliteStore(db_path)
    await store.open()
    recovery = store.recovery_now(record.id)
    assert recovery is not None and (recovery.version, recovery.moves) == (2, [(0, "take 1"), (0, "take 2")])
    await store.close()


async def test_a_posted_boards_write_left_out_when_the_tables_next_turn_in_the_batch_overwrites_it(db_path):
    """A board's bookkeeping (what is left to tell, whether a board is due) queued just before the table's next
    turn, in one batch: the turn writes both columns, so the bookkeeping's statement is left out; the state is
    the turn's. If that turn fails (a stale version), the bookkeeping is written after all."""
    store = SqliteStore(db_path)
    await store.open()
    record = await store.create_table(1, 100, "nim", {}, 1, 0, 0.0, seats=[Seat(0, 1, "a"), Seat(1, 2, "b")])
    other = await store.create_table(1, 101, "nim", {}, 1, 0, 0.0, seats=[Seat(0, 1, "a"), Seat(1, 2, "b")])
    for table in (record, other):
        await store.start_game(table.id, table.seats, "{}")
    statements: list[str] = []
    assert store._direct is not None
    store._direct.set_trace_callback(statements.append)
    told = [[0, "move", {"notation": "take 1"}]]
    posted = store.set_board_posted(record.id, [], False)
    posted_elsewhere = store.set_board_posted(other.id, [], False)  # another table's: written
    turn = store.commit_moves(record.id, 0, [(0, "take 1")], None, 1.0, board_due=True, held_events=told)
    assert await turn == 1 and await posted is None and await posted_elsewhere is None
    updates = [s for s in statements if s.startswith("UPDATE game_tables SET held_events")]
    assert len(updates) == 1 and f"WHERE id = {other.id}" in updates[0]
    read = await store.table_record(record.id)
    assert read is not None and (read.version, read.board_due, read.held_events) == (1, True, told)
    read = await store.table_record(other.id)
    assert read is not None and (read.board_due, read.held_events) == (False, [])

    # The turn refused (a version already played): the bookkeeping queued before it is stored.
    await store.commit_moves(record.id, 1, [], None, 2.0, board_due=True, held_events=told * 2)
    posted = store.set_board_posted(record.id, [], False)
    stale = store.commit_moves(record.id, 0, [(1, "take 2")], None, 3.0, board_due=True, held_events=told * 3)
    with pytest.raises(VersionConflict):
        await stale
    await posted
    read = await store.table_record(record.id)
    assert read is not None and (read.version, read.board_due, read.held_events) == (1, False, [])

    # Two boards' bookkeeping of one table in a batch, then a turn of another table: the later board's is
    # written alone (it writes both columns too), and a turn of another table leaves out nothing of this one.
    statements.clear()
    first = store.set_board_posted(record.id, told, True)
    second = store.set_board_posted(record.id, [], False)
    elsewhere = store.commit_moves(other.id, 0, [(0, "take 1")], None, 4.0, board_due=True, held_events=told)
    assert await first is None and await second is None and await elsewhere == 1
    updates = [s for s in statements if s.startswith("UPDATE game_tables SET held_events")]
    assert len(updates) == 1 and f"WHERE id = {record.id}" in updates[0]
    read = await store.table_record(record.id)
    assert read is not None and (read.board_due, read.held_events) == (False, [])
    await store.close()


def test_notations_are_parsed_once_and_refused_or_long_texts_are_not_kept(monkeypatch):
    from bot import notations as notations_module
    from games.core import IllegalAction

    game = registry.get("deole")
    calls: list[str] = []
    real_parse = game.parse
    monkeypatch.setattr(game, "parse", lambda text: calls.append(text) or real_parse(text))
    notations = notations_module.Notations()
    first = notations.parse(game, "PLACE")
    assert notations.parse(game, "PLACE") == first == (real_parse("place"), game.format(real_parse("place")))
    assert calls == ["PLACE"]  # the second answer came from memory
    for _ in range(2):  # a refused text raises every time and is never kept
        with pytest.raises(IllegalAction):
            notations.parse(game, "no such move")
    long_text = "place" + " " * 6000
    notations.parse(game, long_text)
    notations.parse(game, long_text)
    assert calls.count(long_text) == 2 and len(notations._known) == 1
    monkeypatch.setattr(notations_module, "NOTATIONS_KEPT", 2)
    notations.parse(game, "help")
    notations.parse(game, " place")  # the memory is full: emptied, then this one kept
    assert len(notations._known) == 1
