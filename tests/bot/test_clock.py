"""Turn clock with an injected clock: no sleeping."""

import asyncio

import pytest

from bot.clock import TurnClock
from bot.store import SqliteStore
from bot.tables import (
    ELIMINATED,
    REPLACED_BY_AI,
    TableError,
    TableService,
    TableSettings,
    format_reminders,
    parse_duration,
    parse_reminders,
    settings_changes,
)

CHANNEL, ALICE, BOB, CAROL = 10, 1, 2, 3


class FakeTime:
    def __init__(self):
        self.now = 1_000.0

    def __call__(self):
        return self.now


@pytest.fixture
async def setup(db_path):
    store = SqliteStore(db_path)
    await store.open()
    now = FakeTime()
    service = TableService(store, clock=now)
    yield service, now, store
    await store.close()


async def start_three(service, turn_seconds=60, **settings):
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "30"}, seed=1, turn_seconds=turn_seconds,
                         settings=TableSettings(**settings))
    await service.join(CHANNEL, BOB, "bob")
    await service.join(CHANNEL, CAROL, "carol")
    await service.start(CHANNEL, ALICE)
    return service.table(CHANNEL)


def test_turn_time_parsing():
    assert [parse_duration(x) for x in ("90s", "10m", "24h", "3d", "45")] == [90, 600, 86400, 259200, 45]
    for bad in ("10s", "15d", "soon", ""):
        with pytest.raises(TableError):
            parse_duration(bad)


async def test_deadline_armed_per_turn_and_not_before_it_passes(setup):
    service, now, _ = setup
    table = await start_three(service)
    assert table.record.deadline == 1060.0  # start at 1000 + 60 s
    now.now = 1030.0
    await service.act(CHANNEL, ALICE, "take 1")
    assert table.record.deadline == 1090.0  # bob's turn: a fresh 60 s
    now.now = 1089.0
    assert service.due() == [] and await service.expire(CHANNEL) is None
    assert service.next_deadline() == 1090.0


async def test_the_clocks_heap_follows_the_tables_not_the_moves(setup):
    # Every new turn moves the table's wake time and leaves the old entry behind until its time: the heap is
    # rebuilt from the live times when it holds mostly stale ones, and still wakes at each table's own time.
    from bot.tables import STALE_WAKES_KEPT

    service, now, _ = setup
    await start_three(service, turn_seconds=86400)  # reminders: half time, then one hour before
    other = CHANNEL + 1
    await service.create(1, other, "nim", ALICE, "alice", {"pile": "30"}, seed=2, turn_seconds=60)
    await service.join(other, BOB, "bob")
    await service.start(other, ALICE)  # deadline 1060, no reminders for a live turn
    sizes = []
    for turn in range(25):
        now.now += 1.0
        await service.act(CHANNEL, (ALICE, BOB, CAROL)[turn % 3], "take 1")
        sizes.append(len(service._wakes))
    assert max(sizes) <= STALE_WAKES_KEPT * 3 + 1  # two live tables: never more than a few entries each
    assert service.next_wake() == 1060.0  # the other table's deadline comes first
    now.now = 1060.0
    assert service.due() == [other]
    # Bob's reminder at half time of the turn that began at 1025: 1025 + 43200
    assert service.table(CHANNEL).record.deadline == 1025.0 + 86400
    now.now = 1025.0 + 43200
    assert [(t.record.channel_id, seat) for t, seat in await service.due_reminders()] == [(CHANNEL, 1)]


async def test_first_timeout_plays_default_second_eliminates(setup):
    service, now, store = setup
    table = await start_three(service)
    now.now = 1060.0
    outcome = await service.expire(CHANNEL)
    # nim's default action takes 1 stick: 30 -> 29, and bob is next.
    assert (outcome.timeout, outcome.timed_out_seat, outcome.moves) == ("default", 0, [(0, "take 1")])
    assert table.state.pile == 29 and outcome.next_seats == [1]
    await service.act(CHANNEL, BOB, "take 1")
    await service.act(CHANNEL, CAROL, "take 1")
    now.now += 60
    outcome = await service.expire(CHANNEL)
    assert (outcome.timeout, outcome.timed_out_seat) == ("eliminated", 0)
    assert table.seats[0].eliminated and table.state.eliminated == [0]
    assert outcome.next_seats == [1] and table.state.pile == 27  # the eliminated seat took nothing
    assert (await store.moves(table.record.id))[-1][2] == ELIMINATED


