"""Choosing a game and its options, for ``/game new``, ``/game rules`` and ``/game leaderboard``: the game
typed by its key or its name (``resolve_game``), the suggestions as one types (``game_autocomplete``,
``options_autocomplete``) and the options typed as ``key=value`` (``parse_options``). Shared by the ``/game``
cog's parts (``cogs/game.py``, ``cogs/lobby.py``, ``cogs/ratings.py``), none of which it imports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from cogs.common import locale_of
from games import registry


def parse_options(text: str | None) -> dict[str, str]:
    """``key=value key2=a,b`` -> dict; malformed pieces become an unknown option the game refuses."""
    options: dict[str, str] = {}
    for piece in (text or "").split():
        key, _, value = piece.partition("=")
        options[key.strip().lower()] = value.strip()
    return options


# Longest values the commands accept (Discord refuses longer ones before they reach the bot).
GameKey = app_commands.Range[str, 1, 32]
OptionsText = app_commands.Range[str, 0, 1500]  # a whole custom Trails deck fits


def option_suggestions(specs: Any, typed: str, limit: int = 25,
                       described: Callable[[str], str] | None = None) -> list[str]:
    """Completions of a ``key=value key2=value`` options string: the pieces already typed stay, the last one
    is completed (an option's name, then its values); options already given are not offered again.
    ``described(key)``: the reader's-language text of ``option.<name>`` or ``option.<name>.<value>``, so a
    word of the reader's language finds the option or the value it describes ("ручей", "север")."""
    pieces = typed.split(" ")
    done, last = [p for p in pieces[:-1] if p], pieces[-1].lower()
    prefix = " ".join(done) + (" " if done else "")
    given = {p.partition("=")[0].lower() for p in done}
    found: list[str] = []
    if "=" in last:
        name, _, partial = last.partition("=")
        spec = next((s for s in specs if s.name == name), None)
        if spec is not None and spec.kind == "multi" and "," in partial:  # one more of a list
            head, _, tail = partial.rpartition(",")
            found = [f"{prefix}{name}={head},{c}" for c in spec.choices
                     if c.startswith(tail) and c not in head.split(",")]
        elif spec is not None:
            found = [f"{prefix}{name}={v}" for v in spec.suggestions() if v.lower().startswith(partial)]
    else:
        for spec in specs:
            if spec.name.startswith(last) and spec.name not in given:
                found += [f"{prefix}{spec.name}={v}" for v in spec.suggestions()[:3]]
        if not found and last and described is not None:  # a word of the reader's language
            for spec in (s for s in specs if s.name not in given):
                values = [v for v in spec.choices if last in described(f"option.{spec.name}.{v}").lower()]
                if not values and last in described(f"option.{spec.name}").lower():
                    values = spec.suggestions()[:3]
                found += [f"{prefix}{spec.name}={v}" for v in values]
    return [f for f in found if len(f) <= 100][:limit]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game = getattr(interaction.namespace, "game", None)
    game = resolve_game(game) if isinstance(game, str) else None  # also typed by its name
    if not game or not registry.has(game):
        return []
    locale = locale_of(interaction)

    def described(key: str) -> str:
        text = t(locale, f"{game}.{key}")
        return "" if text == f"{game}.{key}" else text

    return [app_commands.Choice(name=s, value=s)
            for s in option_suggestions(registry.get(game).option_specs, current, described=described)]


def resolve_game(typed: str) -> str:
    """A game as typed without picking a suggestion: its key, its name in any language, or a beginning (two
    letters or more) of either or of a word of a name that only one game has, whatever the case ("тропы",
    "Кленов", "fortresses"). Anything else is returned as typed, to be refused as an unknown game."""
    text = " ".join(typed.split()).casefold()
    keys = registry.game_keys()
    names = {key: [n.casefold() for n in registry.get(key).names.values()] for key in keys}
    for found in ([k for k in keys if text == k or text in names[k]],
                  [k for k in keys if len(text) >= 2 and (k.startswith(text) or any(
                      n.startswith(text) or any(w.startswith(text) for w in n.split()) for n in names[k]))]):
        if len(found) == 1:
            return found[0]
    return typed


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    locale = locale_of(interaction)
    typed = current.strip().lower()
    found = []
    for key in registry.game_keys():  # by key or by name, in any language ("тро", "деол", "trails")
        names = registry.get(key).names
        if not typed or typed in key or any(typed in name.lower() for name in names.values()):
            found.append(app_commands.Choice(name=names.get(locale, key), value=key))
    return found[:25]
