import discord
import pytest

from bot.discord_calls import deliver


class FakeResponse:
    def __init__(self, status):
        self.status = status
        self.reason = "test"


def http_error(status):
    return discord.HTTPException(FakeResponse(status), "boom")


@pytest.mark.parametrize(("failures", "status", "calls", "delivered"), [
    (0, 500, 1, True),    # first try works
    (2, 500, 3, True),    # server errors are retried until it works
    (2, 429, 3, True),    # so are rate limits discord.py gave up on
    (9, 503, 4, False),   # bounded: 4 attempts, then logged, never raised
    (1, 403, 1, False),   # a client error would fail again: not retried
])
async def test_deliver_retries_only_what_can_succeed(failures, status, calls, delivered):
    made = []

    async def send():
        made.append(1)
        if len(made) <= failures:
            raise http_error(status)
        return "message"

    assert (await deliver(send, first_delay=0) == "message") is delivered
    assert len(made) == calls
