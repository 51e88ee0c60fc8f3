"""The fake Discord: REST (API v10) and gateway on 127.0.0.1, plus the driver methods tests call.

discord.py is not imported here: the fake is a server, and the client under test talks to it over real HTTP and
a real websocket. Payload shapes follow discord.py 2.7.1's readers (see ``world.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
import secrets
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .records import (
    DEFAULT_TIMEOUT,
    EPHEMERAL,
    LOADING,
    Callback,
    CapturedAttachment,
    CapturedMessage,
    FakeInteraction,
    Fault,
    Notifier,
    RequestRecord,
    route_regex,
)
from .validation import DiscordError, check_choices, check_command, check_components, check_message
from .world import (
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeUser,
    Snowflakes,
    World,
    iso_now,
)

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway-ws"
TOKEN = "test-token"
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
RECORD_KEY = web.RequestKey("record", RequestRecord)

# Gateway intents the fake filters message events by.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

# Interaction types and which callback types Discord accepts for each.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}

# probe(kind, message_id, component_type, custom_id) -> True once the bot can route that interaction.
ReadinessProbe = Callable[[str, int | None, int, str], bool]


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with a bare ``application/json`` content type: discord.py parses nothing else (no charset)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


@dataclass(eq=False)
class GatewaySession:
    ws: web.WebSocketResponse
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    identified: bool = False
    intents: int = 0
    shard: tuple[int, int] | None = None  # (shard id, shard count) from IDENTIFY; None: one unsharded session
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def receives(self, guild_id: int | None) -> bool:
        """Discord's routing: a guild's events go to shard ``(guild_id >> 22) % count``, DMs to shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)

    async def send(self, op: int, data: Any = None, event: str | None = None) -> None:
        async with self.lock:
            seq = None
            if op == 0:
                self.seq += 1
                seq = self.seq
            # Text frames: discord.py asks for zlib-stream but parses text frames as plain JSON.
            await self.ws.send_str(json.dumps({"op": op, "d": data, "s": seq, "t": event}))


