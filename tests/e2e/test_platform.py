"""The real bot over the fake Discord: what every game relies on. Command sync with both languages,
refusals that change nothing, hidden hands that stay hidden, Discord errors on board posts, and the turn
clock running out. Small test games (tests/nim.py, tests/cards.py) keep every position known."""

from __future__ import annotations

import asyncio
import io
import json
import re
import time

import pytest
from PIL import Image, PngImagePlugin

import rendering
from bot.i18n import catalog
from tests.cards import GEMS
from tests.e2e import harness
from tests.e2e.harness import start_bot

NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2


def has_image(message) -> bool:
    return bool(message.attachments)


def walk(item: dict):
    """A synced command, its subcommands and groups, and their options, depth first."""
    yield item
    for option in item.get("options", []):
        yield from walk(option)


async def public_since(fake, mark: int, text: str):
    """The bot's first public message since ``mark`` that contains ``text``."""
    return await fake.wait_for_message(None, lambda m: text in m.text, after=mark, include_ephemeral=False)


async def open_table(fake, world, game: str, *players, options: str = "", **settings):
    """alice opens a table, the others join with the lobby button, alice starts; returns the first board."""
    return (await harness.open_table(fake, world, game, *players, options=options, **settings))[1]


async def test_every_synced_command_is_in_english_and_russian(fake, world, make_bot):
    await start_bot(fake, make_bot)
    commands = fake.registered_commands(world.guild)
    game = fake.command("game", guild=world.guild)
    subcommands = {o["name"] for o in game["options"]}
    assert {"new", "join", "leave", "start", "ai", "move", "status", "board", "hand", "history", "abort", "rules",
            "pause", "resume", "kick", "substitute", "extend", "settings", "mine"} <= subcommands
    checked = 0
    for command in commands:
        for item in walk(command):
            assert NAME.match(item["name"]) and item["description"], item["name"]
            russian_name = (item.get("name_localizations") or {}).get("ru")
            russian_description = (item.get("description_localizations") or {}).get("ru")
            assert russian_name and NAME.match(russian_name) and russian_name == russian_name.lower(), item["name"]
            assert russian_description and russian_description != item["description"], item["name"]
            for choice in item.get("choices", []):
                assert (choice.get("name_localizations") or {}).get("ru"), choice["name"]
            checked += 1
    assert checked >= 40  # commands, groups and every parameter
    # A Russian player types the Russian names and is answered in Russian.
    ru = catalog("ru")
    reply = await (await fake.slash(f"/{ru['cmd.game']} {ru['cmd.status']}", user=world.bob, channel=world.general,
                                    locale="ru")).reply()
    assert reply.ephemeral and reply.content == ru["error.no_table"]


async def test_refused_moves_are_ephemeral_and_change_nothing(fake, world, make_bot):
    await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=5")

    async def status() -> str:
        return (await (await fake.slash("/game status", user=world.carol, channel=world.general)).reply()).content

    before = await status()
    assert "alice" in before.lower()
    assert "pbc:hand" not in fake.channel_messages(world.general)[-1].custom_ids()  # nim has no hands
    mark = fake.mark()
    for user, action in ((world.alice, "take 9"), (world.alice, "grab some"), (world.bob, "take 1"),
                         (world.carol, "take 1")):  # illegal, malformed, out of turn, not seated
        reply = await (await fake.slash("/game move", user=user, channel=world.general, action=action)).reply()
        assert reply.ephemeral and reply.content, (user.name, action)
    assert await status() == before
    assert [m for m in fake.channel_messages(world.general) if m.seq > mark] == []  # nothing public
    choices = await fake.autocomplete("/game move", user=world.alice, channel=world.general, focused="action",
                                      value="")
    assert [c["value"] for c in choices] == ["take 1", "take 2", "take 3"]  # still 5 sticks, alice to move


@pytest.fixture
def view_in_images(monkeypatch):
    """Every image the bot renders carries the view it was drawn from (a PNG text chunk), so a test can
    read the source view of any posted image. (The cogs call ``rendering.render_board``: patched there.)"""
    real = rendering.render_board

    def render_with_view(game_key, view, locale="en", names=None):
        image = Image.open(io.BytesIO(real(game_key, view, locale, names)))
        info = PngImagePlugin.PngInfo()
        info.add_text("view", json.dumps(view))
        out = io.BytesIO()
        image.save(out, "PNG", pnginfo=info)
        return out.getvalue()

    monkeypatch.setattr(rendering, "render_board", render_with_view)


