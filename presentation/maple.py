"""Maple Valley's turn in chat as plain data (presentation/core.py): the answers of a position (whole walks
to a destination, a friend's play-ability question folded into its card, a craft with End), their labels, the
panel's prompt, the events in words and the final breakdown. Pure: the engine's state or view and the
catalogs, no discord.py; the generic panel (cogs/panel.py) shows them, the Maple Valley cog (cogs/maple.py)
adds the typed ``/maple`` commands.

``flow`` offers the answers of the current question as one ``Step`` (keys: their index; Undo and, at the craft
step, Show board pinned on the last row) and ``Done`` commits the chosen one: one click, one commit; the
turn's next question is the next ``flow`` after the commit. The steps' events are held (``TELLS_STEPS``,
``held``) so that the turn's board tells it as finally played.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Event, IllegalAction, Result
from games.maple import GAME
from games.maple import data as D
from games.maple.engine import MapleGame, MapleState
from presentation import core
from presentation.core import seat_label
from presentation.i18n import t

KEY = "maple"
STEP = "maple_step"  # the marker held before each step's events (see ``told_events``)
ROUTE_BUDGET = 1500  # paths tried for the walks of a turn (a hoard of map tokens reaches it: ~1 s, loaded)


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


def prompt(view: dict[str, Any], seat: int, names: Sequence[str] | None, locale: str) -> str:
    """The panel's text: the hour, the sun (and the mover's name, when ``names`` are given), the turn so far,
    what the player holds, the question; at the craft step a preview of the score if the turn ended now."""
    if view["over"]:
        return t(locale, "game.over")
    if view["actor"] != seat:
        return tr(locale, "panel.done")
    sun = item_name(locale, view["sun"])
    lines = [tr(locale, "panel.header", hour=view["hour"], sun=sun, player=names[seat]) if names
             else tr(locale, "panel.hour", hour=view["hour"], sun=sun)]
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



# -- the final scores -----------------------------------------------------------------------------------
def final_breakdown(result: Result, names: Sequence[str], locale: str) -> core.Final:
    """The scoring breakdown per player (favors, friends, patches, leftovers, festivities or the Great Feast);
    solo: the rating. ``names``: the seats' names as the standings show them."""
    description = None
    if result.extra.get("solo"):
        score = result.ranking[0].score
        description = tr(locale, "final.solo", score=score, rating=tr(locale, f"rating.{result.extra['rating']}"),
                         outcome=tr(locale, "final.won" if result.extra.get("won") else "final.lost"))
    fields = []
    for player in result.ranking[:25]:
        lines = [f"{tr(locale, f'score.{k}')}: {v}" for k, v in player.breakdown.items()]
        out = tr(locale, "final.out") if player.eliminated else ""
        name = tr(locale, "final.player", rank=player.rank, player=names[player.seat], score=player.score, out=out)
        fields.append((name[:256], "\n".join(lines)[:1024]))
    return core.Final(tr(locale, "final.title"), tuple(fields), description,
                      tr(locale, "final.footer", turns=result.turns))


# -- the turn flow ----------------------------------------------------------------------------------------
TELLS_STEPS = True  # the steps of a turn are held and told together (without those taken back) on its board
SHOW = "show"  # the key of "Show board" at the craft step: the same question with the board's picture
UNDO = "undo"  # the key of Undo: takes back what the last click (or command) committed
_CHOICES: OrderedDict[tuple[str, int], list[Choice]] = OrderedDict()


def choices_of(state: MapleState, seat: int) -> list[Choice]:
    """:func:`position_choices`, worked out once per position (a click asks ``flow`` several times, and the
    walks of a turn take a moment to find)."""
    key = (json.dumps(GAME.to_json(state), default=str), seat)
    found = _CHOICES.get(key)
    if found is None:
        found = _CHOICES[key] = position_choices(GAME, state, seat)
        while len(_CHOICES) > 32:
            _CHOICES.popitem(last=False)
    return found


