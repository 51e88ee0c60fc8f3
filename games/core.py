"""The engine contract every game implements.

A game is a stateless ``Game`` object whose methods take and mutate a game-specific ``State``.
Engines are pure: no Discord, no asyncio, no I/O, no wall clock. The random generator lives inside
the state, so the same seed and the same actions always give the same game.

Actions are game-specific immutable values. Every action has a text notation (``format`` /
``parse``, exact on round trip): the bot stores the notation in the move log, offers it in
autocomplete and accepts it from ``/game move``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import orjson

Seat = int
Action = Hashable
JSON = dict[str, Any]
S = TypeVar("S")  # a game's state type
A = TypeVar("A", bound=Hashable)  # a game's action type


class IllegalAction(Exception):
    """An action the rules do not allow. ``code`` is stable; the bot localises it with ``params``.

    Codes shared by every game live in the bot's catalog as ``error.<code>``; a game's own codes
    live in its catalog as ``<game>.error.<code>``.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


class InvalidOptions(IllegalAction):
    """Options given at setup that the game does not accept (unknown key, bad value, bad count)."""


ECHO_LIMIT = 100


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """What a player typed, quoted back in an error: at most ``limit`` characters."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the channel message. Localised by the bot as ``<game>.event.<code>``.

    Parameters named ``seat`` or ending in ``_seat`` are seat numbers; the bot shows player names.
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict[str, Any])


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option. ``kind`` is ``choice`` (one of ``choices``), ``multi`` (comma-separated
    subset of ``choices``, possibly empty), ``int`` (between ``minimum`` and ``maximum``), ``bool``
    or ``text`` (free text the game validates itself in ``setup``, e.g. a fixed deck order)."""

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    examples: tuple[str, ...] = ()  # suggested values of a ``text`` option (e.g. named presets)

    def parse(self, raw: Any) -> Any:
        """Turn a raw value (text from a command, or an already typed value) into a valid option value."""
        if self.kind == "choice":
            value = str(raw).strip().lower()
            if value not in self.choices:
                raise InvalidOptions("option_choice", option=self.name, value=clip(raw), choices=", ".join(self.choices))
            return value
        if self.kind == "multi":
            items: list[Any] = (list(raw) if isinstance(raw, (list, tuple))  # pyright: ignore[reportUnknownArgumentType]
                                else [p for p in str(raw).replace(" ", "").split(",") if p])
            values: list[str] = []
            for raw_item in items:
                item = str(raw_item).lower()
                if item in ("none", ""):
                    continue
                if item not in self.choices:
                    raise InvalidOptions("option_choice", option=self.name, value=clip(item), choices=", ".join(self.choices))
                if item not in values:
                    values.append(item)
            return tuple(v for v in self.choices if v in values)
        if self.kind == "int":
            try:
                if len(str(raw).strip()) > 18:  # no int() of thousands of digits
                    raise ValueError
                value = int(raw)
            except (TypeError, ValueError):
                raise InvalidOptions("option_int", option=self.name, value=clip(raw)) from None
            if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
                raise InvalidOptions("option_range", option=self.name, value=value, minimum=self.minimum, maximum=self.maximum)
            return value
        if self.kind == "bool":
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on", "да"):
                return True
            if text in ("0", "false", "no", "off", "нет"):
                return False
            raise InvalidOptions("option_bool", option=self.name, value=clip(raw))
        if self.kind == "text":
            return str(raw).strip()
        raise ValueError(f"unknown option kind {self.kind}")

    def suggestions(self) -> list[str]:
        """Values worth offering as someone types the option (autocomplete), default first."""
        if self.kind == "choice":
            values = list(self.choices)
        elif self.kind == "multi":
            values = ["none", *self.choices, ",".join(self.choices)]
        elif self.kind == "bool":
            values = ["yes", "no"]
        elif self.kind == "int":
            values = [str(v) for v in (self.minimum, self.maximum) if v is not None]
        else:
            values = list(self.examples)
        default = self.format(self.default)
        return [default, *(v for v in values if v != default)] if default else values

    def format(self, value: Any) -> str:
        if self.kind == "multi":
            return ",".join(value) if value else "none"
        if self.kind == "bool":
            return "yes" if value else "no"
        return str(value)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    seat: Seat
    rank: int  # 1 is best; tied players share a rank
    score: int
    breakdown: dict[str, int]  # category -> points; adds up to score
    eliminated: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    ranking: list[PlayerResult]  # best first
    turns: int
    extra: dict[str, Any] = field(default_factory=dict[str, Any])  # game-specific facts (e.g. solo win/loss)


