"""Every figure of the bot's speed in one run, section after section:

- moves/s through the table service (one table at a time, and many at once) beside the bare engine;
- start-up time and memory with 10,000 and 100,000 stored tables, and the clock's pass at those sizes;
- render time and PNG size of Trails boards (early, middle, finished 4-player all expansions);
- `/game move` to the board in the channel through the real bot and the fake Discord.

    python benchmarks/run_all.py [--quick]

Each section is its own script (run alone for more options), started here one after the other so that no
section measures while another runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def sections(quick: bool) -> list[tuple[str, list[str]]]:
    return [
        ("table service vs bare engine", ["bench_table_service.py", "--games", "1" if quick else "3",
                                          "--tables", "20" if quick else "50"]),
        ("start-up and the clock at scale", ["bench_scale.py", "--tables", "10000", "100000"]),
        ("Trails board rendering", ["bench_trails_render.py", "3" if quick else "10"]),
        ("board post end to end", ["bench_e2e_latency.py", "40" if quick else "200"]),
        ("a restart with boards due", ["bench_backlog.py", "--tables", "1000" if quick else "10000"]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats (a minute or two)")
    args = parser.parse_args()
    failed = []
    for title, command in sections(args.quick):
        print(f"\n== {title} ({' '.join(command)})", flush=True)
        started = time.perf_counter()
        result = subprocess.run([sys.executable, str(HERE / command[0]), *command[1:]], check=False)
        print(f"   ({time.perf_counter() - started:.0f} s)", flush=True)
        if result.returncode != 0:
            failed.append(title)
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
