"""Run real discord.py clients in-process against the fake Discord, and the default test world.

    bot = await start_bot(fake, make_bot)      # make_bot: async () -> discord.Client / commands.Bot
    inter = await fake.slash("/game new", user=world.alice, channel=world.general, title="x")
    reply = await inter.reply()
    await bot.stop()                            # e.g. to restart a new client on the same database

discord.py has no setting for its endpoints: every REST URL is built from ``discord.http.Route.BASE`` and a
plain ``Client`` connects straight to ``DiscordWebSocket.DEFAULT_GATEWAY`` (it never asks ``/gateway/bot``),
so ``point_discord_at`` sets both. The real bot does the same from ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL`` (``bot_env`` gives the values).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from .fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeRole, FakeUser
from .fake_discord.server import TOKEN
from .fake_discord.world import MANAGE_CHANNELS

PUBLIC_THREAD = 11

BotFactory = Callable[[], Awaitable[discord.Client]]
START_TIMEOUT = 15.0
LOGGERS = ("discord", "asyncio")  # asyncio: exceptions of tasks nobody awaited (e.g. a re-raising on_error)

_running: weakref.WeakKeyDictionary[FakeDiscord, list[RunningBot]] = weakref.WeakKeyDictionary()


def bot_env(fake: FakeDiscord) -> dict[str, str]:
    """Environment for the real bot's config (bot/config.py) to talk to this fake."""
    return {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
    }


