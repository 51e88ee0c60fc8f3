"""A table's settings (turn time, reminders, timeout, AI seats, resume wait, language) as ``/game new`` and
``/game settings`` take them and as the lobby and ``/game settings`` show them, in the reader's language."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.i18n import LOCALES, t
from bot.tables import DEFAULT_TURN_SECONDS, Table, TableSettings, format_duration, format_reminders
from cogs.common import public_locale

ShortText = app_commands.Range[str, 1, 40]  # durations, reminder lists: the longest Discord lets through

TIMEOUT_CHOICES = [
    app_commands.Choice(name=_("standard: default move, then out at the second miss"), value="standard"),
    app_commands.Choice(name=_("default: default move, never out"), value="default"),
    app_commands.Choice(name=_("eliminate: out at the first miss"), value="eliminate"),
]
LANGUAGE_CHOICES = [  # each in its own language, as language pickers do
    app_commands.Choice(name=_("English"), value="en"),
    app_commands.Choice(name=_("Русский"), value="ru"),
]
SETTING_DESCRIPTIONS = {
    "turn_time": _("Time per turn: 90s, 10m, 24h, 3d (default 24h)"),
    "reminders": _("auto, none, or times before the deadline: half,1h,10m"),
    "timeout": _("What a missed deadline does"),
    "ai_replaces": _("An AI player takes over removed players' seats"),
    "resume_wait": _("How long others wait before they may resume a pause (default 2m)"),
    "language": _("Language of the table's posts in the channel (default: yours)"),
}
SETTING_NAMES = {name: _(name) for name in SETTING_DESCRIPTIONS}


REMINDER_WORDS = ("auto", "none", "half")  # the reminders setting's words, shown and typed in each language


def reminders_text(reminders: tuple[str | int, ...] | None, locale: str) -> str:
    """The reminders setting in the reader's words ("авто", "половина срока, 1ч")."""
    if reminders is None:
        return t(locale, "settings.reminders.auto")
    if not reminders:
        return t(locale, "settings.reminders.none")
    return t(locale, "settings.reminders.join").join(
        t(locale, f"settings.reminders.{r}") if r in REMINDER_WORDS else format_reminders((r,), locale)
        for r in reminders)


def typed_reminders(text: str | None) -> str | None:
    """A reminders value typed in any language ("авто", "половина,10м"), in the words the table service
    reads ("auto", "half,10м"): each language's word, or its first word ("половина")."""
    if text is None:
        return None
    words: dict[str, str] = {}
    for locale in LOCALES:
        for word in REMINDER_WORDS:
            shown = t(locale, f"settings.reminders.{word}").casefold()
            words.setdefault(shown, word)
            words.setdefault(shown.split()[0] if shown.split() else shown, word)
    whole = words.get(text.strip().casefold())
    if whole is not None:
        return whole
    return ",".join(words.get(piece.strip().casefold(), piece) for piece in text.split(","))


def settings_text(table: Table, locale: str) -> str:
    settings = table.settings
    return t(locale, "settings.summary", turn_time=format_duration(table.record.turn_seconds, locale),
             reminders=reminders_text(settings.reminders, locale), timeout=t(locale, f"settings.timeout.{settings.timeout}"),
             ai_replaces=t(locale, "settings.yes" if settings.ai_replaces else "settings.no"),
             resume_wait=format_duration(settings.resume_wait, locale),
             language=t(locale, f"settings.language.{public_locale(table, locale)}"))


def settings_changed(table: Table, locale: str) -> str:
    """The settings that differ from the defaults, briefly (the lobby's footer); ``/game settings`` has all."""
    settings, default = table.settings, TableSettings()
    parts = []
    if table.record.turn_seconds != DEFAULT_TURN_SECONDS:
        parts.append(t(locale, "settings.part.turn_time", value=format_duration(table.record.turn_seconds, locale)))
    if settings.reminders != default.reminders:
        parts.append(t(locale, "settings.part.reminders", value=reminders_text(settings.reminders, locale)))
    if settings.timeout != default.timeout:
        parts.append(t(locale, "settings.part.timeout", value=t(locale, f"settings.timeout.{settings.timeout}")))
    if settings.ai_replaces:
        parts.append(t(locale, "settings.part.ai_replaces"))
    if settings.resume_wait != default.resume_wait:
        parts.append(t(locale, "settings.part.resume_wait", value=format_duration(settings.resume_wait, locale)))
    return " · ".join(parts)
