"""The refusals a user reads, shared by the table service and the store (which the service sits on)."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refusal the user sees, localised by the bot as ``error.<code>``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class StoreRefused(TableError):
    """A write the database refused for now and that nothing of was written: ``store_busy`` (another process
    held its lock longer than the store waits) or ``store_full`` (no room left on the disk). The player is
    told to try again; the store logs it in one line."""


ECHO_LIMIT = 100


def echo(text: Any, limit: int = ECHO_LIMIT) -> str:
    """User text quoted back in a reply, cut to ``limit`` characters (Discord replies hold 2,000)."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
