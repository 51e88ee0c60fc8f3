"""Message catalogs (English and Russian): the bot's own in ``bot/locales`` and each game's in
``games/<key>/locales``, merged under the prefix ``<key>.``. Lookup falls back to English.

A text that counts something has a form per CLDR plural category, chosen by the parameter it names:
``{"plural": "count", "one": "{count} игрок", "few": "{count} игрока", "many": "{count} игроков",
"other": "{count} игрока"}`` (Russian: one 1, 21, 101...; few 2-4, 22-24...; many 0, 5-20, 25-30...;
other: fractions; English: one 1, other everything else).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from games import registry

LOCALES = ("en", "ru")


Entry = str | dict[str, str]  # a text, or its plural forms (and the parameter that chooses among them)


def _read(package: str, locale: str) -> dict[str, Entry]:
    try:
        path = resources.files(package).joinpath("locales", f"{locale}.json")
    except TypeError:  # a plain module, not a package: no catalog of its own
        return {}
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


@cache
def catalog(locale: str) -> dict[str, Entry]:
    merged = dict(_read("bot", locale))
    for key in registry.game_keys():
        package = registry.module_name(key)
        merged.update({f"{key}.{name}": text for name, text in _read(package, locale).items()})
    return merged


def pick_locale(*candidates: str | None) -> str:
    """The first supported locale among the interaction's, then the guild's; English otherwise."""
    for candidate in candidates:
        if candidate:
            short = str(candidate).split("-")[0].lower()
            if short in LOCALES:
                return short
    return "en"


def plural_category(locale: str, number: float) -> str:
    """CLDR's plural category of ``number`` in ``locale`` (cardinal)."""
    if locale == "ru":
        if number != int(number):
            return "other"
        n = abs(int(number))
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if number == 1 else "other"


def text_of(locale: str, entry: Entry, params: dict[str, Any]) -> str:
    """An entry's text: the plural form its counting parameter asks for."""
    if isinstance(entry, str):
        return entry
    number = params.get(entry.get("plural", "count"))
    form = plural_category(locale, number) if isinstance(number, (int, float)) else "other"
    return entry.get(form) or entry.get("other") or next(v for k, v in entry.items() if k != "plural")


def t(locale: str, key: str, **params: Any) -> str:
    found = catalog(locale).get(key)
    if found is None:
        found, locale = catalog("en").get(key), "en"
    text = text_of(locale, found, params) if found else key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
