"""How the bot's process is set up to run the table service."""

from __future__ import annotations

import gc
import types

import bot.app as app
from bot.tables import GC_THRESHOLDS


def test_the_bot_collects_garbage_at_the_service_s_thresholds_before_it_connects(monkeypatch):
    # At Python's default (a look at the young objects every 700 allocations) the service spent about a sixth
    # of its time in the collector; the bot sets its own thresholds before the client runs.
    seen: list[tuple[int, int, int]] = []

    class Client:
        def run(self, token: str, log_handler: object = None) -> None:
            seen.append(gc.get_threshold())

    monkeypatch.setattr(app, "make_bot", lambda config, force_sync=False: Client())
    monkeypatch.setattr(app, "apply_endpoints", lambda config: None)
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        app.run_bot(types.SimpleNamespace(require_token=lambda: "token"))  # type: ignore[arg-type]
    finally:
        gc.set_threshold(*before)
    assert seen == [GC_THRESHOLDS]
    assert GC_THRESHOLDS[0] > 700 and gc.isenabled()  # less often, never off: cycles are still freed
