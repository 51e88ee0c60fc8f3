"""AI levels through the real bot over the fake Discord: ``/game ai add level:hard`` seats a hard AI that the
lobby, the standings and /game status name with its level (in English and in Russian), a level that does not exist is
refused privately in the reader's language, and the hard AI plays its Trails turns (searching in a worker
process) inside the human's commit: the board after Alice's turn is hers again."""

from __future__ import annotations

from tests.e2e.harness import start_bot, start_table

TIMEOUT = 60.0  # the first hard decision also starts the worker process


async def test_a_hard_ai_seat_is_added_named_and_plays(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel, game="trails")).reply()
    refusal = await (await fake.slash("/game ai add", user=world.alice, channel=channel, level="grandmaster",
                                      unchecked=True)).reply()
    assert refusal.ephemeral
    assert refusal.content == "There is no AI level “grandmaster”: choose one of easy, normal, hard."
    mark = fake.mark()
    added = await (await fake.slash("/game ai add", user=world.alice, channel=channel, level="hard")).reply()
    assert not added.ephemeral and "Alice adds AI 1 · Bot (hard)" in added.content  # one public line, no "Done."
    lobby = await fake.wait_for_message(channel, lambda m: m.id == lobby.id and "Bot (hard)" in m.text, after=mark)
    assert "AI 1 · Bot (hard)" in lobby.text
    table = bot.client.tables.tables[channel.id]
    assert [(s.display, s.ai_level) for s in table.seats] == [("Alice", None), ("AI 1", "hard")]

    board = await start_table(fake, lobby, world.alice, channel)
    status = await (await fake.slash("/game status", user=world.bob, channel=channel)).reply()
    assert "2. AI 1 · Bot (hard): AI" in status.content
    for _ in range(2):  # two of Alice's turns, each answered by the AI's whole turn
        assert board.mentions == [world.alice.id]
        assert "AI 1 · Bot (hard)" in board.text  # the standings name the level
        turns = table.game.turn_number(table.state)
        choices = await fake.autocomplete("/game move", user=world.alice, channel=channel, focused="action",
                                          value="place")
        await (await fake.slash("/game move", user=world.alice, channel=channel,
                                action=choices[0]["value"])).reply()
        mark = fake.mark()
        await fake.slash("/game move", user=world.alice, channel=channel, action="confirm")
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral,
                                            after=mark, timeout=TIMEOUT)
        assert table.game.turn_number(table.state) == turns + 2  # Alice's turn and the AI's
    assert [r.getMessage() for r in bot.errors] == []


async def test_levels_in_russian(fake, world, make_bot):
    await start_bot(fake, make_bot)
    channel = world.general
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel, game="trails",
                                    locale="ru")).reply()
    refusal = await (await fake.slash("/game ai add", user=world.alice, channel=channel, level="x",
                                      unchecked=True, locale="ru")).reply()
    assert refusal.ephemeral
    assert refusal.content == "Нет уровня компьютера «x»: выберите один из: easy, normal, hard."
    mark = fake.mark()
    await (await fake.slash("/game ai add", user=world.alice, channel=channel, level="hard", locale="ru")).reply()
    lobby = await fake.wait_for_message(channel, lambda m: m.id == lobby.id and "Бот (сложный)" in m.text,
                                        after=mark)
    assert "AI 1 · Бот (сложный)" in lobby.text
