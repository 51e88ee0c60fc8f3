"""What the fake captures: messages (with edit history), attachments, interactions, requests, faults."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .world import FakeChannel, FakeUser

if TYPE_CHECKING:
    from PIL import Image

EPHEMERAL = 1 << 6
LOADING = 1 << 7  # a deferred ("thinking") interaction response
DEFAULT_TIMEOUT = 10.0

T = TypeVar("T")

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


class Notifier:
    """One event that every state change fires; waiters re-check their condition after each change."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.diagnostics: list[Callable[[], str]] = []  # extra context for timeout messages (bot errors...)

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return ``check()`` as soon as it is not None; raise TimeoutError (with context) after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            found = check()
            if found is not None:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                extra = "".join(f"\n{text}" for fn in self.diagnostics if (text := fn()))
                raise TimeoutError(f"fake discord: timed out after {timeout:g}s waiting for {what}{extra}")
            event = self._event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)


@dataclass(eq=False)
class CapturedAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    def image(self) -> Image.Image:
        """Decode with Pillow (raises if the bytes are not an image)."""
        from PIL import Image

        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
        }


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first: action rows, their buttons/selects, and v2 layout children."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from iter_components([component[key]])


@dataclass(eq=False)
class CapturedMessage:
    """A message as the fake stores it. ``history`` holds earlier versions (dict snapshots) after edits."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[CapturedAttachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    source: str = "channel"  # channel | interaction | followup | user
    interaction: FakeInteraction | None = None
    timestamp: str = ""
    edited_timestamp: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    seq: int = 0  # the fake's change counter at the last create/edit, for "what changed since" waits
    delivered: bool = False  # the HTTP answer that created it was written to the bot's socket
    nonce: str | None = None  # what the sender gave to recognise a retry of the same message

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def mentions(self) -> list[int]:
        """User ids that Discord would ping, honouring allowed_mentions."""
        ids = [int(x) for x in _USER_MENTION.findall(self.content)]
        allowed = self.allowed_mentions
        if allowed is None:
            return list(dict.fromkeys(ids))
        if "users" in allowed.get("parse", []):
            return list(dict.fromkeys(ids))
        explicit = {int(x) for x in allowed.get("users", [])}
        return list(dict.fromkeys(i for i in ids if i in explicit))

    @property
    def role_mentions(self) -> list[int]:
        ids = [int(x) for x in _ROLE_MENTION.findall(self.content)]
        allowed = self.allowed_mentions
        if allowed is None or "roles" in allowed.get("parse", []):
            return ids
        explicit = {int(x) for x in allowed.get("roles", [])}
        return [i for i in ids if i in explicit]

    def all_components(self) -> list[dict[str, Any]]:
        return list(iter_components(self.components))

    def component(self, custom_id: str) -> dict[str, Any]:
        for component in iter_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        ids = [c.get("custom_id") for c in iter_components(self.components) if c.get("custom_id")]
        raise KeyError(f"message {self.id} has no component {custom_id!r}; it has {ids}")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if c.get("custom_id")]

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for embed_field in embed.get("fields", []):
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def payload(self, application_id: int, users: dict[int, FakeUser]) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": 0 if self.message_reference is None else 19,
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [users[i].payload() for i in self.mentions if i in users],
            "mention_roles": [str(i) for i in self.role_mentions],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction is not None:
            data["webhook_id"] = str(application_id)
            data["application_id"] = str(application_id)
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.type,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<CapturedMessage {self.id} #{self.channel.name} by {self.author.name}{flags}: {self.text[:60]!r}>"


@dataclass(eq=False)
class Callback:
    """The bot's answer to an interaction (``POST /interactions/{id}/{token}/callback``)."""

    type: int  # 4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete, 9 modal
    data: dict[str, Any]
    message: CapturedMessage | None = None  # created (4, 5) or updated (6, 7) message
    delivered: bool = False  # the HTTP answer was written to the bot's socket

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.data.get("choices", [])

    @property
    def content(self) -> str:
        return "" if self.message is None else self.message.content

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral


