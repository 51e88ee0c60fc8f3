import logging

import discord
import pytest

from bot.discord_calls import deliver, expected_error


class FakeResponse:
    def __init__(self, status):
        self.status = status
        self.reason = "test"


def http_error(status, code=0):
    return discord.HTTPException(FakeResponse(status), {"message": "boom", "code": code})


@pytest.mark.parametrize(("failures", "status", "delays", "calls", "delivered"), [
    (0, 500, (), 1, True),        # first try works
    (1, 500, (), 1, False),       # discord.py already retried it: no second layer of immediate retries
    (2, 500, (0, 0), 3, True),    # an outage: tried again after each pause given
    (2, 429, (0, 0), 3, True),    # so are rate limits discord.py gave up on
    (9, 503, (0, 0, 0), 4, False),  # bounded, then logged, never raised
    (1, 403, (0, 0), 1, False),   # a client error would fail again: not retried
])
async def test_deliver_retries_only_outages_and_only_after_a_pause(failures, status, delays, calls, delivered):
    made = []

    async def send():
        made.append(1)
        if len(made) <= failures:
            raise http_error(status)
        return "message"

    assert (await deliver(send, retry_delays=delays) == "message") is delivered
    assert len(made) == calls


@pytest.mark.parametrize(("code", "expected"), [(10062, True), (40060, True), (50007, True), (50001, True),
                                                (50035, False)])
async def test_expected_discord_errors_are_one_line_others_a_traceback(code, expected, caplog):
    async def send():
        raise http_error(400 if code == 50035 else 404, code)

    with caplog.at_level(logging.WARNING, logger="bot.discord_calls"):
        assert await deliver(send, "a reply") is None
    (record,) = caplog.records
    assert (record.exc_info is None) is expected
    assert (expected_error(http_error(404, code)) is not None) is expected