def source_view(attachment) -> dict:
    return json.loads(attachment.image().info["view"])


async def test_hands_stay_private_over_a_whole_game(fake, world, make_bot, view_in_images):
    bot = await start_bot(fake, make_bot)
    players = [world.alice, world.bob, world.carol]
    await open_table(fake, world, "gems", world.bob, world.carol)
    tables = bot.client.tables

    def hands() -> list[list[str]]:
        table = tables.tables.get(world.general.id)
        return table.state.hands if table is not None else [[], [], []]

    def assert_nothing_held_is_public() -> None:
        held = {gem for hand in hands() for gem in hand}
        for message in fake.channel_messages(world.general):  # public messages only
            words = set(re.findall(r"[a-z]+", message.text.lower()))
            assert not held & words, (message.text, held)
            for attachment in message.attachments:
                view = source_view(attachment)
                assert "hand" not in view
                assert not held & set(re.findall(r"[a-z]+", json.dumps(view))), view

    assert_nothing_held_is_public()
    board = fake.channel_messages(world.general)[-1]
    stranger = await (await fake.click(board, "pbc:hand", user=world.dave)).reply()
    assert stranger.ephemeral and "not seated" in stranger.content.lower() and not stranger.attachments
    for turn in range(9):  # three gems each
        seat = tables.tables[world.general.id].state.turn
        user = players[seat]
        own = list(hands()[seat])
        # /game hand or the board's "My hand" button: the owner sees exactly their own hand, ephemerally,
        # and nobody else's
        assert "pbc:hand" in board.custom_ids()
        asked = fake.slash("/game hand", user=user, channel=world.general) if turn % 2 else \
            fake.click(board, "pbc:hand", user=user)
        reply = await (await asked).reply()
        assert reply.ephemeral and source_view(reply.attachments[0])["hand"] == own
        others = {gem for s, hand in enumerate(hands()) if s != seat for gem in hand}
        assert not others & set(json.dumps(source_view(reply.attachments[0])).replace('"', " ").split())
        # the autocomplete of /game move offers the caller's own gems only
        choices = await fake.autocomplete("/game move", user=user, channel=world.general, focused="action", value="")
        assert [c["value"] for c in choices] == [f"play {gem}" for gem in own]
        mark = fake.mark()
        await fake.slash("/game move", user=user, channel=world.general, action=choices[-1]["value"])
        board = await fake.wait_for_message(world.general, has_image, after=mark)
        assert not board.ephemeral
        assert_nothing_held_is_public()
    assert "game over" in board.content.lower()
    played = source_view(board.attachments[0])["played"]
    assert sorted(g for gems in played for g in gems) == sorted(played_gem for gems in played for played_gem in gems)
    assert all(gem in GEMS for gems in played for gem in gems) and sum(map(len, played)) == 9


