"""Tests of the fake Discord itself, driven through a small discord.py bot defined here.

The bot is real discord.py 2.7 code (app_commands tree, views, modals, translator); only the server is fake.
"""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from .fake_discord import FakeDiscord
from .harness import DefaultWorld, RunningBot, start_bot

RUSSIAN = {
    "game": "игра",
    "Demo game commands": "Команды демо-игры",
    "new": "новая",
    "Open a table": "Открыть стол",
    "title": "название",
    "Table title": "Название стола",
    "seats": "места",
    "Number of seats": "Число мест",
}
TITLES = {"trails": "Trails", "dewan": "Dewan", "maple": "Maple Valley", "deole": "Deole"}


class DemoTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        return RUSSIAN.get(string.message) if locale is discord.Locale.russian else None


class LobbyView(discord.ui.View):
    """Persistent: a fixed custom_id and no timeout, so a restarted bot still answers old buttons."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="demo:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[LobbyView]) -> None:
        content = (interaction.message.content if interaction.message else "") + f"\njoined: {interaction.user.name}"
        await interaction.response.edit_message(content=content)  # callback type 7


class CounterView(discord.ui.View):
    """Not persistent: lives only in the running client's memory."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="Count", custom_id="demo:count")
    async def count_button(self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]) -> None:
        self.count += 1
        await interaction.response.send_message(f"count {self.count}", ephemeral=True)


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="demo:pick", options=[discord.SelectOption(label=v, value=k) for k, v in TITLES.items()],
                       max_values=2)
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[PickView]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}")


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(label="New name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


def board_png() -> bytes:
    image = Image.new("RGB", (64, 32), (200, 30, 30))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


game = app_commands.Group(name=app_commands.locale_str("game"), description=app_commands.locale_str("Demo game commands"))


@game.command(name=app_commands.locale_str("new"), description=app_commands.locale_str("Open a table"))
@app_commands.describe(title=app_commands.locale_str("Table title"), seats=app_commands.locale_str("Number of seats"))
@app_commands.rename(title=app_commands.locale_str("title"), seats=app_commands.locale_str("seats"))
async def game_new(interaction: discord.Interaction, title: str, seats: app_commands.Range[int, 1, 6] = 2) -> None:
    word = "Стол" if interaction.locale is discord.Locale.russian else "Table"
    await interaction.response.send_message(f"{word} {TITLES.get(title, title)} for {seats}", view=LobbyView())


@game_new.autocomplete("title")
async def title_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=key) for key, name in TITLES.items() if key.startswith(current)]


@game.command(name="poll", description="A counter button")
async def game_poll(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("press to count", view=CounterView())


@game.command(name="secret", description="Only you see this")
async def game_secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"your hand, {interaction.user.name}", ephemeral=True)


