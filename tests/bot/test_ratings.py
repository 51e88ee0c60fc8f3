"""Ratings and results: openskill's own numbers, the games that are not rated, and a game counted once."""

import asyncio
import json

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.store import Seat, SqliteStore
from bot.store.base import SeatResult
from bot.tables import TableService
from games import registry

CHANNEL = 10
GUILD = 1
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4


@pytest.fixture
async def store(db_path):
    store = SqliteStore(db_path)
    await store.open()
    yield store
    await store.close()


@pytest.fixture
def service(store):
    return TableService(store, clock=lambda: 1000.0)


def result(seat: int, player: str, place: int) -> SeatResult:
    return SeatResult(seat, player, player, place, 0, place == 1)


def expected(ranks: list[int], before: list[tuple[float, float]] | None = None) -> list[tuple[float, float]]:
    """What openskill itself computes for these places."""
    model = PlackettLuce()
    teams = [[model.rating(*b)] if b else [model.rating()] for b in (before or [None] * len(ranks))]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def flat(pairs) -> list[float]:
    return [x for pair in pairs for x in pair]


def test_two_player_win_matches_openskill():
    new = ratings.rate([result(0, "user:1", 1), result(1, "user:2", 2)], {})
    assert flat([new["user:1"], new["user:2"]]) == pytest.approx(flat(expected([1, 2])))
    assert new["user:1"][0] > 25 > new["user:2"][0]


def test_four_player_order_from_existing_ratings_matches_openskill():
    before = {"user:1": (30.0, 5.0), "user:2": (20.0, 7.0), "user:3": (25.0, 8.0), "user:4": (22.0, 3.0)}
    places = {"user:1": 3, "user:2": 1, "user:3": 4, "user:4": 2}
    results = [result(seat, player, places[player]) for seat, player in enumerate(before)]
    new = ratings.rate(results, before)
    want = expected(list(places.values()), list(before.values()))
    assert flat(new[p] for p in before) == pytest.approx(flat(want))


def test_a_tie_matches_openskill_and_tied_players_move_alike():
    new = ratings.rate([result(0, "user:1", 1), result(1, "user:2", 1), result(2, "user:3", 3)], {})
    assert flat([new["user:1"], new["user:2"], new["user:3"]]) == pytest.approx(flat(expected([1, 1, 3])))
    assert new["user:1"] == pytest.approx(new["user:2"])


def test_an_ai_level_seated_twice_gets_the_mean_of_its_copies():
    new = ratings.rate([result(0, "user:1", 1), result(1, "ai:normal", 2), result(2, "ai:normal", 3)], {})
    want = expected([1, 2, 3])
    assert new["ai:normal"] == pytest.approx(((want[1][0] + want[2][0]) / 2, (want[1][1] + want[2][1]) / 2))


def test_ai_seats_are_rated_by_level():
    assert ratings.player_of(Seat(0, None, "AI 1")) == "ai:normal"
    assert ratings.player_of(Seat(0, 7, "alice")) == "user:7"
    seat = Seat(0, None, "AI 1")
    if hasattr(seat, "ai_level"):
        seat.ai_level = "hard"
        assert ratings.player_of(seat) == "ai:hard"


async def play_nim(service, players: list[tuple[int | None, str]], moves: list[tuple[int, str]], pile: int = 3):
    """A nim table of ``players`` (user id None: an AI seat), played with ``moves`` (user, notation)."""
    host, name = players[0]
    await service.create(GUILD, CHANNEL, "nim", host, name, {"pile": str(pile)}, seed=5)
    for user, name in players[1:]:
        if user is None:
            await service.add_ai(CHANNEL, host)
        else:
            await service.join(CHANNEL, user, name)
    outcome = await service.start(CHANNEL, host)
    for user, notation in moves:
        outcome = await service.act(CHANNEL, user, notation)
    await service.results_recorded()
    return outcome


async def test_a_finished_game_is_rated_once(service, store):
    outcome = await play_nim(service, [(ALICE, "alice"), (BOB, "bob")], [(ALICE, "take 3")])
    assert outcome.finished
    want = expected([1, 2])
    found = await store.ratings(GUILD, "nim", ["user:1", "user:2"])
    assert flat([found["user:1"], found["user:2"]]) == pytest.approx(flat(want))
    record = await store.table_record(outcome.table.record.id)
    # A retry (or a restart's catch-up) records nothing more.
    assert not await ratings.record_finished(store, record, registry.get("nim"), outcome.table.state)
    assert await ratings.catch_up(store) == 0
    assert await store.ratings(GUILD, "nim", ["user:1"]) == {"user:1": pytest.approx(want[0])}
    board = {line.player: line for line in await store.rating_board(GUILD, "nim")}
    assert (board["user:1"].games, board["user:1"].wins, board["user:2"].wins) == (1, 1, 0)
    history = await store.player_results(GUILD, "user:1")
    assert [(g.place, g.score, g.won) for g in history] == [(1, 1, True)]
    assert (history[0].mu, history[0].sigma) == pytest.approx(want[0])