async def test_board_posts_survive_rate_limits_and_server_errors(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    bot.client.get_cog("GameCog").post_retry_delay = 0.05
    await open_table(fake, world, "nim", world.bob, options="pile=10")
    table = bot.client.tables.tables[world.general.id]
    # 1) five 429s in a row: discord.py gives up after its five attempts; the bot tries once more a little
    #    later. 2) a 500: discord.py retries it. 3) an ambiguous 502: Discord took the post but the answer was
    #    lost; the retry carries the same nonce, so Discord answers with the same message: still one board.
    for user, action, fault in ((world.alice, "take 1", dict(status=429, retry_after=0.05, times=5)),
                                (world.bob, "take 2", dict(status=500, times=1)),
                                (world.alice, "take 3", dict(status=502, times=1, served=True))):
        fake.inject("POST", "/channels/*/messages", **fault)
        mark = fake.mark()
        await fake.slash("/game move", user=user, channel=world.general, action=action)
        board = await fake.wait_for_message(world.general, has_image, after=mark, timeout=15)
        assert action.replace("take", "took") in board.text  # told by Nim's presentation
    assert [f.hits for f in fake.faults] == [5, 1, 1]  # every injected error was hit
    moves = await bot.client.store.moves(table.record.id)
    assert [(seat, text) for _, seat, text, _ in moves] == [(0, "take 1"), (1, "take 2"), (0, "take 3")]
    await asyncio.sleep(0.3)  # a duplicate post would come right after the first: give it time to show
    boards = [m for m in fake.channel_messages(world.general) if m.attachments]
    assert len(boards) == 4  # the start and one per move: nothing posted twice
    assert len(fake.requests_to("POST", "/channels/*/messages")) >= 4 + 5 + 1  # the retries did happen
    assert table.state.pile == 4 and not table.record.board_due


async def test_replies_reach_the_player_through_rate_limits_and_an_ack_comes_first(fake, world, make_bot):
    """A step's private answer survives discord.py giving up on Discord's 429s (it is tried again later),
    and a slow database does not make the bot miss Discord's 3 s: the interaction is acknowledged before
    the table service is asked."""
    bot = await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=10")
    fake.interaction_deadline = 3.0
    service = bot.client.tables
    act = service.act

    async def slow_act(*args, **kwargs):  # the database or the table's lock, busy for 4 s
        await asyncio.sleep(4)
        return await act(*args, **kwargs)

    service.act = slow_act
    fake.inject("PATCH", "/webhooks/*/*/messages/@original", status=429, retry_after=0.01, times=5)
    cog_common = __import__("cogs.common", fromlist=["REPLY_RETRY_DELAYS"])
    cog_common.REPLY_RETRY_DELAYS = (0.1, 0.1)
    try:
        mark = fake.mark()
        move = await fake.slash("/game move", user=world.alice, channel=world.general, action="take 1")
        assert (await move.response()).type == 5  # acknowledged before the slow work
        reply = await move.reply(timeout=15)
        assert "on the board" in reply.content and reply.ephemeral
        await fake.wait_for_message(world.general, has_image, after=mark, include_ephemeral=False)
    finally:
        cog_common.REPLY_RETRY_DELAYS = (2.0, 10.0, 60.0)
    assert fake.faults[0].hits == 5 and service.tables[world.general.id].state.pile == 9


async def test_a_short_turn_runs_out(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    offset = [0.0]
    service = bot.client.tables
    service.clock = lambda: time.time() + offset[0]  # the service's clock, moved forward instead of sleeping
    await open_table(fake, world, "nim", world.bob, options="pile=10", turn_time="30s")
    table = service.tables[world.general.id]
    assert table.record.deadline == pytest.approx(time.time() + 30, abs=5)
    mark = fake.mark()
    offset[0] = 31.0
    service.on_deadline_change()  # what a new deadline does: the clock looks again, now past alice's
    board = await fake.wait_for_message(world.general, has_image, after=mark)
    # nim's default action takes one stick: alice's turn is played for her, bob is mentioned
    assert "alice ran out of time" in board.text.lower() and "default move" in board.text
    assert board.mentions == [world.bob.id] and table.state.pile == 9
    assert "<t:" in board.content  # bob's deadline as a Discord timestamp
    moves = await bot.client.store.moves(table.record.id)
    assert [(seat, text) for _, seat, text, _ in moves] == [(0, "take 1")]


async def test_table_settings_at_creation_and_by_the_host_only(fake, world, make_bot):
    await start_bot(fake, make_bot)
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general, options={
        "game": "nim", "turn_time": "10m", "reminders": "half,1m", "timeout": "default", "ai_replaces": True,
    })).reply()
    footer = lobby.embeds[0]["footer"]["text"]
    assert "turn time 10m" in footer and "reminders half,1m" in footer and "never out" in footer
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    refusal = await (await fake.slash("/game settings", user=world.bob, channel=world.general,
                                      resume_wait="1m")).reply()
    assert refusal.ephemeral and "host" in refusal.content.lower()
    bad = await (await fake.slash("/game settings", user=world.alice, channel=world.general,
                                  reminders="sometimes")).reply()
    assert bad.ephemeral and "sometimes" in bad.content
    done = await (await fake.slash("/game settings", user=world.admin, channel=world.general,
                                   resume_wait="1m", timeout="eliminate")).reply()  # Manage Channels
    assert done.ephemeral and done.content == "Done."
    changed = await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "after 1m" in m.text)
    assert "first miss" in changed.text  # the lobby shows the new settings in place
    shown = await (await fake.slash("/game settings", user=world.bob, channel=world.general)).reply()
    assert shown.ephemeral and "turn time 10m" in shown.content and "after 1m" in shown.content


