"""A whole game of a real engine through the table service and SQLite, restarting the store mid-game:
the move log replays to the same state, and the finished table leaves the channel free."""

import json
import random

from bot.store import SqliteStore
from bot.tables import TableService
from games import registry

CHANNEL = 42


async def test_trails_game_with_a_restart_in_the_middle(db_path):
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    await service.create(1, CHANNEL, "trails", 1, "alice", {"expansions": "river,inns,traders"}, seed=11)
    await service.join(CHANNEL, 2, "bob")
    await service.start(CHANNEL, 1)
    rng = random.Random(3)
    moves = 0
    while CHANNEL in service.tables:
        table = service.tables[CHANNEL]
        seat = table.game.to_act(table.state)[0]
        user = table.seats[seat].user_id
        await service.act(CHANNEL, user, rng.choice(service.legal_notations(CHANNEL, user)))
        moves += 1
        if moves == 60:  # restart: close the store, reopen it, rebuild the cache
            before = table.game.to_json(table.state)
            await store.close()
            store = SqliteStore(db_path)
            await store.open()
            service = TableService(store)
            await service.load()
            assert table.game.to_json(service.table(CHANNEL).state) == before
    record = await store.latest_table(CHANNEL)
    assert record.status == "finished" and record.deadline is None

    # The move log alone rebuilds the final position (nothing a player did was lost).
    game = registry.get("trails")
    replay = game.setup(2, record.options, record.seed)
    logged = await store.moves(record.id)
    assert len(logged) == moves
    for _, seat, notation, _ in logged:
        game.apply(replay, seat, game.parse(notation))
    assert game.is_over(replay)
    _, final_json = await store.snapshot(record.id)
    final = game.from_json(json.loads(final_json))
    assert game.to_json(replay) == game.to_json(final)
    assert game.scores(replay) == game.scores(final)
    await store.close()