async def test_last_player_standing_ends_the_game_and_eliminated_rank_last(setup):
    service, now, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "30"}, seed=1, turn_seconds=60)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    now.now += 60
    await service.expire(CHANNEL)  # alice: default move
    await service.act(CHANNEL, BOB, "take 1")
    now.now += 60
    outcome = await service.expire(CHANNEL)  # alice again: eliminated, bob alone
    assert outcome.finished and CHANNEL not in service.tables
    ranking = table.game.result(table.state).ranking
    assert [(p.seat, p.rank, p.eliminated) for p in ranking] == [(1, 1, False), (0, 2, True)]
    assert (await store.latest_table(CHANNEL)).deadline is None


async def test_restart_handles_passed_deadlines_and_rearms_future_ones(db_path):
    now = FakeTime()
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store, clock=now)
    await start_three(service)
    await service.create(1, 11, "nim", ALICE, "alice", seed=2, turn_seconds=3600)
    await service.join(11, BOB, "bob")
    await service.start(11, ALICE)
    await store.close()

    now.now = 1500.0  # the bot was down past table 10's deadline (1060), not table 11's (4600)
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store, clock=now)
    await service.load()
    fired = []

    async def announce(outcome):
        fired.append(outcome.table.record.channel_id)

    clock = TurnClock(service, announce)
    await clock.fire_due()
    await clock.settle()  # announcements run in their own tasks
    assert fired == [CHANNEL]
    assert service.table(CHANNEL).record.deadline == 1560.0  # bob's new turn
    assert service.next_deadline() == 1560.0 and service.table(11).record.deadline == 4600.0
    await store.close()


async def test_clock_task_sleeps_until_deadline_and_wakes_for_a_sooner_one(setup):
    service, now, _ = setup
    fired = asyncio.Event()

    async def announce(outcome):
        fired.set()

    clock = TurnClock(service, announce)
    clock.start()
    await start_three(service, turn_seconds=3600)
    await asyncio.sleep(0)
    assert not fired.is_set()
    now.now += 3600  # the deadline passes; arming another table wakes the sleeping task
    await service.create(1, 99, "nim", ALICE, "alice", seed=3)
    service.on_deadline_change()
    await asyncio.wait_for(fired.wait(), timeout=5)
    await clock.stop()


async def test_pause_rules_who_may_resume_and_when(setup):
    service, now, store = setup
    table = await start_three(service, turn_seconds=100)
    with pytest.raises(TableError) as error:
        await service.pause(CHANNEL, BOB)  # not bob's turn
    assert error.value.code == "pause_own_turn"
    await service.act(CHANNEL, ALICE, "take 1")  # bob's turn, deadline 1000 + 100
    now.now += 40
    await service.pause(CHANNEL, BOB)  # 60 s of bob's turn left
    assert table.record.deadline is None and service.next_deadline() is None  # no time runs
    assert await service.expire(CHANNEL) is None
    now.now += 119
    with pytest.raises(TableError) as error:
        await service.resume(CHANNEL, CAROL)  # 119 s after the pause: 1 s to wait
    assert (error.value.code, error.value.params) == ("resume_wait", {"seconds": 1})
    with pytest.raises(TableError):
        await service.resume(CHANNEL, 99)  # not seated
    now.now += 1
    await service.resume(CHANNEL, CAROL)  # 120 s: anyone seated
    assert table.record.deadline == now.now + 60  # the 60 s bob had left
    await service.pause(CHANNEL, BOB)
    await service.resume(CHANNEL, BOB)  # the one who paused: at once
    with pytest.raises(TableError) as error:
        await service.pause(CHANNEL, BOB)  # a third pause
    assert error.value.code == "no_pauses_left"
    await service.pause(CHANNEL, CAROL, manage_channels=True)  # an admin: any time, no pause used
    await service.resume(CHANNEL, ALICE)  # the host may resume any pause at once
    await service.pause(CHANNEL, ALICE)  # and pause any time without using their own pauses
    assert [s.pauses_used for s in table.seats] == [0, 2, 0]
    await store.close()
    await store.open()  # the pause survives a restart
    reloaded = TableService(store, clock=now)
    await reloaded.load()
    assert reloaded.table(CHANNEL).record.paused_by == ALICE


