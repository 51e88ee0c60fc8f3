import asyncio

import pytest

from bot.store import SqliteStore
from bot.tables import TableError, TableService
from games.core import IllegalAction

CHANNEL = 10
ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
async def service(db_path):
    store = SqliteStore(db_path)
    await store.open()
    yield TableService(store, clock=lambda: 1000.0)
    await store.close()


async def started(service, pile=10):
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": str(pile)}, seed=5)
    await service.join(CHANNEL, BOB, "bob")
    return await service.start(CHANNEL, ALICE)


async def test_lobby_rules(service):
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "7"}, seed=1)
    with pytest.raises(TableError) as error:
        await service.create(1, CHANNEL, "nim", BOB, "bob")
    assert error.value.code == "table_exists"
    with pytest.raises(TableError) as error:
        await service.start(CHANNEL, ALICE)  # alone: nim needs 2
    assert error.value.code == "player_count"
    await service.join(CHANNEL, BOB, "bob")
    with pytest.raises(TableError) as error:
        await service.join(CHANNEL, BOB, "bob")
    assert error.value.code == "already_seated"
    with pytest.raises(TableError) as error:
        await service.start(CHANNEL, BOB)  # not the host
    assert error.value.code == "host_only_start"  # and not "or a member with Manage Channels": they cannot
    with pytest.raises(TableError) as error:
        await service.leave(CHANNEL, ALICE)
    assert error.value.code == "host_cannot_leave"
    await service.leave(CHANNEL, BOB)
    assert [s.display for s in service.table(CHANNEL).seats] == ["alice"]


async def test_invalid_option_is_refused(service):
    with pytest.raises(IllegalAction) as error:
        await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "500"})
    assert error.value.code == "option_range"
    with pytest.raises(TableError):
        service.table(CHANNEL)


async def test_turn_order_and_refusals_change_nothing(service):
    await started(service)
    table = service.table(CHANNEL)
    for user, text, code in [(BOB, "take 1", "not_your_turn"), (CAROL, "take 1", "not_seated")]:
        with pytest.raises(TableError) as error:
            await service.act(CHANNEL, user, text)
        assert error.value.code == code
    with pytest.raises(IllegalAction) as error:
        await service.act(CHANNEL, ALICE, "take 4")
    assert error.value.code == "take_range"
    assert (table.state.pile, table.version) == (10, 0)
    outcome = await service.act(CHANNEL, ALICE, "take 3")
    assert outcome.moves == [(0, "take 3")] and outcome.next_seats == [1]
    assert (table.state.pile, table.version) == (7, 1)


async def test_two_clicks_at_once_apply_once(service):
    await started(service)
    results = await asyncio.gather(
        service.act(CHANNEL, ALICE, "take 1", expected_version=0),
        service.act(CHANNEL, ALICE, "take 1", expected_version=0),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and errors[0].code == "already_played"
    assert service.table(CHANNEL).state.pile == 9
    assert len(await service.store.moves(service.table(CHANNEL).record.id)) == 1


async def test_ai_seats_reply_and_game_finishes(service):
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "5"}, seed=3)
    await service.add_ai(CHANNEL, ALICE)
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    while True:
        outcome = await service.act(CHANNEL, ALICE, "take 1")
        assert all(seat in (0, 1) for seat, _ in outcome.moves)
        if outcome.finished:
            break
    assert table.record.status == "finished"
    assert CHANNEL not in service.tables  # the channel is free again
    assert (await service.store.latest_table(CHANNEL)).status == "finished"


async def test_restart_continues_the_same_game(db_path):
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    await started(service, pile=10)
    await service.act(CHANNEL, ALICE, "take 2")
    await store.close()

    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    await service.load()
    table = service.table(CHANNEL)
    assert (table.state.pile, table.state.turn, table.version) == (8, 1, 1)
    await service.act(CHANNEL, BOB, "take 3")
    assert [m[2] for m in await store.moves(table.record.id)] == ["take 2", "take 3"]
    await store.close()


async def test_abort_by_host_or_manager_only(service):
    await service.create(1, CHANNEL, "nim", ALICE, "alice")
    await service.join(CHANNEL, BOB, "bob")
    with pytest.raises(TableError):
        await service.abort(CHANNEL, BOB)
    await service.abort(CHANNEL, BOB, manage_channels=True)
    assert CHANNEL not in service.tables


async def test_several_moves_commit_together_or_not_at_all(service):
    await started(service)
    table = service.table(CHANNEL)
    version, state = table.version, table.game.to_json(table.state)
    with pytest.raises(TableError) as error:  # the second move is bob's turn: nothing of the first stays
        await service.act(CHANNEL, ALICE, ["take 1", "take 1"])
    assert error.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        await service.act(CHANNEL, ALICE, ["take 9"])
    assert table.version == version and table.game.to_json(table.state) == state
    assert await service.store.moves(table.record.id) == []
    outcome = await service.act(CHANNEL, ALICE, ["take 2"])
    assert outcome.moves == [(0, "take 2")] and table.version == version + 1


async def test_held_events_are_kept_until_told_and_survive_a_restart(db_path):
    from games.core import Event

    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store, clock=lambda: 1000.0)
    await started(service)
    table = service.table(CHANNEL)
    first, second = Event("took", {"seat": 0, "count": 1}), Event("took", {"seat": 0, "count": 2})
    await service.hold_events(table, [(0, first)])
    await service.hold_events(table, [])  # nothing to keep: no write, nothing changes
    await store.close()
    await store.open()  # a restart between the step and the board
    service = TableService(store, clock=lambda: 1000.0)
    await service.load()
    table = service.table(CHANNEL)
    assert service.held_events(table) == [(0, first)]
    told = len(table.record.held_events)  # a board is being posted with these...
    await service.hold_events(table, [(0, second)])  # ...while another step is held
    await service.board_posted(table, told, table.version)  # the board was posted
    await service.load()
    assert service.held_events(service.table(CHANNEL)) == [(0, second)]  # told once; the newer one kept
    await store.close()
