"""Déole's turn in chat as plain data (presentation/core.py): the answers of the current decision and the
panel's combined answers (several steps in one click), their labels, the prompt, the hints of the typed
commands, the events in words and the final scores. Pure: the engine's state and the catalogs, no discord.py;
the generic panel (cogs/panel.py) shows them, the Déole cog (cogs/deole.py) adds the typed commands.

A pick is a chain of small decisions; :func:`panel_choices` joins the next decisions to an answer while
their outcome is known (no die rolled or drawn), so a pick mostly takes a click or two. ``flow`` offers these
answers as one ``Step`` (keys: their index) and ``Done`` commits the chosen one; the rest of the pick is the
next ``flow`` after the commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Event, IllegalAction, Result
from games.deole import GAME
from games.deole import data as D
from games.deole.engine import DeoleGame, DeoleState, DisasterOutlook
from presentation import core
from presentation.core import seat_label
from presentation.i18n import t

KEY = "deole"
BUTTON_LIMIT = 20  # more choices than this go into a select menu (4 rows of 5 buttons)
# Event parameters shown as words of the catalog: parameter name -> catalog prefix.
WORD_PARAMS = {"colour": "colour", "disaster_colour": "colour", "track": "track", "mode": "mode",
               "direction": "dir", "symbol": "symbol"}


def tr(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"{KEY}.{key}", **params)


@dataclass(frozen=True)
class Choice:
    """One answer in the panel: the notations it commits together, its label, and how many of the pick's
    decisions it answers (more than one: an answer that plays several steps at once)."""

    notations: tuple[str, ...]
    label: str
    steps: int = 1


# -- choices --------------------------------------------------------------------------------------
def choices(game: DeoleGame, state: DeoleState, seat: int, locale: str) -> list[Choice]:
    """The mover's answers to the current decision, labelled in ``locale``."""
    view = game.view(state, None)
    if view["actor"] != seat:
        return []
    actions = game.legal_actions(state, seat)
    sheet = view["sheets"][seat]
    writes = game.write_choices(state, seat)  # writing a die: one answer per value, rudders included
    if writes:
        out = []
        for value, steps in writes.items():
            rudders = sum(1 for a in steps if a[0] == "rudder")
            label = (tr(locale, "label.write_rudders", value=value, count=rudders) if rudders
                     else tr(locale, "label.write", value=value))
            out.append(Choice(tuple(game.format(a) for a in steps), label))
        return out
    pending = game.pending_disaster(state)
    return [Choice((game.format(a),), action_label(a, sheet, locale, pending if a[0] == "disaster"
                                                   else game.roll_outlook(state, seat, a)))
            for a in actions]


def panel_choices(game: DeoleGame, state: DeoleState, seat: int, locale: str,
                  limit: int = BUTTON_LIMIT) -> list[Choice]:
    """The panel's answers: the current decision's, each followed by the next decision's answers (as
    answers of their own: "blue 5 · Blue track · ODD") while they all still fit in ``limit`` buttons, the
    shallowest and the fewest first. Only steps whose outcome is already known join: a step that rolls or
    draws a die, or ends the pick, is the last of an answer. Every sequence of answers the steps allow is
    still one answer (or a few) away, so no move is lost; a pick takes a click or two instead of five."""
    first = choices(game, state, seat, locale)
    if not first or len(first) > limit:
        return first
    paths = [_Path.start(game, state, seat, choice, locale) for choice in first]
    while True:
        ready = sorted((p.depth, len(p.next), i) for i, p in enumerate(paths) if p.next)
        found = next((i for _depth, fan, i in ready if len(paths) - 1 + fan <= limit), None)
        if found is None:
            return [p.choice() for p in paths]
        paths[found:found + 1] = paths[found].extended(game, seat, locale)