def point_discord_at(fake: FakeDiscord) -> Callable[[], None]:
    """Aim discord.py's REST base and gateway at the fake; returns a function that restores them."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


class _ErrorLog(logging.Handler):
    """Errors discord.py logs (failed commands, views, event handlers): shown when a wait times out."""

    def __init__(self, notify: Callable[[], None]) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self._notify = notify

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        with contextlib.suppress(RuntimeError):  # wake waiters, from the event loop's thread only
            asyncio.get_running_loop()
            self._notify()

    def describe(self) -> str:
        if not self.records:
            return ""
        formatter = logging.Formatter("%(name)s: %(message)s")
        return "bot errors:\n" + "\n".join(formatter.format(r) for r in self.records[-3:])


def _routing_probe(client: discord.Client) -> Callable[[str, int | None, int, str], bool]:
    """Does the client already know where to route this component/modal interaction?

    Reads discord.py 2.7's ViewStore internals (test-only coupling): views are stored per message id
    (None for persistent ones), modals per custom_id, dynamic items per regex.
    """

    def probe(kind: str, message_id: int | None, component_type: int, custom_id: str) -> bool:
        try:
            store = client._connection._view_store
            if kind == "modal":
                return custom_id in store._modals
            key = (component_type, custom_id)
            if any(key in store._views.get(mid, {}) for mid in (message_id, None)):
                return True
            return any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items)
        except AttributeError:  # a discord.py without these internals: do not block
            return True

    return probe


@dataclass(eq=False)
class RunningBot:
    fake: FakeDiscord
    client: discord.Client
    task: asyncio.Task[None]
    error_log: _ErrorLog
    probe: Callable[[str, int | None, int, str], bool]
    diagnostics: Callable[[], str]
    stopped: bool = field(default=False)

    @property
    def errors(self) -> list[logging.LogRecord]:
        return self.error_log.records

    async def stop(self, timeout: float = 10.0) -> None:
        """Close the client (gateway and HTTP session) and wait for its task to end."""
        if self.stopped:
            return
        self.stopped = True
        try:
            await asyncio.wait_for(self.client.close(), timeout)
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self.task, timeout)
        finally:
            if not self.task.done():
                self.task.cancel()
            for name in LOGGERS:
                logging.getLogger(name).removeHandler(self.error_log)
            with contextlib.suppress(ValueError):
                self.fake.readiness_probes.remove(self.probe)
            with contextlib.suppress(ValueError):
                self.fake.notifier.diagnostics.remove(self.diagnostics)
            with contextlib.suppress(KeyError, ValueError):
                _running[self.fake].remove(self)


async def start_bot(
    fake: FakeDiscord,
    factory: BotFactory,
    *,
    wait_for_ready: bool = True,
    until: Callable[[], bool] | None = None,
    guild_ready_timeout: float | None = 0.05,
    timeout: float = START_TIMEOUT,
) -> RunningBot:
    """Build a client with ``factory`` and run ``client.start("test-token")`` against the fake.

    Returns once the client is ready (``on_ready``; commands synced in ``setup_hook`` are registered by
    then), or merely identified with ``wait_for_ready=False``; ``until`` adds a condition of your own.
    ``guild_ready_timeout`` shortens discord.py's 2 s wait after the last GUILD_CREATE (None keeps it).
    A client that crashes while starting re-raises its exception here.
    """
    point_discord_at(fake)
    client = await factory()
    if guild_ready_timeout is not None:
        client._connection.guild_ready_timeout = guild_ready_timeout  # the constructor option, set late
    error_log = _ErrorLog(fake.notifier.notify)
    for name in LOGGERS:
        logging.getLogger(name).addHandler(error_log)
    probe = _routing_probe(client)
    fake.readiness_probes.append(probe)
    fake.notifier.diagnostics.append(error_log.describe)
    identified_before = fake.identify_count
    task = asyncio.create_task(client.start(TOKEN), name="fake-discord-bot")
    bot = RunningBot(fake, client, task, error_log, probe, error_log.describe)
    _running.setdefault(fake, []).append(bot)

    def started() -> bool:
        if wait_for_ready and not client.is_ready():
            return False
        if not wait_for_ready and fake.identify_count <= identified_before:
            return False
        return until is None or until()

    deadline = time.monotonic() + timeout
    while not started():
        if task.done():
            await bot.stop()
            task.result()  # re-raise what killed the client
            raise RuntimeError("the client stopped before it was ready")
        if time.monotonic() > deadline:
            await bot.stop()
            raise TimeoutError(f"bot not ready after {timeout:g}s\n{error_log.describe()}")
        await asyncio.sleep(0.01)  # polling: discord.py offers no awaitable for "ready" before login
    return bot


async def stop_all_bots(fake: FakeDiscord) -> None:
    for bot in list(_running.get(fake, [])):
        await bot.stop()


@dataclass
class DefaultWorld:
    """One guild, a few channels and a thread, four players and an admin (a role with Manage Channels)."""

    guild: FakeGuild
    general: FakeChannel
    games: FakeChannel
    lounge: FakeChannel
    thread: FakeChannel  # a public thread of #general, created by alice
    owner: FakeUser
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    dave: FakeUser
    admin: FakeUser
    game_master: FakeRole


_default_worlds: weakref.WeakKeyDictionary[FakeDiscord, DefaultWorld] = weakref.WeakKeyDictionary()


def default_world(fake: FakeDiscord) -> DefaultWorld:
    return _default_worlds[fake]


def build_default_world(fake: FakeDiscord) -> DefaultWorld:
    """Populate the fake (before ``start()``: GUILD_CREATE describes what exists when the bot connects)."""
    world = fake.world
    owner = world.add_user("owner")
    guild = world.add_guild("Board Game Club", owner=owner)
    game_master = world.add_role(guild, "Game Master", MANAGE_CHANNELS)
    players = {name: world.add_user(name) for name in ("alice", "bob", "carol", "dave")}
    for user in players.values():
        world.add_member(guild, user)
    admin = world.add_user("admin")
    world.add_member(guild, admin, game_master)
    general = world.add_channel(guild, "general")
    result = DefaultWorld(
        guild=guild,
        general=general,
        thread=world.add_channel(guild, "weekend-league", type=PUBLIC_THREAD, parent=general,
                                 owner=players["alice"]),
        games=world.add_channel(guild, "games"),
        lounge=world.add_channel(guild, "lounge"),
        owner=owner,
        admin=admin,
        game_master=game_master,
        **players,
    )
    _default_worlds[fake] = result
    return result


def has_image(message: Any) -> bool:
    """A public message with an image (a board post)."""
    return bool(message.attachments) and not message.ephemeral


async def open_table(fake: FakeDiscord, world: DefaultWorld, game: str, *players: FakeUser, options: str = "",
                     **settings: Any) -> tuple[Any, Any]:
    """alice opens a table of ``game`` in #general, ``players`` join with the lobby button, alice starts:
    (the lobby, the first board)."""
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": game, "options": options, **settings})).reply()
    assert not lobby.ephemeral, lobby.content
    for user in players:
        await (await fake.click(lobby, "pbc:lobby:join", user=user)).response()
    return lobby, await start_table(fake, lobby, world.alice, world.general)


async def start_table(fake: FakeDiscord, lobby: Any, user: FakeUser, channel: FakeChannel,
                      is_board: Callable[[Any], bool] | None = None, locale: str = "en-US") -> Any:
    """Press the lobby's Start as ``user``; return the first board once the bot has also edited the lobby
    to link it (it does so right after posting the board), so nothing of the start is still to come."""
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=user, locale=locale)
    board = await fake.wait_for_message(channel, is_board or (lambda m: bool(m.attachments) and not m.ephemeral),
                                        after=mark)
    await fake.wait_for_message(channel, lambda m: m.id == lobby.id and str(board.id) in m.text, after=mark)
    return board
