"""A table's clock settings and their user input: turn times and durations, reminders (as typed, shown and
scheduled), the timeout policies and the settings a host may change."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from bot.errors import TableError, echo
from bot.i18n import LOCALES

MIN_TURN_SECONDS, MAX_TURN_SECONDS = 30, 14 * 86400
DEFAULT_TURN_SECONDS = 86400
PAUSES_PER_PLAYER = 2
REMINDER_MIN_TURN_SECONDS = 10 * 60  # shorter turns are played live: no reminders
RESUME_WAIT_SECONDS = 120  # others seated may resume someone's pause after this long
MAX_RESUME_WAIT_SECONDS = 86400
# What a missed deadline does: the rules' policy (default action, then elimination at the second miss),
# always the default action (casual tables), or elimination at once (strict tables).
TIMEOUT_POLICIES = ("standard", "default", "eliminate")
AUTO = "auto"


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's clock settings besides the turn time; stored as JSON with the table.

    ``reminders``: ``None`` is automatic (half time, and one hour before on long turns; none on live
    turns), ``()`` none, else entries ``"half"`` or seconds before the deadline."""

    reminders: tuple[str | int, ...] | None = None
    timeout: str = "standard"
    ai_replaces: bool = False
    resume_wait: int = RESUME_WAIT_SECONDS
    language: str | None = None  # of the table's public posts (the host's at creation); None: the guild's

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        reminders = data.get("reminders", AUTO)
        return cls(None if reminders == AUTO else tuple(reminders), data.get("timeout", "standard"),
                   bool(data.get("ai_replaces", False)), int(data.get("resume_wait", RESUME_WAIT_SECONDS)),
                   data.get("language"))

    def to_json(self) -> dict[str, Any]:
        return {"reminders": AUTO if self.reminders is None else list(self.reminders), "timeout": self.timeout,
                "ai_replaces": self.ai_replaces, "resume_wait": self.resume_wait, "language": self.language}


# Units of a duration as players type them, in English and in Russian ("24h", "24ч", "10 мин").
DURATION_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400,
                  "с": 1, "сек": 1, "м": 60, "мин": 60, "ч": 3600, "д": 86400, "дн": 86400}
SHOWN_UNITS = {"en": ("d", "h", "m", "s"), "ru": ("д", "ч", "м", "с")}


def parse_duration(text: str, minimum: int = MIN_TURN_SECONDS, maximum: int = MAX_TURN_SECONDS) -> int:
    """``90s``, ``10m``, ``24h``, ``3d`` (or ``24ч``, ``10 мин``, ``3д``) or plain seconds -> seconds within
    ``minimum``..``maximum`` (by default the allowed turn times)."""
    text = text.strip().lower()
    shown = echo(text)
    # Short plain decimals only: no "1e400", "inf", "nan" or thousands of digits (OverflowError, slow int()).
    found = re.fullmatch(r"(\d{1,9}(?:[.,]\d{1,3})?)\s*([^\W\d_]*)", text)
    unit = (DURATION_UNITS.get(found[2], 0) if found[2] else 1) if found else 0
    if found is None or not unit:
        raise TableError("bad_duration", value=shown)
    number = found[1].replace(",", ".")
    seconds = int(float(number) * unit)
    if not minimum <= seconds <= maximum:
        raise TableError("bad_duration", value=shown)
    return seconds


def format_duration(seconds: int, locale: str = "en") -> str:
    """The shortest exact form: 86400 -> ``1d``, 5400 -> ``90m``, 45 -> ``45s`` (in Russian ``1д``, ``90м``)."""
    days, hours, minutes, secs = SHOWN_UNITS.get(locale, SHOWN_UNITS["en"])
    for unit, size in ((days, 86400), (hours, 3600), (minutes, 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}{secs}"


def parse_reminders(text: str) -> tuple[str | int, ...] | None:
    """``auto``, ``none``, or a comma list of ``half`` and times before the deadline (``half,1h,10m``)."""
    text = text.strip().lower()
    if text == AUTO:
        return None
    if text in ("none", "off", "0"):
        return ()
    entries: list[str | int] = []
    for piece in filter(None, (p.strip() for p in text.split(","))):
        entry = "half" if piece == "half" else parse_duration(piece, 60, MAX_TURN_SECONDS)
        if entry not in entries:
            entries.append(entry)
    if not entries:
        raise TableError("bad_reminders", value=echo(text))
    return tuple(entries)


def format_reminders(reminders: tuple[str | int, ...] | None, locale: str = "en") -> str:
    if reminders is None:
        return AUTO
    return ",".join(r if isinstance(r, str) else format_duration(r, locale) for r in reminders) or "none"


def next_reminder(deadline: float | None, reminders_sent: int, offsets: tuple[float, ...]) -> float | None:
    """The time of the next reminder still to send (``offsets``: see ``reminder_offsets``), if any."""
    if deadline is None or reminders_sent >= len(offsets):
        return None
    return deadline - offsets[reminders_sent]


def wake_time(deadline: float | None, reminders_sent: int, offsets: tuple[float, ...]) -> float | None:
    """When the clock next has to look at a table: its next reminder while one is still to send (reminders
    come before the deadline), else its deadline."""
    reminder = next_reminder(deadline, reminders_sent, offsets)
    return deadline if reminder is None else reminder


def reminder_schedule(deadline: float | None, turn_seconds: int,
                      reminders: tuple[str | int, ...] | None) -> list[float]:
    """The reminder times of a turn ending at ``deadline`` (see ``TableService.reminder_times``)."""
    if deadline is None:
        return []
    return [deadline - before for before in reminder_offsets(turn_seconds, reminders)]


@functools.lru_cache(maxsize=1024)  # few distinct settings; asked again with every new turn
def reminder_offsets(turn_seconds: int, reminders: tuple[str | int, ...] | None) -> tuple[float, ...]:
    """How long before the deadline each reminder of a turn of ``turn_seconds`` comes, earliest first."""
    if reminders is None:
        if turn_seconds < REMINDER_MIN_TURN_SECONDS:
            return ()
        reminders = ("half", 3600) if turn_seconds > 2 * 3600 else ("half",)
    offsets = {turn_seconds / 2 if isinstance(r, str) else r for r in reminders}
    return tuple(sorted((x for x in offsets if x < turn_seconds), reverse=True))


def settings_changes(reminders: str | None = None, timeout: str | None = None, ai_replaces: bool | None = None,
                     resume_wait: str | None = None, language: str | None = None) -> dict[str, Any]:
    """User input for settings -> validated field changes of ``TableSettings`` (absent ones left out)."""
    changes: dict[str, Any] = {}
    if language is not None:
        if language not in LOCALES:
            raise TableError("bad_language", value=echo(language))
        changes["language"] = language
    if reminders is not None:
        changes["reminders"] = parse_reminders(reminders)
    if timeout is not None:
        if timeout not in TIMEOUT_POLICIES:
            raise TableError("bad_timeout_policy", value=echo(timeout))
        changes["timeout"] = timeout
    if ai_replaces is not None:
        changes["ai_replaces"] = ai_replaces
    if resume_wait is not None:
        try:
            changes["resume_wait"] = parse_duration(resume_wait, 0, MAX_RESUME_WAIT_SECONDS)
        except TableError:
            raise TableError("bad_resume_wait", value=echo(resume_wait)) from None
    return changes