def narrate(events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    """The events of a turn in sentences (the clearings' names are not known here: their codes are shown;
    :func:`narrate_at` names them from the position)."""
    return event_lines(list(events), list(names), locale, {})


def narrate_at(state: MapleState | None, events: Sequence[tuple[int, Event]], names: Sequence[str],
               locale: str) -> list[str]:
    """The events of a turn in sentences, the clearings named as the position shows them."""
    clearings = GAME.view(state, None)["clearings"] if state is not None else {}
    return event_lines(list(events), list(names), locale, clearings)


def flow(state: MapleState, seat: int, chosen: tuple[str, ...], locale: str) -> core.Step | core.Done:
    """One click of the turn: the answers of the current question (:func:`position_choices`, keyed by their
    index; in a select menu per group when many; End pinned in the primary style), Undo of what was committed
    (pinned, when the engine can take a step back) and at the craft step "Show board" (the same question with
    the board's picture); then ``Done`` with the chosen answer's notations. The turn's next question is the
    next ``flow`` after the commit."""
    view = GAME.view(state, None)
    options = choices_of(state, seat)
    labels = [choice_label(locale, c, view) for c in options]
    shown = bool(chosen) and chosen[0] == SHOW and view["step"] == "craft"
    rest = chosen[1:] if shown else chosen
    undo = view["actor"] == seat and (UNDO,) in GAME.legal_actions(state, seat)
    if rest:
        if rest[0] == UNDO and undo:
            return core.Done((UNDO,) * undo_steps(GAME, state, seat), tr(locale, "panel.undo"))
        index = int(rest[0])
        return core.Done(options[index].notations, labels[index])
    choices = [core.Choice(str(i), label, c.notations, "primary" if c.group == "end" else "secondary",
                           group=c.group, pinned=c.group == "end")
               for i, (c, label) in enumerate(zip(options, labels, strict=True))]
    if undo:
        choices.append(core.Choice(UNDO, tr(locale, "panel.undo"), (UNDO,) * undo_steps(GAME, state, seat),
                                   "danger", pinned=True))
    text = prompt(view, seat, None, locale)
    picture: Callable[[Sequence[str]], bytes] | None = None
    if view["step"] == "craft" and not shown:
        choices.append(core.Choice(SHOW, tr(locale, "panel.show"), pinned=True))
    elif shown:
        view = json.loads(json.dumps(view))  # the picture reads this position only, whatever comes next
        text += "\n" + tr(locale, "panel.shown", score=score_text(locale, view["scores"][str(seat)]))

        def board(names: Sequence[str]) -> bytes:  # the public view of this position, drawn off the loop
            from rendering.maple import render_board
            return render_board(view, list(names), locale)
        picture = board
    groups = dict.fromkeys(c.group for c in options if c.group != "end")
    return core.Step(text, tuple(choices), placeholders=tuple((g, tr(locale, f"pick.{g}")) for g in groups),
                     picture=picture)


def reword(error: IllegalAction, locale: str) -> IllegalAction:
    """A refusal naming the engine's step names it in words."""
    if error.code == "not_allowed":
        return IllegalAction(error.code, **dict(error.params, step=tr(locale, f"step.{error.params.get('step')}")))
    return error


def final(result: Result, names: Sequence[str], locale: str) -> core.Final:
    return final_breakdown(result, names, locale)


def held(moves: Sequence[tuple[int, str]], events: Sequence[tuple[int, Event]], before: Any
         ) -> list[tuple[int, Event]]:
    """The events of a committed act to hold for the board, a ``STEP`` marker before each step's events
    (an undo step's marker says so: its ``undone`` event drops the step it took back). An act of several steps
    is split by playing it again on ``before`` (the position's JSON it was played on; the engine is
    deterministic); without it, the act counts as one step."""
    per_step: list[tuple[str, list[tuple[int, Event]]]] = []
    if len(moves) > 1 and before is not None:
        work = GAME.from_json(before)
        for seat, text in moves:
            per_step.append((text, [(seat, e) for e in GAME.apply(work, seat, GAME.parse(text))]))
        if [e for _t, step in per_step for e in step] != list(events):
            per_step = []
    if not per_step:
        undo = all(text == UNDO for _s, text in moves)
        per_step = [(UNDO if undo else "act", list(events))]
    seat = moves[0][0] if moves else 0
    out: list[tuple[int, Event]] = []
    for text, step in per_step:
        out += [(seat, Event(STEP, {"undo": 1} if text == UNDO else {})), *step]
    return out
