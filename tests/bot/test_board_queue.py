"""The queue of due boards: newest turns first, a few at a time, paced, retried, and the tables read off the
event loop; with a real store and service, and a stand-in for the Discord post."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.board_queue import BoardQueue
from bot.store import SqliteStore
from bot.tables import TableService

ALICE, BOB = 1, 2


async def due_tables(db_path: str, count: int) -> tuple[SqliteStore, TableService]:
    """``count`` Nim tables in play, each with its board due, the turn of table n begun at 1000 + n; then a
    restart: a new service that has read only the start-up index."""
    store = SqliteStore(db_path)
    await store.open()
    now = [1000.0]
    service = TableService(store, clock=lambda: now[0])
    for channel in range(100, 100 + count):
        now[0] = 1000.0 + channel
        await service.create(1, channel, "nim", ALICE, "alice", {"pile": "20"})
        await service.join(channel, BOB, "bob")
        await service.start(channel, ALICE)
    await store.flush()
    restarted = TableService(store, clock=lambda: now[0])
    await restarted.load()
    return store, restarted


async def test_due_boards_are_posted_newest_turn_first_two_at_a_time_with_the_state_read_off_the_loop(db_path):
    store, service = await due_tables(db_path, 12)
    loop_thread = threading.get_ident()
    order: list[int] = []
    running = most = 0
    decoded_on: set[int] = set()
    original = service._recovered

    def recovered(table_id, game):
        decoded_on.add(threading.get_ident())
        return original(table_id, game)

    service._recovered = recovered  # type: ignore[method-assign]

    async def post(table, locale) -> bool:
        nonlocal running, most
        running += 1
        most = max(most, running)
        assert table.decoded  # prepared before the post
        await asyncio.sleep(0.01)
        running -= 1
        return True

    async def prepare(table) -> bool:
        order.append(table.index.channel_id)  # the order the workers take the boards in
        return await service.read_off_loop(table)

    queue = BoardQueue(post, prepare, workers=2, per_second=1000.0)
    for table in service.tables.values():
        queue.add(table, "en")
    assert not any(table.decoded for table in service.tables.values())  # queuing reads nothing
    queue.start()
    await asyncio.wait_for(queue.drained(), 10)
    await queue.stop()
    # The last turn began at table 111: its board first, then the others, newest first.
    assert order == list(range(111, 99, -1))
    assert most == 2 and queue.posted == 12 and len(queue) == 0
    assert decoded_on and loop_thread not in decoded_on  # every state was rebuilt on a worker thread
    await store.close()


async def test_the_pace_spreads_posts_over_time(db_path):
    store, service = await due_tables(db_path, 6)
    times: list[float] = []

    async def post(table, locale) -> bool:
        times.append(asyncio.get_running_loop().time())
        return True

    queue = BoardQueue(post, service.read_off_loop, workers=3, per_second=20.0)
    for table in service.tables.values():
        queue.add(table, "en")
    queue.start()
    await asyncio.wait_for(queue.drained(), 10)
    await queue.stop()
    # 6 posts at 20 a second: the last one at least 5 intervals of 50 ms after the first.
    assert len(times) == 6 and times[-1] - times[0] >= 5 * 0.05 - 0.01
    await store.close()


async def test_a_refused_post_is_tried_again_after_each_delay_then_left_due(db_path, caplog):
    store, service = await due_tables(db_path, 2)
    tries: dict[int, int] = {}

    async def post(table, locale) -> bool:
        channel = table.record.channel_id
        tries[channel] = tries.get(channel, 0) + 1
        return channel == 100 and tries[channel] == 2  # table 100 goes out at its second try, 101 never

    queue = BoardQueue(post, service.read_off_loop, per_second=1000.0, retry_delays=(0.02, 0.02))
    for table in service.tables.values():
        queue.add(table, "en")
    queue.start()
    await asyncio.wait_for(queue.drained(), 10)
    await queue.stop()
    assert tries == {100: 2, 101: 3} and queue.posted == 1
    assert "board of table 2 not posted after 3 tries" in caplog.text
    assert service.tables[101].board_due  # still due in the store: the next start posts it
    await store.close()


async def test_a_table_closed_or_broken_while_queued_is_not_posted_and_one_failing_post_stops_nothing(db_path):
    store, service = await due_tables(db_path, 3)
    await store.db.execute("UPDATE snapshots SET state = '{broken' WHERE table_id = ?",
                           (service.tables[101].index.id,))
    await store.db.commit()
    posted: list[int] = []

    async def post(table, locale) -> bool:
        if table.record.channel_id == 102:
            raise RuntimeError("a bug in one post")
        posted.append(table.record.channel_id)
        return True

    queue = BoardQueue(post, service.read_off_loop, per_second=1000.0, retry_delays=())
    for table in list(service.tables.values()):
        queue.add(table, "en")
    await service.abort(100, ALICE)
    queue.start()
    await asyncio.wait_for(queue.drained(), 10)
    await queue.stop()
    assert posted == []
    assert set(service.broken) == {101}  # set aside as on first use: its channel hears why
    with pytest.raises(Exception, match="table_broken"):
        service.table(101)
    await store.close()