async def test_aborted_and_single_human_games_are_not_rated(service, store):
    await service.create(GUILD, CHANNEL, "nim", ALICE, "alice", {"pile": "3"}, seed=5)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    await service.abort(CHANNEL, ALICE)
    assert await ratings.catch_up(store) == 0  # aborted: nothing recorded
    outcome = await play_nim(service, [(ALICE, "alice"), (None, "AI")], [(ALICE, "take 3")])
    assert outcome.finished
    assert await store.ratings(GUILD, "nim", ["user:1", "ai:normal"]) == {}
    assert await store.rating_board(GUILD, "nim") == []
    # Still a game played: the results are kept for the player's stats.
    assert [(g.won, g.mu) for g in await store.player_results(GUILD, "user:1")] == [(True, None)]


async def test_ai_rated_with_two_humans_and_eliminated_ranked_last(service, store):
    """Four seats: alice wins, bob and the AI tie for second (nim's result), carol is kicked out and ranks
    last: the ratings are openskill's for places 1, 2, 2, 4."""
    await service.create(GUILD, CHANNEL, "nim", ALICE, "alice", {"pile": "5"}, seed=5)
    await service.join(CHANNEL, BOB, "bob")
    await service.join(CHANNEL, CAROL, "carol")
    await service.add_ai(CHANNEL, ALICE)
    await service.start(CHANNEL, ALICE)
    await service.kick(CHANNEL, ALICE, CAROL)
    await service.act(CHANNEL, ALICE, "take 1")  # 4 left; bob next
    await service.act(CHANNEL, BOB, "take 3")  # 1 left: whoever is next takes it
    table = service.tables.get(CHANNEL)
    while table is not None and table.state is not None:
        user = next(s.user_id for s in table.seats if s.position == table.game.to_act(table.state)[0])
        await service.act(CHANNEL, user, "take 1")
        table = service.tables.get(CHANNEL)
    await service.results_recorded()
    [(record, _)] = await store.finished_games(CHANNEL, 5)
    results = {r.player: r for r in (await store.rating_board(GUILD, "nim"))}
    assert set(results) == {"user:1", "user:2", "user:3", "ai:normal"}
    places = {g.table_id: g.place for g in await store.player_results(GUILD, "user:3")}
    assert places == {record.id: 4}  # eliminated: last
    game = registry.get("nim")
    state = game.from_json(json.loads((await store.snapshot(record.id))[1]))
    seat_places = {r.player: r.place for r in ratings.seat_results(game, state, record.seats)}
    order = ["user:1", "user:2", "user:3", "ai:normal"]
    assert sorted(seat_places.values()) == [1, 2, 2, 4]
    want = expected([seat_places[p] for p in order])
    assert flat((results[p].mu, results[p].sigma) for p in order) == pytest.approx(flat(want))


async def test_catch_up_records_games_finished_before_ratings(service, store):
    outcome = await play_nim(service, [(ALICE, "alice"), (BOB, "bob")], [(ALICE, "take 3")])
    table_id = outcome.table.record.id
    await store.db.execute("DELETE FROM game_results WHERE table_id = ?", (table_id,))
    await store.db.execute("DELETE FROM recorded_games WHERE table_id = ?", (table_id,))
    await store.db.execute("DELETE FROM ratings")
    await store.db.commit()
    assert await ratings.catch_up(store, owns_guild=lambda guild_id: guild_id != GUILD) == 0  # another shard's
    assert await ratings.catch_up(store) == 1
    assert await ratings.catch_up(store) == 0
    assert await store.ratings(GUILD, "nim", ["user:1"]) == {"user:1": pytest.approx(expected([1, 2])[0])}
    [(record, winners)] = await store.finished_games(CHANNEL, 5)
    assert record.id == table_id and winners == ["alice"]


async def test_the_last_move_does_not_wait_for_the_results_and_readers_do(service, store, monkeypatch, caplog):
    """Ratings are recorded one game at a time; the move that ends a game returns while its results are still
    being written (here: held back), and whoever reads results waits for them."""
    release = asyncio.Event()
    real_record_game = store.record_game

    async def held_record_game(*args, **kwargs):
        await release.wait()
        return await real_record_game(*args, **kwargs)

    monkeypatch.setattr(store, "record_game", held_record_game)
    await service.create(GUILD, CHANNEL, "nim", ALICE, "alice", {"pile": "3"}, seed=5)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    outcome = await asyncio.wait_for(service.act(CHANNEL, ALICE, "take 3"), 5)
    assert outcome.finished and await store.ratings(GUILD, "nim", ["user:1"]) == {}
    reader = asyncio.create_task(service.results_recorded())
    await asyncio.sleep(0.01)
    assert not reader.done()  # a leaderboard asked now waits for this game
    await asyncio.wait_for(service.results_recorded(within=0.05), 5)  # ... within the time it has to answer
    assert not reader.done()
    release.set()
    await asyncio.wait_for(reader, 5)
    assert await store.ratings(GUILD, "nim", ["user:1"]) == {"user:1": pytest.approx(expected([1, 2])[0])}

    # A recording that fails is logged; the game is recorded at the next start (catch-up).
    async def broken_record_game(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store, "record_game", broken_record_game)
    await service.create(GUILD, CHANNEL, "nim", ALICE, "alice", {"pile": "3"}, seed=5)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    outcome = await service.act(CHANNEL, ALICE, "take 3")
    await service.results_recorded()
    assert "could not record the results of table" in caplog.text
    monkeypatch.setattr(store, "record_game", real_record_game)
    assert await ratings.catch_up(store) == 1
    assert [winners for _, winners in await store.finished_games(CHANNEL, 5)] == [["alice"], ["alice"]]
