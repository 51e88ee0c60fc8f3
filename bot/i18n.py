"""Message catalogs (English and Russian): the bot's own in ``bot/locales`` and each game's in
``games/<key>/locales``, merged under the prefix ``<key>.``. Lookup falls back to English."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from games import registry

LOCALES = ("en", "ru")


def _read(package: str, locale: str) -> dict[str, str]:
    try:
        path = resources.files(package).joinpath("locales", f"{locale}.json")
    except TypeError:  # a plain module, not a package: no catalog of its own
        return {}
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


@cache
def catalog(locale: str) -> dict[str, str]:
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


def t(locale: str, key: str, **params: Any) -> str:
    text = catalog(locale).get(key) or catalog("en").get(key) or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
