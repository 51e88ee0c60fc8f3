"""Trails & Fortresses in Discord: under each board post a "Take turn" button and the legal positions,
each opening an ephemeral panel (position selects, rotation buttons, preview, figure select, Confirm /
Undo; a position picked under the board opens it on that position, so a turn takes two to four clicks),
``/trails`` commands for those who type, scoring told in sentences and a final breakdown.

The panel keeps its whole state in the custom ids of its components (``pbc:trails:<op>:<state>``, see
:class:`PanelState`), read back by dynamic items, so an open panel survives a restart. Nothing is played
until Confirm, which commits place + figure + confirm in one ``act`` at the version the panel was opened
at: a double click or a stale panel gives "already played" and nothing twice.

The commands work step by step on the engine instead (``/trails place`` and ``/trails figure`` commit the
pending step, answered with an ephemeral preview; only ``/trails confirm`` posts the public board), so a
player may type one step now and the next later, as ``/game move`` always allowed.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass, replace
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_calls import deliver
from bot.i18n import t
from bot.tables import MoveOutcome, Table, TableError
from cogs.board import GamePanel, board_note
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    answer,
    error_text,
    locale_of,
    publish,
    report_command_error,
    seat_labels,
    seat_names,
)
from games.core import IllegalAction
from games.trails.actions import Figure, TrailsAction, clip, figure, format_action, parse_rotation
from games.trails.engine import figure_options, legal_spots
from games.trails.tiles import EDGE_NAMES, GOODS, feature_sides
from games.trails.turn import (
    figure_moves,
    find_spot,
    parse_figure_choice,
    place_moves,
    spot_labels,
    turn_moves,
)
from rendering.trails import geometry, render_preview

KEY = "trails"
TURN_ID = "pbc:trails:turn"
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


def position_select(spots: list[tuple[str, tuple[int, int]]], offer: Offer, locale: str,
                    chosen: tuple[int, int] | None = None, key: str = "panel.choose_position") -> discord.ui.Select:
    items, page = page_slice(spots, offer.state.page)
    options = [discord.SelectOption(label=tr(locale, "panel.spot", label=label, x=x, y=y), value=f"{x},{y}",
                                    default=(x, y) == chosen) for label, (x, y) in items]
    placeholder = tr(locale, key, first=page * PAGE_SIZE + 1, last=page * PAGE_SIZE + len(items), total=len(spots))
    return discord.ui.Select(custom_id=offer.custom_id, placeholder=placeholder[:150], options=options, row=offer.row)


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


def standings_embed(table: Table, locale: str) -> discord.Embed:
    """Final standings with the breakdown per player."""
    game = table.game
    result = game.result(table.state)
    names = seat_labels(table, locale)  # as the standings of the same post name them
    expansions = set(table.state.options["expansions"])
    embed = discord.Embed(title=tr(locale, "final.title"), colour=discord.Colour.gold())
    special = result.extra.get("inns_cathedrals", {})
    goods = result.extra.get("goods", {})
    for player in result.ranking[:25]:
        lines = [tr(locale, f"final.{category}", points=player.breakdown.get(category, 0))
                 for category in ("roads", "cities", "monasteries", "fields")]
        if "traders" in expansions:
            held = ", ".join(f"{tr(locale, f'goods.{g}')} {goods.get(player.seat, {}).get(g, 0)}" for g in GOODS)
            lines.append(tr(locale, "final.goods", points=player.breakdown.get("goods", 0), held=held))
        if "inns" in expansions:
            lines.append(tr(locale, "final.inns_cathedrals", points=special.get(player.seat, 0)))
        out = tr(locale, "final.out") if player.eliminated else ""
        embed.add_field(name=tr(locale, "final.player", rank=player.rank, name=names[player.seat],
                                score=plural(locale, "points", player.score), out=out),
                        value="\n".join(lines), inline=True)
    embed.set_footer(text=tr(locale, "final.footer", turns=result.turns))
    return embed


# -- the panel -------------------------------------------------------------------------------------
class TakeTurnView(discord.ui.View):
    """The persistent button under every board post; the channel identifies the table."""

    def __init__(self, panel: TrailsPanel, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.panel = panel
        self.take_turn.label = tr(locale, "button.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID, emoji="🧩")
    async def take_turn(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        await self.panel.open(interaction)


BUTTON_TEMPLATE = r"pbc:trails:(?P<op>page|rot|ok|undo):(?P<state>[-\w.]+)(?::(?P<arg>-?\d+))?"
SELECT_TEMPLATE = r"pbc:trails:(?P<op>pos|fig):(?P<state>[-\w.]+)"


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button, op: str, state: str, arg: str | None) -> None:
        super().__init__(button)
        self.op, self.state, self.arg = op, state, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PanelButton:
        # The template only matches the custom ids of this panel's buttons.
        return cls(cast(discord.ui.Button, item), match["op"], match["state"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel_of(interaction).handle(interaction, self.op, self.state, self.arg, [])


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select, op: str, state: str) -> None:
        super().__init__(select)
        self.op, self.state = op, state

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PanelSelect:
        # The template only matches the custom ids of this panel's selects.
        return cls(cast(discord.ui.Select, item), match["op"], match["state"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values", [])
        if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
            values = ["?"]  # not what Discord sends: refused as a value the select never offered
        await panel_of(interaction).handle(interaction, self.op, self.state, None, values)


def _pair(text: str) -> list[str]:
    """``"2,-1"`` -> ``["2", "-1"]`` (a position select's value); ``ValueError`` for anything else."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("not a position value")
    return parts


def notations(moves: list[TrailsAction]) -> list[str]:
    return [format_action(move) for move in moves]


def panel_of(interaction: discord.Interaction) -> TrailsPanel:
    game_cog: Any = cast(commands.Bot, interaction.client).get_cog("GameCog")  # cogs/game.py's GameCog
    return game_cog.panels[KEY]


def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            row: int = 0, disabled: bool = False) -> discord.ui.Button:
    return discord.ui.Button(label=label, custom_id=custom_id, style=style, row=row, disabled=disabled)


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


