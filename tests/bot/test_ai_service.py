"""AI seats in the table service: the level is kept with the seat (and through a restart), a bad level is
refused and changes nothing, a replaced player's seat plays normal, a hard AI thinks in a worker process
while other tables play on, and a failing worker leaves the table a normal move instead of an error."""

from __future__ import annotations

import asyncio
import functools
import os
import time
from pathlib import Path

import pytest

from bot.store import SqliteStore
from bot.tables import AIThinker, TableError, TableService, TableSettings, think_in_worker
from games import registry

A, B = 10, 11
ALICE, BOB = 1, 2


@pytest.fixture
async def store(db_path):
    store = SqliteStore(db_path)
    await store.open()
    yield store
    await store.close()


def gated_worker(gate: str, *args) -> str:
    """The real worker, once ``gate`` (a file) exists: a search that cannot end before the test says so."""
    give_up = time.monotonic() + 60
    while not os.path.exists(gate) and time.monotonic() < give_up:
        time.sleep(0.01)
    return think_in_worker(*args)


def failing_worker(*args) -> str:
    raise RuntimeError("the worker fell over")


def human_first_seed() -> int:
    """A seed whose dice give seat 0 (the human) the first turn of a 2-player Trails game."""
    game = registry.get("trails")
    return next(seed for seed in range(100) if game.to_act(game.setup(2, {}, seed)) == [0])


def one_turn(service: TableService, channel: int, user: int) -> list[str]:
    """A whole turn of ``user``: the first legal placement, no figure, confirmed."""
    return [service.legal_notations(channel, user)[0], "confirm"]


async def test_the_level_is_stored_with_the_seat_and_a_bad_one_is_refused(store):
    service = TableService(store, clock=lambda: 1000.0)
    await service.create(1, A, "trails", ALICE, "alice", seed=1)
    with pytest.raises(TableError) as error:
        await service.add_ai(A, ALICE, "grandmaster")
    assert error.value.code == "bad_ai_level" and error.value.params["value"] == "grandmaster"
    assert len(service.table(A).seats) == 1  # nothing changed
    await service.add_ai(A, ALICE, "hard")
    await service.add_ai(A, ALICE)  # normal by default
    assert [(s.display, s.ai_level) for s in service.table(A).seats] == [
        ("alice", None), ("AI 1", "hard"), ("AI 2", "normal")]
    again = TableService(store, clock=lambda: 1000.0)  # a restart reads the levels back
    await again.load()
    assert [s.ai_level for s in again.table(A).seats] == [None, "hard", "normal"]


async def test_an_ai_that_replaces_a_player_plays_normal(store):
    service = TableService(store, clock=lambda: 1000.0)
    await service.create(1, A, "trails", ALICE, "alice", seed=human_first_seed(),
                         settings=TableSettings(ai_replaces=True))
    await service.join(A, BOB, "bob")
    await service.start(A, ALICE)
    outcome = await service.kick(A, ALICE, BOB)
    bob = service.table(A).seats[1]
    assert bob.is_ai and bob.ai_level == "normal"
    assert outcome.next_seats == [0]


async def test_another_table_moves_while_a_hard_ai_thinks(store, tmp_path: Path):
    """Order, not time: the AI's search on table A cannot return before the gate opens, and the gate opens
    only after a move on table B has been committed and answered."""
    gate = tmp_path / "gate"
    service = TableService(store, clock=lambda: 1000.0)
    service.ai = AIThinker(processes=1, worker=functools.partial(gated_worker, str(gate)))
    try:
        await service.create(1, A, "trails", ALICE, "alice", seed=human_first_seed())
        await service.add_ai(A, ALICE, "hard")
        await service.start(A, ALICE)
        await service.create(1, B, "trails", ALICE, "alice", seed=human_first_seed())
        await service.join(B, BOB, "bob")
        await service.start(B, ALICE)

        before = service.table(B).version
        thinking = asyncio.create_task(service.act(A, ALICE, one_turn(service, A, ALICE)))
        other = await service.act(B, ALICE, one_turn(service, B, ALICE))
        assert other.next_seats == [1] and service.table(B).version > before  # committed
        assert not thinking.done()  # A's AI is still searching: B's move did not wait for it
        gate.touch()
        outcome = await thinking
        ai_moves = [text for seat, text in outcome.moves if seat == 1]
        assert ai_moves and ai_moves[0].startswith("place ") and ai_moves[-1] == "confirm"
        assert outcome.next_seats == [0]  # the AI's whole turn was played, in the human's commit
    finally:
        service.ai.close()


async def test_a_failing_worker_leaves_a_normal_move(store, caplog):
    service = TableService(store, clock=lambda: 1000.0)
    service.ai = AIThinker(processes=1, worker=failing_worker)
    try:
        await service.create(1, A, "trails", ALICE, "alice", seed=human_first_seed())
        await service.add_ai(A, ALICE, "hard")
        await service.start(A, ALICE)
        outcome = await service.act(A, ALICE, one_turn(service, A, ALICE))
    finally:
        service.ai.close()
    assert [seat for seat, _ in outcome.moves][-1] == 1 and outcome.next_seats == [0]
    assert "the hard AI failed" in caplog.text


async def test_a_timeout_plays_the_rules_default_not_the_ai(store):
    """A human who runs out of time at a table with an AI seat gets the rules' default turn (Trails: the
    first legal placement, no figure), not an AI's choice; the AI then plays its own turn."""
    now = [1000.0]
    service = TableService(store, clock=lambda: now[0])
    await service.create(1, A, "trails", ALICE, "alice", seed=human_first_seed())
    await service.add_ai(A, ALICE, "normal")
    await service.start(A, ALICE)
    table = service.table(A)
    expected = table.game.format(table.game.default_action(table.state, 0))
    now[0] = table.record.deadline + 1
    outcome = await service.expire(A)
    assert outcome is not None and outcome.timeout == "default"
    assert [text for seat, text in outcome.moves if seat == 0] == [expected, "confirm"]
    assert [seat for seat, _ in outcome.moves][-1] == 1 and outcome.next_seats == [0]