@dataclass
class _Path:
    """An answer of the panel while :func:`panel_choices` makes it: the step answers it plays, the position
    after them (a copy), and the next decision's answers if they may join it."""

    answers: tuple[Choice, ...]
    segments: tuple[str, ...]
    after: DeoleState
    next: list[Choice]

    @classmethod
    def start(cls, game: DeoleGame, state: DeoleState, seat: int, choice: Choice, locale: str) -> _Path:
        return cls._of(game, state, seat, (), (), choice, locale)

    @classmethod
    def _of(cls, game: DeoleGame, before: DeoleState, seat: int, answers: tuple[Choice, ...],
            segments: tuple[str, ...], choice: Choice, locale: str) -> _Path:
        after = game.clone(before)
        for notation in choice.notations:
            game.apply(after, seat, game.parse(notation))
        known = after.rng.getstate() == before.rng.getstate() and after.bag == before.bag  # no die rolled or drawn
        goes_on = known and not game.pick_over(after, seat)
        segment = short_label(game, after, seat, choice, locale)
        return cls((*answers, choice), (*segments, segment), after,
                   choices(game, after, seat, locale) if goes_on else [])

    @property
    def depth(self) -> int:
        return len(self.answers)

    def extended(self, game: DeoleGame, seat: int, locale: str) -> list[_Path]:
        return [self._of(game, self.after, seat, self.answers, self.segments, choice, locale) for choice in self.next]

    def choice(self) -> Choice:
        if len(self.answers) == 1:
            return self.answers[0]
        notations = tuple(n for answer in self.answers for n in answer.notations)
        return Choice(notations, " · ".join(self.segments), len(self.answers))


def short_label(game: DeoleGame, after: DeoleState, seat: int, choice: Choice,
                locale: str) -> str:
    """A step answer as a part of a combined answer's label: short, and saying what the engine settled by
    itself (a track's only fitting mode)."""
    action = game.parse(choice.notations[0])
    kind = action[0]
    if kind in ("die", "take"):
        die = tr(locale, "label.die", colour=tr(locale, f"colour.{action[1]}"), value=action[2])
        track = after.ctx.get("track") if after.actor == seat else None  # the only fitting track, set by the engine
        return f"{die} · {short_track(after, seat, track, locale)}" if track else die
    if kind == "anchor":
        return tr(locale, "short.anchor", colour=tr(locale, f"colour.{action[1]}"), value=action[2])
    if kind == "track":
        return short_track(after, seat, action[1], locale)
    if kind == "mode":
        return tr(locale, f"mode.{action[1]}")
    if kind == "castaway":
        return tr(locale, "short.castaway", track=tr(locale, f"name.{action[1]}"))
    if kind == "bonus":
        return tr(locale, "short.bonus", bonus=action[1])
    return choice.label


def short_track(after: DeoleState, seat: int, track: str, locale: str) -> str:
    """"Blue track · ODD" once the track has its mode (also the only fitting one, set by the engine), else
    "Blue track" (the mode is the next step)."""
    name = tr(locale, f"name.{track}")
    mode = after.sheets[seat]["modes"][track]
    return tr(locale, "label.track", track=name, mode=tr(locale, f"mode.{mode}")) if mode \
        else tr(locale, "label.castaway", track=name)


# The steps of a pick in their order (a bonus die goes through them again), and the step of each notation.
STEP_ORDER = ("die", "track", "mode", "adjust", "port", "move", "flip", "castaway", "bonus", "colour", "take",
              "disaster")
KIND_STEPS = {"die": "die", "anchor": "die", "track": "track", "mode": "mode", "place": "adjust",
              "rudder": "adjust", "value": "adjust", "port": "port", "move": "move", "flip": "flip",
              "castaway": "castaway", "bonus": "bonus", "colour": "colour", "take": "take", "disaster": "disaster",
              "help": "disaster"}
HINT_VALUE = "?"  # the value of a suggestion that only explains: sent, it shows the current question


def step_hint(game: DeoleGame, state: DeoleState, kinds: tuple[str, ...], locale: str) -> str:
    """Why a command's step has no answers now: done already (by the player, or by the engine when it had
    one answer), not come yet, or not this step, with the step the pick is at."""
    phase = game.view(state, None)["phase"]
    asked = [STEP_ORDER.index(KIND_STEPS[k]) for k in kinds if k in KIND_STEPS]
    now = STEP_ORDER.index(phase) if phase in STEP_ORDER else None
    # A command's first step (the die for /deole die, the track for /deole track) says which it is.
    key = ("hint.not_now" if now is None or not asked else "hint.done" if min(asked) < now
           else "hint.later" if min(asked) > now else "hint.not_now")
    return tr(locale, key, step=tr(locale, f"step.{phase}"))


def outlook_text(outlook: DisasterOutlook, locale: str) -> str:
    """Where a Disaster would go, in words: "Disaster blue 4 → Blue box 7 or Crew box 6"."""
    params = {"colour": tr(locale, f"colour.{outlook.colour}"), "value": outlook.value}
    if outlook.ignored:
        return tr(locale, "outlook.ignored", **params)
    if outlook.boxes:
        places = tr(locale, "outlook.or").join(tr(locale, "outlook.box", track=tr(locale, f"name.{track}"), box=box)
                                               for track, box in outlook.boxes)
        return tr(locale, "outlook.to", places=places, **params)
    return tr(locale, "outlook.help" if outlook.helping_hands else "outlook.shipwreck", **params)


