"""Maple Valley in Discord: the "Take turn" panel, ``/maple`` commands, the turn told in words and the final
scores.

The engine builds a turn in small steps (card, each path, stop, the location's choices, crafts, end) and can
take steps back (``undo``). The panel plays a usual turn in four clicks: the card (a friend's one
play-ability question answered with it), a destination among the locations the walk can reach (the whole
walk at once, the route found by asking the engine on a copy), the location's choice if any, then a craft
or End (a craft and End in one click when the craft asks nothing more; the panel shows what the turn has
scored so far, and a preview of the board, before the turn ends). Every click commits its steps with the
table version the panel was built at, so a stale or forged click is refused and changes nothing; Undo
takes the last click back while the turn lasts. The panel keeps no state of its own: its custom ids
(``pbc:maple:<op>:<version>[:<index>]``) name a choice of the position at that version, so an open panel
works after a restart. Typists use ``/maple`` commands with the same choices as suggestions.

The channel gets one board per turn, telling the turn as it was finally played (steps taken back are left
out: each step's events are held behind a marker, and an ``undone`` event drops the step it undid).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_calls import deliver
from bot.i18n import t
from bot.tables import MoveOutcome, Table, TableError, echo
from cogs.board import GamePanel, board_note, posted_board
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    answer,
    error_text,
    locale_of,
    report_command_error,
    seat_label,
    seat_labels,
    seat_names,
)
from games.core import Event, IllegalAction
from games.maple import data as D
from games.maple.engine import MapleGame, MapleState
from rendering.maple import render_board

KEY = "maple"
TURN_ID = "pbc:maple:turn"
STEP = "maple_step"  # the marker held before each step's events (see ``told_events``)
BUTTON_LIMIT = 5  # more choices than this go into select menus (one row of buttons)
ROUTE_BUDGET = 1500  # paths tried for the walks of a turn (a hoard of map tokens reaches it: ~1 s, loaded)
# A piece of typed notation: short words of letters, digits and ,=- only (no int() of thousands of digits).
TYPED_RE = re.compile(r"[a-zA-Z0-9,=\-]{1,24}( [a-zA-Z0-9,=\-]{1,24}){0,3}")
NUMBER_RE = re.compile(r"[0-9]{1,12}")
# Loose on purpose: a forged version or index is refused by the handler with a clear answer.
BUTTON_TEMPLATE = r"pbc:maple:(?P<op>do|undo|show):(?P<version>[^:]{0,40})(?::(?P<arg>[^:]{0,40}))?"
SELECT_TEMPLATE = r"pbc:maple:pick:(?P<version>[^:]{0,40}):[0-9]"


def tr(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"{KEY}.{key}", **params)


# -- words ----------------------------------------------------------------------------------------
def item_name(locale: str, code: str) -> str:
    return tr(locale, f"item.{code}")


def items_text(locale: str, codes: Iterable[str]) -> str:
    """``a,a,fl`` -> ``2 acorn, flower``."""
    counts = Counter(c for c in codes if c)
    return ", ".join(item_name(locale, c) if n == 1 else f"{n} × {item_name(locale, c)}" for c, n in counts.items())


def symbol_name(locale: str, symbol: str) -> str:
    return tr(locale, f"symbol.{symbol}")


def friend_name(fid: str) -> str:
    friend = D.FRIENDS.get(fid)
    return friend.name if friend else fid


def favor_name(locale: str, fid: str, cost: bool = False) -> str:
    favor = D.FAVORS.get(fid)
    if favor is None:
        return fid
    text = tr(locale, "words.favor", name=favor.name, symbol=symbol_name(locale, favor.symbol), vp=favor.vp)
    return f"{text}: {items_text(locale, favor.cost)}" if cost else text


def patch_name(pid: str) -> str:
    patch = D.PATCHES.get(pid)
    return patch.name if patch else pid


def fest_name(locale: str, code: str) -> str:
    return tr(locale, f"fest.{code}")


def clearing_name(locale: str, code: str) -> str:
    return tr(locale, f"clearing.{code}")


def place_name(locale: str, code: str, clearings: dict[str, str] | None = None) -> str:
    """A location in words: ``Tower``, ``Oak Grove (GO2)``, ``Clearing X1: Trading Post``."""
    if code in D.CLEARING_SPOTS and clearings and code in clearings:
        return tr(locale, "loc.clearing_named", code=code, name=clearing_name(locale, clearings[code]))
    return tr(locale, f"loc.{code}")


def path_type(locale: str, code: str) -> str:
    return tr(locale, f"type.{code}")


# -- the choices of a position ----------------------------------------------------------------------
@dataclass(frozen=True)
class Route:
    """A whole walk to a destination: its steps, the paths walked, the map tokens spent, what it gathered."""

    notations: tuple[str, ...]
    to: str
    paths: tuple[int, ...]
    tokens: int
    free: int
    gains: tuple[str, ...]


@dataclass(frozen=True)
class Choice:
    """One answer of the panel: the notations it commits together, its group (the select it goes in) and what
    it is (the engine's action, or a whole walk)."""

    notations: tuple[str, ...]
    group: str
    action: tuple[Any, ...]
    route: Route | None = None
    then: tuple[Any, ...] | None = None  # a friend's play ability answered with the card


def walk_routes(game: MapleGame, state: MapleState, seat: int, budget: int = ROUTE_BUDGET) -> list[Route]:
    """For each location the walk can end at from here, one route there (fewest map tokens, then fewest free
    paths, then most curiosities gathered, then fewest paths), found by walking a copy with the engine's own
    ``legal_actions``/``apply``/``undo``. Walks with many map tokens are too many to try them all: the
    search tries walks without a token first, then with one, then any, within ``budget`` steps, so every
    place reachable without a token is always offered. Ordered as the valley lists its locations."""
    work = game.from_json(game.to_json(state))
    best: dict[str, tuple[tuple[int, ...], Route]] = {}
    tokens_at_start = game.view(work, None)["seats"][seat]["map"]
    tried = 0
    seen: set[str] = set()  # walks met already (in another order, or in an earlier round)

    def visit(steps: list[str], paths: list[int], gains: list[str], at: str, free: int, limit: int) -> None:
        nonlocal tried
        view = game.view(work, None)  # the public view only (its walk and map tokens)
        spent = tokens_at_start - view["seats"][seat]["map"]
        walk = dict(view["turn"]["walk"] or {})
        walk["used"] = sorted(walk.get("used", []))
        key = repr(sorted(walk.items())) + str(spent)
        if key in seen:
            return
        seen.add(key)
        actions = game.legal_actions(work, seat)
        if ("stop",) in actions and steps:
            route = Route((*steps, "stop"), at, tuple(paths), spent, free, tuple(gains))
            rank = (route.tokens, route.free, -len(route.gains), len(route.paths))
            if at not in best or rank < best[at][0]:
                best[at] = (rank, route)
        for action in actions:
            if action[0] not in ("path", "from") or tried >= budget:
                continue
            if action[0] == "path" and action[2] == "tok" and spent >= limit:
                continue
            tried += 1
            events = game.apply(work, seat, action)
            got = [e.params["item"] for e in events if e.code == "gain" for _ in range(e.params["count"])]
            to = next((e.params["to"] for e in events if e.code == "walked"), "V" if action[0] == "from" else at)
            number = [action[1]] if action[0] == "path" else []
            visit([*steps, game.format(action)], [*paths, *number], [*gains, *got], to,
                  free + (action[0] == "path" and action[2] == "free"), limit)
            game.apply(work, seat, ("undo",))

    start_view = game.view(work, None)
    start = (start_view["turn"]["walk"] or {}).get("at", start_view["seats"][seat]["pos"])
    for limit in dict.fromkeys((0, min(1, tokens_at_start), tokens_at_start)):
        seen.clear()
        visit([], [], [], start, 0, limit)
    return [best[code][1] for code in D.LOCATIONS if code in best]


def position_choices(game: MapleGame, state: MapleState, seat: int) -> list[Choice]:
    """The answers to the current question, in a fixed order (the panel's indexes): at the walk step the
    destinations first, then the single steps of the walk for those who choose their route."""
    if seat not in game.to_act(state):
        return []
    actions = [a for a in game.legal_actions(state, seat) if a != ("undo",)]
    step = game.view(state, None)["step"]
    if step == "card":
        return card_choices(game, state, seat, actions)
    if step != "walk":
        group = {"craft": "craft", "keep": "keep"}.get(step, "task")
        out = [Choice((game.format(a),), "end" if a == ("end",) else group, a) for a in actions]
        if step == "craft":
            out += craft_and_end(game, state, seat, actions)
        return out
    routes = walk_routes(game, state, seat)
    out = [Choice(r.notations, "dest", ("route",), r) for r in routes]
    out += [Choice((game.format(a),), "path", a) for a in actions]
    return out


OWN_STEPS = ("card", "walk", "craft", "keep", "over")  # the other steps are questions of a location or ability


def resolved(game: MapleGame, state: MapleState) -> bool:
    """Whether no question of an ability or location is pending (the turn is at a step of its own)."""
    return game.view(state, None)["step"] in OWN_STEPS


def play_answers(game: MapleGame, state: MapleState, seat: int, card: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """A friend whose play ability asks one question (Kit's curiosity, Raccoon's favor...): its answers, to
    offer with the card; none when the card asks nothing or more than one question. Asked on copies."""
    work = game.from_json(game.to_json(state))
    game.apply(work, seat, card)
    if resolved(game, work):
        return []
    answers = [a for a in game.legal_actions(work, seat) if a != ("undo",)]
    for action in answers:
        after = game.from_json(game.to_json(work))
        game.apply(after, seat, action)
        if not resolved(game, after):
            return []
    return answers


def card_choices(game: MapleGame, state: MapleState, seat: int, cards: list[tuple[Any, ...]]) -> list[Choice]:
    """The cards to play; a friend's one play-ability question is folded in (one option per answer) while
    the list stays within one select menu."""
    out = [Choice((game.format(a),), "card", a) for a in cards]
    for card in cards:
        if card[0] != "friend":
            continue
        answers = play_answers(game, state, seat, card)
        if answers and len(out) - 1 + len(answers) <= 25:
            index = next(i for i, c in enumerate(out) if c.action == card and c.then is None)
            out[index:index + 1] = [Choice((game.format(card), game.format(a)), "card", card, then=a)
                                    for a in answers]
    return out


def craft_and_end(game: MapleGame, state: MapleState, seat: int, actions: list[tuple[Any, ...]]) -> list[Choice]:
    """A craft and End in one click, for each craft after which the turn may end at once (its cube needs no
    choice). Asked on copies."""
    out = []
    for action in actions:
        if action[0] != "craft":
            continue
        work = game.from_json(game.to_json(state))
        game.apply(work, seat, action)
        if ("end",) in game.legal_actions(work, seat):
            out.append(Choice((game.format(action), "end"), "craft_end", action, then=("end",)))
    return out[:25]


def undo_steps(game: MapleGame, state: MapleState, seat: int) -> int:
    """How many engine steps the panel's Undo takes back: what its last click played (a walk's paths with
    their stop, a card with its play ability's answer); 0 if nothing can be taken back."""
    work = game.from_json(game.to_json(state))
    count = 0
    while ("undo",) in game.legal_actions(work, seat):
        game.apply(work, seat, ("undo",))
        count += 1
        view = game.view(work, None)
        walk = view["turn"]["walk"]
        if view["step"] == "walk" and walk and walk.get("used"):
            continue
        if view["step"] not in OWN_STEPS and ("undo",) in game.legal_actions(work, seat):
            back = game.from_json(game.to_json(work))
            game.apply(back, seat, ("undo",))
            if game.view(back, None)["step"] == "card":
                continue
        break
    return count


# -- labels -----------------------------------------------------------------------------------------
def route_label(locale: str, route: Route, clearings: dict[str, str]) -> str:
    parts = [tr(locale, "label.paths", paths=", ".join(map(str, route.paths)))]
    if route.gains:
        parts.append(f"+{items_text(locale, route.gains)}")
    if route.tokens:
        parts.append(tr(locale, "label.tokens", count=route.tokens))
    if route.free:
        parts.append(tr(locale, "label.free", count=route.free))
    return f"{place_name(locale, route.to, clearings)} · {' · '.join(parts)}"


def action_label(locale: str, action: tuple[Any, ...], view: dict[str, Any]) -> str:
    """One engine action in words."""
    kind = action[0]
    clearings = view.get("clearings", {})
    if kind == "keep":
        return tr(locale, "label.keep", favors=" + ".join(favor_name(locale, f) for f in action[1]))
    if kind == "friend":
        return tr(locale, "label.friend", friend=friend_name(action[1]), type=path_type(locale, action[2]))
    if kind == "dawdle":
        return tr(locale, "label.dawdle", card=tr(locale, f"dawdle.{action[1]}"))
    if kind == "from":
        return tr(locale, "label.from")
    if kind == "path":
        walk = (view.get("turn") or {}).get("walk") or {}
        path = D.PATHS[action[1]]
        to = path.b if path.a == walk.get("at") else path.a
        return tr(locale, f"label.path_{action[2]}", path=action[1], type=tr(locale, f"typename.{path.type}"),
                  to=place_name(locale, to, clearings))
    if kind == "stop":
        walk = (view.get("turn") or {}).get("walk") or {}
        return tr(locale, "label.stop", place=place_name(locale, walk.get("at", "V"), clearings))
    if kind in ("take", "pay"):
        return tr(locale, f"label.{kind}", items=items_text(locale, action[1]))
    if kind == "favor":
        return (tr(locale, "label.favor_deck") if action[1] == "deck"
                else tr(locale, "label.favor", favor=favor_name(locale, action[1], cost=True)))
    if kind == "patch":
        if action[1] == "deck":
            return tr(locale, "label.patch_deck")
        patch = D.PATCHES[action[1]]
        return tr(locale, "label.patch", patch=patch.name, vp=patch.vp, text=patch.text or "-")
    if kind == "cube":
        fest = D.FEAST if action[1] == "feast" else D.FESTIVITIES[action[1]]
        return tr(locale, "label.cube", festivity=fest_name(locale, action[1]), space=action[2],
                  symbol=symbol_name(locale, fest.spaces[action[2] - 1]))
    if kind == "buy":
        return tr(locale, "label.buy", friend=friend_name(action[1]), items=items_text(locale, action[2]))
    if kind == "discard":
        return tr(locale, "label.discard", favor=favor_name(locale, action[1]))
    if kind == "craft":
        text = tr(locale, "label.craft", favor=favor_name(locale, action[1], cost=True))
        if action[2]:
            text += tr(locale, "label.discount", item=item_name(locale, action[2][1:]))
        if action[3]:
            missing, _, sub = action[3].partition("=")
            text += tr(locale, "label.swap", item=item_name(locale, sub), missing=item_name(locale, missing))
        return text
    if kind in ("trader", "barter"):
        return tr(locale, f"label.{kind}", item=item_name(locale, action[1]))
    if kind in ("skip", "done", "end", "stay", "village"):
        return tr(locale, f"label.{kind}")
    return " ".join(str(p) for p in action)


def choice_label(locale: str, choice: Choice, view: dict[str, Any]) -> str:
    if choice.route is not None:
        return route_label(locale, choice.route, view.get("clearings", {}))
    label = action_label(locale, choice.action, view)
    if choice.group == "craft_end":
        return tr(locale, "label.craft_end", favor=label)
    return label if choice.then is None else f"{label} + {action_label(locale, choice.then, view)}"


# -- the panel's text ------------------------------------------------------------------------------
def holdings(locale: str, player: dict[str, Any]) -> list[str]:
    """What a player holds, in words (everything in Maple Valley is public)."""
    goods = [g for g, n in player["goods"].items() for _ in range(n)]
    curios = [c for c, n in player["curios"].items() for _ in range(n)]
    lines = [tr(locale, "panel.supplies", goods=items_text(locale, goods) or "-",
                curios=items_text(locale, curios) or "-", maps=player["map"], cubes=player["cubes"])]
    if player["favors"]:
        lines.append(tr(locale, "panel.favors", favors="; ".join(favor_name(locale, f, cost=True)
                                                                  for f in player["favors"])))
    cards = [friend_name(f) for f in player["hand"]] + [tr(locale, f"dawdle.{k}") for k in player["dawdle"]]
    if cards:
        lines.append(tr(locale, "panel.hand", cards=", ".join(cards)))
    return lines


def score_text(locale: str, scores: dict[str, int]) -> str:
    parts = ", ".join(f"{tr(locale, f'score.{k}')} {v}" for k, v in scores.items())
    return tr(locale, "panel.score", total=sum(scores.values()), parts=parts)


def prompt(view: dict[str, Any], seat: int, names: list[str], locale: str) -> str:
    """The panel's text: the hour, the sun, the turn so far, what the player holds, the question; at the
    craft step a preview of the score if the turn ended now."""
    if view["over"]:
        return t(locale, "game.over")
    if view["actor"] != seat:
        return tr(locale, "panel.done")
    lines = [tr(locale, "panel.header", hour=view["hour"], sun=item_name(locale, view["sun"]), player=names[seat])]
    turn = view["turn"]
    card = turn.get("card")
    if card and card.startswith("dawdle:"):
        lines.append(tr(locale, "panel.dawdling", card=tr(locale, f"dawdle.{card.partition(':')[2]}")))
    elif card:
        walk = turn.get("walk") or {}
        lines.append(tr(locale, "panel.playing", friend=friend_name(card), type=path_type(locale, turn["main"]),
                        place=place_name(locale, walk.get("at", "V"), view["clearings"])))
    player = view["seats"][seat]
    lines += holdings(locale, player)
    step = view["step"]
    if step == "craft":
        lines.append(tr(locale, "panel.preview", score=score_text(locale, view["scores"][str(seat)]),
                        crafted=turn.get("crafted", 0)))
    lines.append(f"**{tr(locale, f'step.{step}')}**")
    return "\n".join(lines)


# -- components ------------------------------------------------------------------------------------
class TurnView(discord.ui.View):
    """The persistent "Take turn" button under each board post (fixed custom id, no timeout)."""

    def __init__(self, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.take_turn.label = tr(locale, "button.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID, emoji="🍁")
    async def take_turn(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await panel_of(interaction).open(interaction)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button of the panel (a choice, End, Undo, Preview): the custom id names the table version and the
    choice, so it works after a restart and a stale or forged one is refused."""

    def __init__(self, button: discord.ui.Button, op: str, version: str, arg: str | None) -> None:
        super().__init__(button)
        self.op, self.version, self.arg = op, version, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelButton:
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=match.group(0))
        return cls(button, match["op"], match["version"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel_of(interaction).click(interaction, self.op, self.version, self.arg)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    """A select menu of the panel: its one value is the index of the choice."""

    def __init__(self, select: discord.ui.Select, version: str) -> None:
        super().__init__(select)
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelSelect:
        select = item if isinstance(item, discord.ui.Select) else discord.ui.Select(custom_id=match.group(0))
        return cls(select, match["version"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values")
        one = values[0] if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str) else None
        await panel_of(interaction).click(interaction, "do", self.version, one)


def number(text: str | None) -> int | None:
    """A small whole number from a custom id or a select value; ``None`` for anything else."""
    return int(text) if text is not None and NUMBER_RE.fullmatch(text) else None


def _button(label: str, custom_id: str, row: int, style: discord.ButtonStyle = discord.ButtonStyle.secondary
            ) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80] or "?", custom_id=custom_id, row=row, style=style)


def panel_view(choices: list[Choice], labels: list[str], version: int, locale: str, can_undo: bool,
               step: str) -> discord.ui.View | None:
    """The panel's components: up to five choices as buttons, more as select menus (one per group, 25
    options each, four at most); End, Undo and, at the craft step, a preview of the board on the last row."""
    view = discord.ui.View(timeout=900)  # clicks are routed by custom id; this object only carries components
    shown = [i for i, c in enumerate(choices) if c.group != "end"]
    if len(shown) <= BUTTON_LIMIT:
        for index in shown:
            view.add_item(_button(labels[index], f"pbc:maple:do:{version}:{index}", row=0))
    else:
        groups: dict[str, list[int]] = {}
        for index in shown:
            groups.setdefault(choices[index].group, []).append(index)
        row = 0
        for group, indexes in groups.items():
            for start in range(0, len(indexes), 25):
                if row > 3:
                    break
                options = [discord.SelectOption(label=labels[i][:100], value=str(i)) for i in indexes[start:start + 25]]
                view.add_item(discord.ui.Select(custom_id=f"pbc:maple:pick:{version}:{row}", options=options,
                                                placeholder=tr(locale, f"pick.{group}")[:150], row=row))
                row += 1
    for index, choice in enumerate(choices):
        if choice.group == "end":
            view.add_item(_button(labels[index], f"pbc:maple:do:{version}:{index}", row=4,
                                  style=discord.ButtonStyle.primary))
    if can_undo:
        view.add_item(_button(tr(locale, "panel.undo"), f"pbc:maple:undo:{version}", row=4,
                              style=discord.ButtonStyle.danger))
    if step == "craft":
        view.add_item(_button(tr(locale, "panel.show"), f"pbc:maple:show:{version}", row=4))
    return view if view.children else None


def panel_of(interaction: discord.Interaction) -> MaplePanel:
    return cast(MaplePanel, cast(commands.Bot, interaction.client).get_cog("GameCog").panels[KEY])  # type: ignore[union-attr]


def engine_of(table: Table) -> MapleGame:
    """The table's engine, known to be Maple Valley's here (the bot holds every game as ``AnyGame``)."""
    game = table.game
    assert isinstance(game, MapleGame)
    return game


# -- the board: the turn in words, the final scores ---------------------------------------------------
def told_events(events: list[tuple[int, Event]]) -> list[tuple[int, Event]]:
    """The events of the turn as finally played: each step's events follow a ``STEP`` marker, and an undo
    step's marker (``{"undo": 1}``) makes each ``undone`` event after it drop the last step. An ``undone``
    without it (an AI seat's turn, committed with the move before) drops nothing: its steps are told."""
    steps: list[list[tuple[int, Event]]] = [[]]
    undoing = False
    for seat, event in events:
        if event.code == STEP:
            undoing = bool(event.params.get("undo"))
            if not undoing:
                steps.append([])
        elif event.code == "undone":
            if undoing and len(steps) > 1:
                steps.pop()
        else:
            undoing = False
            steps[-1].append((seat, event))
    return [item for step in steps for item in step]


def event_words(locale: str, key: str, value: Any, clearings: dict[str, str]) -> Any:
    """An event parameter in words (cards, places, supplies by name)."""
    if not isinstance(value, str):
        return value
    if key == "friend":
        return friend_name(value)
    if key == "type":
        return path_type(locale, value)
    if key == "card":
        return tr(locale, f"dawdle.{value}")
    if key in ("location", "to"):
        return place_name(locale, value, clearings)
    if key in ("item", "sun"):
        return item_name(locale, value)
    if key in ("paid", "what"):
        return items_text(locale, value.split(","))
    if key == "favor":
        return favor_name(locale, value)
    if key == "favors":
        return ", ".join(favor_name(locale, f) for f in value.split(","))
    if key == "patch":
        return patch_name(value)
    if key == "festivity":
        return fest_name(locale, value)
    if key == "festivities":
        return ", ".join(fest_name(locale, f) for f in value.split(","))
    if key == "clearings":
        return ", ".join(clearing_name(locale, c) for c in value.split(","))
    if key == "symbol":
        return symbol_name(locale, value)
    if key in ("from", "by", "rating"):
        return tr(locale, f"{key}.{value}")
    return value


SILENT = {"turn_start", "turn_end", "final_score", "undone", STEP}  # the board and the final embed say these
OWN_SENTENCES = {"friend_played", "crafted"}  # told with this cog's own sentences (say.*)


def event_lines(events: list[tuple[int, Event]], names: list[str], locale: str,
                clearings: dict[str, str]) -> list[str]:
    """The turn in sentences: a walk (its paths, where it ends, what it gathered on the way) is one sentence,
    and a player's gains in a row make one."""
    lines: list[str] = []
    gains: list[str] = []
    gainer: int | None = None
    walk: list[str] = []  # the paths walked so far, in words
    walker = 0
    gathered: list[str] = []

    def flush_gains() -> None:
        nonlocal gains, gainer
        if gains and gainer is not None:
            lines.append(tr(locale, "say.gains", seat=names[gainer], items=items_text(locale, gains)))
        gains, gainer = [], None

    def flush_walk(place: str | None) -> None:
        nonlocal walk, gathered
        if walk:
            key = "say.walk" if place else "say.walk_on"
            text = tr(locale, key, seat=names[walker], paths=", ".join(walk), place=place or "")
            if gathered:
                text += " " + tr(locale, "say.gathered", items=items_text(locale, gathered))
            lines.append(text)
        walk, gathered = [], []

    for _seat, event in told_events(events):
        params = event.params
        seat = params.get("seat")
        if not (isinstance(seat, int) and 0 <= seat < len(names)):
            seat = None
        if event.code == "walked" and seat is not None:
            flush_gains()
            walker = seat
            by = params.get("by", "main")
            walk.append(str(params["path"]) if by == "main" else f"{params['path']} ({tr(locale, f'by.{by}')})")
            continue
        if event.code == "arrived" and walk:
            flush_walk(place_name(locale, str(params.get("location")), clearings))
            continue
        if event.code == "gain" and seat is not None:
            if walk:  # a curiosity spot on the way
                gathered += [params["item"]] * int(params.get("count", 1))
                continue
            if gainer != seat:
                flush_gains()
            gainer = seat
            gains += [params["item"]] * int(params.get("count", 1))
            continue
        flush_gains()
        flush_walk(None)
        if event.code in SILENT:
            continue
        words = {k: seat_label(names, k, event_words(locale, k, v, clearings)) for k, v in params.items()}
        if event.code in OWN_SENTENCES:
            lines.append(tr(locale, f"say.{event.code}", **words))
            continue
        text = tr(locale, f"event.{event.code}", **words)
        if text != f"{KEY}.event.{event.code}":
            lines.append(text)
    flush_gains()
    flush_walk(None)
    return lines


def final_embed(table: Table, locale: str) -> discord.Embed:
    """The scoring breakdown per player (favors, friends, patches, leftovers, festivities or the Great Feast);
    solo: the rating."""
    result = table.game.result(table.state)
    names = seat_labels(table, locale)  # as the standings of the same post name them
    embed = discord.Embed(title=tr(locale, "final.title"), colour=discord.Colour.gold())
    if result.extra.get("solo"):
        score = result.ranking[0].score
        embed.description = tr(locale, "final.solo", score=score, rating=tr(locale, f"rating.{result.extra['rating']}"),
                               outcome=tr(locale, "final.won" if result.extra.get("won") else "final.lost"))
    for player in result.ranking[:25]:
        lines = [f"{tr(locale, f'score.{k}')}: {v}" for k, v in player.breakdown.items()]
        out = tr(locale, "final.out") if player.eliminated else ""
        name = tr(locale, "final.player", rank=player.rank, player=names[player.seat], score=player.score, out=out)
        embed.add_field(name=name[:256], value="\n".join(lines)[:1024], inline=True)
    embed.set_footer(text=tr(locale, "final.footer", turns=result.turns))
    return embed


def maple_error(locale: str, error: Exception) -> str | None:
    """Refusals naming the engine's step say it in words."""
    if isinstance(error, IllegalAction) and error.code == "not_allowed":
        return tr(locale, "error.not_allowed", action=echo(str(error.params.get("action", ""))),
                  step=tr(locale, f"step.{error.params.get('step')}"))[:2000]
    return None


# -- the panel hooked into the shared board post ------------------------------------------------------
def held_steps(outcome: MoveOutcome, before: Any, game: MapleGame) -> list[tuple[int, Event]]:
    """The events of a committed act to hold for the board, a ``STEP`` marker before each step's events
    (an undo step's marker says so: its ``undone`` event drops the step it took back). An act of several steps is
    split by playing it again on ``before``, the position it was played on (the engine is deterministic);
    without it, the act counts as one step."""
    per_step: list[tuple[str, list[tuple[int, Event]]]] = []
    if len(outcome.moves) > 1 and before is not None:
        work = game.from_json(before)
        for seat, text in outcome.moves:
            per_step.append((text, [(seat, e) for e in game.apply(work, seat, game.parse(text))]))
        if [e for _t, events in per_step for e in events] != list(outcome.events):
            per_step = []
    if not per_step:
        undo = all(text == "undo" for _s, text in outcome.moves)
        per_step = [("undo" if undo else "act", list(outcome.events))]
    seat = outcome.moves[0][0] if outcome.moves else 0
    held: list[tuple[int, Event]] = []
    for text, events in per_step:
        held += [(seat, Event(STEP, {"undo": 1} if text == "undo" else {})), *events]
    return held


class MaplePanel(GamePanel):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cache: dict[tuple[int, int, int], list[Choice]] = {}  # (table id, version, seat) -> choices
        self.before: dict[int, tuple[int, Any]] = {}  # table id -> (version, state) an act of steps starts from

    # -- GamePanel hooks ---------------------------------------------------------------------------
    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        return TurnView(locale)

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        clearings = table.game.view(table.state, None)["clearings"]
        return event_lines(outcome.events, names, locale, clearings)

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        return [final_embed(table, locale)]

    def error_text(self, locale: str, error: Exception) -> str | None:
        return maple_error(locale, error)

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """A step of the turn (a click, a typed command or ``/game move``): its events are held, each step
        behind a marker so that Undo can drop it from the board's story; the mover sees the next question
        (the panel edits itself after a click)."""
        seat = outcome.moves[0][0] if outcome.moves else 0
        saved = self.before.pop(table.record.id, None)
        before = saved[1] if saved and saved[0] + len(outcome.moves) == table.version else None
        await self.service.hold_events(table, held_steps(outcome, before, engine_of(table)))
        locale = locale_of(interaction)
        text, view = self.message(table, seat, locale)
        await self.show(interaction, text, view)

    async def show(self, interaction: discord.Interaction, text: str, view: discord.ui.View | None) -> None:
        """The panel: a click's own message is edited; a command gets it as a private answer."""
        if interaction.type == discord.InteractionType.component and interaction.message is not None \
                and interaction.message.flags.ephemeral:
            await deliver(lambda: interaction.edit_original_response(content=text, view=view),
                          "a Maple Valley panel", REPLY_RETRY_DELAYS)
        else:
            await answer(interaction, text, view=view)

    # -- the position ------------------------------------------------------------------------------
    def choices(self, table: Table, seat: int) -> list[Choice]:
        key = (table.record.id, table.version, seat)
        if key not in self.cache:
            if len(self.cache) > 64:
                self.cache.clear()
            self.cache[key] = position_choices(engine_of(table), table.state, seat)
        return self.cache[key]

    def message(self, table: Table, seat: int, locale: str, note: str | None = None
                ) -> tuple[str, discord.ui.View | None]:
        """The mover's question and its answers, at the table's version."""
        game = engine_of(table)
        view = game.view(table.state, None)
        text = prompt(view, seat, seat_names(table), locale)
        if note:
            text = f"{note}\n\n{text}"
        if table.record.status != "playing" or view["actor"] != seat:
            return text[:2000], None
        choices = self.choices(table, seat)
        labels = [choice_label(locale, c, view) for c in choices]
        can_undo = ("undo",) in game.legal_actions(table.state, seat)
        return text[:2000], panel_view(choices, labels, table.version, locale, can_undo, view["step"])

    async def commit(self, interaction: discord.Interaction, notations: list[str],
                     version: int | None = None) -> MoveOutcome | None:
        """Play steps through ``GameCog.play`` (acknowledged, committed, answered); an act of several steps
        keeps the position it starts from, so that the board can tell (and Undo drop) each step."""
        table = self.service.tables.get(interaction.channel_id)
        if len(notations) > 1 and table is not None and table.game.key == KEY and table.state is not None:
            self.before[table.record.id] = (table.version, table.game.to_json(table.state))
        return await self.game_cog.play(interaction, notations, version)

    def mover(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The caller's running Maple Valley table where it is their move, or a TableError saying why not."""
        table = self.service.tables.get(interaction.channel_id)
        if table is None or table.game.key != KEY:
            raise TableError("no_table")
        if table.state is None or table.record.status != "playing":
            raise TableError("not_started")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        if seat.position not in table.game.to_act(table.state):
            raise TableError("not_your_turn")
        return table, seat.position

    # -- clicks ------------------------------------------------------------------------------------
    async def open(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            table, seat = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        text, view = self.message(table, seat, locale)
        await answer(interaction, text, view=view)

    async def click(self, interaction: discord.Interaction, op: str, version_text: str, arg: str | None) -> None:
        """A panel click: ``do`` a choice (its index), ``undo``, or ``show`` the board as it stands. A
        version or index the panel never offered gets the out-of-date answer and changes nothing."""
        locale = locale_of(interaction)
        await ack(interaction)
        version = number(version_text)
        try:
            table, seat = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        if version is None or version != table.version:
            return await answer(interaction, tr(locale, "panel.stale"))
        game = engine_of(table)
        if op == "show" and arg is None:
            view = game.view(table.state, None)
            image = await asyncio.to_thread(render_board, view, seat_names(table), locale)
            text = tr(locale, "panel.shown", score=score_text(locale, view["scores"][str(seat)]))
            return await answer(interaction, text, images=[("preview.png", image)])
        if op == "undo" and arg is None:
            count = undo_steps(game, table.state, seat)
            notations = ["undo"] * count
        elif op == "do":
            choices = self.choices(table, seat)
            index = number(arg)
            notations = list(choices[index].notations) if index is not None and index < len(choices) else []
        else:
            notations = []
        if not notations:
            return await answer(interaction, tr(locale, "panel.stale"))
        outcome = await self.commit(interaction, notations, version)
        if outcome is not None and outcome.announce:
            await self.after_turn(interaction, outcome, seat, locale)

    async def after_turn(self, interaction: discord.Interaction, outcome: MoveOutcome, seat: int,
                         locale: str) -> None:
        """The turn is over and its board posted (or to follow): the panel says so, with the board's link
        (solo: and the next turn's question)."""
        table = outcome.table
        board = posted_board(interaction)
        if not outcome.finished and seat in outcome.next_seats:
            note = board_note(locale, board, lambda link: tr(locale, "panel.posted", link=link))
            text, view = self.message(table, seat, locale, note=note)
        else:
            text, view = board_note(locale, board, lambda link: tr(locale, "panel.played", link=link)), None
        await self.show(interaction, text, view)


# -- /maple commands ---------------------------------------------------------------------------------
TypedText = app_commands.Range[str, 1, 200]


def typed_pieces(text: str) -> list[str] | None:
    """What a typist sent, as notations: one step, or several joined by ``|`` as the autocomplete offers
    them (a walk ``path 3 | path 11 | stop``, a card with its play ability's answer); ``None`` for anything
    that is not short words of the notation."""
    pieces = [p.strip() for p in text.split("|")]
    if len(pieces) > 25 or not all(TYPED_RE.fullmatch(p) for p in pieces):
        return None
    return pieces


class MapleCog(commands.GroupCog, group_name=_("maple"), group_description=_("Play Maple Valley in this channel")):
    def __init__(self, bot: Any, panel: MaplePanel) -> None:
        self.bot = bot
        self.panel = panel
        super().__init__()

    async def _suggest(self, interaction: discord.Interaction, current: str,
                       groups: tuple[str, ...]) -> list[app_commands.Choice[str]]:
        """Autocomplete: the caller's choices now of the given groups, named in words, valued in notation."""
        try:
            table, seat = self.panel.mover(interaction)
        except TableError:
            return []
        locale = locale_of(interaction)
        view = engine_of(table).view(table.state, None)
        wanted = current.lower().strip()[:100]
        out = []
        for choice in self.panel.choices(table, seat):
            if groups and choice.group not in groups:
                continue
            label = choice_label(locale, choice, view)
            value = " | ".join(choice.notations)
            if len(value) <= 100 and (wanted in label.lower() or wanted in value):
                out.append(app_commands.Choice(name=label[:100], value=value))
        return out[:25]

    async def card_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ("card",))

    async def walk_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ("dest", "path"))

    async def any_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ())

    async def craft_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ("craft",))

    async def typed(self, interaction: discord.Interaction, text: str) -> None:
        pieces = typed_pieces(text)
        if pieces is None:
            return await answer(interaction, t(locale_of(interaction), "error.notation", text=echo(text)))
        await self.panel.commit(interaction, pieces)

    @app_commands.command(name=_("turn"), description=_("Open your Maple Valley turn panel"))
    async def turn(self, interaction: discord.Interaction) -> None:
        await self.panel.open(interaction)

    @app_commands.command(name=_("card"), description=_("Play a friend (with its path type) or a dawdle card"))
    @app_commands.rename(card=_("card"))
    @app_commands.describe(card=_("Start typing to see your cards, e.g. friend f05 F"))
    @app_commands.autocomplete(card=card_choices)
    async def card(self, interaction: discord.Interaction, card: TypedText) -> None:
        await self.typed(interaction, card)

    @app_commands.command(name=_("walk"), description=_("Walk to a location, or one path at a time, or stop"))
    @app_commands.rename(route=_("route"))
    @app_commands.describe(route=_("A destination, or path 4, path 16 tok, stop"))
    @app_commands.autocomplete(route=walk_choices)
    async def walk(self, interaction: discord.Interaction, route: TypedText) -> None:
        await self.typed(interaction, route)

    @app_commands.command(name=_("choose"), description=_("Answer the current question of your turn"))
    @app_commands.rename(choice=_("choice"))
    @app_commands.describe(choice=_("Start typing to see your possible answers"))
    @app_commands.autocomplete(choice=any_choices)
    async def choose(self, interaction: discord.Interaction, choice: TypedText) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("craft"), description=_("Craft a favor with your goods"))
    @app_commands.rename(favor=_("favor"))
    @app_commands.describe(favor=_("Start typing to see the favors you can craft, e.g. craft tr05"))
    @app_commands.autocomplete(favor=craft_choices)
    async def craft(self, interaction: discord.Interaction, favor: TypedText) -> None:
        await self.typed(interaction, favor)

    @app_commands.command(name=_("end"), description=_("End your turn (the board is posted)"))
    async def end(self, interaction: discord.Interaction) -> None:
        await self.bot.get_cog("GameCog").play(interaction, "end")

    @app_commands.command(name=_("undo"), description=_("Take back your last step before you end the turn"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.bot.get_cog("GameCog").play(interaction, "undo")

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)


async def setup(bot: Any) -> None:
    panel = MaplePanel(bot)
    bot.get_cog("GameCog").add_panel(KEY, panel)
    bot.add_view(TurnView())
    bot.add_dynamic_items(PanelButton, PanelSelect)
    await bot.add_cog(MapleCog(bot, panel))