async def test_host_controls_kick_substitute_extend(setup):
    service, now, store = setup
    table = await start_three(service, turn_seconds=100)
    for call in (service.kick(CHANNEL, BOB, CAROL), service.extend(CHANNEL, BOB, 60),
                 service.substitute(CHANNEL, BOB, CAROL, 7, "dave")):
        with pytest.raises(TableError) as error:
            await call
        assert error.value.code == "host_only"
    await service.extend(CHANNEL, ALICE, 60)
    assert table.record.deadline == 1160.0  # 1000 + 100 + 60
    await service.act(CHANNEL, ALICE, "take 2")
    await service.substitute(CHANNEL, BOB, BOB, 7, "dave", manage_channels=True)
    assert (table.seats[1].user_id, table.seats[1].display, table.seats[1].position) == (7, "dave", 1)
    await service.act(CHANNEL, 7, "take 1")  # dave plays bob's seat, the pile continues: 30-2-1 = 27
    assert table.state.pile == 27
    outcome = await service.kick(CHANNEL, ALICE, CAROL)  # carol is to move: kicked, alice is next
    assert table.seats[2].eliminated and outcome.next_seats == [0]
    with pytest.raises(TableError):
        await service.kick(CHANNEL, ALICE, CAROL)


async def test_reminders_at_half_time_and_one_hour_before_once_each(setup):
    service, now, store = setup
    table = await start_three(service, turn_seconds=86400)  # 24 h turn from t=1000: deadline 87400
    # half time: 87400 - 43200 = 44200; one hour before: 87400 - 3600 = 83800
    assert service.reminder_times(table) == [44200.0, 83800.0]
    assert service.next_wake() == 44200.0
    now.now = 44199.0
    assert await service.due_reminders() == []
    now.now = 44200.0
    assert [(t.record.channel_id, seat) for t, seat in await service.due_reminders()] == [(CHANNEL, 0)]
    assert await service.due_reminders() == []  # sent once
    assert service.next_wake() == 83800.0
    await store.close()
    await store.open()  # restart: the sent reminder is remembered
    service = TableService(store, clock=now)
    await service.load()
    assert await service.due_reminders() == []
    now.now = 90000.0  # down past the second reminder and the deadline: one reminder, then the timeout
    assert len(await service.due_reminders()) == 1
    assert (await service.expire(CHANNEL)).timeout == "default"
    assert service.table(CHANNEL).record.reminders_sent == 0  # bob's new turn starts afresh


async def test_no_reminders_for_live_turns(setup):
    service, now, _ = setup
    table = await start_three(service, turn_seconds=120)
    assert service.reminder_times(table) == [] and service.next_wake() == 1120.0


async def test_settings_only_in_lobby_or_paused_and_mine(setup):
    service, now, store = setup
    table = await start_three(service, turn_seconds=100)
    with pytest.raises(TableError) as error:
        await service.update_settings(CHANNEL, ALICE, turn_seconds=600)  # running turn
    assert error.value.code == "settings_when_paused"
    with pytest.raises(TableError):
        await service.update_settings(CHANNEL, BOB, turn_seconds=600)  # not the host
    await service.pause(CHANNEL, ALICE)
    await service.update_settings(CHANNEL, ALICE, turn_seconds=600)
    await service.resume(CHANNEL, ALICE)
    await service.act(CHANNEL, ALICE, "take 1")
    assert table.record.deadline == now.now + 600  # the next turn uses the new time
    assert [(t.record.channel_id, d) for t, d in service.my_turns(1, BOB)] == [(CHANNEL, now.now + 600)]
    assert service.my_turns(1, ALICE) == [] and service.my_turns(2, BOB) == []  # other server


def test_settings_input_parsing():
    assert parse_reminders("auto") is None and parse_reminders("none") == ()
    assert parse_reminders("half, 1h,10m,1h") == ("half", 3600, 600)  # duplicates dropped
    assert format_reminders(("half", 3600, 600)) == "half,1h,10m" and format_reminders(()) == "none"
    for bad in ("soon", "half,5s", ","):
        with pytest.raises(TableError):
            parse_reminders(bad)
    assert settings_changes(timeout="eliminate", ai_replaces=True, resume_wait="30s") == {
        "timeout": "eliminate", "ai_replaces": True, "resume_wait": 30}
    assert settings_changes(resume_wait="0s") == {"resume_wait": 0}  # anyone may resume at once
    assert settings_changes(language="ru") == {"language": "ru"}
    for bad, code in ((dict(timeout="never"), "bad_timeout_policy"), (dict(resume_wait="2d"), "bad_resume_wait"),
                      (dict(language="fr"), "bad_language")):
        with pytest.raises(TableError) as error:
            settings_changes(**bad)
        assert error.value.code == code


