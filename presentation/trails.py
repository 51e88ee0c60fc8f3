"""Trails & Fortresses' turn in chat as plain data (presentation/core.py): the panel's state as kept in its
custom ids, the positions, rotations and figures it offers (pages of positions, the click's next state), the
features and figures in words, the panel's and the step replies' texts, the events told in sentences and the
final breakdown. Pure: the engine's state and the catalogs, no discord.py; the Trails cog (cogs/trails.py)
shows them in its panel and ``/trails`` commands.

``flow`` plays a turn as one placement (a legal spot at one of its rotations), then the figure when the tile
as laid allows one (none first), and the whole turn is committed in one ``Done``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import Event, Result
from games.trails.actions import Figure, TrailsAction, figure, format_action
from games.trails.engine import figure_options, legal_spots
from games.trails.tiles import EDGE_NAMES, GOODS, feature_sides
from games.trails.turn import spot_labels, turn_moves
from presentation import core
from presentation.i18n import t

KEY = "trails"
PAGE_SIZE = 25  # options in one Discord select
KIND_CODES = {"normal": "n", "big": "b", "builder": "u", "keeper": "k"}
CODE_KINDS = {code: kind for kind, code in KIND_CODES.items()}
FEATURE_RE = re.compile(r"(city|road|field)([0-9]{1,3})|monastery", re.ASCII)
# A number in a custom id: an optional minus and a few ASCII digits (a forged 4,000-digit one is refused
# before int() sees it).
NUMBER_RE = re.compile(r"-?[0-9]{1,12}", re.ASCII)


def tr(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"{KEY}.{key}", **params)


# -- pure helpers (tested in tests/cogs/test_trails_helpers.py) ---------------------------------------
@dataclass(frozen=True, slots=True)
class PanelState:
    """What a panel shows: the table version it was opened at, the page of positions, and the choices so far
    (``rot`` in quarter turns; ``figure`` a legal figure, ``None`` for none)."""

    version: int
    page: int = 0
    x: int | None = None
    y: int | None = None
    rot: int | None = None
    figure: Figure | None = None

    @property
    def spot(self) -> tuple[int, int] | None:
        return None if self.x is None or self.y is None else (self.x, self.y)

    def encode(self) -> str:
        def part(value: int | None) -> str:
            return "_" if value is None else str(value)

        return ".".join([str(self.version), str(self.page), part(self.x), part(self.y), part(self.rot),
                         encode_figure(self.figure)])

    @classmethod
    def decode(cls, text: str) -> PanelState:
        """The inverse of ``encode``; ``ValueError`` for anything ``encode`` never writes."""
        parts = text.split(".")
        if len(parts) != 6:
            raise ValueError("a panel state has six parts")
        version, page, x, y, rot, fig = parts

        def value(part: str) -> int | None:
            return None if part == "_" else number(part)

        state = cls(number(version), number(page), value(x), value(y), value(rot), decode_figure(fig))
        if (state.x is None) != (state.rot is None) or (state.y is None) != (state.rot is None) or (
                state.figure is not None and state.rot is None):
            raise ValueError("a rotation and a figure come with a spot")
        return state


def number(text: str | None) -> int:
    """A small whole number from a custom id or a select value; ``ValueError`` for anything else."""
    if text is None or NUMBER_RE.fullmatch(text) is None:
        raise ValueError("not a small number")
    return int(text)


def encode_figure(chosen: Figure | None) -> str:
    """``figure big road:1`` -> ``broad1``; none -> ``_`` (short and free of the custom id's separators)."""
    if chosen is None:
        return "_"
    return KIND_CODES[chosen.kind] + chosen.feature.replace(":", "")


def decode_figure(text: str) -> Figure | None:
    """The inverse of ``encode_figure``; ``ValueError`` for anything it never writes."""
    if text == "_":
        return None
    match = FEATURE_RE.fullmatch(text[1:])
    if not text or text[0] not in CODE_KINDS or match is None:
        raise ValueError("not a figure code")
    return figure("monastery" if match[1] is None else f"{match[1]}:{match[2]}", CODE_KINDS[text[0]])


def page_count(total: int, size: int = PAGE_SIZE) -> int:
    return max(1, -(-total // size))


def page_slice(items: list[Any], page: int, size: int = PAGE_SIZE) -> tuple[list[Any], int]:
    """The items of ``page`` (clamped into range) and the page actually shown."""
    page = min(max(page, 0), page_count(len(items), size) - 1)
    return items[page * size:(page + 1) * size], page


def page_of(items: list[Any], item: Any, size: int = PAGE_SIZE) -> int:
    return items.index(item) // size if item in items else 0


PAGES_SHOWN = 2  # position selects a panel shows at once (50 positions); more are turned in pairs


def shown_pages(total: int, page: int) -> list[int]:
    """The pages of positions shown together with ``page``: the pair it belongs to."""
    first = min(max(page, 0), page_count(total) - 1)
    first -= first % PAGES_SHOWN
    return [p for p in range(first, first + PAGES_SHOWN) if p < page_count(total)]


@dataclass(frozen=True, slots=True)
class Offer:
    """A component of a panel (or of a board post) as a click reads it: ``op`` (``pos``, ``page``, ``rot``,
    ``fig``, ``ok``, ``undo``), the panel state its custom id carries, a button's number or a select's values,
    its row, and whether it can be clicked. The panel is drawn from these (:meth:`TrailsPanel.render`), and
    the click-count tests play turns through them."""

    op: str
    state: PanelState
    arg: int | None = None
    values: tuple[str, ...] = ()
    row: int = 0
    disabled: bool = False

    @property
    def custom_id(self) -> str:
        base = f"pbc:trails:{self.op}:{self.state.encode()}"
        return base if self.arg is None else f"{base}:{self.arg}"


def position_offers(labels: dict[str, tuple[int, int]], state: PanelState, first_row: int) -> list[Offer]:
    """The position selects: the pair of pages ``state.page`` belongs to, each select's custom id naming its
    own page (so the two differ)."""
    spots = list(labels.values())
    return [Offer("pos", replace(state, page=page), values=tuple(f"{x},{y}" for x, y in page_slice(spots, page)[0]),
                  row=first_row + i) for i, page in enumerate(shown_pages(len(spots), state.page)) if spots]


def panel_offers(facts: TurnFacts, panel: PanelState, figures: list[Figure]) -> list[Offer]:
    """What the panel offers for ``panel``: two position selects (pages turned in pairs beyond 50
    positions), the chosen spot's rotations, its figures (no figure first), Confirm and Undo."""
    total = len(facts.labels)
    shown = shown_pages(total, panel.page)
    base = replace(panel, page=shown[0])
    offers = position_offers(facts.labels, base, 0)
    if panel.spot is not None and panel.rot is not None:
        offers += [Offer("rot", base, arg=rot, row=2) for rot in facts.rotations.get(panel.spot, [])]
        if figures:
            offers.append(Offer("fig", base, values=("none", *(encode_figure(f) for f in figures[:PAGE_SIZE - 1])),
                                row=3))
    offers += [Offer("ok", base, row=4, disabled=panel.rot is None),
               Offer("undo", base, row=4, disabled=panel.spot is None)]
    if page_count(total) > PAGES_SHOWN:
        pages = page_count(total)
        offers += [Offer("page", base, arg=shown[0] - PAGES_SHOWN, row=4, disabled=shown[0] == 0),
                   Offer("page", base, arg=shown[0], row=4, disabled=True),  # which pages these are
                   Offer("page", base, arg=shown[0] + PAGES_SHOWN, row=4, disabled=shown[0] + PAGES_SHOWN >= pages)]
    return offers


def board_offers(labels: dict[str, tuple[int, int]], version: int) -> list[Offer]:
    """What a board post offers the player to move besides Take turn: the positions (the first 50), a pick
    opening the player's panel on it."""
    return position_offers(labels, PanelState(version), 1)


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


def pair(text: str) -> list[str]:
    """``"2,-1"`` -> ``["2", "-1"]`` (a position select's value); ``ValueError`` for anything else."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("not a position value")
    return parts


def notations(moves: list[TrailsAction]) -> list[str]:
    return [format_action(move) for move in moves]


def opening_panel(facts: TurnFacts, version: int) -> PanelState:
    """The panel Take turn opens: on a step typed with /trails if there is one, on the only legal position
    if there is one (laid at its first rotation), else with nothing chosen."""
    if facts.pending is not None:  # a step typed with /trails: continue from it
        x, y, rot = facts.pending
        return PanelState(version, page_of(list(facts.labels.values()), (x, y)), x, y, rot, facts.pending_figure)
    if len(facts.rotations) == 1:
        (x, y), rots = next(iter(facts.rotations.items()))
        return PanelState(version, 0, x, y, rots[0])
    return PanelState(version)


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


def panel_step(facts: TurnFacts, panel: PanelState, op: str, arg: str | None,
               values: list[str]) -> PanelState | None:
    """The panel after one click, or ``None`` when the click does not fit the position (also a forged
    value: a select offers one of its options, a button carries its number only where it has one)."""
    try:
        if op == "page" and not values:
            return replace(panel, page=min(max(number(arg), 0), page_count(len(facts.labels)) - 1))
        if op == "pos" and arg is None and len(values) == 1:
            x, y = (number(part) for part in pair(values[0]))
            if (x, y) not in facts.rotations:
                return None
            return replace(panel, x=x, y=y, rot=facts.rotations[(x, y)][0], figure=None)
        if op == "rot" and not values:
            rot = number(arg)
            if panel.spot is None or rot not in facts.rotations.get(panel.spot, []):
                return None
            return replace(panel, rot=rot, figure=None)
        if op == "fig" and arg is None and len(values) == 1 and panel.spot is not None:
            return replace(panel, figure=None if values[0] == "none" else decode_figure(values[0]))
        if op == "undo" and arg is None and not values:
            if panel.figure is not None:
                return replace(panel, figure=None)
            return replace(panel, x=None, y=None, rot=None)
    except ValueError:
        return None
    return None


# -- the panel's and the replies' texts ---------------------------------------------------------------
def position_options(spots: list[tuple[str, tuple[int, int]]], page: int, locale: str,
                     chosen: tuple[int, int] | None = None,
                     key: str = "panel.choose_position") -> tuple[list[tuple[str, str, bool]], str]:
    """A position select's options of ``page`` (label, value ``x,y``, whether chosen) and its placeholder."""
    items, page = page_slice(spots, page)
    options = [(tr(locale, "panel.spot", label=label, x=x, y=y), f"{x},{y}", (x, y) == chosen)
               for label, (x, y) in items]
    placeholder = tr(locale, key, first=page * PAGE_SIZE + 1, last=page * PAGE_SIZE + len(items), total=len(spots))
    return options, placeholder[:150]


def page_label(offer: Offer, total: int, page: int, locale: str) -> str:
    """A page button's label: previous, next, or which pair of pages is shown (``total`` positions)."""
    first = shown_pages(total, page)[0]
    pages = page_count(total)
    if offer.arg is not None and offer.arg < first:
        return tr(locale, "panel.prev")
    if offer.arg is not None and offer.arg > first:
        return tr(locale, "panel.next")
    return tr(locale, "panel.page", page=first // PAGES_SHOWN + 1, pages=-(-pages // PAGES_SHOWN))


def figure_choices(tile: str, rot: int, figures: list[Figure], chosen: Figure | None,
                   locale: str) -> list[tuple[str, str, bool]]:
    """The figure select's options (label, value, whether chosen): no figure first."""
    options = [(tr(locale, "panel.no_figure"), "none", chosen is None)]
    options += [(figure_text(locale, tile, rot, f)[:100], encode_figure(f), f == chosen) for f in figures[:PAGE_SIZE - 1]]
    return options


def panel_lines(facts: TurnFacts, panel: PanelState, figures: list[Figure], locale: str) -> list[str]:
    """The panel's text: the tile, how to play, and the placement and figure chosen so far."""
    lines = [tr(locale, "panel.title", tile=facts.tile, remaining=facts.remaining), tr(locale, "panel.help")]
    if panel.spot is not None and panel.rot is not None:
        label_of = {spot: label for label, spot in facts.labels.items()}
        x, y = panel.spot
        choice = tr(locale, "panel.choice", label=label_of.get(panel.spot, "?"), x=x, y=y, deg=panel.rot * 90)
        chosen = (figure_text(locale, facts.tile, panel.rot, panel.figure) if panel.figure
                  else tr(locale, "panel.no_figure"))
        lines.append(f"**{choice}** · {chosen}")
        if not figures:
            lines.append(tr(locale, "panel.no_figures_left"))
    return lines


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


def wrong_step_text(locale: str, code: str, params: dict[str, Any]) -> str | None:
    """``wrong_step`` with the step in words (the engine's code names it ``place``/``figure``/...)."""
    if code == "wrong_step":
        return tr(locale, "wrong_step", step=tr(locale, f"step.{params.get('step', 'place')}"))
    return None


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
def placement_key(x: int, y: int, rot: int) -> str:
    """A placement as a choice's key: ``p3_-1_2`` (x, y, quarter turns)."""
    return f"p{x}_{y}_{rot}"


def figure_key(chosen: Figure | None) -> str:
    return "none" if chosen is None else encode_figure(chosen)


def flow(state: Any, seat: int, chosen: tuple[str, ...], locale: str) -> core.Step | core.Done:
    """The turn: a placement (keys: :func:`placement_key`, the legal spots by label, each at its rotations),
    then the figure when the tile as laid allows one (keys: ``none`` first, then the figure's code), and the
    whole turn (with what a typed step left pending taken back or kept) is ``Done`` in one commit."""
    if state.over or seat != state.seat:
        return core.Step(tr(locale, "panel.stale"), ())
    labels = spot_labels(legal_spots(state))
    spots = legal_spots(state)
    placements = {placement_key(x, y, rot): (label, x, y, rot)
                  for label, (x, y) in labels.items() for rot in spots[(x, y)]}
    if not chosen:
        choices = tuple(core.Choice(key, tr(locale, "panel.choice", label=label, x=x, y=y, deg=rot * 90),
                                    style="primary") for key, (label, x, y, rot) in placements.items())
        return core.Step(tr(locale, "panel.title", tile=state.tile, remaining=len(state.deck)), choices, placeholder=tr(locale, "panel.choose_position", first=1,
                                                            last=len(choices), total=len(choices))[:150])
    label, x, y, rot = placements[chosen[0]]
    figures = figure_options(state, x, y, rot)
    summary = tr(locale, "panel.choice", label=label, x=x, y=y, deg=rot * 90)
    if not figures:
        return core.Done(tuple(format_action(m) for m in turn_moves(state, x, y, rot, None)), summary)
    by_key: dict[str, Figure | None] = {"none": None, **{figure_key(f): f for f in figures}}
    if len(chosen) == 1:
        choices = tuple(core.Choice(key, figure_text(locale, state.tile, rot, f)[:100] if f else
                                    tr(locale, "panel.no_figure"),
                                    tuple(format_action(m) for m in turn_moves(state, x, y, rot, f)))
                        for key, f in by_key.items())
        return core.Step(summary, choices, can_undo=True, placeholder=tr(locale, "panel.choose_figure")[:150])
    picked = by_key[chosen[1]]
    text = summary + " · " + (figure_text(locale, state.tile, rot, picked) if picked else tr(locale, "panel.no_figure"))
    return core.Done(tuple(format_action(m) for m in turn_moves(state, x, y, rot, picked)), text)


def narrate(events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    """The turn's events in sentences, as the board post tells them."""
    return event_sentences(locale, list(names), list(events))
