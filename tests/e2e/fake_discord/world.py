"""The fake's world (users, guilds, roles, channels) and its Discord API v10 payloads.

Payload shapes follow what discord.py 2.7.1 reads (``guild.py``, ``member.py``, ``role.py``, ``channel.py``,
``threads.py``): keys it indexes directly must be present, optional ones are filled with Discord's defaults.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions), the few the fake reasons about.
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)


class Snowflakes:
    """Unique, increasing ids with a realistic timestamp part (discord.py derives ``created_at`` from them)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)

    def next_on_shard(self, shard_id: int, count: int) -> int:
        """An id (of a guild) that Discord routes to shard ``shard_id`` of ``count``: its timestamp part, a
        few milliseconds back at most, chosen so ``(id >> 22) % count == shard_id``."""
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        millis -= (millis - shard_id) % count
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now(offset: timedelta = timedelta()) -> str:
    return (datetime.now(UTC) + offset).isoformat()


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    accepts_dms: bool = True  # False: the fake answers 403 (50007) to DMs, like a user who closed them

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a category, a thread or a DM channel."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None  # threads: who created it
    recipient: FakeUser | None = None  # DMs: the other user
    position: int = 0
    created_at: str = field(default_factory=iso_now)
    archived: bool = False
    locked: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def payload(self, last_message_id: int | None = None, message_count: int = 0) -> dict[str, Any]:
        last = None if last_message_id is None else str(last_message_id)
        if self.is_dm:
            assert self.recipient is not None
            return {"id": str(self.id), "type": DM, "last_message_id": last, "recipients": [self.recipient.payload()]}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "nsfw": False,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type == GUILD_TEXT:
            data.update(topic=None, last_message_id=last, default_auto_archive_duration=1440)
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                last_message_id=last,
                message_count=message_count,
                total_message_sent=message_count,
                member_count=1,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": self.created_at,
                },
            )
        return data


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    role_ids: list[int]
    joined_at: str = field(default_factory=lambda: iso_now(-timedelta(days=30)))

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(role_id) for role_id in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,  # discord.py's Member reads this key unconditionally
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]  # Discord: the @everyone role's id is the guild's id

    def permissions_of(self, user: FakeUser) -> int:
        """Guild-level permissions: @everyone | member roles; owner and ADMINISTRATOR get everything.

        Channel overwrites are not modelled (see README, known limits).
        """
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        value = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def create_payload(self) -> dict[str, Any]:
        """GUILD_CREATE: the guild with channels, threads, roles and members."""
        plain = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [role.payload() for role in self.roles.values()],
            "channels": [c.payload() for c in plain],
            "threads": [c.payload() for c in threads],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso_now(-timedelta(days=30)),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


class World:
    """Everything the fake knows about: the bot's own user, people, guilds and channels."""

    def __init__(self, snowflakes: Snowflakes, bot_name: str = "PlayBot") -> None:
        self.snowflakes = snowflakes
        self.application_id = snowflakes.next()
        # Discord: a bot user's id is its application's id.
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}  # every channel, guild or DM
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient user id

    def add_user(self, name: str, *, accepts_dms: bool = True) -> FakeUser:
        user = FakeUser(id=self.snowflakes.next(), name=name, accepts_dms=accepts_dms)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: FakeUser, locale: str = "en-US",
                  shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild; with ``shard`` (id, count), one whose events Discord routes to that shard."""
        guild_id = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner.id, preferred_locale=locale)
        guild.roles[guild.id] = FakeRole(id=guild.id, name="@everyone", permissions=EVERYONE_DEFAULT, position=0)
        self.guilds[guild.id] = guild
        bot_role = self.add_role(guild, self.bot_user.name, BOT_DEFAULT)
        self.add_member(guild, owner)
        self.add_member(guild, self.bot_user, bot_role)
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int) -> FakeRole:
        role = FakeRole(id=self.snowflakes.next(), name=name, permissions=permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: FakeGuild, user: FakeUser, *roles: FakeRole) -> FakeMember:
        member = FakeMember(user=user, role_ids=[role.id for role in roles])
        guild.members[user.id] = member
        return member

    def add_channel(
        self, guild: FakeGuild, name: str, *, type: int = GUILD_TEXT, parent: FakeChannel | None = None,
        owner: FakeUser | None = None,
    ) -> FakeChannel:
        channel = FakeChannel(
            id=self.snowflakes.next(),
            name=name,
            type=type,
            guild_id=guild.id,
            parent_id=None if parent is None else parent.id,
            owner_id=None if owner is None else owner.id,
            position=len(guild.channels),
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(id=self.snowflakes.next(), name=f"dm-{user.name}", type=DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def user_named(self, name: str) -> FakeUser:
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(name)
