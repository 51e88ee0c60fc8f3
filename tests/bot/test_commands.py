"""Every slash command, group and parameter has a Russian name and description, valid for Discord."""

import re

import discord
import pytest
from discord import app_commands

from bot.app import CatalogTranslator, PlayByChatBot
from bot.config import Config

NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def bot(db_path):
    config = Config(None, db_path, None, None, None, "INFO")
    bot = PlayByChatBot(config)
    await bot.load_cogs()  # /game and every game's own commands
    yield bot
    await bot.store.close()


async def test_every_command_is_translated_to_russian(bot):
    translator = CatalogTranslator()
    commands = list(bot.tree.walk_commands())
    assert {c.qualified_name for c in commands} >= {
        "game new", "game join", "game leave", "game start", "game ai add", "game ai remove", "game status", "game hand",
        "game board", "game move", "game history", "game abort", "game rules"}
    for command in commands:
        strings = [command._locale_name, command._locale_description]
        if isinstance(command, app_commands.Command):
            for parameter in command._params.values():
                strings += [parameter._rename, parameter.description]
        for string in strings:
            assert isinstance(string, app_commands.locale_str), (command.qualified_name, string)
            russian = await translator.translate(string, discord.Locale.russian, None)
            assert russian, f"{command.qualified_name}: no Russian for {string.message!r}"
            if string in (command._locale_name,):
                assert NAME.match(russian) and russian == russian.lower(), russian