@pytest.mark.parametrize(("game", "buttons"), [("nim", ["pbc:panel:turn"]), ("trails", ["pbc:panel:turn"])])
async def test_reminder_mentions_only_the_player_to_move(fake, world, make_bot, game, buttons):
    bot = await start_bot(fake, make_bot)
    offset = [0.0]
    service = bot.client.tables
    service.clock = lambda: time.time() + offset[0]
    await open_table(fake, world, game, world.bob, turn_time="60s", reminders="half")
    to_move = service.tables[world.general.id].game.to_act(service.tables[world.general.id].state)[0]
    state = service.tables[world.general.id].game.to_json(service.tables[world.general.id].state)
    mark = fake.mark()
    offset[0] = 31.0  # past half of the first player's 60 s turn, before its end
    service.on_deadline_change()
    reminder = await fake.wait_for_message(world.general, lambda m: "your turn" in m.content, after=mark)
    assert reminder.mentions == [[world.alice.id, world.bob.id][to_move]] and "<t:" in reminder.content
    # The game's Take turn button comes with it (and Trails' select of the tile's positions, to start from there).
    assert [c for c in reminder.custom_ids() if not c.startswith("pbc:panel:sel:")] == buttons
    table = service.tables[world.general.id]
    assert table.game.to_json(table.state) == state  # a reminder plays nothing


async def test_pause_resume_and_substitute_through_discord(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=10", turn_time="1h")
    table = bot.client.tables.tables[world.general.id]
    refused = await (await fake.slash("/game pause", user=world.bob, channel=world.general)).reply()
    assert refused.ephemeral and "own turn" in refused.content  # not bob's turn
    mark = fake.mark()
    await fake.slash("/game pause", user=world.alice, channel=world.general)  # answered in public only
    await public_since(fake, mark, "paused")
    assert table.record.deadline is None
    status = await (await fake.slash("/game status", user=world.carol, channel=world.general)).reply()
    # alice hosts: the host pauses any time without using her own two
    assert "Paused by Alice" in status.content and "1. Alice: pauses left 2" in status.content
    early = await (await fake.slash("/game resume", user=world.bob, channel=world.general)).reply()
    assert early.ephemeral and "120 s" in early.content  # others wait 2 minutes
    mark = fake.mark()
    await fake.slash("/game substitute", user=world.admin, channel=world.general, old=world.bob, new=world.carol)
    await public_since(fake, mark, "Carol")
    mark = fake.mark()
    await fake.slash("/game resume", user=world.alice, channel=world.general)
    await public_since(fake, mark, "resume")
    assert table.record.deadline is not None
    mark = fake.mark()
    await fake.slash("/game move", user=world.alice, channel=world.general, action="take 3")
    board = await fake.wait_for_message(world.general, has_image, after=mark)
    assert board.mentions == [world.carol.id]  # carol plays bob's seat now
    choices = await fake.autocomplete("/game move", user=world.carol, channel=world.general, focused="action",
                                      value="")
    assert [c["value"] for c in choices] == ["take 1", "take 2", "take 3"]


async def test_two_clicks_at_once_play_one_move(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=10")
    mark = fake.mark()
    first, second = await asyncio.gather(
        *(fake.slash("/game move", user=world.alice, channel=world.general, action="take 2") for _ in range(2)))
    await fake.wait_for_message(world.general, has_image, after=mark)
    replies = sorted([(await first.reply()).content, (await second.reply()).content])
    assert "on the board" in replies[0] and "not your turn" in replies[1], replies  # one board, one refusal
    await asyncio.sleep(0.3)
    assert len([m for m in fake.channel_messages(world.general) if m.seq > mark and has_image(m)]) == 1
    table = bot.client.tables.tables[world.general.id]
    assert table.state.pile == 8 and len(await bot.client.store.moves(table.record.id)) == 1


async def test_a_table_speaks_one_language_in_the_channel_and_each_player_theirs_in_private(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    ru, en = catalog("ru"), catalog("en")
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general, locale="ru",
                                    options={"game": "nim", "options": "pile=3"})).reply()
    assert lobby.embeds[0]["title"] == ru["lobby.title_lobby"].format(game="Ним")  # the host's language
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob, locale="en-US")).response()
    # bob's English client does not switch the channel's lobby
    await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "Bob" in m.text
                                and ru["lobby.seats"] in m.text)
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice, locale="ru")
    await fake.wait_for_message(world.general, has_image, after=mark)
    mark = fake.mark()
    await fake.slash("/game move", user=world.alice, channel=world.general, action="take 1", locale="ru")
    await fake.wait_for_message(world.general, has_image, after=mark)
    error = await (await fake.slash("/game move", user=world.bob, channel=world.general, action="take 9",
                                    locale="en-US")).reply()
    assert error.ephemeral and error.content == en["error.illegal"].format(code="take_range")  # bob's language
    mark = fake.mark()
    await fake.slash("/game move", user=world.bob, channel=world.general, action="take 2", locale="en-US")
    final = await fake.wait_for_message(world.general, has_image, after=mark)
    assert final.content == ru["game.over"]  # bob's move, told in the table's language
    assert bot.client.tables.tables.get(world.general.id) is None


