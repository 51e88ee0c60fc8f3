"""Dewan in Discord: a "Take turn" button under each board that opens an ephemeral panel, ``/dewan`` commands
for those who type, the turn told in words on the board, and the final score pad.

The panel plays a whole turn in at most four clicks (Take turn included): **take** is one more click (the
pair); a **camp** is the destination, then the payment when there is a choice, then Confirm, which shows a
private preview of the map with the planned camp and route and, when the emptied slot of the tribe board
offers a choice, carries it (``Confirm · story t07``). Nothing is played before Confirm: the whole turn is
committed in one ``act`` at the table version the panel was opened at, so a double click or a stale panel
answers "out of date" and changes nothing. The panel keeps its state in the custom ids of its components
(``pbc:dewan:<op>:<version>:<args>``), read back by dynamic items, so it survives a restart; a value it never
offered (a forged one) is refused the same way.

Rules stay in the engine: the legal destinations are the ``camp`` actions of ``legal_actions``, the payment
choices ``DewanGame.payments``, and the preview and the reward choices come from ``apply`` on a copy of the
state. The commands work step by step on the engine (``/dewan camp to:`` alone leaves the payment to
``/dewan choose``), as ``/game move`` always allowed; the steps are answered privately, the channel hears
the whole turn once.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_calls import deliver
from bot.tables import MoveOutcome, Table, TableError, echo
from cogs.board import GamePanel, board_note, posted_board
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    answer,
    detached,
    error_text,
    locale_of,
    report_command_error,
    seat_labels,
    seat_names,
)
from games.core import IllegalAction
from games.dewan.engine import DewanGame
from presentation.dewan import (
    HEX_RE,
    KEY,
    OPTIONS,
    SELECT_ROWS,
    Payment,
    Plan,
    action_label,
    confirm_lines,
    decode_payment,
    destination_options,
    destinations,
    encode_payment,
    header,
    narrate,
    notation_of,
    payment_lines,
    payment_options,
    payment_text,
    payments,
    plan_camp,
    reward_options,
    score_pad,
    step_lines,
    token_of,
    tr,
)
from rendering.dewan import render_board

TURN_ID = "pbc:dewan:turn"
BUTTONS = 15  # choices shown as buttons (3 rows of 5); more go into a select menu
PAYMENT_SUGGESTIONS = 200  # payments searched for /dewan camp's suggestions (filtered by what is typed)
VERSION = r"(?P<version>[0-9]{1,9})"
ARGS = r"(?::(?P<args>[A-Za-z0-9_.:-]{0,80}))?"
BUTTON_TEMPLATE = rf"pbc:dewan:(?P<op>do|ok|back):{VERSION}{ARGS}"
SELECT_TEMPLATE = rf"pbc:dewan:(?P<op>pick|dest|pay|okr):{VERSION}{ARGS}"


def engine_of(table: Table) -> DewanGame:
    """The table's engine, known to be Dewan's here (the bot holds every game as ``AnyGame``)."""
    game = table.game
    assert isinstance(game, DewanGame)
    return game



def final_embed(table: Table, locale: str) -> discord.Embed:
    """The score pad: story, fire, fire majority, groups, berries per player."""
    game = engine_of(table)
    title, rows, footer = score_pad(game, table.state, seat_labels(table, locale), locale)  # as the standings name them
    embed = discord.Embed(title=title, colour=discord.Colour.gold())
    for name, value in rows:
        embed.add_field(name=name[:256], value=value[:1024], inline=False)
    embed.set_footer(text=footer)
    return embed



# -- components --------------------------------------------------------------------------------------
def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            row: int | None = None) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row)


def _choices(view: discord.ui.View, options: list[tuple[str, str]], button_id: str, select_id: str,
             placeholder: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
    """Choices (label, token) as buttons ``<button_id>:<token>``, or one select menu when there are many."""
    if len(options) <= BUTTONS:
        for index, (label, token) in enumerate(options):
            view.add_item(_button(label, f"{button_id}:{token}", style, row=index // 5))
    else:
        view.add_item(discord.ui.Select(custom_id=select_id, placeholder=placeholder[:150], row=0, options=[
            discord.SelectOption(label=label[:100], value=token) for label, token in options[:OPTIONS]]))


class TurnView(discord.ui.View):
    """The persistent "Take turn" button under each board post (fixed custom id, no timeout)."""

    def __init__(self, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.take_turn.label = tr(locale, "button.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID)
    async def take_turn(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await panel_of(interaction).open(interaction)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button, op: str, version: int, args: str) -> None:
        super().__init__(button)
        self.op, self.version, self.args = op, version, args

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelButton:
        return cls(cast(discord.ui.Button, item), match["op"], int(match["version"]), match["args"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel_of(interaction).handle(interaction, self.op, self.version, self.args, [])


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select, op: str, version: int, args: str) -> None:
        super().__init__(select)
        self.op, self.version, self.args = op, version, args

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelSelect:
        return cls(cast(discord.ui.Select, item), match["op"], int(match["version"]), match["args"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values")
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            values = ["?"]  # not what Discord sends: refused as a value the panel never offered
        await panel_of(interaction).handle(interaction, self.op, self.version, self.args, values)


def panel_of(interaction: discord.Interaction) -> DewanPanel:
    game_cog: Any = cast(commands.Bot, interaction.client).get_cog("GameCog")
    return cast(DewanPanel, game_cog.panels[KEY])


@dataclass(slots=True)
class Screen:
    """A panel message: the text, its components, and the preview image if any."""

    text: str
    view: discord.ui.View | None
    preview: dict[str, Any] | None = None  # the mover's own view to draw privately (the planned camp)


@dataclass(slots=True)
class Commit:
    notations: list[str]


class Stale(Exception):
    """A click the panel cannot have offered at this version (out of date, or forged)."""


# -- the panel hooked into the shared board post -------------------------------------------------------
class DewanPanel(GamePanel):
    tells_steps = True  # steps typed one by one are told together on the board posted when the turn ends

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    # -- GamePanel hooks -------------------------------------------------------------------------------
    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        return TurnView(locale)

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        return narrate(outcome.events, names, locale)

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        return [final_embed(table, locale)]

    def error_text(self, locale: str, error: Exception, key: str | None = None) -> str | None:
        """``wrong_step`` names the step in words (the engine's code is its phase)."""
        if isinstance(error, IllegalAction) and error.code == "wrong_step":
            step = tr(locale, f"step.{error.params.get('step')}")
            return tr(locale, "error.wrong_step", step=step, action=echo(error.params.get("action", "")))
        return None

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """A step of the turn (typed, or a panel's step button): what it did, privately, and what comes next
        with its buttons; a panel edits itself."""
        locale = locale_of(interaction)
        seat = outcome.moves[0][0]
        names = seat_names(table)
        done = narrate(outcome.events, names, locale)
        screen = self.step_screen(table, seat, locale)
        screen.text = "\n".join([*done, "", screen.text]) if done else screen.text
        await self.show(interaction, screen, locale, edit=from_panel(interaction))

    # -- the position ----------------------------------------------------------------------------------
    def mover(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The caller's running Dewan table where it is their turn, or a ``TableError`` saying why not."""
        return self.service.mover(interaction.channel_id, interaction.user.id, KEY)

    def header(self, table: Table, seat: int, locale: str) -> list[str]:
        return header(engine_of(table), table.state, seat, locale)

    def step_screen(self, table: Table, seat: int, locale: str) -> Screen:
        """The panel's first screen: the choices of the current step."""
        game = engine_of(table)
        state = table.state
        version = table.version
        view = game.view(state, None)
        if view["actor"] != seat:
            return Screen(tr(locale, "panel.done"), None)
        names = seat_names(table)
        actions = game.legal_actions(state, seat)
        lines = step_lines(game, state, seat, locale)
        panel = discord.ui.View(timeout=None)
        if view["phase"] == "turn":
            takes = [a for a in actions if a[0] in ("take", "take1")]
            others = [a for a in actions if a[0] == "pass"]
            for index, action in enumerate([*takes, *others]):
                panel.add_item(_button(action_label(action, names, view["row"], locale),
                                       f"pbc:{KEY}:do:{version}:{token_of(game.format(action))}",
                                       discord.ButtonStyle.success if action[0] != "pass"
                                       else discord.ButtonStyle.secondary, row=index // 5))
            options = destination_options(game, state, seat, locale)
            self._long_select(panel, options, f"pbc:{KEY}:dest:{version}",
                              tr(locale, "panel.choose_destination"), first_row=-(-(len(takes) + len(others)) // 5))
        else:
            options = [(action_label(a, names, view["row"], locale), token_of(game.format(a))) for a in actions]
            _choices(panel, options, f"pbc:{KEY}:do:{version}", f"pbc:{KEY}:pick:{version}",
                     tr(locale, "panel.choose"), discord.ButtonStyle.success)
        return Screen("\n".join(lines), panel)

    @staticmethod
    def _long_select(panel: discord.ui.View, options: list[tuple[str, str]], custom_id: str, placeholder: str,
                     first_row: int, descriptions: list[str] | None = None) -> None:
        """A list of up to 75 options as up to three select menus (``<custom_id>:<n>``)."""
        rows = max(0, min(SELECT_ROWS, 5 - first_row))
        for n in range(rows):
            chunk = options[n * OPTIONS:(n + 1) * OPTIONS]
            if not chunk:
                break
            notes = (descriptions or [])[n * OPTIONS:(n + 1) * OPTIONS]
            panel.add_item(discord.ui.Select(
                custom_id=f"{custom_id}:{n}", row=first_row + n,
                placeholder=(placeholder if n == 0 else f"{placeholder} ({n * OPTIONS + 1}–)")[:150],
                options=[discord.SelectOption(label=label[:100], value=value,
                                              description=(notes[i][:100] if i < len(notes) and notes[i] else None))
                         for i, (label, value) in enumerate(chunk)]))

    def payment_screen(self, table: Table, seat: int, hex_: str, found: list[tuple[Payment, list[str]]],
                       locale: str) -> Screen:
        names = seat_names(table)
        version = table.version
        lines = payment_lines(engine_of(table), table.state, seat, hex_, len(found), locale)
        panel = discord.ui.View(timeout=None)
        options, routes = payment_options(found, names, locale)
        self._long_select(panel, options, f"pbc:{KEY}:pay:{version}:{hex_}", tr(locale, "panel.choose_payment"),
                          first_row=0, descriptions=routes)
        panel.add_item(_button(tr(locale, "panel.back"), f"pbc:{KEY}:back:{version}", row=4))
        return Screen("\n".join(lines), panel)

    def confirm_screen(self, table: Table, seat: int, hex_: str, payment: Payment, plan: Plan,
                       locale: str) -> Screen:
        names = seat_names(table)
        version = table.version
        game = engine_of(table)
        lines = confirm_lines(game, table.state, seat, hex_, payment, plan, names, locale)
        base = f"pbc:{KEY}:ok:{version}:{hex_}:{encode_payment(payment)}"
        panel = discord.ui.View(timeout=None)
        if plan.rewards:
            options = reward_options(game, plan, names, locale)
            _choices(panel, options, base, f"pbc:{KEY}:okr:{version}:{hex_}:{encode_payment(payment)}",
                     tr(locale, "panel.confirm_choose"), discord.ButtonStyle.primary)
        else:
            panel.add_item(_button(tr(locale, "panel.confirm_button"), f"{base}:-", discord.ButtonStyle.primary,
                                   row=0))
        panel.add_item(_button(tr(locale, "panel.back"), f"pbc:{KEY}:back:{version}", row=4))
        return Screen("\n".join(lines), panel, engine_of(table).view(plan.state, seat))

    # -- clicks ----------------------------------------------------------------------------------------
    async def open(self, interaction: discord.Interaction) -> None:
        """The Take turn button (or ``/dewan turn``): the panel at the current version, privately."""
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            table, seat = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        await self.show(interaction, self.step_screen(table, seat, locale), locale, edit=False)

    async def handle(self, interaction: discord.Interaction, op: str, version: int, args: str,
                     values: list[str]) -> None:
        """A click on the panel: a new screen of the panel, or a commit; anything the panel did not offer at
        the table's current version is refused privately and changes nothing."""
        locale = locale_of(interaction)
        await ack(interaction)
        table = self.service.tables.get(interaction.channel_id)
        if table is None or table.version != version:  # moved on, or over (a finished table is let go)
            return await answer(interaction, tr(locale, "panel.stale"))
        try:
            table, seat = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        try:  # everything is read from the position before the next await
            result = self.step(table, seat, op, args, values, locale)
        except (Stale, ValueError, IllegalAction):
            return await answer(interaction, tr(locale, "panel.stale"))
        except Exception as error:  # a bug: told with an id, nothing was played
            return await answer(interaction, error_text(locale, error))
        if isinstance(result, Screen):
            return await self.show(interaction, result, locale, edit=True)
        outcome = await self.game_cog.play(interaction, result.notations, version)
        if outcome is not None and outcome.announce:  # the turn's board was posted (or will be): the panel is done
            note = board_note(locale, posted_board(interaction), lambda link: tr(locale, "panel.played", link=link))
            await self.show(interaction, Screen(note, None), locale, edit=True)

    def step(self, table: Table, seat: int, op: str, args: str, values: list[str], locale: str) -> Screen | Commit:
        game = engine_of(table)
        state = table.state
        value = values[0] if len(values) == 1 else None
        if op in ("do", "back", "ok") and values or op in ("pick", "dest", "pay", "okr") and value is None:
            raise Stale
        if op == "back":
            if args:
                raise Stale
            return self.step_screen(table, seat, locale)
        if op in ("do", "pick"):
            text = notation_of(args if op == "do" else str(value))
            if op == "pick" and args or game.parse(text) not in game.legal_actions(state, seat):
                raise Stale
            return Commit([text])
        if op == "dest":
            if args not in ("0", "1", "2") or value not in destinations(game, state, seat):
                raise Stale
            found = payments(game, state, seat, str(value))
            if len(found) == 1:
                payment = found[0][0]
                return self.confirm_screen(table, seat, str(value), payment,
                                           plan_camp(game, state, seat, str(value), payment), locale)
            return self.payment_screen(table, seat, str(value), found, locale)
        parts = args.split(":")
        hex_ = parts[0]
        if HEX_RE.fullmatch(hex_) is None or hex_ not in destinations(game, state, seat):
            raise Stale
        if op == "pay":
            if len(parts) != 2 or parts[1] not in ("0", "1", "2"):
                raise Stale
            encoded = str(value)
        elif (op, len(parts)) in (("ok", 3), ("okr", 2)):
            encoded = parts[1]
        else:
            raise Stale
        payment = decode_payment(encoded)
        if payment not in {p for p, _ in payments(game, state, seat, hex_)}:
            raise Stale
        plan = plan_camp(game, state, seat, hex_, payment)
        if op == "pay":
            return self.confirm_screen(table, seat, hex_, payment, plan, locale)
        reward = parts[2] if op == "ok" else str(value)
        if reward == "-" and not plan.rewards:
            return Commit(plan.notations)
        chosen = notation_of(reward)
        if game.parse(chosen) not in plan.rewards:
            raise Stale
        return Commit([*plan.notations, chosen])

    async def show(self, interaction: discord.Interaction, screen: Screen, locale: str, edit: bool) -> None:
        """A panel screen: the panel message edited (``edit``), or a new private message; a preview is drawn
        off the event loop."""
        embed = discord.Embed(description=screen.text[:4000], colour=discord.Colour.dark_teal())
        images: list[tuple[str, bytes]] = []
        if screen.preview is not None:
            table = self.service.tables.get(interaction.channel_id)
            names = seat_names(table) if table is not None else None
            png = await asyncio.to_thread(render_board, screen.preview, names, locale)
            images = [("preview.png", png)]
            embed.set_image(url="attachment://preview.png")
        view = detached(screen.view) if screen.view is not None else None
        if not edit:
            return await answer(interaction, embed=embed, view=view, images=images)
        await deliver(lambda: interaction.edit_original_response(
            content=None, embed=embed, view=view, attachments=[discord.File(io.BytesIO(d), n) for n, d in images]),
            "a Dewan panel", REPLY_RETRY_DELAYS)


def from_panel(interaction: discord.Interaction) -> bool:
    """Whether the interaction is a click on a Dewan panel (its message is the panel to edit)."""
    if interaction.type != discord.InteractionType.component:
        return False
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    return custom_id.startswith(f"pbc:{KEY}:") and custom_id != TURN_ID


# -- /dewan commands ------------------------------------------------------------------------------------
# Longest values the commands accept (Discord refuses longer ones; a hostile client is cut short here).
ShortText = app_commands.Range[str, 1, 100]


class DewanCog(commands.GroupCog, group_name=_("dewan"), group_description=_("Dewan: your turn step by step")):
    def __init__(self, bot: Any, panel: DewanPanel) -> None:
        self.bot = bot
        self.panel = panel
        super().__init__()

    @property
    def game_cog(self) -> Any:
        return self.bot.get_cog("GameCog")

    def _mover_or_none(self, interaction: discord.Interaction) -> tuple[Table, int] | None:
        try:
            return self.panel.mover(interaction)
        except TableError:
            return None

    async def _not_dewan(self, interaction: discord.Interaction) -> bool:
        """Whether the channel has no Dewan table (told privately): /dewan never plays another game's move."""
        table = self.bot.tables.tables.get(interaction.channel_id)
        if table is None or table.game.key != KEY:
            await answer(interaction, error_text(locale_of(interaction), TableError("no_table"), KEY))
            return True
        return False

    @staticmethod
    def _matching(choices: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
        wanted = current[:100].lower().strip()
        return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in choices
                if not wanted or wanted in name.lower() or wanted in value.lower()][:25]

    async def pair_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self._mover_or_none(interaction)
        if found is None:
            return []
        table, seat = found
        game = engine_of(table)
        row = game.view(table.state, None)["row"]
        names = seat_names(table)
        return self._matching([(action_label(a, names, row, locale_of(interaction)), game.format(a))
                               for a in game.legal_actions(table.state, seat) if a[0] in ("take", "take1")], current)

    async def to_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self._mover_or_none(interaction)
        if found is None:
            return []
        table, seat = found
        game = engine_of(table)
        return self._matching(destination_options(game, table.state, seat, locale_of(interaction)), current)

    async def pay_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self._mover_or_none(interaction)
        hex_ = str(getattr(interaction.namespace, "to", "") or "")[:10].strip().upper()
        if found is None or HEX_RE.fullmatch(hex_) is None:
            return []
        table, seat = found
        game = engine_of(table)
        if hex_ not in destinations(game, table.state, seat):
            return []
        names = seat_names(table)
        locale = locale_of(interaction)
        found = payments(game, table.state, seat, hex_, limit=PAYMENT_SUGGESTIONS)
        return self._matching([(payment_text(p, names, locale), encode_payment(p)) for p, _route in found], current)

    async def step_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self._mover_or_none(interaction)
        if found is None:
            return []
        table, seat = found
        game = engine_of(table)
        row = game.view(table.state, None)["row"]
        names = seat_names(table)
        locale = locale_of(interaction)
        return self._matching([(f"{game.format(a)}: {action_label(a, names, row, locale)}", game.format(a))
                               for a in game.legal_actions(table.state, seat)], current)

    @app_commands.command(name=_("turn"), description=_("Open your Dewan turn panel"))
    async def turn(self, interaction: discord.Interaction) -> None:
        await self.panel.open(interaction)

    @app_commands.command(name=_("take"), description=_("Take two neighbouring cards of the row"))
    @app_commands.rename(pair=_("pair"))
    @app_commands.describe(pair=_("Positions of the row, e.g. 3 for cards 3 and 4"))
    @app_commands.autocomplete(pair=pair_autocomplete)
    async def take(self, interaction: discord.Interaction, pair: ShortText) -> None:
        if await self._not_dewan(interaction):
            return
        typed = " ".join(pair[:40].lower().split())
        first = typed.partition("-")[0].strip()
        notation = typed if typed.startswith("take") else f"take {first}"
        found = self._mover_or_none(interaction)
        if found is not None and first in ("1", "2", "3", "4", "5", "6") and not typed.startswith("take"):
            table, seat = found  # no two cards side by side: the single card at that position
            legal = engine_of(table).legal_actions(table.state, seat)
            if ("take", int(first)) not in legal and ("take1", int(first)) in legal:
                notation = f"take1 {first}"
        await self.game_cog.play(interaction, notation)

    @app_commands.command(name=_("camp"), description=_("Place a camp: the space, and how to pay (or choose later)"))
    @app_commands.rename(to=_("to"), pay=_("pay"))
    @app_commands.describe(to=_("The free land space, e.g. C6"),
                           pay=_("The cards that pay the route; empty: choose them step by step"))
    @app_commands.autocomplete(to=to_autocomplete, pay=pay_autocomplete)
    async def camp(self, interaction: discord.Interaction, to: ShortText, pay: ShortText | None = None) -> None:
        locale = locale_of(interaction)
        if await self._not_dewan(interaction):
            return
        hex_ = to[:10].strip().upper()
        if HEX_RE.fullmatch(hex_) is None:
            return await answer(interaction, tr(locale, "cmd_reply.bad_space", space=echo(to, 40)))
        if not pay:
            return await self.game_cog.play(interaction, f"camp {hex_}")
        try:
            table, seat = self.panel.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        game = engine_of(table)
        try:
            payment = tuple(sorted(decode_payment(pay[:80].strip().lower())))  # typed in any order
            if hex_ not in destinations(game, table.state, seat):
                raise ValueError("no route")
            plan = plan_camp(game, table.state, seat, hex_, payment)  # the engine takes it, or refuses it
        except (ValueError, IllegalAction):
            return await answer(interaction, tr(locale, "cmd_reply.bad_payment", space=hex_, pay=echo(pay, 40)))
        await self.game_cog.play(interaction, plan.notations, table.version)

    @app_commands.command(name=_("choose"), description=_("Answer the current step: a card to pay, a story tile, a card to tuck"))
    @app_commands.rename(step=_("step"))
    @app_commands.describe(step=_("Start typing to see the possible answers"))
    @app_commands.autocomplete(step=step_autocomplete)
    async def choose(self, interaction: discord.Interaction, step: ShortText) -> None:
        if not await self._not_dewan(interaction):
            await self.game_cog.play(interaction, step[:200])

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)


async def setup(bot: Any) -> None:
    panel = DewanPanel(bot)
    bot.get_cog("GameCog").add_panel(KEY, panel)
    bot.add_view(TurnView())
    bot.add_dynamic_items(PanelButton, PanelSelect)
    await bot.add_cog(DewanCog(bot, panel))