@dataclass(eq=False)
class FakeInteraction:
    """An interaction the fake dispatched, and everything the bot answered to it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    notifier: Notifier
    source_message: CapturedMessage | None = None  # components and modals opened from them
    callback: Callback | None = None
    original: CapturedMessage | None = None  # what @original points at
    followups: list[CapturedMessage] = field(default_factory=list)
    dispatched_at: float = field(default_factory=time.monotonic)

    @property
    def messages(self) -> list[CapturedMessage]:
        return ([self.original] if self.original is not None else []) + self.followups

    async def response(self, timeout: float = DEFAULT_TIMEOUT) -> Callback:
        """The initial callback (waits for it)."""
        return await self.notifier.wait_for(lambda: self.callback, timeout, f"a response to interaction {self.label}")

    async def reply(
        self, predicate: Callable[[CapturedMessage], bool] | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> CapturedMessage:
        """The first message of this interaction (original or followup) that is no longer "thinking"
        and matches ``predicate``: the right call whether the bot answered at once or deferred first."""

        def check() -> CapturedMessage | None:
            for message in self.messages:
                if not message.loading and not message.deleted and (predicate is None or predicate(message)):
                    return message
            return None

        return await self.notifier.wait_for(check, timeout, f"a reply to interaction {self.label}")

    async def followup(self, index: int = 0, timeout: float = DEFAULT_TIMEOUT) -> CapturedMessage:
        return await self.notifier.wait_for(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            f"followup #{index} of interaction {self.label}",
        )

    async def choices(self, timeout: float = DEFAULT_TIMEOUT) -> list[dict[str, Any]]:
        callback = await self.response(timeout)
        if callback.type != 8:
            raise AssertionError(f"expected an autocomplete result (type 8), got type {callback.type}")
        return callback.choices

    async def modal(self, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        callback = await self.response(timeout)
        if callback.type != 9:
            raise AssertionError(f"expected a modal (type 9), got type {callback.type}")
        return callback.data

    @property
    def label(self) -> str:
        data = self.payload.get("data", {})
        return f"{self.id} ({data.get('name') or data.get('custom_id')!r} by {self.user.name})"


@dataclass(eq=False)
class RequestRecord:
    method: str
    path: str  # below the API base, e.g. /channels/123/messages
    query: dict[str, str]
    status: int = 0
    body: Any = None  # parsed JSON (or payload_json), if any
    files: list[str] = field(default_factory=list)
    known_route: bool = True
    injected: bool = False  # answered by a fault, not by the route

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}{' (injected)' if self.injected else ''}>"


def route_regex(pattern: str | re.Pattern[str]) -> re.Pattern[str]:
    """``/channels/{channel_id}/messages`` or ``/channels/*/messages`` -> a full-match regex; regexes pass."""
    if isinstance(pattern, re.Pattern):
        return pattern
    parts = re.split(r"(\{[^}]*\}|\*)", pattern)
    return re.compile("".join("[^/]+" if p == "*" or p.startswith("{") else re.escape(p) for p in parts))


@dataclass(eq=False)
class Fault:
    """Answer the next ``times`` matching requests with ``status`` (after ``delay`` seconds, if any).

    ``status=None`` with a delay only slows the request down (a hang), then serves it normally.
    """

    method: str
    pattern: re.Pattern[str]
    status: int | None
    times: int
    retry_after: float = 0.2
    delay: float = 0.0
    is_global: bool = False
    body: dict[str, Any] | None = None
    hits: int = 0
    served: bool = False  # carry the request out, then answer with the error

    def matches(self, method: str, path: str) -> bool:
        return (
            self.hits < self.times
            and self.method in ("*", method)
            and self.pattern.fullmatch(path) is not None
        )