@game.command(name="board", description="Think, then post the board")
async def game_board(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("the board", file=discord.File(io.BytesIO(board_png()), filename="board.png"))


@game.command(name="announce", description="Post a plain channel message")
async def game_announce(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True)
    assert isinstance(interaction.channel, discord.abc.Messageable)
    try:
        await interaction.channel.send("announcement")
    except discord.HTTPException as error:
        await interaction.followup.send(f"failed {error.status}", ephemeral=True)
    else:
        await interaction.followup.send("done", ephemeral=True)


@game.command(name="pick", description="A select menu")
async def game_pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick games", view=PickView())


@game.command(name="rename", description="A modal")
async def game_rename(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(RenameModal())


@game.command(name="dm", description="Message a player privately")
async def game_dm(interaction: discord.Interaction, player: discord.User) -> None:
    try:
        await player.send(f"psst {player.name}")
    except discord.Forbidden:
        await interaction.response.send_message(f"cannot DM {player.name}", ephemeral=True)
    else:
        await interaction.response.send_message("sent", ephemeral=True)


@game.command(name="invite", description="Mention players, pinging only one")
async def game_invite(interaction: discord.Interaction, player: discord.User, other: discord.User) -> None:
    await interaction.response.send_message(
        f"{player.mention} and {other.mention}: a table is open",
        allowed_mentions=discord.AllowedMentions(users=[player], roles=False, everyone=False),
    )


@game.command(name="slow", description="Answers after a pause")
async def game_slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.3)
    await interaction.response.send_message("too late?")


@game.command(name="thread", description="Open a thread for a table")
async def game_thread(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    thread = await interaction.channel.create_thread(name="table-1", type=discord.ChannelType.public_thread)
    await thread.send("welcome to the table")
    await interaction.response.send_message(f"opened {thread.mention}")


@game.command(name="close", description="Admins only")
@app_commands.checks.has_permissions(manage_channels=True)
async def game_close(interaction: discord.Interaction) -> None:
    bot_can = interaction.app_permissions.manage_messages
    await interaction.response.send_message(f"closed (bot manage_messages={bot_can})")


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        # No privileged intents and no member chunking: on_ready then waits only guild_ready_timeout.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         chunk_guilds_at_startup=False)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        await self.tree.set_translator(DemoTranslator())
        self.add_view(LobbyView())  # re-register the persistent view on every start
        self.tree.add_command(game)
        guild = discord.Object(self.guild_id)

        @self.tree.command(name="ping", description="Guild-only command", guild=guild)
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @self.tree.command(name="settings", description="Hidden from members without Manage Channels")
        @app_commands.default_permissions(manage_channels=True)
        async def settings(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("settings", ephemeral=True)

        self.tree.on_error = self.on_tree_error
        await self.tree.sync()
        await self.tree.sync(guild=guild)

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("you may not", ephemeral=True)
            return
        await app_commands.CommandTree.on_error(self.tree, interaction, error)  # logs it


@pytest.fixture
async def bot(fake: FakeDiscord, world: DefaultWorld) -> RunningBot:
    return await start_bot(fake, lambda: _make_bot(world))


async def _make_bot(world: DefaultWorld) -> discord.Client:
    return DemoBot(world.guild.id)


async def test_command_sync_is_recorded_with_localisations(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    registered = fake.command("game")
    assert registered["name_localizations"] == {"ru": "игра"}
    assert registered["description_localizations"] == {"ru": "Команды демо-игры"}
    new = next(o for o in registered["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"ru": "новая"}
    title = next(o for o in new["options"] if o["name"] == "title")
    assert title["name_localizations"] == {"ru": "название"} and title["autocomplete"] is True
    assert [c["name"] for c in fake.registered_commands(world.guild)] == ["ping"]
    assert fake.unknown_routes == []


async def test_slash_command_reply_in_the_players_locale(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    # The Russian name resolves to the same command; Discord sends the default names in the payload.
    inter = await fake.slash("/игра новая", user=world.alice, channel=world.general, locale="ru",
                             title="trails", seats=3)
    response = await inter.response()
    assert response.type == 4
    assert response.content == "Стол Trails for 3"
    assert not response.ephemeral
    assert response.message is not None and response.message.custom_ids() == ["demo:join"]
    assert fake.channel_messages(world.general) == [response.message]


async def test_guild_command_and_out_of_range_option(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    reply = await (await fake.slash("/ping", user=world.bob, channel=world.games)).reply()
    assert reply.content == "pong"
    with pytest.raises(ValueError, match="outside"):
        await fake.slash("/game new", user=world.alice, channel=world.general, title="x", seats=7)


async def test_ephemeral_reply_is_flagged_and_not_in_channel_history(
    fake: FakeDiscord, world: DefaultWorld, bot: RunningBot
):
    reply = await (await fake.slash("/game secret", user=world.carol, channel=world.general)).reply()
    assert reply.content == "your hand, carol"
    assert reply.ephemeral and reply.flags & 64
    assert fake.channel_messages(world.general) == []


async def test_autocomplete_returns_the_bots_choices(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    choices = await fake.autocomplete("/game new", user=world.alice, channel=world.general, focused="title", value="d")
    assert choices == [{"name": "Dewan", "value": "dewan"}, {"name": "Deole", "value": "deole"}]


async def test_button_click_updates_the_message(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    table = await (await fake.slash("/game new", user=world.alice, channel=world.general, title="maple")).reply()
    click = await fake.click(table, "demo:join", user=world.bob)
    response = await click.response()
    assert response.type == 7 and response.message is table
    assert table.content == "Table Maple Valley for 2\njoined: bob"
    assert [version["content"] for version in table.history] == ["Table Maple Valley for 2"]


async def test_non_persistent_button_replies_ephemerally(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    poll = await (await fake.slash("/game poll", user=world.alice, channel=world.general)).reply()
    first = await (await fake.click(poll, "demo:count", user=world.bob)).reply()
    second = await (await fake.click(poll, "demo:count", user=world.carol)).reply()
    assert (first.content, first.ephemeral) == ("count 1", True)
    assert second.content == "count 2"


async def test_select_and_modal(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    menu = await (await fake.slash("/game pick", user=world.alice, channel=world.general)).reply()
    picked = await (await fake.select(menu, "demo:pick", ["trails", "deole"], user=world.alice)).reply()
    assert picked.content == "picked trails,deole"

    opener = await fake.slash("/game rename", user=world.alice, channel=world.general)
    modal = await opener.modal()
    assert modal["title"] == "Rename the table"
    submitted = await fake.submit_modal(opener, {"demo:name": "Friday table"})
    assert (await submitted.reply()).content == "renamed to Friday table"


async def test_deferred_followup_with_png_attachment(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    inter = await fake.slash("/game board", user=world.alice, channel=world.general)
    assert (await inter.response()).type == 5
    reply = await inter.reply()
    # The first followup after a defer replaces the "thinking" message, as in Discord.
    assert reply is inter.original and reply.content == "the board" and not reply.loading
    [attachment] = reply.attachments
    image = attachment.image()
    assert (attachment.filename, image.format, image.size) == ("board.png", "PNG", (64, 32))


async def test_429_on_channel_message_is_retried_and_posted_once(
    fake: FakeDiscord, world: DefaultWorld, bot: RunningBot
):
    fault = fake.inject("POST", "/channels/{channel_id}/messages", status=429, retry_after=0.2)
    inter = await fake.slash("/game announce", user=world.alice, channel=world.general)
    assert (await inter.reply()).content == "done"
    posted = [m for m in fake.channel_messages(world.general) if m.content == "announcement"]
    assert len(posted) == 1
    assert [r.status for r in fake.requests_to("POST", "/channels/*/messages")] == [429, 200]
    assert fault.hits == 1


async def test_500_is_retried_but_503_fails_at_once(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    # discord.py (http.py) retries 500/502/504/524 after 1 s, 3 s, 5 s...; any other 5xx raises at once.
    fake.inject("POST", "/channels/*/messages", status=500)
    first = await fake.slash("/game announce", user=world.alice, channel=world.general)
    assert (await first.reply()).content == "done"
    fake.inject("POST", "/channels/*/messages", status=503)
    second = await fake.slash("/game announce", user=world.alice, channel=world.general)
    assert (await second.reply()).content == "failed 503"
    assert [r.status for r in fake.requests_to("POST", "/channels/*/messages")] == [500, 200, 503]
    assert len([m for m in fake.channel_messages(world.general) if m.content == "announcement"]) == 1


async def test_unknown_route_answers_404_and_is_recorded(fake: FakeDiscord, bot: RunningBot):
    async with aiohttp.ClientSession() as session, session.get(fake.api_base + "/guilds/1/audit-logs") as resp:
        assert resp.status == 404
        assert resp.headers["Content-Type"] == "application/json"
    assert [(r.method, r.path) for r in fake.unknown_routes] == [("GET", "/guilds/1/audit-logs")]


async def test_restart_keeps_persistent_buttons_working(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    table = await (await fake.slash("/game new", user=world.alice, channel=world.general, title="dewan")).reply()
    await bot.stop()
    restarted = await start_bot(fake, lambda: _make_bot(world))
    assert restarted.client is not bot.client and fake.identify_count == 2
    response = await (await fake.click(table, "demo:join", user=world.dave)).response()
    assert response.type == 7
    assert table.content.endswith("joined: dave")


async def test_dm_and_dm_refusal(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    sent = await (await fake.slash("/game dm", user=world.alice, channel=world.general, player=world.bob)).reply()
    assert sent.content == "sent"
    dm = await fake.wait_for_message(fake.dm_channel(world.bob))
    assert dm.content == "psst bob"
    world.dave.accepts_dms = False
    refused = await (await fake.slash("/game dm", user=world.alice, channel=world.general, player=world.dave)).reply()
    assert refused.content == "cannot DM dave"


async def test_thread_creation_and_commands_inside_it(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    opened = await (await fake.slash("/game thread", user=world.alice, channel=world.games)).reply()
    welcome = await fake.wait_for_message(None, lambda m: m.content == "welcome to the table")
    thread = welcome.channel
    assert thread.is_thread and thread.parent_id == world.games.id
    assert opened.content == f"opened <#{thread.id}>"
    in_thread = await (await fake.slash("/game secret", user=world.bob, channel=thread)).reply()
    assert in_thread.channel is thread


async def test_permissions_come_from_roles(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    refused = await (await fake.slash("/game close", user=world.alice, channel=world.general)).reply()
    assert (refused.content, refused.ephemeral) == ("you may not", True)
    allowed = await (await fake.slash("/game close", user=world.admin, channel=world.general)).reply()
    assert allowed.content == "closed (bot manage_messages=True)"
    # default_member_permissions: Discord does not even offer the command to alice.
    assert fake.command("settings")["default_member_permissions"] == str(1 << 4)
    with pytest.raises(PermissionError):
        await fake.slash("/settings", user=world.alice, channel=world.general)
    assert (await (await fake.slash("/settings", user=world.admin, channel=world.general)).reply()).ephemeral


async def test_mentions_honour_allowed_mentions(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    inter = await fake.slash("/game invite", user=world.alice, channel=world.general, player=world.bob,
                             other=world.carol)
    reply = await inter.reply()
    assert reply.content.startswith(f"<@{world.bob.id}> and <@{world.carol.id}>")
    assert reply.mentions == [world.bob.id]  # carol is named but not pinged
    assert reply.allowed_mentions is not None and reply.allowed_mentions["users"] == [world.bob.id]


async def test_hang_then_serve_and_interaction_in_dm(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    fault = fake.inject("POST", "/channels/*/messages", status=None, delay=0.2)
    done = await (await fake.slash("/game announce", user=world.alice, channel=world.general)).reply()
    assert done.content == "done" and fault.hits == 1
    assert [r.status for r in fake.requests_to("POST", "/channels/*/messages")] == [200]
    # A command used in the bot's DM: the payload carries `user` instead of `member`.
    dm = fake.dm_channel(world.alice)
    private = await (await fake.slash("/game secret", user=world.alice, channel=dm)).reply()
    assert private.content == "your hand, alice" and private.channel is dm


async def test_late_answer_is_rejected_like_discord(fake: FakeDiscord, world: DefaultWorld, bot: RunningBot):
    fake.interaction_deadline = 0.1  # Discord allows 3 s; shortened to keep the test fast
    inter = await fake.slash("/game slow", user=world.alice, channel=world.general)
    callback_status = await fake.notifier.wait_for(
        lambda: next((r.status for r in fake.requests_to("POST", "/interactions/*/*/callback")), None), 5,
        "the late callback",
    )
    assert callback_status == 404 and inter.callback is None
    await fake.notifier.wait_for(lambda: bot.errors or None, 5, "the bot to log the failure")
    assert "Unknown interaction" in str(bot.errors[0].exc_info[1])


async def test_invalid_command_names_are_rejected_at_sync(fake: FakeDiscord):
    class BadBot(commands.Bot):
        async def setup_hook(self) -> None:
            @self.tree.command(name="ok", description=app_commands.locale_str("x"))
            async def ok(interaction: discord.Interaction) -> None: ...

            await self.tree.set_translator(UpperCaseTranslator())
            await self.tree.sync()

    class UpperCaseTranslator(app_commands.Translator):
        async def translate(self, string, locale, context) -> str | None:  # type: ignore[override]
            return "Новая Игра" if locale is discord.Locale.russian else None  # capitals and a space: invalid

    async def make_bad_bot() -> discord.Client:
        return BadBot(command_prefix="!", intents=discord.Intents.default())

    with pytest.raises(discord.HTTPException) as failure:
        await start_bot(fake, make_bad_bot, timeout=5)
    assert failure.value.code == 50035
    assert fake.registered_commands() == []