class FakeDiscordServer:
    """The fake Discord server (REST + gateway): ``await start()`` binds a free port, ``await stop()`` ends it."""

    def __init__(self, *, host: str = "127.0.0.1", bot_name: str = "PlayBot") -> None:
        self.host = host
        self.port = 0
        self.snowflakes = Snowflakes()
        self.world = World(self.snowflakes, bot_name)
        self.notifier = Notifier()
        self.messages: dict[int, CapturedMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.requests: list[RequestRecord] = []
        self.faults: list[Fault] = []
        self.server_errors: list[str] = []  # exceptions raised inside the fake: a bug in the fake, not the bot
        self.sessions: list[GatewaySession] = []
        self.identify_count = 0
        self.recommended_shards = 1  # what GET /gateway/bot advises
        self._session_shards: dict[str, tuple[int, int] | None] = {}  # session id -> its shard, for RESUME
        self.files: dict[int, CapturedAttachment] = {}
        self.forbidden_channels: set[int] = set()  # the bot lacks Send Messages there: 403 50013
        self.interaction_deadline: float | None = None  # e.g. 3.0: late callbacks get 404 10062, as in Discord
        self.readiness_probes: list[ReadinessProbe] = []
        self._change_seq = 0
        self._runner: web.AppRunner | None = None
        self.notifier.diagnostics.append(self._describe_state)

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE`` / ``DISCORD_API_BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://{self.host}:{self.port}{GATEWAY_PATH}"

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        return self.world.application_id

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for session in list(self.sessions):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.ws.close(code=1001), 2)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _add_routes(self, app: web.Application) -> None:
        p = API_PREFIX
        app_cmds = p + "/applications/{app_id}/commands"
        guild_cmds = p + "/applications/{app_id}/guilds/{guild_id}/commands"
        hook = p + "/webhooks/{app_id}/{token}"
        add = app.router.add_route
        routes = [
            ("GET", GATEWAY_PATH, self._gateway),
            ("GET", "/attachments/{attachment_id}/{filename}", self._get_attachment),
            ("GET", p + "/gateway", self._get_gateway),
            ("GET", p + "/gateway/bot", self._get_gateway_bot),
            ("GET", p + "/users/@me", self._get_me),
            ("POST", p + "/users/@me/channels", self._create_dm),
            ("GET", p + "/users/{user_id}", self._get_user),
            ("GET", p + "/oauth2/applications/@me", self._get_application),
            ("GET", p + "/applications/@me", self._get_application),
            ("GET", app_cmds, self._get_commands),
            ("PUT", app_cmds, self._put_commands),
            ("POST", app_cmds, self._post_command),
            ("GET", guild_cmds, self._get_commands),
            ("PUT", guild_cmds, self._put_commands),
            ("POST", guild_cmds, self._post_command),
            ("POST", p + "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", hook, self._create_followup),
            ("GET", hook + "/messages/{message_id}", self._get_webhook_message),
            ("PATCH", hook + "/messages/{message_id}", self._edit_webhook_message),
            ("DELETE", hook + "/messages/{message_id}", self._delete_webhook_message),
            ("GET", p + "/channels/{channel_id}", self._get_channel),
            ("GET", p + "/channels/{channel_id}/messages", self._list_messages),
            ("POST", p + "/channels/{channel_id}/messages", self._create_channel_message),
            ("GET", p + "/channels/{channel_id}/messages/{message_id}", self._get_channel_message),
            ("PATCH", p + "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message),
            ("DELETE", p + "/channels/{channel_id}/messages/{message_id}", self._delete_channel_message),
            ("POST", p + "/channels/{channel_id}/threads", self._create_thread),
            ("POST", p + "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread),
            ("PUT", p + "/channels/{channel_id}/thread-members/{user_id}", self._no_content),
            ("GET", p + "/guilds/{guild_id}", self._get_guild),
            ("GET", p + "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", p + "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]
        for method, path, handler in routes:
            add(method, path, handler)
        add("*", "/{tail:.*}", self._unknown_route)

    # ------------------------------------------------------------------ middleware: log, faults, errors

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == GATEWAY_PATH or request.path.startswith("/attachments/"):
            return await handler(request)
        path = request.path.removeprefix(API_PREFIX)
        record = RequestRecord(method=request.method, path=path, query=dict(request.query))
        self.requests.append(record)
        request[RECORD_KEY] = record
        fault = next((f for f in self.faults if f.matches(request.method, path)), None)
        if fault is not None:
            fault.hits += 1
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.status is not None:
                record.injected = True
                if fault.served:  # the request takes effect; only its answer is lost (an ambiguous 502)
                    await handler(request)
                response = self._fault_response(fault)
                record.status = response.status
                self._changed()
                return response
        auth = request.headers.get("Authorization")
        try:
            if auth is not None and auth != f"Bot {TOKEN}":
                raise DiscordError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except DiscordError as error:
            response = json_response(error.body(), status=error.status)
        except web.HTTPException:
            raise
        except ConnectionResetError:  # the client went away before its answer was written (a bot stopping)
            record.status = 499
            self._changed()
            raise
        except Exception:
            self.server_errors.append(f"{request.method} {path}:\n{traceback.format_exc()}")
            _log.exception("fake discord failed on %s %s", request.method, path)
            response = json_response({"message": "fake discord crashed (see fake.server_errors)", "code": 0}, 500)
        record.status = response.status
        self._changed()
        return response

    def _fault_response(self, fault: Fault) -> web.Response:
        if fault.status == 429:
            body = fault.body or {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
            }
            headers = {
                "Retry-After": str(fault.retry_after),
                # discord.py treats a 429 without Via as a Cloudflare ban and does not retry.
                "Via": "1.1 google",
                "X-RateLimit-Scope": "global" if fault.is_global else "user",
            }
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            return json_response(body, 429, headers)
        body = fault.body or {"message": f"{fault.status}: injected by the test", "code": 0}
        return json_response(body, fault.status or 500)

    async def _unknown_route(self, request: web.Request) -> web.Response:
        record: RequestRecord | None = request.get(RECORD_KEY)
        if record is not None:
            record.known_route = False
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes, str | None]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]``; recorded on the request log."""
        files: dict[int, tuple[str, bytes, str | None]] = {}
        body: Any = None
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            if "payload_json" in form:
                body = json.loads(str(form["payload_json"]))
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    match = re.fullmatch(r"files\[(\d+)\]", key)
                    index = int(match.group(1)) if match else len(files)
                    content_type = mimetypes.guess_type(value.filename)[0] or value.content_type
                    files[index] = (value.filename, value.file.read(), content_type)
        elif request.can_read_body:
            text = await request.text()
            body = json.loads(text) if text else None
        record: RequestRecord | None = request.get(RECORD_KEY)
        if record is not None:
            record.body = body
            record.files = [name for name, _, _ in files.values()]
        return body, files

    async def _answer(self, request: web.Request, response: web.StreamResponse, *changed: Any) -> web.StreamResponse:
        """Write the answer now, then mark the touched messages/callbacks as delivered to the bot."""
        await response.prepare(request)
        await response.write_eof()
        for item in changed:
            if item is not None:
                item.delivered = True
        self._changed()
        return response

    def _changed(self) -> None:
        self._change_seq += 1
        self.notifier.notify()

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws=ws)
        self.sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": 41250})
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                await self._gateway_frame(session, frame["op"], frame.get("d"))
        finally:
            self.sessions.remove(session)
            self._changed()
        return ws

    async def _gateway_frame(self, session: GatewaySession, op: int, data: Any) -> None:
        if op == 1:  # heartbeat
            await session.send(11)
        elif op == 2:  # identify
            if data.get("token") != TOKEN:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.intents = int(data.get("intents", 0))
            shard = data.get("shard")
            if shard is not None:
                shard_id, count = int(shard[0]), int(shard[1])
                if not 0 <= shard_id < count:
                    await session.ws.close(code=4010, message=b"Invalid shard.")
                    return
                session.shard = (shard_id, count)
            await self._ready(session)
        elif op == 6:  # resume: tolerated, nothing was missed that the fake would replay
            session.session_id = str(data.get("session_id") or session.session_id)
            session.shard = self._session_shards.get(session.session_id)
            session.identified = True
            session.seq = int(data.get("seq") or 0)
            await session.send(0, {}, "RESUMED")
            self._changed()
        elif op == 8:  # request guild members: one chunk with everyone
            guild = self.world.guilds.get(int(data["guild_id"]))
            if guild is not None:
                chunk = {
                    "guild_id": str(guild.id),
                    "members": [m.payload() for m in guild.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": data.get("nonce"),
                }
                await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")

    async def _ready(self, session: GatewaySession) -> None:
        self.identify_count += 1
        me = self.bot_user.payload() | {"verified": True, "mfa_enabled": False}
        self._session_shards[session.session_id] = session.shard
        guilds = [guild for guild in self.world.guilds.values() if session.receives(guild.id)]
        ready = {
            "v": 10,
            "user": me,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
        }
        if session.shard is not None:
            ready["shard"] = list(session.shard)
        await session.send(0, ready, "READY")
        for guild in guilds:
            await session.send(0, guild.create_payload(), "GUILD_CREATE")
        session.identified = True
        self._changed()

    async def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> int:
        """Send a DISPATCH to every identified session (that has ``intent``) that receives the event's guild
        (its shard; DMs go to shard 0); returns how many got it."""
        sent = 0
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        for session in list(self.sessions):
            if session.identified and (not intent or session.intents & intent) and session.receives(guild_id):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await session.send(0, data, event)
                    sent += 1
        return sent

    async def wait_for_bot(self, timeout: float = DEFAULT_TIMEOUT) -> GatewaySession:
        """Until a client has identified (READY and GUILD_CREATEs sent)."""
        return await self.notifier.wait_for(
            lambda: next((s for s in self.sessions if s.identified), None), timeout, "a bot to IDENTIFY"
        )

    async def wait_for_shards(self, count: int, timeout: float = DEFAULT_TIMEOUT) -> list[GatewaySession]:
        """Until shards 0 to ``count - 1`` of ``count`` have each an identified session; those sessions."""
        def found() -> list[GatewaySession] | None:
            by_shard = {s.shard: s for s in self.sessions if s.identified and s.shard is not None}
            wanted = [by_shard.get((shard_id, count)) for shard_id in range(count)]
            return [s for s in wanted if s is not None] if all(wanted) else None

        return await self.notifier.wait_for(found, timeout, f"shards 0-{count - 1} of {count} to IDENTIFY")

    def _message_intent(self, channel: FakeChannel) -> int:
        return INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES

    # ------------------------------------------------------------------ REST: identity and gateway

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": self.recommended_shards,
                              "session_start_limit": limit})

    async def _get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") is None:
            raise DiscordError(401, 0, "401: Unauthorized")
        return json_response(self.bot_user.payload() | {"verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = next(iter(self.world.guilds.values()), None)
        owner_user = self.world.users[owner.owner_id] if owner else self.bot_user
        return json_response({
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner_user.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot_user.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        })

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.world.users.get(int(body["recipient_id"]))
        if user is None:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.world.dm_channel(user).payload())

    async def _get_attachment(self, request: web.Request) -> web.Response:
        attachment = self.files.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    # ------------------------------------------------------------------ REST: application commands

    def _scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        if int(guild_id) not in self.world.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return int(guild_id)

    def _command_list(self, scope: int | None) -> list[dict[str, Any]]:
        return self.global_commands if scope is None else self.guild_commands.setdefault(scope, [])

    def _registered(self, scope: int | None, command: dict[str, Any]) -> dict[str, Any]:
        check_command(command)
        kind = command.get("type", 1)
        key = (scope, command["name"], kind)
        command_id = self._command_ids.setdefault(key, self.snowflakes.next())  # ids survive re-syncs
        stored = {
            "default_member_permissions": None,
            "nsfw": False,
            "options": [],
            **command,
            "id": str(command_id),
            "application_id": str(self.application_id),
            "type": kind,
            "version": str(self.snowflakes.next()),
        }
        stored.setdefault("description", "")
        if stored["default_member_permissions"] is not None:  # Discord answers it as a string
            stored["default_member_permissions"] = str(int(stored["default_member_permissions"]))
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self._command_list(self._scope(request)))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await self._read_body(request)
        if len(body) > 100:
            raise DiscordError(400, 30032, "Maximum number of application commands reached (100)")
        stored = [self._registered(scope, command) for command in body]
        commands = self._command_list(scope)
        commands[:] = stored
        return json_response(stored)

    async def _post_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await self._read_body(request)
        stored = self._registered(scope, body)
        commands = self._command_list(scope)
        commands[:] = [c for c in commands if c["id"] != stored["id"]] + [stored]
        return json_response(stored, 201)

    def registered_commands(self, guild: Any = None) -> list[dict[str, Any]]:
        """What the bot synced: global commands, or a guild's (pass a FakeGuild or id)."""
        if guild is None:
            return list(self.global_commands)
        return list(self.guild_commands.get(getattr(guild, "id", guild), []))

    def command(self, name: str, guild: Any = None) -> dict[str, Any]:
        for command in self.registered_commands(guild):
            if command["name"] == name:
                return command
        raise KeyError(f"command {name!r} is not registered")

    # ------------------------------------------------------------------ messages (shared by all routes)

    def _channel(self, channel_id: Any) -> FakeChannel:
        channel = self.world.channels.get(int(channel_id))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _new_attachment(self, filename: str, data: bytes, content_type: str | None, description: Any) -> CapturedAttachment:
        attachment_id = self.snowflakes.next()
        attachment = CapturedAttachment(
            id=attachment_id,
            filename=filename,
            data=data,
            content_type=content_type or mimetypes.guess_type(filename)[0],
            description=description,
            url=f"{self.base_url}/attachments/{attachment_id}/{filename}",
        )
        self.files[attachment_id] = attachment
        return attachment

    def _attachments(
        self, body: dict[str, Any], files: dict[int, tuple[str, bytes, str | None]], existing: list[CapturedAttachment]
    ) -> list[CapturedAttachment]:
        """New uploads are referenced by their ``files[n]`` index; kept ones by their snowflake id."""
        by_id = {a.id: a for a in existing}
        if "attachments" not in body:
            return existing + [self._new_attachment(n, d, t, None) for n, d, t in files.values()]
        result: list[CapturedAttachment] = []
        for item in body.get("attachments") or []:
            ref = int(item["id"])
            if ref in files:
                name, data, content_type = files[ref]
                result.append(self._new_attachment(item.get("filename") or name, data, content_type,
                                                   item.get("description")))
            elif ref in by_id:
                result.append(by_id[ref])
        return result

    def _store_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        source: str,
        interaction: FakeInteraction | None = None,
        extra_flags: int = 0,
    ) -> CapturedMessage:
        check_message(body, file_count=len(files), creating=not (extra_flags & LOADING))
        self._change_seq += 1
        message = CapturedMessage(
            id=self.snowflakes.next(),
            channel=channel,
            author=author,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=self._attachments(body, files, []),
            flags=(body.get("flags") or 0) | extra_flags,
            allowed_mentions=body.get("allowed_mentions"),
            message_reference=body.get("message_reference"),
            source=source,
            interaction=interaction,
            timestamp=iso_now(),
            seq=self._change_seq,
        )
        self.messages[message.id] = message
        return message

    def _edit(self, message: CapturedMessage, body: dict[str, Any], files: dict[int, tuple[str, bytes, str | None]]) -> None:
        check_message(body, file_count=len(files), creating=False)
        message.history.append(message.snapshot())
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in body:
                setattr(message, key, body[key] if body[key] is not None else ("" if key == "content" else []))
        if "flags" in body and body["flags"] is not None:
            message.flags = (message.flags & EPHEMERAL) | (body["flags"] & ~(EPHEMERAL | LOADING))
        message.flags &= ~LOADING  # an edit ends "thinking"
        message.attachments = self._attachments(body, files, message.attachments)
        message.edited_timestamp = iso_now()
        message.delivered = False
        self._change_seq += 1
        message.seq = self._change_seq

    def payload(self, message: CapturedMessage) -> dict[str, Any]:
        return message.payload(self.application_id, self.world.users)

    async def _announce(self, event: str, message: CapturedMessage) -> None:
        if message.ephemeral:
            return  # ephemeral messages never reach the gateway
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild_id is not None:
                data["guild_id"] = str(message.channel.guild_id)
        else:
            data = self.payload(message)
            if message.channel.guild_id is not None:
                guild = self.world.guilds[message.channel.guild_id]
                member = guild.members.get(message.author.id)
                if member is not None:
                    data["member"] = member.payload(with_user=False)
        await self.dispatch(event, data, self._message_intent(message.channel))

    # ------------------------------------------------------------------ REST: channels and messages

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request.match_info["channel_id"])
        return json_response(channel.payload(*self._channel_stats(channel)))

    def _channel_stats(self, channel: FakeChannel) -> tuple[int | None, int]:
        visible = self.channel_messages(channel)
        return (visible[-1].id if visible else None), len(visible)

    def channel_messages(self, channel: FakeChannel, *, include_ephemeral: bool = False) -> list[CapturedMessage]:
        """Messages in a channel, oldest first (deleted ones excluded)."""
        return [
            m for m in self.messages.values()
            if m.channel.id == channel.id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request.match_info["channel_id"])
        query = request.query
        limit = min(int(query.get("limit", 50)), 100)
        found = self.channel_messages(channel)
        if "before" in query:
            found = [m for m in found if m.id < int(query["before"])]
        if "after" in query:
            found = [m for m in found if m.id > int(query["after"])]
            found = found[:limit]
        found = sorted(found, key=lambda m: m.id, reverse=True)[:limit]  # Discord: newest first
        return json_response([self.payload(m) for m in found])

    def _find_message(self, channel: FakeChannel, message_id: Any) -> CapturedMessage:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.ephemeral or message.channel.id != channel.id:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _get_channel_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request.match_info["channel_id"])
        return json_response(self.payload(self._find_message(channel, request.match_info["message_id"])))

    async def _create_channel_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request.match_info["channel_id"])
        body, files = await self._read_body(request)
        if channel.id in self.forbidden_channels:
            raise DiscordError(403, 50013, "Missing Permissions")
        if channel.is_dm and channel.recipient is not None and not channel.recipient.accepts_dms:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and (channel.archived or channel.locked):
            raise DiscordError(400, 50083, "Thread is archived")
        body = body or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: a message by the same author with the same nonce, sent within the last few minutes,
            # is answered again instead of being created twice.
            earlier = next((m for m in self.messages.values() if m.channel.id == channel.id
                            and m.nonce == str(nonce) and m.author.id == self.bot_user.id and not m.deleted), None)
            if earlier is not None:
                return await self._answer(request, json_response(self.payload(earlier)), earlier)
        message = self._store_message(channel, self.bot_user, body, files, source="channel")
        message.nonce = None if nonce is None else str(nonce)
        await self._announce("MESSAGE_CREATE", message)
        return await self._answer(request, json_response(self.payload(message)), message)

    async def _edit_channel_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request.match_info["channel_id"])
        message = self._find_message(channel, request.match_info["message_id"])
        body, files = await self._read_body(request)
        if message.author.id != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(message, body or {}, files)
        await self._announce("MESSAGE_UPDATE", message)
        return await self._answer(request, json_response(self.payload(message)), message)

    async def _delete_channel_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request.match_info["channel_id"])
        message = self._find_message(channel, request.match_info["message_id"])
        message.deleted = True
        await self._announce("MESSAGE_DELETE", message)
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request.match_info["channel_id"])
        guild = self.world.guild_of(parent)
        if guild is None or parent.type != GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        body = body or {}
        from_message = request.match_info.get("message_id")
        kind = PUBLIC_THREAD if from_message else int(body.get("type") or PRIVATE_THREAD)
        thread = self.world.add_channel(guild, body["name"], type=kind, parent=parent, owner=self.bot_user)
        if from_message:
            # Discord gives a thread started from a message the message's id.
            self._find_message(parent, from_message)
            del self.world.channels[thread.id], guild.channels[thread.id]
            thread.id = int(from_message)
            self.world.channels[thread.id] = guild.channels[thread.id] = thread
        payload = thread.payload()
        await self.dispatch("THREAD_CREATE", payload | {"newly_created": True}, INTENT_GUILDS)
        return json_response(payload, 201)

    # ------------------------------------------------------------------ REST: guilds

    def _guild(self, request: web.Request) -> Any:
        guild = self.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        data = self._guild(request).create_payload()
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            data.pop(key)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # ------------------------------------------------------------------ REST: interaction callbacks, webhooks

    def _interaction_by_token(self, request: web.Request) -> FakeInteraction:
        if int(request.match_info["app_id"]) != self.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        token = request.match_info["token"]
        for interaction in self.interactions.values():
            if interaction.token == token:
                if interaction.callback is None:
                    raise DiscordError(404, 10015, "Unknown Webhook")  # not acknowledged yet
                return interaction
        raise DiscordError(404, 10015, "Unknown Webhook")

    async def _interaction_callback(self, request: web.Request) -> web.StreamResponse:
        interaction = self.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        late = self.interaction_deadline is not None and (
            time.monotonic() - interaction.dispatched_at > self.interaction_deadline
        )
        if late:
            raise DiscordError(404, 10062, "Unknown interaction")
        if interaction.callback is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body, files = await self._read_body(request)
        kind = int(body["type"])
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            raise form_error_type(kind, interaction.type)
        message: CapturedMessage | None = None
        if kind == 4:
            message = self._store_message(interaction.channel, self.bot_user, data, files, source="interaction",
                                          interaction=interaction)
            interaction.original = message
        elif kind == 5:
            message = self._store_message(interaction.channel, self.bot_user, {"flags": data.get("flags", 0)}, {},
                                          source="interaction", interaction=interaction, extra_flags=LOADING)
            interaction.original = message
        elif kind in (6, 7):
            message = interaction.source_message
            interaction.original = message
            if kind == 7 and message is not None:
                self._edit(message, data, files)
        elif kind == 8:
            check_choices(data.get("choices") or [])
        elif kind == 9:
            if not data.get("custom_id") or not data.get("title"):
                raise DiscordError(400, 50035, "Invalid Form Body (modal needs custom_id and title)")
            check_components(data.get("components") or [], v2=True)
        callback = Callback(type=kind, data=data, message=message)
        interaction.callback = callback
        if message is not None:
            message.delivered = False
            await self._announce("MESSAGE_CREATE" if kind in (4, 5) else "MESSAGE_UPDATE", message)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return await self._answer(request, web.Response(status=204), message, callback)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "activity_instance_id": None,
                "response_message_id": None if message is None else str(message.id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            }
        }
        if message is not None and kind in (4, 5, 7):
            answer["resource"] = {"type": kind, "message": self.payload(message)}
        return await self._answer(request, json_response(answer), message, callback)

    async def _create_followup(self, request: web.Request) -> web.StreamResponse:
        interaction = self._interaction_by_token(request)
        body, files = await self._read_body(request)
        body = body or {}
        original = interaction.original
        if original is not None and original.loading:
            # Discord: the first followup after a defer replaces the "thinking" message.
            self._edit(original, body, files)
            message = original
            await self._announce("MESSAGE_UPDATE", message)
        else:
            message = self._store_message(interaction.channel, self.bot_user, body, files, source="followup",
                                          interaction=interaction)
            interaction.followups.append(message)
            await self._announce("MESSAGE_CREATE", message)
        if request.query.get("wait", "").lower() not in ("1", "true"):
            return await self._answer(request, web.Response(status=204), message)
        return await self._answer(request, json_response(self.payload(message)), message)

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> CapturedMessage:
        if message_id == "@original":
            message = interaction.original
        else:
            message = next((m for m in interaction.messages if m.id == int(message_id)), None)
        if message is None or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_by_token(request)
        return json_response(self.payload(self._webhook_message(interaction, request.match_info["message_id"])))

    async def _edit_webhook_message(self, request: web.Request) -> web.StreamResponse:
        interaction = self._interaction_by_token(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        body, files = await self._read_body(request)
        self._edit(message, body or {}, files)
        await self._announce("MESSAGE_UPDATE", message)
        return await self._answer(request, json_response(self.payload(message)), message)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_by_token(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        message.deleted = True
        await self._announce("MESSAGE_DELETE", message)
        return web.Response(status=204)

    # ------------------------------------------------------------------ diagnostics

    def _describe_state(self) -> str:
        lines = []
        if self.server_errors:
            lines.append(f"fake server errors: {self.server_errors[-1]}")
        failed = [r for r in self.requests[-10:] if r.status >= 400]
        if failed:
            lines.append(f"recent failed requests: {failed}")
        if not any(s.identified for s in self.sessions):
            lines.append("no bot is connected to the gateway")
        recent = list(self.messages.values())[-5:]
        if recent:
            lines.append(f"latest messages: {recent}")
        return "\n".join(lines)

    @property
    def unknown_routes(self) -> list[RequestRecord]:
        return [r for r in self.requests if not r.known_route]

    def requests_to(self, method: str, pattern: str | re.Pattern[str]) -> list[RequestRecord]:
        regex = route_regex(pattern)
        return [r for r in self.requests if r.method == method and regex.fullmatch(r.path)]

    def inject(
        self,
        method: str,
        route_pattern: str | re.Pattern[str],
        status: int | None = 429,
        *,
        retry_after: float = 0.2,
        times: int = 1,
        delay: float = 0.0,
        is_global: bool = False,
        body: dict[str, Any] | None = None,
        served: bool = False,
    ) -> Fault:
        """Fail (or, with ``status=None`` and a ``delay``, slow down) the next ``times`` matching requests.

        ``route_pattern`` is a path below the API base: ``/channels/{id}/messages``, ``*`` for one segment,
        or a compiled regex. ``served=True``: the request is carried out and then answered with the error
        (Discord's ambiguous 502: the message exists, the client does not know).
        """
        fault = Fault(method=method.upper(), pattern=route_regex(route_pattern), status=status, times=times,
                      retry_after=retry_after, delay=delay, is_global=is_global, body=body, served=served)
        self.faults.append(fault)
        return fault


def form_error_type(kind: int, interaction_type: int) -> DiscordError:
    return DiscordError(400, 50035, f"Invalid Form Body: callback type {kind} is not valid for interaction "
                                    f"type {interaction_type}")
