"""Discord side effects that must survive Discord trouble. A move is committed before anything is
posted, so a failed post is retried (never the move) and, at worst, logged: `/game board` shows it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

log = logging.getLogger(__name__)
T = TypeVar("T")


async def deliver(send: Callable[[], Awaitable[T]], attempts: int = 4, first_delay: float = 0.5) -> T | None:
    """Call ``send`` (a factory: attachments must be rebuilt for every attempt) until it succeeds.
    discord.py already retries 429s and some 5xx itself; this covers what it gives up on. Client errors
    other than 429 are not retried: sending again would fail the same way."""
    for attempt in range(attempts):
        try:
            return await send()
        except discord.HTTPException as error:
            retriable = error.status == 429 or error.status >= 500
            if not retriable or attempt == attempts - 1:
                log.warning("giving up on a Discord post after %d attempts: %s", attempt + 1, error)
                return None
        except (TimeoutError, OSError) as error:
            if attempt == attempts - 1:
                log.warning("giving up on a Discord post: %s", error)
                return None
        await asyncio.sleep(first_delay * 2**attempt)
    return None
