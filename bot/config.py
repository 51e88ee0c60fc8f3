"""Configuration from the environment (and an optional ``.env`` file in the working directory), checked
when it is read: a bad value is one clear sentence (``ConfigError``), never a failure later on."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class MissingToken(Exception):
    """DISCORD_TOKEN is not set: the bot cannot log in."""


class ConfigError(Exception):
    """A configuration value that cannot be used; the message names the variable and what it accepts."""


def _load_dotenv(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().strip("'\"")
    return values


def _url(values: dict[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    value = values.get(name, "").strip()
    if value and not value.startswith(schemes):
        raise ConfigError(f"{name}={value!r} is not a URL starting with {' or '.join(schemes)}")
    return value or None


def _database_url(values: dict[str, str]) -> str | None:
    """``DATABASE_URL``, checked without echoing it: it usually holds a password."""
    value = values.get("DATABASE_URL", "").strip()
    if value and not value.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"DATABASE_URL (starting {value.split(':', 1)[0]!r}) is not a PostgreSQL URL: "
                          "postgresql://user:password@host:port/database")
    return value or None


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's rule); direct messages come to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


MAX_SHARDS = 65536  # far above any real bot: a typo such as 1000000 is refused rather than tried


def _shard_count(values: dict[str, str]) -> int | None:
    text = values.get("SHARD_COUNT", "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT={text!r} is not a number of shards (a whole number from 1 to {MAX_SHARDS})")
    return int(text)


def _shard_ids(values: dict[str, str], count: int | None) -> tuple[int, ...] | None:
    """``SHARD_IDS``: ids and ranges, e.g. ``0-3`` or ``0,2`` or ``0-1,5``; all shards when unset."""
    text = values.get("SHARD_IDS", "").strip()
    if not text:
        return None if count is None else tuple(range(count))
    if count is None:
        raise ConfigError(f"SHARD_IDS={text!r} needs SHARD_COUNT, the total number of shards of the bot")
    ids: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise ConfigError(f"SHARD_IDS={text!r} is not a list of shard ids and ranges (such as 0-3 or 0,2)")
        low, high = int(first), int(last) if dash else int(first)
        if low > high or high >= count:
            raise ConfigError(f"SHARD_IDS={text!r} names shards outside 0-{count - 1} (SHARD_COUNT={count})"
                              if high >= count else f"SHARD_IDS={text!r} has a range that runs backwards")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database_path: str
    api_base: str | None  # REST base instead of Discord's own (rate-limit proxy, end-to-end tests)
    gateway_url: str | None
    dev_guild_id: int | None  # sync commands to this guild only, instantly
    log_level: str
    health_file: str | None = None  # touched while the bot is connected (the container's health check)
    database_url: str | None = None  # postgresql://...: PostgreSQL instead of the SQLite file
    shard_count: int | None = None  # None: one plain (unsharded) connection
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (all of them if unset)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Config:
        values = _load_dotenv(dotenv) if dotenv else {}
        values.update(os.environ if environ is None else environ)
        guild = values.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID={guild!r} is not a server id (digits only)")
        level = (values.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL={level!r} is not one of {', '.join(LOG_LEVELS)}")
        database = (values.get("DATABASE_PATH") or "playbychat.sqlite3").strip()
        if Path(database).is_dir():
            raise ConfigError(f"DATABASE_PATH={database!r} is a folder; give the path of the database file")
        shard_count = _shard_count(values)
        return cls(
            token=(values.get("DISCORD_TOKEN") or "").strip() or None,
            database_path=database,
            api_base=_url(values, "DISCORD_API_BASE", ("http://", "https://")),
            gateway_url=_url(values, "DISCORD_GATEWAY_URL", ("ws://", "wss://")),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            health_file=(values.get("HEALTH_FILE") or "").strip() or None,
            database_url=_database_url(values),
            shard_count=shard_count,
            shard_ids=_shard_ids(values, shard_count),
        )

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id``: it loads, clocks and reminds only those tables."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @property
    def syncs_commands(self) -> bool:
        """Slash commands are global: one process syncs them, the one holding shard 0 (or the only one)."""
        return self.shard_ids is None or 0 in self.shard_ids

    def require_token(self) -> str:
        if not self.token:
            raise MissingToken
        return self.token