def action_label(action: tuple, sheet: dict[str, Any], locale: str, outlook: DisasterOutlook | None = None) -> str:
    kind = action[0]
    if kind == "die" and outlook is not None:  # solo: the other die becomes the Disaster
        return tr(locale, "label.die_solo", colour=tr(locale, f"colour.{action[1]}"), value=action[2],
                  disaster=outlook_text(outlook, locale))
    if kind in ("die", "take"):
        return tr(locale, "label.die", colour=tr(locale, f"colour.{action[1]}"), value=action[2])
    if kind == "anchor":
        disaster = outlook_text(outlook, locale) if outlook is not None else ""
        return tr(locale, "label.anchor", colour=tr(locale, f"colour.{action[1]}"), value=action[2],
                  disaster=disaster)
    if kind == "track":
        mode = sheet["modes"][action[1]]
        name = tr(locale, f"name.{action[1]}")
        if mode:
            return tr(locale, "label.track", track=name, mode=tr(locale, f"mode.{mode}"))
        return tr(locale, "label.track_new", track=name)
    if kind == "mode":
        return f"{tr(locale, f'mode.{action[1]}')}: {tr(locale, f'rule.{action[1]}')}"
    if kind == "value":
        return tr(locale, "label.write", value=action[1])
    if kind == "port":
        return tr(locale, "label.port", port=action[1])
    if kind == "move":
        return tr(locale, "label.move", direction=tr(locale, f"dir.{action[1]}"))
    if kind == "flip":
        return tr(locale, "label.flip", box=action[1])
    if kind == "disaster":
        box = dict(outlook.boxes).get(action[1], "?") if outlook is not None else "?"
        if action[1] == D.CREW:
            return tr(locale, "label.disaster_crew", box=box)
        return tr(locale, "label.disaster_wind", track=tr(locale, f"name.{action[1]}"), box=box,
                  edge=tr(locale, f"edge.{action[1]}"))
    if kind == "castaway":
        return tr(locale, "label.castaway", track=tr(locale, f"name.{action[1]}"))
    if kind == "colour":
        return tr(locale, f"colour.{action[1]}")
    if kind == "bonus":
        return f"{action[1]}: {tr(locale, f'bonus.{action[1]}')}"
    if kind == "help":
        return tr(locale, "label.help")
    return " ".join(str(p) for p in action)


def prompt(game: DeoleGame, state: DeoleState, seat: int, names: Sequence[str] | None, locale: str) -> str:
    """What the panel says: the round (and the mover's name, when ``names`` are given), the dice still on the
    track, the die in hand, in solo what becomes of the Disaster, and the question."""
    view = game.view(state, None)
    if view["over"]:
        return t(locale, "game.over")
    if view["actor"] != seat:
        return tr(locale, "panel.done")
    lines = [tr(locale, "panel.header", round=view["round"], turn=view["turn"], player=names[seat]) if names
             else tr(locale, "panel.header_round", round=view["round"], turn=view["turn"])]
    if view["pool"]:
        lines.append(tr(locale, "panel.pool", dice=dice_text(view["pool"], locale)))
    current = view["current"]
    if current["die"]:
        colour, value = current["die"]
        die = tr(locale, "label.die", colour=tr(locale, f"colour.{colour}"), value=value if value else "?")
        if current["track"]:
            lines.append(tr(locale, "panel.in_hand_track", die=die, track=tr(locale, f"name.{current['track']}")))
        else:
            lines.append(tr(locale, "panel.in_hand", die=die))
    if current["bonus_pending"]:
        lines.append(tr(locale, "panel.bonus_pending", count=current["bonus_pending"]))
    sheet = view["sheets"][seat]
    rudders = ", ".join(f"{tr(locale, f'name.{k}')} {v}" for k, v in sheet["rudders"].items() if v)
    if rudders:
        lines.append(tr(locale, "panel.rudders", rudders=rudders))
    if view["solo"]:
        lines.extend(solo_lines(game, state, seat, view, locale))
    question = tr(locale, f"prompt.{view['phase']}")
    lines.append(f"**{question}**")
    return "\n".join(lines)