async def test_game_new_suggests_the_chosen_games_options(fake, world, make_bot):
    await start_bot(fake, make_bot)
    choices = await fake.autocomplete("/game new", user=world.alice, channel=world.general, focused="options",
                                      value="expansions=river,", game="trails")
    assert [c["value"] for c in choices] == ["expansions=river,inns", "expansions=river,traders"]
    assert await fake.autocomplete("/game new", user=world.alice, channel=world.general, focused="options",
                                   value="", game="chess") == []  # an unknown game: nothing to suggest


async def test_rules_explain_each_game_in_the_players_language(fake, world, make_bot):
    await start_bot(fake, make_bot)
    for game, locale, words in (("trails", "en-US", "Take turn"), ("deole", "ru", "Сделать ход")):
        card = await (await fake.slash("/game rules", user=world.carol, channel=world.general, locale=locale,
                                       game=game)).reply()
        assert card.ephemeral
        fields = card.embeds[0]["fields"]
        assert len(fields) == 2 and words in fields[1]["value"] and len(fields[0]["value"]) > 300
    nim = await (await fake.slash("/game rules", user=world.carol, channel=world.general, game="nim")).reply()
    assert "2-4 players" in nim.embeds[0]["description"] and "1 to 3 sticks" in nim.embeds[0]["fields"][0]["value"]


