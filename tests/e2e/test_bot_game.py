"""The real bot over the fake Discord: lobby buttons, refusals, moves through /game move with its
autocomplete, a restart in the middle, and the game to its end. Uses the tests' small game (nim,
5 sticks, take 1-3) so every position is known: alice 2 -> 3 left, bob 1 -> 2 left, alice 2 -> wins."""

from tests.e2e.harness import start_bot


def private(message) -> bool:
    return message.ephemeral



async def test_lobby_moves_restart_and_end(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel,
                                    options={"game": "nim", "options": "pile=5"})).reply()
    assert {"pbc:lobby:join", "pbc:lobby:leave", "pbc:lobby:start"} <= set(lobby.custom_ids())
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()

    refusal = await (await fake.click(lobby, "pbc:lobby:start", user=world.bob)).reply(private)
    assert "only the host can start" in refusal.content.lower()

    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert board.attachments[0].image().format == "PNG"
    assert board.mentions == [world.alice.id]  # only the player to move

    # Out of turn and not seated: ephemeral, nothing changes.
    for user in (world.bob, world.carol):
        error = await (await fake.slash("/game move", user=user, channel=channel, action="take 1")).reply()
        assert error.ephemeral
    choices = await fake.autocomplete("/game move", user=world.alice, channel=channel, focused="action", value="2")
    assert [c["value"] for c in choices] == ["take 2"]
    mark = fake.mark()
    await fake.slash("/game move", user=world.alice, channel=channel, action=choices[0]["value"])
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert board.mentions == [world.bob.id]

    await bot.stop()  # restart on the same database: the game goes on from the same position
    bot = await start_bot(fake, make_bot)
    status = await (await fake.slash("/game status", user=world.bob, channel=channel)).reply()
    assert status.ephemeral and "bob" in status.content.lower()
    choices = await fake.autocomplete("/game move", user=world.bob, channel=channel, focused="action", value="")
    assert [c["value"] for c in choices] == ["take 1", "take 2", "take 3"]  # 3 sticks left
    mark = fake.mark()
    await fake.slash("/game move", user=world.bob, channel=channel, action="take 1")
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert board.mentions == [world.alice.id]
    mark = fake.mark()
    await fake.slash("/game move", user=world.alice, channel=channel, action="take 2")
    final = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert "game over" in final.content.lower() and final.mentions == []
    new_table = await (await fake.slash("/game new", user=world.bob, channel=channel, game="nim")).reply()
    assert not new_table.ephemeral  # the channel is free again
    assert fake.unknown_routes == []
    await bot.stop()


async def test_lobby_buttons_work_after_a_restart(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": "nim"})).reply()
    await bot.stop()
    bot = await start_bot(fake, make_bot)  # a new client on the same database
    joined = await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    assert joined.type == 6  # acknowledged at once; then the lobby message is edited in place
    await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "Bob" in m.text)
    await (await fake.click(lobby, "pbc:lobby:join", user=world.carol)).response()
    await (await fake.click(lobby, "pbc:lobby:leave", user=world.carol)).response()
    edited = await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "Carol" not in m.text
                                         and "Bob" in m.text)
    assert not edited.deleted
    stranger = await (await fake.click(lobby, "pbc:lobby:leave", user=world.dave)).reply(private)
    assert "not seated" in stranger.content.lower()  # dave was never seated
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    board = await fake.wait_for_message(world.general, lambda m: bool(m.attachments), after=mark)
    assert board.mentions == [world.alice.id]
    await bot.stop()


async def test_a_real_game_to_the_end_through_game_move_and_its_autocomplete(fake, world, make_bot):
    """Trails & Fortresses, 2 players, on a fixed deck of 24 tiles drawn from a shuffled base set (the
    ``deck`` option) so the whole game stays short; every move is a value offered by /game move's
    autocomplete. A step of a turn (laying the tile, a figure) is answered privately with a preview; the
    confirmed turn posts a PNG board that mentions only the next player."""
    import random

    from games.registry import get

    deck = ",".join(get("trails").setup(2, {}, 7).deck[:24])
    bot = await start_bot(fake, make_bot)
    channel, users = world.general, {world.alice.id: world.alice, world.bob.id: world.bob}
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel,
                                    options={"game": "trails", "options": f"deck={deck}"})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    # The lobby follows the table's life: started, with a link to the first board, buttons gone.
    started = await fake.wait_for_message(channel, lambda m: m.id == lobby.id and "first board" in m.text)
    assert "game started" in started.text and str(board.id) in started.text and not started.custom_ids()
    rng, moves, boards, steps = random.Random(3), 0, 1, 0
    user = users[board.mentions[0]]
    while "game over" not in board.content.lower():
        choices = await fake.autocomplete("/game move", user=user, channel=channel, focused="action", value="")
        assert choices, board.text
        choice = rng.choice(choices)
        while "…" in choice["name"]:  # a group of moves (more than 25 match): typed on from it, as Discord does
            choice = rng.choice(await fake.autocomplete("/game move", user=user, channel=channel, focused="action",
                                                        value=choice["name"]))
        mark = fake.mark()
        reply = await (await fake.slash("/game move", user=user, channel=channel,
                                        action=choice["value"])).reply()
        moves += 1
        assert reply.ephemeral  # the mover's own answer: a step's preview, or where the board is
        if "on the board" not in reply.content:  # a step: nothing public was posted
            steps += 1
            assert [m for m in fake.channel_messages(channel) if m.seq > mark] == []
            continue
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark,
                                            include_ephemeral=False)
        assert board.jump_url in reply.content if hasattr(board, "jump_url") else str(board.id) in reply.content
        boards += 1
        assert board.attachments[0].image().format == "PNG"
        if "game over" not in board.content.lower():
            assert len(board.mentions) == 1
            user = users[board.mentions[0]]
    assert board.mentions == [] and boards == 25 and steps >= 24  # the start, then one board per tile
    finished = await fake.wait_for_message(channel, lambda m: m.id == lobby.id and "last board" in m.text)
    assert "game over" in finished.text and str(board.id) in finished.text and "1. " in finished.text
    standings = board.embeds[0]["fields"][0]["value"]
    assert "Alice" in standings and "Bob" in standings
    table = await bot.client.store.latest_table(channel.id)
    assert table.status == "finished" and len(await bot.client.store.moves(table.id)) == moves
    # Clicks on the lobby and board buttons are routed by custom id to the views registered once at start:
    # no view object is kept per posted message (that would grow for as long as the bot runs).
    assert set(bot.client._connection._view_store._views) <= {None}


async def test_commands_are_synced_only_when_they_change(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    synced = len(fake.requests_to("PUT", "/applications/*/guilds/*/commands"))
    assert synced == 1
    await bot.stop()
    bot = await start_bot(fake, make_bot)  # the same commands: Discord is not asked again
    assert len(fake.requests_to("PUT", "/applications/*/guilds/*/commands")) == 1
    assert fake.registered_commands(world.guild)  # still there
    # Definitions that differ from the last sync (a new version of the bot) are synced at the next start.
    await bot.client.store.set_meta(f"commands_synced:{world.guild.id}", "an older version's commands")
    await bot.stop()
    bot = await start_bot(fake, make_bot)
    assert len(fake.requests_to("PUT", "/applications/*/guilds/*/commands")) == 2
    await bot.stop()