def solo_lines(game: DeoleGame, state: DeoleState, seat: int, view: dict[str, Any], locale: str) -> list[str]:
    """Solo: the helping hands and storms, and before a die is chosen, which die becomes the Disaster and where
    it would go for each answer; afterwards, the Disaster still to place."""
    lines = []
    sheet = view["sheets"][seat]
    if sheet["helping_hands"]:
        lines.append(tr(locale, "panel.helping_hands", count=sheet["helping_hands"]))
    storms = [tr(locale, "panel.storm", rows=rows, edge=tr(locale, f"edge.{colour}"))
              for colour, rows in view["storms"].items() if rows]
    if storms:
        lines.append(tr(locale, "panel.storms", storms=", ".join(storms)))
    if view["phase"] == "die":
        outlooks = [(a, game.roll_outlook(state, seat, a)) for a in game.legal_actions(state, seat)]
        if any(o is not None for _, o in outlooks):
            lines.append(tr(locale, "panel.solo_rule"))
            lines.extend(tr(locale, "panel.solo_if", choice=action_label(a, sheet, locale, o))
                         for a, o in outlooks if o is not None)
    elif (pending := game.pending_disaster(state)) is not None:
        key = "panel.disaster_now" if view["phase"] == "disaster" else "panel.disaster_pending"
        lines.append(tr(locale, key, disaster=outlook_text(pending, locale)))
    return lines


def dice_text(dice: list[list[Any]], locale: str) -> str:
    return ", ".join(f"{tr(locale, f'colour.{c}')} {v}" for c, v in dice)


# -- narration --------------------------------------------------------------------------------------
def event_line(event: Any, names: Sequence[str], locale: str) -> str | None:
    if event.code == "final_score":
        return None  # the final embed has the breakdown
    params: dict[str, Any] = {}
    for key, value in event.params.items():
        if key in WORD_PARAMS and isinstance(value, str):
            prefix = "edge" if event.code == "storm" else WORD_PARAMS[key]
            value = tr(locale, f"{prefix}.{value}")
        elif key == "dice":
            value = " ".join(tr(locale, f"colour.{w}") if w in D.WIND_COLOURS else w for w in str(value).split())
        params[key] = seat_label(names, key, value)
    text = tr(locale, f"event.{event.code}", **params)
    return None if text == f"{KEY}.event.{event.code}" else text


def narrate(events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    """The events of a pick's steps, in words (the final score is left to the final embed)."""
    return [line for _seat, event in events if (line := event_line(event, names, locale))]


# -- the turn flow ----------------------------------------------------------------------------------------
def panel_text(game: DeoleGame, state: DeoleState, seat: int, names: Sequence[str] | None, locale: str,
               options: Sequence[Choice]) -> str:
    """The panel's text above ``options``: the prompt, and a note when an answer plays several steps."""
    text = prompt(game, state, seat, names, locale)
    if any(c.steps > 1 for c in options):
        text = f"{text}\n{tr(locale, 'panel.combined')}"
    return text


TELLS_STEPS = True  # a pick's steps are told together on the board posted when it is done


def flow(state: DeoleState, seat: int, chosen: tuple[str, ...], locale: str) -> core.Step | core.Done:
    """One commit of the pick: the panel's answers (:func:`panel_choices`, keyed by their index; also under
    the board post), then ``Done`` with the chosen answer's notations. The pick's next decisions are the next
    ``flow`` after the commit (a die may be rolled or drawn in between)."""
    options = panel_choices(GAME, state, seat, locale)
    if not chosen:
        return core.Step(panel_text(GAME, state, seat, None, locale, options),
                         tuple(core.Choice(str(i), c.label, c.notations, description=c.label[100:200] or None)
                               for i, c in enumerate(options)),
                         placeholder=tr(locale, "panel.pick"), on_board=True)
    choice = options[int(chosen[0])]
    return core.Done(choice.notations, choice.label)


def reword(error: IllegalAction, locale: str) -> IllegalAction:
    """A refusal naming the engine's step names it in words."""
    if error.code == "wrong_step":
        return IllegalAction(error.code, **dict(error.params, step=tr(locale, f"step.{error.params.get('step')}")))
    return error


def final(result: Result, names: Sequence[str], locale: str) -> core.Final:
    """The final scores, one line per player with the breakdown (solo: the voyage's outcome first)."""
    solo = tr(locale, f"final.solo.{result.extra['outcome']}") if result.extra.get("solo") else None
    fields = tuple((tr(locale, "final.player", rank=p.rank, player=names[p.seat], score=p.score),
                    tr(locale, "final.breakdown", **p.breakdown)) for p in result.ranking)
    return core.Final(tr(locale, "final.title"), fields, description=solo, inline=False)
