"""Configuration from the environment (and an optional ``.env`` file in the working directory)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


class MissingToken(Exception):
    """DISCORD_TOKEN is not set: the bot cannot log in."""


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


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database_path: str
    api_base: str | None  # REST base instead of Discord's own (rate-limit proxy, end-to-end tests)
    gateway_url: str | None
    dev_guild_id: int | None  # sync commands to this guild only, instantly
    log_level: str

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Config:
        values = _load_dotenv(dotenv) if dotenv else {}
        values.update(os.environ if environ is None else environ)
        guild = values.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=values.get("DISCORD_TOKEN") or None,
            database_path=values.get("DATABASE_PATH") or "playbychat.sqlite3",
            api_base=values.get("DISCORD_API_BASE") or None,
            gateway_url=values.get("DISCORD_GATEWAY_URL") or None,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=(values.get("LOG_LEVEL") or "INFO").upper(),
        )

    def require_token(self) -> str:
        if not self.token:
            raise MissingToken
        return self.token