class TrailsPanel(GamePanel):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.warming: asyncio.Task[None] | None = None  # the renderer's warm-up, started at load

    # -- GamePanel hooks ---------------------------------------------------------------------------
    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        """Take turn, and the positions where the tile may go: a pick opens the player's panel on it (a click
        saved on every turn)."""
        view = TakeTurnView(self, locale)
        state = table.state
        if state is None or table.game.is_over(state):
            return view
        labels = spot_labels(legal_spots(state))
        spots = list(labels.items())
        for offer in board_offers(labels, table.version):
            view.add_item(position_select(spots, offer, locale, key="board.place"))
        return view

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        state = table.state
        pending = (state.tile, state.pending[2]) if state.pending is not None and state.tile else None
        return event_sentences(locale, names, outcome.events, pending)

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        return [standings_embed(table, locale)]

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """Answered privately with the preview, as /trails does."""
        head = outcome.moves[-1][1].split()[0]
        key = {"place": "cmd_reply.placed", "undo": "cmd_reply.undone"}.get(head, "cmd_reply.figured")
        await self.bot.get_cog("TrailsCog").step_reply(interaction, table, key)

    def error_text(self, locale: str, error: Exception) -> str | None:
        """``wrong_step`` with the step in words (the engine's code names it ``place``/``figure``/...)."""
        if isinstance(error, IllegalAction) and error.code == "wrong_step":
            return tr(locale, "wrong_step", step=tr(locale, f"step.{error.params.get('step', 'place')}"))
        return None

    # -- the position at the table's version --------------------------------------------------------
    def facts(self, table: Table) -> TurnFacts:
        """What the engine says of the turn now; the view is the public one (the confirmed board, the turn at
        its place step), on which the preview draws the candidate tile."""
        state = table.state
        spots = legal_spots(state)
        view = table.game.view(state, None)
        return TurnFacts(state.seat, state.tile, spot_labels(spots), {pos: list(rots) for pos, rots in spots.items()},
                         view, state.phase, state.pending, state.pending_figure, view["remaining"])

    def _turn_table(self, interaction: discord.Interaction) -> Table:
        """The caller's running Trails table where it is their turn, or a TableError saying why not."""
        table = self.service.tables.get(interaction.channel_id)
        if table is None or table.game.key != KEY:
            raise TableError("no_table")
        if table.state is None or table.record.status != "playing":
            raise TableError("not_started")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        if table.game.is_over(table.state):
            raise TableError("game_over")
        if seat.position not in table.game.to_act(table.state):
            raise TableError("not_your_turn")
        return table

    # -- opening and driving the panel --------------------------------------------------------------
    async def open(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            table = self._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        facts = self.facts(table)
        await self.send_panel(interaction, table, facts, opening_panel(facts, table.version), locale)

    async def send_panel(self, interaction: discord.Interaction, table: Table, facts: TurnFacts, panel: PanelState,
                         locale: str) -> None:
        """A new private panel (Take turn, or a position picked on the board post)."""
        figures = self.figures_for(table, panel)  # before any await: the clock may move the game on meanwhile
        await interaction.response.defer(ephemeral=True, thinking=True)
        kwargs = await self.render(table, facts, panel, locale, figures)
        await interaction.followup.send(ephemeral=True, **kwargs)

    async def handle(self, interaction: discord.Interaction, op: str, encoded: str, arg: str | None,
                     values: list[str]) -> None:
        locale = locale_of(interaction)
        try:
            panel = PanelState.decode(encoded)
        except (ValueError, KeyError):
            return await answer(interaction, tr(locale, "panel.stale"))
        current = self.service.tables.get(interaction.channel_id)
        if current is None or current.version != panel.version:  # a move was made since it opened
            return await answer(interaction, tr(locale, "panel.stale"))
        try:
            table = self._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        facts = self.facts(table)
        # A custom id or select value that this panel never offered (a forged one) changes nothing and is
        # answered as a stale panel.
        if not self.offered(table, facts, panel):
            return await answer(interaction, tr(locale, "panel.stale"))
        if op == "ok":
            if arg is not None or values:
                return await answer(interaction, tr(locale, "panel.stale"))
            return await self.confirm(interaction, table, facts, panel, locale)
        panel = self.step(facts, panel, op, arg, values)
        if panel is None or not self.offered(table, facts, panel):
            return await answer(interaction, tr(locale, "panel.stale"))
        message = getattr(interaction, "message", None)  # the message the clicked component is on
        if message is not None and not message.flags.ephemeral:  # picked on the board post: a panel of one's own
            if op != "pos":
                return await answer(interaction, tr(locale, "panel.stale"))
            return await self.send_panel(interaction, table, facts, panel, locale)
        # Everything read from the position is read before the first await: a timeout may move the game
        # on while Discord is answered, and this panel then shows the position it was opened on.
        figures = self.figures_for(table, panel)
        await ack(interaction)  # an update of the panel message
        kwargs = await self.render(table, facts, panel, locale, figures)
        await deliver(lambda: interaction.edit_original_response(embed=kwargs["embed"], view=kwargs["view"],
                                                                 attachments=kwargs["files"]),
                      "a Trails panel", REPLY_RETRY_DELAYS)

    def offered(self, table: Table, facts: TurnFacts, panel: PanelState) -> bool:
        """Whether the panel's choices are ones it could have offered: a legal spot and rotation, and a figure
        allowed there."""
        if panel.spot is None or panel.rot is None:
            return panel.spot is None and panel.rot is None and panel.figure is None
        if panel.rot not in facts.rotations.get(panel.spot, []):
            return False
        return panel.figure is None or panel.figure in self.figures_for(table, panel)

    @staticmethod
    def step(facts: TurnFacts, panel: PanelState, op: str, arg: str | None, values: list[str]) -> PanelState | None:
        """The panel after one click, or ``None`` when the click does not fit the position (also a forged
        value: a select offers one of its options, a button carries its number only where it has one)."""
        try:
            if op == "page" and not values:
                return replace(panel, page=min(max(number(arg), 0), page_count(len(facts.labels)) - 1))
            if op == "pos" and arg is None and len(values) == 1:
                x, y = (number(part) for part in _pair(values[0]))
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

    def figures_for(self, table: Table, panel: PanelState) -> list[Figure]:
        """The figures that may go on the panel's chosen placement (none chosen yet: none)."""
        spot = panel.spot
        if spot is None or panel.rot is None:
            return []
        return figure_options(table.state, spot[0], spot[1], panel.rot)

    async def render(self, table: Table, facts: TurnFacts, panel: PanelState, locale: str,
                     figures: list[Figure]) -> dict[str, Any]:
        """The panel message: an embed (text + preview), the components (:func:`panel_offers`), the preview
        file."""
        spots = list(facts.labels.items())
        label_of = {spot: label for label, spot in spots}
        # Clicks are routed by the dynamic items (custom ids), also after a restart; this view object only
        # carries the components, so it may be forgotten after the interaction token's 15 minutes.
        view = discord.ui.View(timeout=900)
        pages = page_count(len(spots))
        for offer in panel_offers(facts, panel, figures):
            if offer.op == "pos":
                view.add_item(position_select(spots, offer, locale, panel.spot))
            elif offer.op == "page":
                first = shown_pages(len(spots), panel.page)[0]
                label = (tr(locale, "panel.prev") if offer.arg is not None and offer.arg < first
                         else tr(locale, "panel.next") if offer.arg is not None and offer.arg > first
                         else tr(locale, "panel.page", page=first // PAGES_SHOWN + 1, pages=-(-pages // PAGES_SHOWN)))
                view.add_item(_button(label, offer.custom_id, row=offer.row, disabled=offer.disabled))
            elif offer.op == "rot" and offer.arg is not None:
                view.add_item(_button(f"↻ {offer.arg * 90}°", offer.custom_id, row=offer.row,
                                      style=discord.ButtonStyle.success if offer.arg == panel.rot
                                      else discord.ButtonStyle.secondary))
            elif offer.op == "fig" and panel.rot is not None:
                fig_options = [discord.SelectOption(label=tr(locale, "panel.no_figure"), value="none",
                                                    default=panel.figure is None)]
                fig_options += [discord.SelectOption(label=figure_text(locale, facts.tile, panel.rot, f)[:100],
                                                     value=encode_figure(f), default=f == panel.figure)
                                for f in figures[:PAGE_SIZE - 1]]
                view.add_item(discord.ui.Select(custom_id=offer.custom_id, options=fig_options, row=offer.row,
                                                placeholder=tr(locale, "panel.choose_figure")[:150]))
            elif offer.op == "ok":
                view.add_item(_button(tr(locale, "panel.confirm"), offer.custom_id, row=offer.row,
                                      style=discord.ButtonStyle.primary, disabled=offer.disabled))
            elif offer.op == "undo":
                view.add_item(_button(tr(locale, "panel.undo"), offer.custom_id, row=offer.row,
                                      style=discord.ButtonStyle.danger, disabled=offer.disabled))
        lines = [tr(locale, "panel.title", tile=facts.tile, remaining=facts.remaining), tr(locale, "panel.help")]
        preview: bytes | None = None
        if panel.spot is not None and panel.rot is not None:
            x, y = panel.spot
            choice = tr(locale, "panel.choice", label=label_of.get(panel.spot, "?"), x=x, y=y, deg=panel.rot * 90)
            chosen = (figure_text(locale, facts.tile, panel.rot, panel.figure) if panel.figure
                      else tr(locale, "panel.no_figure"))
            lines.append(f"**{choice}** · {chosen}")
            if not figures:
                lines.append(tr(locale, "panel.no_figures_left"))
            names = seat_names(table)
            fig = (panel.figure.kind, panel.figure.feature) if panel.figure else None
            preview = await asyncio.to_thread(render_preview, facts.view, x, y, panel.rot, names, locale, fig)
        embed = discord.Embed(description="\n".join(lines), colour=discord.Colour.blurple())
        files = []
        if preview is not None:
            embed.set_image(url="attachment://preview.png")
            files = [discord.File(io.BytesIO(preview), "preview.png")]
        return {"embed": embed, "view": view, "files": files}

    async def confirm(self, interaction: discord.Interaction, table: Table, facts: TurnFacts, panel: PanelState,
                      locale: str) -> None:
        if panel.spot is None or panel.rot is None:
            return await answer(interaction, tr(locale, "panel.stale"))
        x, y = panel.spot
        moves = notations(turn_moves(table.state, x, y, panel.rot, panel.figure))
        await ack(interaction)
        try:
            outcome = await self.service.act(interaction.channel_id, interaction.user.id, moves,
                                             expected_version=panel.version)
        except (TableError, IllegalAction) as error:
            return await answer(interaction, error_text(locale, error, KEY))
        except Exception as error:  # nothing committed: say so with an id
            return await answer(interaction, error_text(locale, error))
        board = await self.game_cog.send_board(outcome, None, locale)
        # The panel, emptied, says so once the board is in the channel (or that it will follow).
        await publish(interaction, board_note(locale, board, lambda link: tr(locale, "panel.played", link=link)))


# -- /trails commands ----------------------------------------------------------------------------
class TrailsCog(commands.GroupCog, group_name=_("trails"),
                group_description=_("Trails & Fortresses: your turn step by step")):
    def __init__(self, bot: Any, panel: TrailsPanel) -> None:
        self.bot = bot
        self.panel = panel
        super().__init__()

    def _table_or_none(self, interaction: discord.Interaction) -> Table | None:
        try:
            return self.panel._turn_table(interaction)
        except TableError:
            return None

    async def position_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None:
            return []
        locale = locale_of(interaction)
        wanted = current.strip().lower()
        choices = []
        for label, (x, y) in self.panel.facts(table).labels.items():
            name = tr(locale, "panel.spot", label=label, x=x, y=y)
            if not wanted or wanted in name.lower() or wanted == label.lower():
                choices.append(app_commands.Choice(name=name, value=f"{x},{y}"))
        return choices[:25]

    async def rotation_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None:
            return []
        facts = self.panel.facts(table)
        try:
            spot: tuple[int, int] | None = find_spot(str(getattr(interaction.namespace, "position", "") or ""),
                                                     facts.labels)
        except IllegalAction:
            spot = None
        rotations = facts.rotations.get(spot, []) if spot else sorted({r for rs in facts.rotations.values() for r in rs})
        return [app_commands.Choice(name=f"{r * 90}°", value=str(r * 90)) for r in rotations
                if current.strip() in str(r * 90)]

    async def feature_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None or table.state.pending is None:
            return []
        locale = locale_of(interaction)
        x, y, rot = table.state.pending
        tile = table.state.tile
        wanted = current.strip().lower()
        choices = [app_commands.Choice(name=tr(locale, "panel.no_figure"), value="none")]
        choices += [app_commands.Choice(name=figure_text(locale, tile, rot, f)[:100], value=format_action(f))
                    for f in figure_options(table.state, x, y, rot)]
        return [c for c in choices if not wanted or wanted in c.name.lower() or wanted in c.value][:25]

    async def _act(self, interaction: discord.Interaction, moves: list[str]) -> MoveOutcome | None:
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            return await self.bot.tables.act(interaction.channel_id, interaction.user.id, moves)
        except (TableError, IllegalAction) as error:
            await answer(interaction, self.panel.error_text(locale, error) or error_text(locale, error, KEY))
        except Exception as error:  # nothing committed
            await answer(interaction, error_text(locale, error))
        return None

    async def step_reply(self, interaction: discord.Interaction, table: Table, key: str) -> None:
        """The ephemeral answer to a step: where things stand, with a preview of the pending tile."""
        locale = locale_of(interaction)
        state = table.state
        lines = [tr(locale, key)]
        images = []
        if state.pending is not None:
            x, y, rot = state.pending
            chosen = (figure_text(locale, state.tile, rot, state.pending_figure) if state.pending_figure
                      else tr(locale, "panel.no_figure"))
            lines.append(tr(locale, "cmd_reply.pending", tile=state.tile, x=x, y=y, deg=rot * 90, figure=chosen))
            lines.append(tr(locale, "cmd_reply.next"))
            fig = (state.pending_figure.kind, state.pending_figure.feature) if state.pending_figure else None
            view = self.panel.facts(table).view
            await ack(interaction)
            png = await asyncio.to_thread(render_preview, view, x, y, rot, seat_names(table), locale, fig)
            images = [("preview.png", png)]
        else:
            lines.append(tr(locale, "cmd_reply.place_next"))
        await answer(interaction, "\n".join(lines), images=images)

    @app_commands.command(name=_("place"), description=_("Lay your tile (not played until you confirm)"))
    @app_commands.rename(position=_("position"), rotation=_("rotation"))
    @app_commands.describe(position=_("Where: a letter from the board or x,y"), rotation=_("Clockwise turn in degrees"))
    @app_commands.autocomplete(position=position_autocomplete, rotation=rotation_autocomplete)
    async def place(self, interaction: discord.Interaction, position: str, rotation: str) -> None:
        locale = locale_of(interaction)
        try:
            table = self.panel._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        try:
            x, y = find_spot(position, self.panel.facts(table).labels)
            rot = parse_rotation(rotation)
        except IllegalAction:
            return await answer(interaction, tr(locale, "cmd_reply.bad_place", position=clip(position),
                                                rotation=clip(rotation)))
        moves = notations(place_moves(table.state, x, y, rot))
        if await self._act(interaction, moves) is not None:
            await self.step_reply(interaction, table, "cmd_reply.placed")

    @app_commands.command(name=_("figure"), description=_("Put a figure on the tile you laid, or none"))
    @app_commands.rename(feature=_("feature"))
    @app_commands.describe(feature=_("Which figure where; start typing to see the legal ones"))
    @app_commands.autocomplete(feature=feature_autocomplete)
    async def figure_command(self, interaction: discord.Interaction, feature: str) -> None:
        locale = locale_of(interaction)
        try:
            table = self.panel._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        try:
            moves = notations(figure_moves(table.state, parse_figure_choice(feature)))
        except IllegalAction as error:
            return await answer(interaction, error_text(locale, error, KEY))
        if moves and await self._act(interaction, moves) is None:
            return
        await self.step_reply(interaction, table, "cmd_reply.figured")

    @app_commands.command(name=_("confirm"), description=_("End your turn: the tile and figure are played"))
    async def confirm(self, interaction: discord.Interaction) -> None:
        await self.bot.get_cog("GameCog").play(interaction, "confirm")

    @app_commands.command(name=_("undo"), description=_("Take back your last step before you confirm"))
    async def undo(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            table = self.panel._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        if await self._act(interaction, ["undo"]) is not None:
            await self.step_reply(interaction, table, "cmd_reply.undone")

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)


async def setup(bot: Any) -> None:
    panel = TrailsPanel(bot)
    bot.get_cog("GameCog").add_panel(KEY, panel)
    bot.add_view(TakeTurnView(panel))
    bot.add_dynamic_items(PanelButton, PanelSelect)
    await bot.add_cog(TrailsCog(bot, panel))
    # Tile layouts take about a second to work out: do it beside start-up, not in the first player's turn.
    panel.warming = asyncio.get_running_loop().create_task(asyncio.to_thread(geometry.warm_up))