async def test_own_reminder_times_within_the_turn(setup):
    service, now, _ = setup
    # a 1 h turn from t=1000 (deadline 4600): half time 2800, 10 min before 4000; "2h before" is before
    # the turn started and is dropped
    table = await start_three(service, turn_seconds=3600, reminders=("half", 600, 7200))
    assert service.reminder_times(table) == [2800.0, 4000.0]
    # a live 2-minute turn with an explicit reminder 1 min before: 1120 - 60 = 1060
    table.record.turn_seconds, table.record.deadline = 120, 1120.0
    table.record.settings = TableSettings(reminders=(60,)).to_json()
    assert service.reminder_times(table) == [1060.0]
    table.record.settings = TableSettings(reminders=()).to_json()
    assert service.reminder_times(table) == []


async def test_timeout_policy_default_never_eliminates(setup):
    service, now, _ = setup
    table = await start_three(service, timeout="default")
    for _ in range(3):  # alice misses three turns; bob and carol play
        now.now = table.record.deadline
        assert (await service.expire(CHANNEL)).timeout == "default"
        await service.act(CHANNEL, BOB, "take 1")
        await service.act(CHANNEL, CAROL, "take 1")
    assert not table.seats[0].eliminated and table.state.pile == 30 - 9


async def test_timeout_policy_eliminate_at_first_miss(setup):
    service, now, store = setup
    table = await start_three(service, timeout="eliminate")
    now.now = table.record.deadline
    outcome = await service.expire(CHANNEL)
    assert (outcome.timeout, table.seats[0].eliminated, outcome.next_seats) == ("eliminated", True, [1])
    assert table.state.pile == 30  # no default move was played
    assert (await store.moves(table.record.id))[-1][2] == ELIMINATED


async def test_ai_replaces_a_player_out_of_time_and_a_kicked_one(setup):
    service, now, store = setup
    table = await start_three(service, timeout="eliminate", ai_replaces=True)
    now.now = table.record.deadline
    outcome = await service.expire(CHANNEL)
    # alice's seat is now an AI player: not eliminated, it plays at once (1-3 sticks), then bob moves
    assert outcome.timeout == "replaced" and outcome.moves[0] == (0, REPLACED_BY_AI)
    assert table.seats[0].is_ai and not table.seats[0].eliminated and table.state.eliminated == []
    assert len(outcome.moves) == 2 and outcome.next_seats == [1]
    pile = table.state.pile
    assert 27 <= pile <= 29
    await service.act(CHANNEL, BOB, "take 1")
    outcome = await service.kick(CHANNEL, ALICE, CAROL)  # carol to move, kicked: an AI plays her seat
    assert table.seats[2].is_ai and outcome.moves[0] == (2, REPLACED_BY_AI)
    # carol's AI seat played and so did alice's: bob is next again
    assert outcome.next_seats == [1] and table.state.pile < pile - 1
    await store.close()
    await store.open()  # the AI seats survive a restart
    reloaded = TableService(store, clock=now)
    await reloaded.load()
    assert [s.is_ai for s in reloaded.table(CHANNEL).seats] == [True, False, True]


async def test_resume_wait_is_a_table_setting(setup):
    service, now, _ = setup
    table = await start_three(service, turn_seconds=100, resume_wait=30)
    await service.pause(CHANNEL, ALICE)
    now.now += 29
    with pytest.raises(TableError) as error:
        await service.resume(CHANNEL, BOB)
    assert (error.value.code, error.value.params) == ("resume_wait", {"seconds": 1})
    now.now += 1
    await service.resume(CHANNEL, BOB)
    assert table.record.paused_at is None


async def test_settings_permissions_and_persistence(setup):
    service, now, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", seed=1)
    await service.join(CHANNEL, BOB, "bob")
    with pytest.raises(TableError) as error:
        await service.update_settings(CHANNEL, BOB, False, timeout="default")
    assert error.value.code == "host_only"
    assert service.table(CHANNEL).settings.timeout == "standard"  # read (and kept parsed) before the change
    await service.update_settings(CHANNEL, BOB, True, timeout="default")  # Manage Channels may
    await service.update_settings(CHANNEL, ALICE, False, turn_seconds=600, reminders=("half",), ai_replaces=True)
    expected = TableSettings(reminders=("half",), timeout="default", ai_replaces=True)
    assert service.table(CHANNEL).settings == expected  # the live table sees the change at once
    await store.close()
    await store.open()
    reloaded = TableService(store, clock=now)
    await reloaded.load()
    table = reloaded.table(CHANNEL)
    assert table.record.turn_seconds == 600
    assert table.settings == expected
