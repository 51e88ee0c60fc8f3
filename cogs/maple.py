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

The pure parts (the choices of a position, their labels, the prompt, the events in words, the final
breakdown) are in presentation/maple.py; this cog shows them with Discord's components.
"""

from __future__ import annotations

import asyncio
import re
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
    seat_labels,
    seat_names,
)
from games.core import Event, IllegalAction
from games.maple.engine import MapleGame
from presentation.maple import (
    KEY,
    STEP,
    Choice,
    choice_label,
    event_lines,
    final_breakdown,
    position_choices,
    prompt,
    score_text,
    tr,
    undo_steps,
)
from rendering.maple import render_board

TURN_ID = "pbc:maple:turn"
BUTTON_LIMIT = 5  # more choices than this go into select menus (one row of buttons)
# A piece of typed notation: short words of letters, digits and ,=- only (no int() of thousands of digits).
TYPED_RE = re.compile(r"[a-zA-Z0-9,=\-]{1,24}( [a-zA-Z0-9,=\-]{1,24}){0,3}")
NUMBER_RE = re.compile(r"[0-9]{1,12}")
# Loose on purpose: a forged version or index is refused by the handler with a clear answer.
BUTTON_TEMPLATE = r"pbc:maple:(?P<op>do|undo|show):(?P<version>[^:]{0,40})(?::(?P<arg>[^:]{0,40}))?"
SELECT_TEMPLATE = r"pbc:maple:pick:(?P<version>[^:]{0,40}):[0-9]"


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


# -- the board: the final scores, refusals ------------------------------------------------------------
def final_embed(table: Table, locale: str) -> discord.Embed:
    """The scoring breakdown per player (presentation: ``final_breakdown``) as an embed."""
    breakdown = final_breakdown(table.game.result(table.state), seat_labels(table, locale), locale)
    embed = discord.Embed(title=breakdown.title, colour=discord.Colour.gold())
    if breakdown.description is not None:
        embed.description = breakdown.description
    for name, value in breakdown.fields:
        embed.add_field(name=name, value=value, inline=True)
    embed.set_footer(text=breakdown.footer)
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

    def error_text(self, locale: str, error: Exception, key: str | None = None) -> str | None:
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
        return self.service.mover(interaction.channel_id, interaction.user.id, KEY)

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
