"""The message catalogs, for the bot's layers: they live in ``presentation/i18n.py`` (below ``bot/``, so the
games' presentation modules read them too) and are re-exported here unchanged."""

from __future__ import annotations

from presentation.i18n import LOCALES, Entry, _read, catalog, pick_locale, plural_category, t, text_of

__all__ = ["LOCALES", "Entry", "_read", "catalog", "pick_locale", "plural_category", "t", "text_of"]
