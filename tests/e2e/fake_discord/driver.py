"""What a test does as a player: slash commands, autocomplete, clicks, selects, modals, plain messages."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from . import commands as cmd
from .records import DEFAULT_TIMEOUT, CapturedAttachment, CapturedMessage, FakeInteraction
from .server import (
    APPLICATION_COMMAND,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeDiscordServer,
)
from .world import FakeChannel, FakeGuild, FakeRole, FakeUser, iso_now

BUTTON, STRING_SELECT, TEXT_INPUT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 2, 3, 4, 5, 6, 7, 8
SELECTS = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)
LABEL = 18
READY_PROBE_TIMEOUT = 2.0


class FakeDiscord(FakeDiscordServer):
    """The fake server plus player actions. See tests/e2e/README.md for a walk-through."""

    # ------------------------------------------------------------------ interactions

    def _interaction_payload(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any], locale: str,
        message: CapturedMessage | None,
    ) -> tuple[int, str, dict[str, Any]]:
        interaction_id = self.snowflakes.next()
        token = f"fake-{interaction_id}-{secrets.token_urlsafe(16)}"
        guild = self.world.guild_of(channel)
        channel_payload = channel.payload(*self._channel_stats(channel))
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "channel": channel_payload,
            "channel_id": str(channel.id),
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,  # discord.py reads it unconditionally
        }
        if guild is not None:
            if user.id not in guild.members:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            permissions = guild.permissions_of(user)
            channel_payload["permissions"] = str(permissions)
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.preferred_locale,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                member=guild.members[user.id].payload(permissions=permissions),
                app_permissions=str(guild.permissions_of(self.bot_user)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(self._dm_app_permissions()),
                authorizing_integration_owners={"0": str(user.id)},
                context=1,
            )
        if message is not None:
            payload["message"] = self.payload(message)
        return interaction_id, token, payload

    @staticmethod
    def _dm_app_permissions() -> int:
        from .world import ATTACH_FILES, EMBED_LINKS, READ_MESSAGE_HISTORY, SEND_MESSAGES, VIEW_CHANNEL

        return VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY

    async def _send_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any], locale: str,
        message: CapturedMessage | None = None,
    ) -> FakeInteraction:
        if not any(s.identified for s in self.sessions):
            raise RuntimeError("no bot is connected to the fake gateway (start one with harness.start_bot)")
        interaction_id, token, payload = self._interaction_payload(kind, user, channel, data, locale, message)
        interaction = FakeInteraction(
            id=interaction_id, token=token, type=kind, user=user, channel=channel, payload=payload,
            notifier=self.notifier, source_message=message,
        )
        self.interactions[interaction_id] = interaction
        interaction.dispatched_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _resolve_command(self, text: str, channel: FakeChannel) -> cmd.ResolvedCommand:
        guild_id = channel.guild_id
        guild_commands = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        return cmd.resolve(text, self.global_commands, guild_commands, guild_id)

    @staticmethod
    def _check_command_visible(resolved: cmd.ResolvedCommand, user: FakeUser, channel: FakeChannel,
                               guild: FakeGuild | None) -> None:
        """Discord hides a command from members lacking its default_member_permissions, and outside its
        contexts (0 guild, 1 bot DM, 2 private channel); the player could not run it at all."""
        command = resolved.command
        contexts = command.get("contexts")
        context = 1 if channel.is_dm else 0
        if (contexts is not None and context not in contexts) or (channel.is_dm and command.get("dm_permission") is False):
            raise PermissionError(f"/{resolved.qualified_name} is not offered in this context ({context})")
        required = command.get("default_member_permissions")
        if guild is not None and required is not None:
            have = guild.permissions_of(user)
            if int(required) & have != int(required):
                raise PermissionError(f"Discord would not show /{resolved.qualified_name} to {user.name}")

    def _command_data(self, resolved: cmd.ResolvedCommand, options: list[dict[str, Any]],
                      found: cmd.Resolved) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": resolved.command["id"],
            "name": resolved.command["name"],
            "type": 1,
            "options": resolved.wrap(options),
        }
        if resolved.guild_id is not None:
            data["guild_id"] = str(resolved.guild_id)  # discord.py looks guild commands up by it
        if found.payload():
            data["resolved"] = found.payload()
        return data

    def _typed_value(self, spec: dict[str, Any], value: Any, found: cmd.Resolved, guild: FakeGuild | None,
                     checked: bool = True) -> Any:
        """A Python value -> the option value Discord sends (+ the ``resolved`` entry for entities)."""
        kind = spec["type"]
        if kind == cmd.STRING:
            value = str(value)
        elif kind == cmd.INTEGER:
            value = int(value)
        elif kind == cmd.NUMBER:
            value = float(value)
        elif kind == cmd.BOOLEAN:
            value = bool(value)
        elif kind == cmd.USER or (kind == cmd.MENTIONABLE and isinstance(value, FakeUser)):
            return found.add_user(self._user(value), guild)
        elif kind == cmd.ROLE or kind == cmd.MENTIONABLE:
            return found.add_role(self._role(value, guild))
        elif kind == cmd.CHANNEL:
            channel = value if isinstance(value, FakeChannel) else self.world.channels[int(value)]
            permissions = guild.permissions_of(self.bot_user) if guild else 0
            return found.add_channel(channel, permissions)
        elif kind == cmd.ATTACHMENT:
            return found.add_attachment(self.upload(*value) if isinstance(value, tuple) else value)
        if checked:
            cmd.check_choices(spec, value)
            cmd.check_range(spec, value)
        return value

    def _user(self, value: Any) -> FakeUser:
        return value if isinstance(value, FakeUser) else self.world.users[int(value)]

    @staticmethod
    def _role(value: Any, guild: FakeGuild | None) -> FakeRole:
        if isinstance(value, FakeRole):
            return value
        assert guild is not None, "roles exist only in guilds"
        return guild.roles[int(value)]

    def upload(self, filename: str, data: bytes, content_type: str | None = None) -> CapturedAttachment:
        """An attachment a player uploads (for ATTACHMENT options)."""
        return self._new_attachment(filename, data, content_type, None)

    async def slash(
        self, command: str, *, user: FakeUser, channel: FakeChannel, locale: str = "en-US",
        options: dict[str, Any] | None = None, unchecked: bool = False, **kwargs: Any,
    ) -> FakeInteraction:
        """Run ``/command sub`` as ``user`` in ``channel`` with typed option values (kwargs or ``options``).

        Options are checked against what the bot registered: unknown names, missing required ones and values
        outside ``choices``/ranges raise ValueError, as Discord's client would refuse to send them.
        ``unchecked=True`` sends values outside ``choices`` and lengths anyway (a hostile client, or a Discord
        that does not check): the bot must still answer clearly.
        """
        values = {**(options or {}), **kwargs}
        resolved = self._resolve_command(command, channel)
        guild = self.world.guild_of(channel)
        self._check_command_visible(resolved, user, channel, guild)
        found = cmd.Resolved()
        given = []
        for name, value in values.items():
            spec = resolved.option_spec(name)
            given.append({"name": name, "type": spec["type"],
                          "value": self._typed_value(spec, value, found, guild, checked=not unchecked)})
        missing = [o["name"] for o in resolved.leaf_options if o.get("required") and o["name"] not in values]
        if missing:
            raise ValueError(f"/{resolved.qualified_name}: required options missing: {missing}")
        data = self._command_data(resolved, given, found)
        return await self._send_interaction(APPLICATION_COMMAND, user, channel, data, locale)

    async def autocomplete(
        self, command: str, *, user: FakeUser, channel: FakeChannel, focused: str, value: str = "",
        locale: str = "en-US", options: dict[str, Any] | None = None, timeout: float = DEFAULT_TIMEOUT,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused``; returns the bot's choices (``[{"name", "value"}]``)."""
        interaction = await self.autocomplete_interaction(
            command, user=user, channel=channel, focused=focused, value=value, locale=locale, options=options,
            **kwargs,
        )
        return await interaction.choices(timeout)

    async def autocomplete_interaction(
        self, command: str, *, user: FakeUser, channel: FakeChannel, focused: str, value: str = "",
        locale: str = "en-US", options: dict[str, Any] | None = None, **kwargs: Any,
    ) -> FakeInteraction:
        values = {**(options or {}), **kwargs}
        resolved = self._resolve_command(command, channel)
        guild = self.world.guild_of(channel)
        found = cmd.Resolved()
        given = []
        for name, other in values.items():
            spec = resolved.option_spec(name)
            given.append({"name": name, "type": spec["type"], "value": self._typed_value(spec, other, found, guild)})
        spec = resolved.option_spec(focused)
        if not spec.get("autocomplete"):
            raise ValueError(f"option {focused!r} of /{resolved.qualified_name} has no autocomplete")
        # The focused value is always the raw text typed so far, whatever the option type.
        given.append({"name": focused, "type": spec["type"], "value": value, "focused": True})
        data = self._command_data(resolved, given, found)
        return await self._send_interaction(AUTOCOMPLETE, user, channel, data, locale)

    # ------------------------------------------------------------------ components and modals

    def _message(self, message: CapturedMessage | int) -> CapturedMessage:
        found = self.messages.get(message) if isinstance(message, int) else message
        if found is None or found.deleted:
            raise LookupError(f"message {message!r} does not exist (or was deleted)")
        return found

    async def _until_bot_can_route(self, kind: str, message: CapturedMessage | None, component_type: int,
                                   custom_id: str, delivered: Callable[[], bool]) -> None:
        """discord.py registers a view (or modal) only after reading our HTTP answer; an interaction sent
        earlier would be dropped. Wait for the answer to be written, then for the bot to know the id."""
        await self.notifier.wait_for(lambda: True if delivered() else None, DEFAULT_TIMEOUT,
                                     f"the bot's {kind} {custom_id!r} to be delivered")
        message_id = None if message is None else message.id
        if not self.readiness_probes:
            await asyncio.sleep(0.05)  # no probe (bot not started by the harness): a short grace period
            return
        deadline = time.monotonic() + READY_PROBE_TIMEOUT
        while time.monotonic() < deadline:
            if any(probe(kind, message_id, component_type, custom_id) for probe in self.readiness_probes):
                return
            await asyncio.sleep(0.005)
        # Not routable (e.g. handled in on_interaction, or a stale view): send anyway, as Discord would.

    async def click(
        self, message: CapturedMessage | int, custom_id: str, *, user: FakeUser, locale: str = "en-US"
    ) -> FakeInteraction:
        """Press a button. Disabled and link buttons cannot be pressed (ValueError), as in Discord's client."""
        target = self._message(message)
        component = target.component(custom_id)
        if component["type"] != BUTTON:
            raise ValueError(f"{custom_id!r} is not a button (type {component['type']})")
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled")
        self._check_visible(target, user)
        await self._until_bot_can_route("component", target, BUTTON, custom_id, lambda: target.delivered)
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._send_interaction(MESSAGE_COMPONENT, user, target.channel, data, locale, target)

    async def select(
        self, message: CapturedMessage | int, custom_id: str, values: list[Any], *, user: FakeUser,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Choose ``values`` in a select menu (option values; users/roles/channels for entity selects)."""
        target = self._message(message)
        component = target.component(custom_id)
        kind = component["type"]
        if kind not in SELECTS:
            raise ValueError(f"{custom_id!r} is not a select menu (type {kind})")
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        self._check_visible(target, user)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        data.update(self._select_values(kind, component, values, self.world.guild_of(target.channel)))
        await self._until_bot_can_route("component", target, kind, custom_id, lambda: target.delivered)
        return await self._send_interaction(MESSAGE_COMPONENT, user, target.channel, data, locale, target)

    def _select_values(self, kind: int, component: dict[str, Any], values: list[Any],
                       guild: FakeGuild | None) -> dict[str, Any]:
        if kind == STRING_SELECT:
            allowed = [o["value"] for o in component.get("options", [])]
            wrong = [v for v in values if v not in allowed]
            if wrong:
                raise ValueError(f"{wrong} are not options of select {component['custom_id']!r}: {allowed}")
            return {"values": list(values)}
        found = cmd.Resolved()
        ids = []
        for value in values:
            if isinstance(value, FakeUser):
                ids.append(found.add_user(value, guild))
            elif isinstance(value, FakeRole):
                ids.append(found.add_role(value))
            elif isinstance(value, FakeChannel):
                ids.append(found.add_channel(value, guild.permissions_of(self.bot_user) if guild else 0))
            else:
                raise ValueError(f"entity selects take FakeUser/FakeRole/FakeChannel values, got {value!r}")
        return {"values": ids, "resolved": found.payload()}

    @staticmethod
    def _check_visible(message: CapturedMessage, user: FakeUser) -> None:
        """Only the person an ephemeral message was shown to can click on it."""
        if message.ephemeral and message.interaction is not None and message.interaction.user.id != user.id:
            raise ValueError(f"{user.name} cannot see ephemeral message {message.id}")

    async def submit_modal(
        self, interaction: FakeInteraction, values: dict[str, Any], *, user: FakeUser | None = None,
        locale: str = "en-US", timeout: float = DEFAULT_TIMEOUT,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot opened in answer to ``interaction``.

        ``values`` maps text-input custom_ids to strings (select custom_ids to lists). Required inputs left out
        raise ValueError, as Discord's client would not let the form be sent.
        """
        modal = await interaction.modal(timeout)
        callback = interaction.callback
        assert callback is not None
        await self._until_bot_can_route("modal", None, 0, modal["custom_id"], lambda: callback.delivered)
        submitted = [self._submitted(component, values) for component in modal.get("components", [])]
        data = {"custom_id": modal["custom_id"], "components": [c for c in submitted if c is not None]}
        return await self._send_interaction(
            MODAL_SUBMIT, user or interaction.user, interaction.channel, data, locale, interaction.source_message
        )

    def _submitted(self, component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any] | None:
        kind = component["type"]
        if kind == 1:  # action row
            children = [self._submitted(child, values) for child in component.get("components", [])]
            return {"type": 1, "components": [c for c in children if c is not None]}
        if kind == LABEL:
            child = self._submitted(component["component"], values)
            return {"type": LABEL, "id": component.get("id"), "component": child}
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None  # text displays and other decoration
        if kind == TEXT_INPUT:
            value = values.get(custom_id, component.get("value") or "")
            if component.get("required", True) and not value:
                raise ValueError(f"modal input {custom_id!r} is required")
            return {"type": TEXT_INPUT, "id": component.get("id"), "custom_id": custom_id, "value": str(value)}
        if kind in SELECTS:
            chosen = values.get(custom_id, [])
            return {"type": kind, "id": component.get("id"), "custom_id": custom_id, "values": list(chosen)}
        return None

    # ------------------------------------------------------------------ messages seen by players

    async def post_as_user(self, channel: FakeChannel, user: FakeUser, content: str) -> CapturedMessage:
        """A player writes a plain message (MESSAGE_CREATE; needs the bot's message intents)."""
        self._change_seq += 1
        message = CapturedMessage(
            id=self.snowflakes.next(), channel=channel, author=user, content=content, source="user",
            timestamp=iso_now(), seq=self._change_seq, delivered=True,
        )
        self.messages[message.id] = message
        await self._announce("MESSAGE_CREATE", message)
        self._changed()
        return message

    def mark(self) -> int:
        """A point in time for ``wait_for_message(after=...)``: only later creations/edits count."""
        return self._change_seq

    async def wait_for_message(
        self,
        channel: FakeChannel | None,
        predicate: Callable[[CapturedMessage], bool] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        after: int | None = None,
        include_ephemeral: bool = True,
        author: FakeUser | None = None,
    ) -> CapturedMessage:
        """The first message (in ``channel``, or anywhere if None) matching ``predicate``, already there or
        still to come. ``after=fake.mark()`` ignores what existed (or was last edited) before the mark."""
        author = author or self.bot_user

        def check() -> CapturedMessage | None:
            for message in list(self.messages.values()):
                if (
                    (channel is None or message.channel.id == channel.id)
                    and not message.deleted
                    and not message.loading
                    and message.author.id == author.id
                    and (include_ephemeral or not message.ephemeral)
                    and (after is None or message.seq > after)
                    and (predicate is None or predicate(message))
                ):
                    return message
            return None

        where = f"#{channel.name}" if channel is not None else "any channel"
        return await self.notifier.wait_for(check, timeout, f"a message in {where}")

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        return self.world.dm_channel(user)
