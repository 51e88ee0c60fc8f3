"""Every option of every command, filled with what a hostile or careless client sends: 6,000 characters,
a 4,400-digit number, "1e400", nonsense outside the choices. Each gets a clear private answer within
Discord's limits, never "something went wrong", nothing public, and no table changes. Also: the lobby
never prints a custom deck, and a table that cannot be loaded after a restart is told in its channel."""

import itertools

import pytest

from tests.e2e.fake_discord import commands as cmd
from tests.e2e.harness import start_bot

HOSTILE = ["x" * 6000, "9" * 4400, "1e400", "-inf", "<@&1> @everyone \u202e\u0000"]


def leaves(command: dict, prefix: str = "") -> list[tuple[str, list[dict]]]:
    """(``"/game new"``, its options) for every runnable command in a synced command tree."""
    name = f"{prefix} {command['name']}".strip()
    subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
    if not subs:
        return [(f"/{name}", command.get("options", []))]
    return [leaf for sub in subs for leaf in leaves(sub, name)]


def filler(option: dict, world):
    """A valid value for an option the test is not attacking."""
    return {cmd.USER: world.bob, cmd.BOOLEAN: True, cmd.INTEGER: 1, cmd.NUMBER: 1.0}.get(option["type"], "x")


async def started_trails(fake, world):
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general, game="trails")).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    board = await fake.wait_for_message(world.general, lambda m: bool(m.attachments), after=mark)
    await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "first board" in m.text)
    return board


async def test_every_string_option_answers_hostile_values_clearly(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    await started_trails(fake, world)
    table = bot.client.tables.tables[world.general.id]
    before = (table.version, table.game.to_json(table.state))
    attacked = 0
    for command in fake.registered_commands(world.guild):
        for name, options in leaves(command):
            strings = [o for o in options if o["type"] == cmd.STRING]
            for option, value in itertools.product(strings, HOSTILE):
                values = {o["name"]: filler(o, world) for o in options if o.get("required") and o is not option}
                values[option["name"]] = value
                mark = fake.mark()
                for user in (world.alice, world.carol):  # the player to move, and a stranger
                    reply = await (await fake.slash(name, user=user, channel=world.general, options=values,
                                                     unchecked=True)).reply()
                    attacked += 1
                    assert reply.ephemeral, (name, option["name"], reply.content)
                    assert len(reply.text) <= 2000 and "went wrong" not in reply.text, (name, option["name"])
                public = [m for m in fake.channel_messages(world.general) if m.seq > mark]
                assert public == [], (name, option["name"], [m.text[:80] for m in public])
    assert attacked > 100
    assert (table.version, table.game.to_json(table.state)) == before  # nothing changed
    assert [r.getMessage() for r in bot.errors] == []  # nothing logged as a bug


async def test_the_public_lobby_never_prints_a_custom_deck(fake, world, make_bot):
    from games.registry import get

    await start_bot(fake, make_bot)
    deck = ",".join(get("trails").setup(2, {}, 3).deck[:30])
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": "trails", "options": f"deck={deck}"})).reply()
    assert not lobby.ephemeral
    assert deck.split(",")[5] not in lobby.text and "deck: custom (30 items)" in lobby.text


async def test_a_table_that_cannot_be_loaded_is_told_in_its_channel_and_the_others_play(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    for channel in (world.general, world.games):
        lobby = await (await fake.slash("/game new", user=world.alice, channel=channel,
                                        options={"game": "nim", "options": "pile=9"})).reply()
        await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
        mark = fake.mark()
        await fake.click(lobby, "pbc:lobby:start", user=world.alice)
        await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    broken_id = bot.client.tables.tables[world.general.id].record.id
    await bot.client.store.db.execute("UPDATE snapshots SET state = '{broken' WHERE table_id = ?", (broken_id,))
    await bot.client.store.db.commit()
    await bot.stop()
    bot = await start_bot(fake, make_bot)  # starts, with the broken table set aside
    told = await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 1")).reply()
    assert told.ephemeral and "could not be loaded" in told.content and "/game abort" in told.content
    mark = fake.mark()
    await fake.slash("/game move", user=world.alice, channel=world.games, action="take 1")
    board = await fake.wait_for_message(world.games, lambda m: bool(m.attachments), after=mark)
    assert board.mentions == [world.bob.id]
    mark = fake.mark()
    await fake.slash("/game abort", user=world.alice, channel=world.general)  # answered in public only
    await fake.wait_for_message(world.general, lambda m: "closed by Alice" in m.text, after=mark)
    reopened = await (await fake.slash("/game new", user=world.alice, channel=world.general, game="nim")).reply()
    assert not reopened.ephemeral  # the host closed it and the channel is free again


@pytest.mark.parametrize("user", ["bob", "admin"])
async def test_start_and_ai_seats_say_exactly_who_may(fake, world, make_bot, user):
    await start_bot(fake, make_bot)
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general, game="nim")).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    member = getattr(world, user)  # admin has Manage Channels, which is not enough for these two
    start = await (await fake.click(lobby, "pbc:lobby:start", user=member)).reply(lambda m: m.ephemeral)
    assert start.content == "Only the host can start the game."
    ai = await (await fake.slash("/game ai add", user=member, channel=world.general)).reply()
    assert ai.ephemeral and ai.content == "Only the host can add or remove AI seats."


