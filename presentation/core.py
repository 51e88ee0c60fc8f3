"""A game's turn in chat as plain data: what the player reads and clicks, without Discord.

A game's presentation module (named by its ``GameEntry.presentation``) has two pure functions:

- ``flow(state, seat, chosen, locale) -> Step | Done``: where the turn of ``seat`` stands after the choices
  ``chosen`` (the ``Choice.key`` of each step answered so far in this turn, nothing committed yet): the next
  ``Step`` to answer, or ``Done`` with the notations that play the whole turn in one commit. The panel only
  calls it with keys that ``flow`` itself offered at each step (it checks them first), so a forged or stale
  key never reaches the game.
- ``narrate(events, names, locale) -> list[str]``: the turn's events as sentences for the board post
  (``events``: ``(seat, Event)`` pairs; ``names``: the seats' names).

Both read the engine's state and the catalogs (``presentation.i18n``) only: no Discord, no I/O, no clock.
The generic panel (``cogs/panel.py``) shows a ``Step`` as buttons or selects, pages long lists, offers Undo
while ``chosen`` is not empty, and commits ``Done.notations`` through the table service. A game whose turn is
committed step by step (each ``Done`` one step, the turn going on after it) is asked ``flow`` again, from
``chosen=()``, after each commit.

A module may also provide (each optional; the panel does without):

- ``reword(error, locale) -> IllegalAction``: a refused move's parameters in words (e.g. the step's name),
  told by the game's catalogs.
- ``final(result, names, locale) -> Final``: the final scoring breakdown under the last board (or
  ``final_at(state, names, locale) -> Final`` when it reads the final position too, e.g. cards left in hand).
- ``TELLS_STEPS = True``: the events of steps committed before the turn ends are held and told together on the
  turn's board; ``held(moves, events, before) -> events`` shapes what is held (``before``: the position's JSON
  the commit started from).
- ``narrate_at(state, events, names, locale)``: ``narrate`` that reads the position after the events too.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal, Protocol

from games import registry
from games.core import Event

KEY_RE = re.compile(r"[a-z0-9_-]{1,20}", re.ASCII)  # a choice's key: it travels in custom ids
Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer of a step: its ``key`` (short, ``KEY_RE``: kept in the panel's custom ids), its label in the
    player's language, the notations it commits (those of the turn's ``Done`` it leads to, or of its own
    step when the turn is played step by step), and how it looks."""

    key: str
    label: str
    notations: tuple[str, ...] = ()
    style: Style = "secondary"
    description: str | None = None  # a second line in a select menu
    group: str = ""  # choices of one group share a select menu (its placeholder: ``Step.placeholders``)
    pinned: bool = False  # always a button on the panel's last row (End turn, Undo a committed step, Show...)

    def __post_init__(self) -> None:
        if KEY_RE.fullmatch(self.key) is None:
            raise ValueError(f"a choice's key must match {KEY_RE.pattern}: {self.key!r}")


@dataclass(frozen=True, slots=True)
class Step:
    """A question of the turn: the prompt, its choices in the order shown, and whether the player may go
    back to the previous step (Undo; nothing is committed before ``Done``)."""

    prompt: str
    choices: tuple[Choice, ...]
    can_undo: bool = False
    placeholder: str | None = None  # a select menu's text, when the choices are too many for buttons
    placeholders: tuple[tuple[str, str], ...] = ()  # (group, text): a group's own select menu text
    # The turn's first step also offered under the (public) board post, up to 50 choices: only for answers
    # everyone may see (Trails' positions, Déole's dice), never ones that tell a hand (Dewan's camps).
    on_board: bool = False
    # A picture of the step (e.g. the planned move on the board), drawn off the event loop from the
    # players' names; it must read only what the step was made from (the position may move on meanwhile).
    picture: Callable[[Sequence[str]], bytes] | None = None


@dataclass(frozen=True, slots=True)
class Done:
    """The turn is fully chosen: the notations to commit in one ``act``, and what the player reads after."""

    notations: tuple[str, ...]
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict[str, Any])


@dataclass(frozen=True, slots=True)
class Final:
    """The final scoring breakdown: a title, an optional line under it, one field per player (name, value)
    and a footer."""

    title: str
    fields: tuple[tuple[str, str], ...]
    description: str | None = None
    footer: str | None = None
    inline: bool = True


class Presentation(Protocol):
    """What a presentation module provides (a module matches this protocol)."""

    def flow(self, state: Any, seat: int, chosen: tuple[str, ...], locale: str) -> Step | Done: ...

    def narrate(self, events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]: ...


def seat_label(names: Sequence[str], key: str, value: Any) -> Any:
    """Event parameters that name seats (``seat``, ``*_seat``, ``seats``, ``*_seats``) show player names."""
    if (key == "seat" or key.endswith("_seat")) and isinstance(value, int):
        return names[value]
    if (key == "seats" or key.endswith("_seats")) and isinstance(value, (list, tuple)):
        return ", ".join(names[int(v)] for v in value)
    return value


def presentation_of(key: str) -> Presentation | None:
    """The presentation module of the game registered under ``key``; ``None`` if it has none."""
    name = registry.entry(key).presentation
    if name is None:
        return None
    module: ModuleType = importlib.import_module(name)
    return module  # type: ignore[return-value]  # a module is checked against the protocol by the contract suite


def walk(presentation: Presentation, state: Any, seat: int, chosen: tuple[str, ...],
         locale: str) -> Step | Done | None:
    """``flow`` after ``chosen``, once each key was checked against what ``flow`` offered at its step;
    ``None``: a key it never offered (stale or forged), or a choice after the turn was done."""
    for index, key in enumerate(chosen):
        at = presentation.flow(state, seat, chosen[:index], locale)
        if isinstance(at, Done) or key not in {c.key for c in at.choices}:
            return None
    return presentation.flow(state, seat, chosen, locale)
