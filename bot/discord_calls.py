"""Discord side effects that must survive Discord trouble, and the one place that knows which Discord errors
are expected. A move is committed before anything is posted, so a failed post is retried (never the move)
and, at worst, logged; a board still due is posted again later (``cogs.board``).

discord.py already retries rate limits (429) and server errors (5xx) several times within a call, with its
own waits. ``deliver`` does not stack immediate retries on top of that: it tries again only after a pause
measured in seconds (Discord was down for a while), and only sends that are safe to repeat should be
given retries (a message with a nonce, an edit, an interaction reply).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)
T = TypeVar("T")

# Discord error codes that are part of normal life, not bugs: logged in one line, never as tracebacks.
EXPECTED_CODES = {
    10003: "unknown channel (deleted)",
    10008: "unknown message (deleted)",
    10062: "unknown interaction (answered too late, or twice)",
    40060: "interaction already acknowledged",
    50001: "missing access to the channel",
    50007: "cannot send messages to this user",
    50013: "missing permissions",
    50083: "thread is archived",
}


def expected_error(error: BaseException) -> str | None:
    """What an expected Discord error means, or ``None`` for one worth a traceback."""
    if isinstance(error, discord.HTTPException):
        if error.code in EXPECTED_CODES:
            return EXPECTED_CODES[error.code]
        if error.status == 429 or error.status >= 500:
            return f"Discord unavailable ({error.status})"
    if isinstance(error, discord.InteractionResponded):
        return EXPECTED_CODES[40060]
    if isinstance(error, (TimeoutError, aiohttp.ClientError, OSError)):
        return f"no connection to Discord ({type(error).__name__})"
    return None


def _worth_retrying(error: BaseException) -> bool:
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, (TimeoutError, aiohttp.ClientError, OSError))


async def deliver(send: Callable[[], Awaitable[T]], what: str = "a Discord call",
                  retry_delays: Sequence[float] = ()) -> T | None:
    """Call ``send`` (a factory: attachments must be rebuilt for every attempt); on an outage (what
    discord.py gave up on) try again after each of ``retry_delays`` seconds. Returns ``None`` if it never
    went through: expected errors are logged in one line, others with their traceback; nothing is raised."""
    for attempt in range(len(retry_delays) + 1):
        try:
            return await send()
        except (discord.DiscordException, TimeoutError, aiohttp.ClientError, OSError) as error:
            reason = expected_error(error)
            if attempt < len(retry_delays) and _worth_retrying(error):
                log.info("%s failed (%s); trying again in %.0f s", what, reason, retry_delays[attempt])
                await asyncio.sleep(retry_delays[attempt])
                continue
            if reason is None:
                log.error("%s failed", what, exc_info=error)
            else:
                log.warning("%s failed: %s", what, reason)
            return None
        except RuntimeError as error:
            if "Session is closed" not in str(error):
                raise
            log.info("%s not sent: the bot is shutting down", what)
            return None
    return None
