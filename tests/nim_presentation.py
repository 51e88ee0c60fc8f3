"""Nim's turn in chat as plain data (presentation/core.py): how many sticks, then Confirm (or Undo). Pure:
the engine's state and the catalogs (tests/locales), no discord.py; the generic panel (cogs/panel.py) shows it."""

from __future__ import annotations

from collections.abc import Sequence

from games.core import Event
from presentation.core import Choice, Done, Step
from presentation.i18n import t
from tests.nim import GAME, NimState

CONFIRM = "ok"


def tr(locale: str, key: str, **params: object) -> str:
    return t(locale, f"nim.{key}", **params)


def flow(state: NimState, seat: int, chosen: tuple[str, ...], locale: str) -> Step | Done:
    """Step 1: how many sticks (1-3, as many as are left); step 2: Confirm, with Undo back to step 1."""
    counts = GAME.legal_actions(state, seat)
    if not chosen:
        return Step(tr(locale, "panel.prompt", count=state.pile),
                    tuple(Choice(str(n), tr(locale, "panel.take", count=n), (GAME.format(n),)) for n in counts))
    count = int(chosen[0])
    if len(chosen) == 1:
        return Step(tr(locale, "panel.confirm_prompt", count=count, left=state.pile - count),
                    (Choice(CONFIRM, tr(locale, "panel.confirm"), (GAME.format(count),), style="primary"),),
                    can_undo=True)
    return Done((GAME.format(count),), tr(locale, "panel.done", count=count))


def narrate(events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    lines = []
    for _seat, event in events:
        if event.code == "took":
            lines.append(tr(locale, "narrate.took", player=names[event.params["seat"]], count=event.params["count"],
                            left=event.params["left"]))
        elif event.code == "eliminated":
            lines.append(tr(locale, "narrate.eliminated", player=names[event.params["seat"]]))
    return lines