def rank_players(
    scores: dict[Seat, tuple[Any, ...]], eliminated: Sequence[Seat] = ()
) -> dict[Seat, int]:
    """Competition ranking ("1224"): higher sort keys rank first, equal keys share the place, and
    eliminated seats rank after every remaining seat (among themselves by their keys)."""
    out = set(eliminated)
    order = sorted(scores, key=lambda s: (s not in out, scores[s]), reverse=True)
    ranks: dict[Seat, int] = {}
    for index, seat in enumerate(order):
        if index and (seat in out) == (order[index - 1] in out) and scores[seat] == scores[order[index - 1]]:
            ranks[seat] = ranks[order[index - 1]]
        else:
            ranks[seat] = index + 1
    return ranks


def json_text(value: Any) -> str:
    """``value`` as compact JSON text, as the store keeps states and stories: orjson, several times faster than
    the standard encoder (every commit writes some), which still takes what orjson refuses (integers beyond
    64 bits). Integer keys become strings, as with ``json.dumps``."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng


class Game(ABC, Generic[S, A]):
    """A rules engine over its state type ``S`` and action type ``A``. Subclasses set the class attributes
    and implement the methods (``class NimGame(Game[NimState, NimAction])``)."""

    key: str  # registry key, e.g. "trails"
    names: dict[str, str]  # locale -> display name
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...] = ()
    json_version: int = 1
    # The rules the engine plays: raised when a change makes old move logs play differently (a replay of a
    # record made under other rules is refused, not shown wrong).
    rules_version: int = 1
    private_views = False  # seats see more than spectators (hands): boards get a "My hand" button

    # -- options -------------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Validate raw options (unknown keys rejected) and fill in defaults."""
        raw = dict(raw or {})
        specs = {spec.name: spec for spec in self.option_specs}
        for name in raw:
            if name not in specs:
                raise InvalidOptions("option_unknown", option=clip(name), known=", ".join(specs) or "-")
        return {name: spec.parse(raw[name]) if name in raw else spec.default for name, spec in specs.items()}

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions("player_count", count=players, minimum=self.min_players, maximum=self.max_players)

    # -- the contract --------------------------------------------------------------------------
    @abstractmethod
    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> S:
        """A new game. Must call ``check_players`` and ``parse_options``."""

    @abstractmethod
    def to_act(self, state: S) -> list[Seat]:
        """The seats that may act now (empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every legal action of ``seat`` now (empty when it is not to act)."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> list[Event]:
        """Apply ``action`` or raise ``IllegalAction`` leaving ``state`` untouched."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator). JSON-compatible; renderers draw from it."""

    @abstractmethod
    def default_action(self, state: S, seat: Seat) -> A:
        """What the clock plays for a seat that ran out of time; it must be legal."""

    @abstractmethod
    def eliminate(self, state: S, seat: Seat) -> list[Event]:
        """The seat takes no more turns; the game goes on (and ends if one player remains)."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    def initial_events(self, state: S) -> list[Event]:
        """What setup decided that the table should hear about when the game starts (dice for the
        first player, say). Announced with the first board."""
        return []

    @abstractmethod
    def result(self, state: S) -> Result:
        """Ranking with a per-player breakdown; valid at the end (and as standings mid-game)."""

    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """Lossless, versioned (include ``"v": json_version``)."""

    @abstractmethod
    def from_json(self, data: JSON) -> S: ...

    def dumps(self, state: S) -> str:
        """The state as JSON text, as snapshots store it: ``to_json`` encoded. An engine whose ``to_json``
        copies the state (so that its value stays as it was while the game goes on) may encode the state
        without those copies here, since nothing keeps this value."""
        return json_text(self.to_json(state))

    @abstractmethod
    def parse(self, text: str) -> A:
        """Notation -> action; raise ``IllegalAction("notation", text=...)`` on malformed text."""

    @abstractmethod
    def format(self, action: A) -> str:
        """Action -> notation; ``parse(format(a)) == a``."""

    # -- conveniences with sensible defaults ----------------------------------------------------
    def turn_owner(self, state: S) -> Seat | None:
        """The single seat whose turn it is, if the game is turn-based now (used by the clock)."""
        seats = self.to_act(state)
        return seats[0] if len(seats) == 1 else None

    def turn_number(self, state: S) -> int:
        """How many turns have ended (0 at the start; whoever's): it grows when a new turn starts, also when
        the same seat gets the turn again (an AI replied, a solo game's next roll), and not on the steps of one
        turn.
        The clock gives every new turn a full turn time, and the bot posts a board once per turn.
        Games with a cheaper count than ``result().turns`` override this."""
        return self.result(state).turns

    def scores(self, state: S) -> dict[Seat, int]:
        """Current scores for standings."""
        return {p.seat: p.score for p in self.result(state).ranking}

    def describe(self, action: A, locale: str = "en") -> str:
        """A human label for buttons and autocomplete; the notation by default."""
        return self.format(action)


AnyGame = Game[Any, Any]  # a game of any kind, as the bot holds it
