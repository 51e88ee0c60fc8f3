"""A fake Discord (REST API v10 + gateway) on 127.0.0.1 that the real discord.py client connects to."""

from .driver import FakeDiscord
from .records import Callback, CapturedAttachment, CapturedMessage, FakeInteraction, Fault, RequestRecord
from .validation import DiscordError
from .world import ADMINISTRATOR, MANAGE_CHANNELS, FakeChannel, FakeGuild, FakeRole, FakeUser, World

__all__ = [
    "ADMINISTRATOR",
    "MANAGE_CHANNELS",
    "Callback",
    "CapturedAttachment",
    "CapturedMessage",
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeRole",
    "FakeUser",
    "Fault",
    "RequestRecord",
    "World",
]
