"""Registered application commands, and typed interaction options built from them.

The fake only knows what the bot synced (``PUT /applications/{app}/commands``): a test that calls a command the
bot never registered fails here, as a player would find the command missing in Discord.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .records import CapturedAttachment
from .world import FakeChannel, FakeGuild, FakeRole, FakeUser

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


def _matches(spec: dict[str, Any], name: str) -> bool:
    """A player may type the default name or any localised one."""
    return spec["name"] == name or name in (spec.get("name_localizations") or {}).values()


@dataclass
class ResolvedCommand:
    command: dict[str, Any]  # the top-level command as registered
    path: list[dict[str, Any]]  # group/subcommand specs below it
    guild_id: int | None  # set for guild commands (discord.py needs data.guild_id to find them)

    @property
    def leaf(self) -> dict[str, Any]:
        return self.path[-1] if self.path else self.command

    @property
    def leaf_options(self) -> list[dict[str, Any]]:
        return [o for o in self.leaf.get("options", []) if o["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP)]

    def option_spec(self, name: str) -> dict[str, Any]:
        for spec in self.leaf_options:
            if spec["name"] == name:
                return spec
        known = [o["name"] for o in self.leaf_options]
        raise ValueError(f"command {self.qualified_name!r} has no option {name!r}; it has {known}")

    @property
    def qualified_name(self) -> str:
        return " ".join([self.command["name"], *(p["name"] for p in self.path)])

    def wrap(self, leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Nest the leaf options under their subcommand and group, as Discord sends them."""
        options = leaf_options
        for spec in reversed(self.path):
            options = [{"type": spec["type"], "name": spec["name"], "options": options}]
        return options


def resolve(
    text: str, global_commands: list[dict[str, Any]], guild_commands: list[dict[str, Any]], guild_id: int | None
) -> ResolvedCommand:
    """``"/game new"`` -> the registered command and the subcommand path (guild commands win, as in Discord)."""
    words = text.strip().lstrip("/").split()
    if not words:
        raise ValueError("empty command")
    candidates = [(c, guild_id) for c in guild_commands] + [(c, None) for c in global_commands]
    found = [(c, g) for c, g in candidates if c.get("type", 1) == 1 and _matches(c, words[0])]
    if not found:
        names = sorted({c["name"] for c, _ in candidates})
        raise LookupError(f"no slash command {words[0]!r} was synced; registered: {names}")
    command, scope = found[0]
    path: list[dict[str, Any]] = []
    current = command
    for word in words[1:]:
        subs = [o for o in current.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        match = next((o for o in subs if _matches(o, word)), None)
        if match is None:
            raise LookupError(f"{text!r}: no subcommand {word!r}; has {[o['name'] for o in subs]}")
        path.append(match)
        current = match
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in current.get("options", [])):
        raise LookupError(f"{text!r} is a group: name a subcommand")
    return ResolvedCommand(command=command, path=path, guild_id=scope)


@dataclass
class Resolved:
    """The ``resolved`` block of interaction data (users, members, roles, channels, attachments)."""

    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    attachments: dict[str, Any] = field(default_factory=dict)

    def add_user(self, user: FakeUser, guild: FakeGuild | None) -> str:
        self.users[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            self.members[str(user.id)] = guild.members[user.id].payload(
                with_user=False, permissions=guild.permissions_of(user)
            )
        return str(user.id)

    def add_role(self, role: FakeRole) -> str:
        self.roles[str(role.id)] = role.payload()
        return str(role.id)

    def add_channel(self, channel: FakeChannel, permissions: int) -> str:
        data = channel.payload()
        data["permissions"] = str(permissions)
        self.channels[str(channel.id)] = data
        return str(channel.id)

    def add_attachment(self, attachment: CapturedAttachment) -> str:
        self.attachments[str(attachment.id)] = attachment.payload()
        return str(attachment.id)

    def payload(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v}


def check_choices(spec: dict[str, Any], value: Any) -> None:
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {spec['name']!r}: {value!r} is not one of {[c['value'] for c in choices]}")


def check_range(spec: dict[str, Any], value: Any) -> None:
    if spec["type"] in (INTEGER, NUMBER):
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {spec['name']!r}: {value} is outside [{low}, {high}]")
    if spec["type"] == STRING:
        low, high = spec.get("min_length"), spec.get("max_length")
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            raise ValueError(f"option {spec['name']!r}: length {len(value)} is outside [{low}, {high}]")