async def test_a_board_that_could_not_be_posted_is_posted_again_later(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    cog = bot.client.get_cog("GameCog")
    cog.post_retry_delay, cog.board_queue.retry_delays = 0.01, (0.1, 0.1)  # seconds instead of minutes
    await open_table(fake, world, "nim", world.bob, options="pile=10")
    # Discord refuses the post (two tries of the bot, each 5 of discord.py)...
    fake.inject("POST", "/channels/*/messages", status=429, retry_after=0.01, times=10)
    mark = fake.mark()
    reply = await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 3")).reply()
    assert "will follow" in reply.content  # the mover is told the move stands and the board will come
    # ...so the board comes a little later, with the position and bob mentioned.
    board = await fake.wait_for_message(world.general, has_image, after=mark)
    assert "could not be posted earlier" in board.text
    assert board.mentions == [world.bob.id] and fake.faults[0].hits == 10
    await asyncio.sleep(0.3)  # no second repost
    assert len([m for m in fake.channel_messages(world.general) if m.attachments and m.seq > mark]) == 1
    table = bot.client.tables.tables[world.general.id]
    assert table.state.pile == 7 and len(await bot.client.store.moves(table.record.id)) == 1


async def test_a_thread_has_its_own_table_beside_its_channels(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    service = bot.client.tables
    await open_table(fake, world, "nim", world.bob, options="pile=10")  # in #general
    lobby = await (await fake.slash("/game new", user=world.carol, channel=world.thread,
                                    options={"game": "nim", "options": "pile=4", "turn_time": "30s"})).reply()
    assert not lobby.ephemeral  # the thread is a place of its own, though #general has a table
    await (await fake.click(lobby, "pbc:lobby:join", user=world.dave)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.carol)
    board = await fake.wait_for_message(world.thread, has_image, after=mark)
    assert board.mentions == [world.carol.id]
    # The clock posts into the thread too.
    offset = [31.0]
    service.clock = lambda: time.time() + offset[0]
    mark = fake.mark()
    service.on_deadline_change()
    timeout = await fake.wait_for_message(world.thread, has_image, after=mark)
    assert "ran out of time" in timeout.text and timeout.mentions == [world.dave.id]
    assert service.tables[world.thread.id].state.pile == 3 and service.tables[world.general.id].state.pile == 10


async def test_a_board_still_due_at_a_restart_is_posted_by_the_next_process(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    bot.client.get_cog("GameCog").post_retry_delay = 0.01
    await open_table(fake, world, "nim", world.bob, options="pile=10")
    fake.inject("POST", "/channels/*/messages", status=429, retry_after=0.01, times=10)
    await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 2")).response()
    table = bot.client.tables.tables[world.general.id]
    for _ in range(200):  # the bot gives up on the post after its attempts
        if fake.faults[0].hits == 10:
            break
        await asyncio.sleep(0.02)
    assert table.record.board_due and fake.faults[0].hits == 10
    await bot.stop()  # before the repost, 30 s later, could run
    mark = fake.mark()
    bot = await start_bot(fake, make_bot)  # the new process posts the due board as soon as it is connected
    board = await fake.wait_for_message(world.general, has_image, after=mark)
    # Discord refused it, then the bot stopped: this process only knows it posts the board late.
    assert "the bot restarted" in board.text and board.mentions == [world.bob.id]
    record = bot.client.tables.tables[world.general.id].record
    for _ in range(100):  # cleared once the bot has read Discord's answer
        if not record.board_due:
            break
        await asyncio.sleep(0.02)
    assert not record.board_due


async def test_a_turn_committed_just_before_a_crash_is_announced_at_start(fake, world, make_bot, tmp_path):
    """kill -9 between the commit and the post: the move is in the store with its board due (same
    transaction), no board was posted; the next process posts it, mentioning the next player."""
    bot = await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=10")
    service = bot.client.tables
    cog = bot.client.get_cog("GameCog")

    async def crash(*args, **kwargs):  # the process dies right after the commit
        raise asyncio.CancelledError

    cog.send_board = crash
    mark = fake.mark()
    await (await fake.slash("/game move", user=world.alice, channel=world.general, action="take 3")).response()
    for _ in range(200):
        if service.tables[world.general.id].version == 1:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    assert not [m for m in fake.channel_messages(world.general) if m.seq > mark and has_image(m)]
    await bot.stop()
    bot = await start_bot(fake, make_bot)
    board = await fake.wait_for_message(world.general, has_image, after=mark)
    assert board.mentions == [world.bob.id] and "took 3" in board.text  # what happened, told at last
    assert "restart" in board.text and "Discord" not in board.text, board.text  # why it is late, truly
    assert bot.client.tables.tables[world.general.id].state.pile == 7


async def test_mine_lists_my_turns_across_the_server_and_history_the_moves(fake, world, make_bot):
    await start_bot(fake, make_bot)
    await open_table(fake, world, "nim", world.bob, options="pile=10")  # alice to move in #general
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.thread,
                                    options={"game": "nim"})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.carol)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    await fake.wait_for_message(world.thread, has_image, after=mark)
    mine = await (await fake.slash("/game mine", user=world.alice, channel=world.lounge)).reply()
    assert mine.ephemeral and f"<#{world.general.id}>" in mine.content and f"<#{world.thread.id}>" in mine.content
    assert mine.content.count("<t:") == 2  # each with its deadline
    nothing = await (await fake.slash("/game mine", user=world.bob, channel=world.lounge)).reply()
    assert "not your turn" in nothing.content
    mark = fake.mark()
    await fake.slash("/game move", user=world.alice, channel=world.general, action="take 3")
    await fake.wait_for_message(world.general, has_image, after=mark)
    history = await (await fake.slash("/game history", user=world.dave, channel=world.general)).reply()
    assert history.ephemeral and "Turn 1 · Alice:" in history.content and "took 3" in history.content


async def test_history_tells_a_long_game_in_sentences_paged_with_the_whole_record_as_a_file(fake, world):
    """Trails, two players with 32-character names, 24 tiles: the story is far past Discord's 2,000
    characters. Each page fits, the buttons turn the pages, the file holds every turn, in Russian too."""
    from games.registry import get
    from tests.e2e.harness import bot_env

    long_names = [fake.world.add_user("A" * 31 + "a"), fake.world.add_user("B" * 31 + "b")]
    for user in long_names:
        fake.world.add_member(world.guild, user)
    import tempfile

    from bot.app import PlayByChatBot, apply_endpoints
    from bot.config import Config

    folder = tempfile.mkdtemp()

    async def make():
        env = bot_env(fake) | {"DATABASE_PATH": f"{folder}/db.sqlite3", "DEV_GUILD_ID": str(world.guild.id)}
        config = Config.from_env(env, dotenv=None)
        apply_endpoints(config)
        return PlayByChatBot(config)

    bot = await start_bot(fake, make)
    deck = ",".join(get("trails").setup(2, {}, 7).deck[:24])
    first, second = long_names
    lobby = await (await fake.slash("/game new", user=first, channel=world.general,
                                    options={"game": "trails", "options": f"deck={deck}"})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=second)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=first)
    await fake.wait_for_message(world.general, has_image, after=mark)
    service = bot.client.tables
    while world.general.id in service.tables:  # the players' moves through the service (quicker than slash)
        table = service.tables[world.general.id]
        seat = table.game.to_act(table.state)[0]
        user = table.seats[seat].user_id
        legal = service.legal_notations(world.general.id, user)
        await service.act(world.general.id, user, legal[0])
    for locale, turn_word in (("en-US", "Turn"), ("ru", "Ход")):
        reply = await (await fake.slash("/game history", user=world.dave, channel=world.general,
                                        locale=locale)).reply()
        assert reply.ephemeral and len(reply.content) <= 2000
        assert reply.attachments, "the whole record comes as a file when the story is long"
        record = reply.attachments[0].data.decode()
        assert record.count(f"{turn_word} ") >= 24 and first.name.lower() in record.lower() and "**" not in record
        assert f"{turn_word} 1 · " in record and f"{turn_word} 24 · " in record
        assert reply.content.splitlines()[-1].replace("**", "") in record  # the last page: the end of the game
        last_page, earlier = reply.content, next(c for c in reply.custom_ids() if c.startswith("pbc:history:"))
        turned = await fake.click(reply, earlier, user=world.dave, locale=locale)
        assert (await turned.response()).type in (6, 7)
        page = await fake.wait_for_message(None, lambda m, shown=reply.id, last=last_page: m.id == shown
                                           and m.content != last)
        assert len(page.content) <= 2000 and page.content.splitlines()[1].replace("**", "") in record
    await bot.stop()


async def test_the_lobby_message_follows_the_tables_life(fake, world, make_bot):
    await start_bot(fake, make_bot)
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": "nim", "turn_time": "10m"})).reply()
    assert lobby.embeds[0]["footer"]["text"] == "turn time 10m"  # only what differs from the defaults
    mark = fake.mark()
    added = await (await fake.slash("/game ai add", user=world.alice, channel=world.general)).reply()
    assert str(lobby.id) in added.content  # one line saying what changed; the lobby is edited in place
    edited = await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "AI 1" in m.text)
    assert [m for m in fake.channel_messages(world.general) if m.seq > mark and m.id not in (lobby.id, added.id)] == []
    await (await fake.slash("/game settings", user=world.alice, channel=world.general, timeout="eliminate")).reply()
    await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "first miss" in m.text)
    await fake.slash("/game abort", user=world.alice, channel=world.general)
    closed = await fake.wait_for_message(world.general, lambda m: m.id == lobby.id and "table closed" in m.text)
    assert not closed.custom_ids() and "closed by Alice" in closed.text and edited.id == lobby.id
