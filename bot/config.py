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


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database_path: str
    api_base: str | None  # REST base instead of Discord's own (rate-limit proxy, end-to-end tests)
    gateway_url: str | None
    dev_guild_id: int | None  # sync commands to this guild only, instantly
    log_level: str
    health_file: str | None = None  # touched while the bot is connected (the container's health check)

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
        return cls(
            token=(values.get("DISCORD_TOKEN") or "").strip() or None,
            database_path=database,
            api_base=_url(values, "DISCORD_API_BASE", ("http://", "https://")),
            gateway_url=_url(values, "DISCORD_GATEWAY_URL", ("ws://", "wss://")),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            health_file=(values.get("HEALTH_FILE") or "").strip() or None,
        )

    def require_token(self) -> str:
        if not self.token:
            raise MissingToken
        return self.token