@pytest.mark.parametrize("button", ["pbc:lobby:leave", "pbc:lobby:join"])
async def test_a_lobby_button_pressed_with_start_never_seats_a_ghost(fake, world, make_bot, button):
    import asyncio

    bot = await start_bot(fake, make_bot)
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": "nim", "options": "pile=9"})).reply()
    for user in (world.bob, world.carol):
        await (await fake.click(lobby, "pbc:lobby:join", user=user)).response()
    other = world.carol if button.endswith("leave") else world.dave
    mark = fake.mark()
    await asyncio.gather(fake.click(lobby, button, user=other), fake.click(lobby, "pbc:lobby:start", user=world.alice))
    board = await fake.wait_for_message(world.general, lambda m: bool(m.attachments), after=mark)
    table = bot.client.tables.tables[world.general.id]
    assert table.state.players == len(table.seats)  # the game has exactly the seats the table has
    stored = await bot.client.store.latest_table(world.general.id)
    assert [s.user_id for s in stored.seats] == [s.user_id for s in table.seats]
    assert board.mentions == [world.alice.id]
    for _ in range(table.state.players):  # and every seat can play
        seat = table.game.to_act(table.state)[0]
        user = table.seats[seat].user_id
        mark = fake.mark()
        await fake.slash("/game move", user=fake.world.users[user], channel=world.general, action="take 1")
        await fake.wait_for_message(world.general, lambda m: bool(m.attachments), after=mark)


async def test_game_names_are_suggested_in_the_readers_language(fake, world, make_bot):
    await start_bot(fake, make_bot)
    for typed, locale, expected in (("тро", "ru", "trails"), ("деол", "ru", "deole"), ("trail", "en-US", "trails")):
        choices = await fake.autocomplete("/game new", user=world.alice, channel=world.general, focused="game",
                                          value=typed, locale=locale)
        assert [c["value"] for c in choices] == [expected], (typed, choices)
    status_board = await (await fake.slash("/game new", user=world.alice, channel=world.general, game="nim")).reply()
    assert not status_board.ephemeral


async def test_options_are_found_by_words_of_the_readers_language(fake, world, make_bot):
    await start_bot(fake, make_bot)
    for game, typed, locale, expected in (("trails", "ручей", "ru", ["expansions=river"]),
                                          ("deole", "север", "ru", ["side=blue"]),
                                          ("trails", "луг", "ru", ["fields=yes", "fields=no"]),
                                          ("trails", "stream", "en-US", ["expansions=river"])):
        choices = await fake.autocomplete("/game new", user=world.alice, channel=world.general, focused="options",
                                          value=typed, locale=locale, game=game)
        assert [c["value"] for c in choices] == expected, (typed, choices)
