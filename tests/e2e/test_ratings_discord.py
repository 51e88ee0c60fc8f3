"""Ratings, stats, the list of finished games and replays through the real bot on the fake Discord, with the
tests' nim (5 sticks, take 1-3: alice 2, bob 1, alice 2 wins)."""

import io
import json

from PIL import Image

import rendering
from bot.store.base import SeatResult
from tests.e2e.harness import start_bot


def has_image(message) -> bool:
    return bool(message.attachments)


async def play_nim(fake, world, first, second, moves=("take 2", "take 1", "take 2"), **settings):
    """``first`` opens, ``second`` joins, they play ``moves`` in turn; returns the final board."""
    channel = world.general
    lobby = await (await fake.slash("/game new", user=first, channel=channel,
                                    options={"game": "nim", "options": "pile=5", **settings})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=second)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=first)
    board = await fake.wait_for_message(channel, has_image, after=mark)
    for number, move in enumerate(moves):
        mark = fake.mark()
        await fake.slash("/game move", user=(first, second)[number % 2], channel=channel, action=move)
        board = await fake.wait_for_message(channel, has_image, after=mark, include_ephemeral=False)
    assert any(end in board.content.lower() for end in ("game over", "партия окончена"))
    return board


async def test_leaderboard_and_stats_after_a_game_in_both_languages(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    await play_nim(fake, world, world.alice, world.bob)
    board = await (await fake.slash("/game leaderboard", user=world.carol, channel=world.general, game="nim")).reply()
    assert board.ephemeral
    lines = board.embeds[0]["description"].splitlines()
    assert lines[0].startswith("1. Alice: 3.") and lines[0].endswith("1 game · 1 win")
    assert lines[1].startswith("2. Bob: -") and lines[1].endswith("1 game · 0 wins")
    assert "μ − 3σ" in board.text
    russian = await (await fake.slash("/game leaderboard", user=world.bob, channel=world.general, game="nim",
                                      locale="ru")).reply()
    assert "**2. Bob: " in russian.text and "1 партия · 0 побед" in russian.text  # the reader's own line in bold
    typed = await (await fake.slash("/game leaderboard", user=world.carol, channel=world.general, game="Ni")).reply()
    assert typed.embeds[0]["description"] == board.embeds[0]["description"]  # the game typed, not picked

    stats = await (await fake.slash("/game stats", user=world.carol, channel=world.general,
                                    options={"user": world.alice})).reply()
    assert stats.ephemeral and stats.embeds[0]["fields"][0]["name"] == "Nim"
    assert stats.embeds[0]["fields"][0]["value"].startswith("1 game, 1 win (100%) · average score 1.0, best 1")
    chart = stats.attachments[0].image()
    assert chart.format == "PNG" and chart.size == (640, 300)
    russian = await (await fake.slash("/game stats", user=world.bob, channel=world.general, locale="ru")).reply()
    assert "1 партия, 0 побед (0%) · средний счёт 0.0, лучший 0" in russian.text
    nothing = await (await fake.slash("/game stats", user=world.carol, channel=world.general)).reply()
    assert nothing.ephemeral and "no finished games" in nothing.content
    unknown = await (await fake.slash("/game leaderboard", user=world.carol, channel=world.general,
                                      game="chess")).reply()
    assert unknown.ephemeral and "Unknown game" in unknown.content
    await bot.stop()


async def test_the_callers_own_line_follows_the_top_ten(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    await play_nim(fake, world, world.alice, world.bob)  # bob lost his only game
    store = bot.client.tables.store
    table_id = 1000
    for number in range(12):  # twelve others who each won a game against a newcomer
        table_id += 1
        await store.db.execute("INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, host_id,"
                               " seed, created_at, finished_at) VALUES (?, ?, 5, 'nim', '{}', 'finished', 1, 0, 0, 1)",
                               (table_id, world.guild.id))
        await store.db.commit()
        await store.record_game(table_id, world.guild.id, "nim", 1.0, [
            SeatResult(0, f"user:{9000 + number}", f"Player {number}", 1, 1, True, 27.6 + number / 10, 8.0),
            SeatResult(1, f"user:{8000 + number}", f"Newcomer {number}", 2, 0, False, 22.4, 8.0)],
            lambda current, n=number: {f"user:{9000 + n}": (27.6 + n / 10, 8.0), f"user:{8000 + n}": (22.4, 8.0)})
    board = await (await fake.slash("/game leaderboard", user=world.bob, channel=world.lounge, game="nim")).reply()
    lines = board.embeds[0]["description"].splitlines()
    assert len(lines) == 12 and lines[0].startswith("1. Player 11: ") and lines[10] == "…"
    assert lines[11].startswith("**") and "Bob" in lines[11]
    await bot.stop()


async def test_history_lists_finished_games_and_replay_posts_the_animation_and_record(fake, world, make_bot,
                                                                                      monkeypatch):
    bot = await start_bot(fake, make_bot)
    nothing = await (await fake.slash("/game replay", user=world.carol, channel=world.general)).reply()
    assert nothing.ephemeral and "No game has finished" in nothing.content
    await play_nim(fake, world, world.alice, world.bob)
    await play_nim(fake, world, world.bob, world.alice, moves=("take 3", "take 2"),  # bob takes 3, alice wins
                   language="ru")
    history = await (await fake.slash("/game history", user=world.carol, channel=world.general)).reply()
    listing = history.embeds[0]
    assert listing["title"] == "Finished games in this channel"
    newest, oldest = listing["description"].splitlines()
    assert newest.startswith("**#2** · Nim · <t:") and newest.endswith("won: Alice")
    assert oldest.startswith("**#1** · Nim") and "Turn 2 · Alice:" in history.content  # the latest story too
    first = await (await fake.slash("/game history", user=world.carol, channel=world.general, game=1)).reply()
    assert "Turn 3 · Alice:" in first.content

    mark = fake.mark()
    replay = await (await fake.slash("/game replay", user=world.carol, channel=world.general, game=1)).reply()
    assert not replay.ephemeral and "game #1: 3 turns" in replay.content
    animation, record = replay.attachments
    assert animation.filename == "nim-1.webp" and record.filename == "nim-1.json"
    image = Image.open(io.BytesIO(animation.data))
    assert image.format == "WEBP" and image.n_frames == 4
    data = json.loads(record.data)
    assert [m["move"] for m in data["moves"]] == ["take 2", "take 1", "take 2"]
    assert (data["game"], data["seed"] is not None, [s["name"] for s in data["seats"]]) == ("nim", True, ["Alice", "Bob"])
    # The channel reads a replay in the table's language, whoever asks; asked again, it is not drawn again.
    latest = await (await fake.slash("/game replay", user=world.carol, channel=world.general)).reply()
    assert "№2: 2 хода" in latest.content
    drawn = []
    monkeypatch.setattr(rendering, "render_board", lambda *args: drawn.append(args) or b"")
    again = await (await fake.slash("/game replay", user=world.dave, channel=world.general)).reply()
    assert again.attachments[0].data == latest.attachments[0].data and drawn == []
    assert fake.mark() > mark

    # A game still in play, or another channel's, is not replayed (its record would tell the deck): privately.
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": "nim"})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    for game in (3, 2, 99):
        channel = world.lounge if game == 2 else world.general
        refused = await (await fake.slash("/game replay", user=world.carol, channel=channel, game=game)).reply()
        assert refused.ephemeral and f"no finished game #{game}" in refused.content
    await bot.stop()


def test_an_ai_level_is_named_in_the_readers_language():
    from bot.store.base import RatingLine
    from cogs.ratings import leaderboard_lines

    board = [RatingLine("ai:hard", "AI 1", 30.0, 2.0, 4, 3), RatingLine("user:1", "Alice", 25.0, 8.0, 1, 0)]
    assert leaderboard_lines(board, "user:1", "ru") == ["1. Компьютер (сложный): 24.0 · 4 партии · 3 победы",
                                                        "**2. Alice: 1.0 · 1 партия · 0 побед**"]


async def test_a_game_whose_results_were_lost_is_rated_at_the_next_start(fake, world, make_bot):
    """As after a crash between the game's last commit and its results: the next start records them."""
    import asyncio

    bot = await start_bot(fake, make_bot)
    await play_nim(fake, world, world.alice, world.bob)
    store = bot.client.tables.store
    for table in ("game_results", "recorded_games", "ratings"):
        await store.db.execute(f"DELETE FROM {table}")
    await store.db.commit()
    await bot.stop()
    bot = await start_bot(fake, make_bot)
    for _ in range(100):  # recorded in the background once connected
        if await bot.client.tables.store.rating_board(world.guild.id, "nim"):
            break
        await asyncio.sleep(0.05)
    board = await (await fake.slash("/game leaderboard", user=world.carol, channel=world.general, game="nim")).reply()
    assert board.embeds[0]["description"].splitlines()[0].startswith("1. Alice: 3.")
    await bot.stop()
