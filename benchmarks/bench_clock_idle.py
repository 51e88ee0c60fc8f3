"""An idle bot with 1,000 tables waiting on day-long deadlines: how often the turn clock wakes and how
much CPU the process uses while it waits. Prints wake-ups and CPU seconds over the idle window.

    python benchmarks/bench_clock_idle.py [--tables 1000] [--seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import TurnClock  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from bot.tables import TableService  # noqa: E402
from games import registry  # noqa: E402


async def bench(tables: int, seconds: float) -> None:
    registry.register(registry.GameEntry("nim", "tests.nim:GAME", "rendering:render_text_card"))
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "idle.sqlite3"))
        await store.open()
        service = TableService(store)
        for channel in range(tables):
            await service.create(1, channel, "nim", 1, "a", seed=channel, turn_seconds=86400)
            await service.join(channel, 2, "b")
            await service.start(channel, 1)
        wakeups = 0
        fire_due = TurnClock.fire_due

        async def counting_fire_due(self):
            nonlocal wakeups
            wakeups += 1
            return await fire_due(self)

        TurnClock.fire_due = counting_fire_due

        async def announce(_):
            pass

        clock = TurnClock(service, announce)
        clock.start()
        await asyncio.sleep(0.1)  # let the first pass run
        wakeups_before, cpu_before = wakeups, time.process_time()
        await asyncio.sleep(seconds)
        cpu = time.process_time() - cpu_before
        await clock.stop()
        await store.close()
    print(f"{tables} tables, earliest deadline in {(service.next_deadline() or time.time()) - time.time():.0f} s")
    print(f"idle {seconds:.1f} s: clock wake-ups {wakeups - wakeups_before}, process CPU {cpu * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    asyncio.run(bench(args.tables, args.seconds))


if __name__ == "__main__":
    main()
