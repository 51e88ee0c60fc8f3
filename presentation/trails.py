"""Trails & Fortresses' turn in chat as plain data (presentation/core.py): the turn's ``flow`` (the position,
under the board post too; its rotation when it has several, with a picture of each; the figure or none, with
a picture of the tile as laid, which plays the whole turn in one commit), the features and figures in words,
the step replies' texts of the typed ``/trails`` commands, the events told in sentences and the final
breakdown. Pure: the engine's state, the catalogs and the renderer's previews, no discord.py; the generic
panel (cogs/panel.py) shows them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from games.core import Event, IllegalAction, Result
from games.trails import GAME
from games.trails.actions import Figure, TrailsAction, figure, format_action
from games.trails.engine import figure_options, legal_spots
from games.trails.tiles import EDGE_NAMES, GOODS, feature_sides
from games.trails.turn import spot_labels, turn_moves
from presentation import core
from presentation.i18n import t
from rendering.trails.board import encode_png, preview_image, render_preview

KEY = "trails"
KIND_CODES = {"normal": "n", "big": "b", "builder": "u", "keeper": "k"}
CODE_KINDS = {code: kind for kind, code in KIND_CODES.items()}
FEATURE_RE = re.compile(r"(city|road|field)([0-9]{1,3})|monastery", re.ASCII)
# A number in a custom id: an optional minus and a few ASCII digits (a forged 4,000-digit one is refused
# before int() sees it).
NUMBER_RE = re.compile(r"-?[0-9]{1,12}", re.ASCII)


def tr(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"{KEY}.{key}", **params)


# -- pure helpers (tested in tests/cogs/test_trails_helpers.py) ---------------------------------------


def encode_figure(chosen: Figure | None) -> str:
    """``figure big road:1`` -> ``broad1``; none -> ``_`` (short and free of the custom id's separators)."""
    if chosen is None:
        return "_"
    return KIND_CODES[chosen.kind] + chosen.feature.replace(":", "")


def plural(locale: str, word: str, count: int) -> str:
    """``4 tiles`` / ``4 плитки``: ``plural.<word>`` is a plural entry of the catalogs (bot.i18n picks the form)."""
    return tr(locale, f"plural.{word}", n=count)


def sides_text(locale: str, sides: list[int]) -> str:
    return "–".join(tr(locale, f"side.{EDGE_NAMES[s]}") for s in sorted(set(sides)))


def feature_text(locale: str, tile_id: str, rot: int, feature: str) -> str:
    """``trail W–E``, ``fortress N``, ``meadow S``, ``abbey``: the feature by the sides it touches on the
    tile as laid."""
    kind = feature.partition(":")[0]
    if kind == "monastery":
        return tr(locale, "feature.monastery")
    sides = feature_sides(tile_id, rot, feature)
    where = sides_text(locale, sides) if sides else tr(locale, "side.centre")
    return tr(locale, f"feature.{kind}", where=where)


def figure_text(locale: str, tile_id: str, rot: int, chosen: Figure) -> str:
    return tr(locale, "figure.on", figure=tr(locale, f"figure.{chosen.kind}"),
              feature=feature_text(locale, tile_id, rot, chosen.feature))


def names_text(names: list[str], seats: list[int]) -> str:
    return ", ".join(names[s] for s in seats)


def gain_text(locale: str, names: list[str], closer: int | None, seats: list[int], points: int) -> str:
    if not seats:
        return tr(locale, "say.gain_none")
    amount = plural(locale, "points", points)
    if seats == [closer]:
        return amount
    if len(seats) == 1:
        return tr(locale, "say.gain_for", points=amount, names=names_text(names, seats))
    return tr(locale, "say.gain_each", points=amount, names=names_text(names, seats))


def feature_extras(locale: str, pennants: int = 0, special: str | None = None) -> str:
    parts = [plural(locale, "pennants", pennants)] if pennants else []
    if special:
        parts.append(tr(locale, f"say.{special}"))
    return tr(locale, "say.with", what=tr(locale, "say.and").join(parts)) if parts else ""


def event_sentence(locale: str, names: list[str], code: str, p: dict[str, Any],
                   pending: tuple[str, int] | None = None) -> str | None:
    """One event in words, or ``None`` for events the board post tells otherwise. ``pending`` is the
    (tile, rotation) a ``figure_placed`` event refers to."""
    player = names[p["seat"]] if isinstance(p.get("seat"), int) and p["seat"] >= 0 else ""
    if code == "dice_rolled":
        key = "say.dice" if p.get("round", 1) == 1 else "say.dice_again"
        return tr(locale, key, player=player, die1=p["die1"], die2=p["die2"], total=p["total"])
    if code == "turn_order":
        return tr(locale, "say.turn_order", order=names_text(names, p.get("order") or [p["first_seat"]]))
    if code == "turn":
        return tr(locale, "say.turn", player=player, tile=p["tile"])
    if code == "tile_placed":
        return tr(locale, "say.tile_placed", player=player, x=p["x"], y=p["y"], deg=p["rot"])
    if code in ("tile_undone", "figure_undone", "tile_set_aside", "builder_bonus", "eliminated"):
        return tr(locale, f"say.{code}", player=player, tile=p.get("tile", ""))
    if code == "figure_placed":
        chosen = figure(p["feature"], p["kind"])
        text = (figure_text(locale, pending[0], pending[1], chosen) if pending
                else tr(locale, "figure.on", figure=tr(locale, f"figure.{chosen.kind}"), feature=chosen.feature))
        return tr(locale, "say.figure_placed", player=player, figure=text)
    if code == "turn_confirmed":
        text = tr(locale, "say.confirmed", player=player, tile=p["tile"], x=p["x"], y=p["y"], deg=p["rot"])
        if p.get("kind"):
            text += tr(locale, "say.confirmed_figure", figure=tr(
                locale, "put.on", figure=tr(locale, f"put.{p['kind']}"),
                feature=feature_text(locale, p["tile"], p["rot"] // 90, p["feature"])))
        return text
    if code in ("road_scored", "city_scored", "road_final", "city_final"):
        is_city = code.startswith("city")
        special = ("cathedral" if p.get("cathedral") else None) if is_city else ("inn" if p.get("inn") else None)
        final = code.endswith("final")
        return tr(locale, f"say.{'city' if is_city else 'road'}_{'final' if final else 'closed'}",
                  player=player, tiles=plural(locale, "tiles", p["tiles"]),
                  extras=feature_extras(locale, p.get("pennants", 0), special),
                  gain=gain_text(locale, names, None if final else p["seat"], p["seats"], p["points"]))
    if code == "goods_taken":
        goods = ", ".join(f"{tr(locale, f'goods.{g}')} {p[g]}" for g in GOODS if p.get(g))
        return tr(locale, "say.goods_taken", player=player, goods=goods)
    if code in ("monastery_scored", "monastery_final"):
        return tr(locale, f"say.{code}", player=player, x=p["x"], y=p["y"],
                  points=plural(locale, "points", p["points"]))
    if code == "field_scored":
        if not p["points"]:
            return None  # a meadow next to no finished fortress: nothing worth a line
        return tr(locale, "say.field_scored", player=player, cities=plural(locale, "fortresses", p["cities"]),
                  points=plural(locale, "points", p["points"]),
                  keeper=tr(locale, "say.with_keeper") if p.get("keeper") else "")
    if code == "goods_scored":
        return tr(locale, "say.goods_scored", good=tr(locale, f"goods.{p['good']}"), count=p["count"],
                  gain=gain_text(locale, names, None, p["seats"], p["points"]))
    if code == "game_end":
        return tr(locale, "say.game_end", winners=names_text(names, p.get("winners", [])))
    return None


def event_sentences(locale: str, names: list[str], events: list[tuple[int, Any]],
                    pending: tuple[str, int] | None = None) -> list[str]:
    codes = {event.code for _seat, event in events}
    # A turn confirmed in the same post tells the placement and figure itself.
    hidden = {"tile_placed", "figure_placed", "tile_undone", "figure_undone"} if "turn_confirmed" in codes else set()
    lines = []
    for _seat, event in events:
        if event.code in hidden:
            continue
        text = event_sentence(locale, names, event.code, event.params, pending)
        if text:
            lines.append(text)
    return lines


def notations(moves: list[TrailsAction]) -> list[str]:
    return [format_action(move) for move in moves]


@dataclass(slots=True)
class TurnFacts:
    """What a panel needs of the position at a version: the tile, the labelled legal spots and their
    rotations, the place-step view for previews, and the engine's pending step."""

    seat: int
    tile: str
    labels: dict[str, tuple[int, int]]
    rotations: dict[tuple[int, int], list[int]]
    view: dict[str, Any]
    phase: str
    pending: tuple[int, int, int] | None
    pending_figure: Figure | None
    remaining: int


# -- the panel's and the replies' texts ---------------------------------------------------------------


def step_lines(state: Any, key: str, locale: str) -> list[str]:
    """The private answer to a step typed with ``/trails`` (or ``/game move``): where the turn stands."""
    lines = [tr(locale, key)]
    if state.pending is not None:
        x, y, rot = state.pending
        chosen = (figure_text(locale, state.tile, rot, state.pending_figure) if state.pending_figure
                  else tr(locale, "panel.no_figure"))
        lines.append(tr(locale, "cmd_reply.pending", tile=state.tile, x=x, y=y, deg=rot * 90, figure=chosen))
        lines.append(tr(locale, "cmd_reply.next"))
    else:
        lines.append(tr(locale, "cmd_reply.place_next"))
    return lines


def final_breakdown(result: Result, names: Sequence[str], expansions: set[str],
                    locale: str) -> tuple[str, list[tuple[str, str]], str]:
    """The final standings: a title, a (name, breakdown) field per player (the first 25), a footer."""
    special = result.extra.get("inns_cathedrals", {})
    goods = result.extra.get("goods", {})
    fields = []
    for player in result.ranking[:25]:
        lines = [tr(locale, f"final.{category}", points=player.breakdown.get(category, 0))
                 for category in ("roads", "cities", "monasteries", "fields")]
        if "traders" in expansions:
            held = ", ".join(f"{tr(locale, f'goods.{g}')} {goods.get(player.seat, {}).get(g, 0)}" for g in GOODS)
            lines.append(tr(locale, "final.goods", points=player.breakdown.get("goods", 0), held=held))
        if "inns" in expansions:
            lines.append(tr(locale, "final.inns_cathedrals", points=special.get(player.seat, 0)))
        out = tr(locale, "final.out") if player.eliminated else ""
        fields.append((tr(locale, "final.player", rank=player.rank, name=names[player.seat],
                          score=plural(locale, "points", player.score), out=out), "\n".join(lines)))
    return tr(locale, "final.title"), fields, tr(locale, "final.footer", turns=result.turns)


def facts_of(state: Any, view: dict[str, Any]) -> TurnFacts:
    """What the engine says of the turn now (``view``: the public one, on which previews draw the tile)."""
    spots = legal_spots(state)
    return TurnFacts(state.seat, state.tile, spot_labels(spots), {pos: list(rots) for pos, rots in spots.items()},
                     view, state.phase, state.pending, state.pending_figure, view["remaining"])


# -- flow and narrate (presentation/core.py) -----------------------------------------------------------


def figure_key(chosen: Figure | None) -> str:
    return "none" if chosen is None else encode_figure(chosen)


def spot_key(x: int, y: int) -> str:
    """A position as a choice's key: ``3_-1``."""
    return f"{x}_{y}"


def rotation_picture(view: dict[str, Any], x: int, y: int, rotations: list[int], locale: str
                     ) -> Callable[[Sequence[str]], bytes]:
    """The tile at (x, y) in each of its legal rotations, side by side (two to a row), each captioned."""
    def draw(names: Sequence[str]) -> bytes:
        shots = [preview_image(view, x, y, rot, list(names), locale) for rot in rotations]
        width, height = shots[0].size
        scale = 0.6 if len(shots) > 1 else 1.0
        w, h = int(width * scale), int(height * scale)
        columns = min(2, len(shots))
        sheet = Image.new("RGB", (columns * w, ((len(shots) + 1) // 2) * h), (250, 247, 240))
        for index, shot in enumerate(shots):
            sheet.paste(shot.resize((w, h), Image.Resampling.LANCZOS), ((index % 2) * w, (index // 2) * h))
        return encode_png(sheet)
    return draw


def flow(state: Any, seat: int, chosen: tuple[str, ...], locale: str) -> core.Step | core.Done:
    """The turn: the position (keys: :func:`spot_key`; also under the board post), then its rotation when it
    has several (keys ``r0``..``r3``, with a picture of each), then the figure, or none (keys: ``none``, then
    the figure's code; a picture of the tile as laid), which plays the whole turn in one commit (with what a
    typed step left pending taken back or kept)."""
    if state.over or seat != state.seat:
        return core.Step(tr(locale, "panel.stale"), ())
    if state.pending is not None:
        return pending_flow(state, chosen, locale)
    spots = legal_spots(state)
    labels = spot_labels(spots)
    by_key = {spot_key(x, y): (label, x, y) for label, (x, y) in labels.items()}
    title = tr(locale, "panel.title", tile=state.tile, remaining=len(state.deck))
    if not chosen:
        return core.Step(title, tuple(core.Choice(key, tr(locale, "panel.spot", label=label, x=x, y=y), group="spot")
                                      for key, (label, x, y) in by_key.items()),
                         placeholder=tr(locale, "panel.where"), on_board=True)
    label, x, y = by_key[chosen[0]]
    rotations, rest = list(spots[(x, y)]), chosen[1:]
    view = GAME.view(state, None)  # the public board the pictures draw on: the turn at its place step
    if len(rotations) > 1:
        if not rest:
            return core.Step(f"{title}\n{tr(locale, 'panel.turn_tile', label=label, x=x, y=y)}",
                             tuple(core.Choice(f"r{rot}", f"↻ {rot * 90}°", style="primary") for rot in rotations),
                             can_undo=True, picture=rotation_picture(view, x, y, rotations, locale))
        if rest[0] not in {f"r{rot}" for rot in rotations}:
            raise KeyError(rest[0])
        rot, rest = int(rest[0][1:]), rest[1:]
    else:
        rot = rotations[0]
    figures = {figure_key(f): f for f in figure_options(state, x, y, rot)}
    placed = tr(locale, "panel.choice", label=label, x=x, y=y, deg=rot * 90)
    if not rest:
        def moves(f: Figure | None) -> tuple[str, ...]:
            return tuple(format_action(m) for m in turn_moves(state, x, y, rot, f))
        if figures:
            choices = (core.Choice("none", tr(locale, "panel.no_figure"), moves(None), "primary"),
                       *(core.Choice(key, figure_text(locale, state.tile, rot, f)[:100], moves(f), group="figure")
                         for key, f in figures.items()))
        else:
            choices = (core.Choice("ok", tr(locale, "panel.confirm"), moves(None), "primary"),)
        prompt = f"{title}\n**{placed}**\n" + tr(locale, "panel.figure_or_none" if figures else "panel.no_figures_left")
        return core.Step(prompt, choices, can_undo=True, placeholder=tr(locale, "panel.choose_figure"),
                         picture=lambda names: render_preview(view, x, y, rot, list(names), locale))
    pick = rest[0]
    if pick not in figures and pick not in ("none", "ok") or len(rest) > 1:
        raise KeyError(pick)
    figure_chosen = figures.get(pick)
    text = placed + " · " + (figure_text(locale, state.tile, rot, figure_chosen) if figure_chosen
                             else tr(locale, "panel.no_figure"))
    return core.Done(tuple(format_action(m) for m in turn_moves(state, x, y, rot, figure_chosen)), text)


def pending_flow(state: Any, chosen: tuple[str, ...], locale: str) -> core.Step | core.Done:
    """The turn after a typed step (``/trails place`` or ``/game move``) left the tile laid, not played: its
    picture, the figure or none (or Confirm), which plays the turn, and Undo, which takes the step back."""
    x, y, rot = state.pending
    figures = {figure_key(f): f for f in figure_options(state, x, y, rot)}

    def moves(f: Figure | None) -> tuple[str, ...]:
        return tuple(format_action(m) for m in turn_moves(state, x, y, rot, f))
    if figures:
        choices = [core.Choice("none", tr(locale, "panel.no_figure"), moves(None), "primary"),
                   *(core.Choice(key, figure_text(locale, state.tile, rot, f)[:100], moves(f), group="figure")
                     for key, f in figures.items())]
    else:
        choices = [core.Choice("ok", tr(locale, "panel.confirm"), moves(state.pending_figure), "primary")]
    choices.append(core.Choice("undo", tr(locale, "panel.undo"), ("undo",), "danger", pinned=True))
    if not chosen:
        key = "cmd_reply.figured" if state.phase == "confirm" else "cmd_reply.placed"
        view = GAME.view(state, None)  # the confirmed board: the pending tile is drawn on it as a preview
        chosen_figure = state.pending_figure
        fig = (chosen_figure.kind, chosen_figure.feature) if chosen_figure else None
        return core.Step("\n".join(step_lines(state, key, locale)[:2]), tuple(choices),
                         placeholder=tr(locale, "panel.choose_figure"),
                         picture=lambda names: render_preview(view, x, y, rot, list(names), locale, fig))
    picked = next((c for c in choices if c.key == chosen[0]), None)
    if picked is None or len(chosen) > 1:
        raise KeyError(chosen[0])
    return core.Done(picked.notations, picked.label)


def narrate_at(state: Any, events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    """The turn's events in sentences, and the tile a typed step left pending."""
    pending = (state.tile, state.pending[2]) if state.pending is not None and state.tile else None
    return event_sentences(locale, list(names), list(events), pending)


def reword(error: IllegalAction, locale: str) -> IllegalAction:
    """``wrong_step`` with the step in words (the engine's code names it ``place``/``figure``/...)."""
    if error.code == "wrong_step":
        return IllegalAction(error.code, **dict(error.params, step=tr(locale, f"step.{error.params.get('step', 'place')}")))
    return error


def final(result: Result, names: Sequence[str], locale: str) -> core.Final:
    title, fields, footer = final_breakdown(result, names, set(result.extra.get("expansions", ())), locale)
    return core.Final(title, tuple(fields), footer=footer)


def narrate(events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    """The turn's events in sentences, as the board post tells them."""
    return event_sentences(locale, list(names), list(events))
