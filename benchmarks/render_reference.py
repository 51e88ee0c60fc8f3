"""What the board benchmarks measure against (issue 38: every board within 1.5x of this): a finished
4-player all-expansions Trails board, rendered and encoded, in median CPU milliseconds."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from rendering.trails import render_board as render_trails  # noqa: E402
from tests.rendering.trails.boards import game_view  # noqa: E402


def cpu_ms(function: Callable[[], Any], runs: int = 30) -> float:
    """Median CPU milliseconds of ``function`` after a first call (which fills the caches of static layers)."""
    function()
    times = []
    for _ in range(runs):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def trails_reference_ms(names: list[str]) -> float:
    """The reference board's median CPU time (its Russian texts: the longest)."""
    view = game_view(None, seed=11)
    return cpu_ms(lambda: render_trails(view, names[:4], "ru"))
