"""A modified Discord client can send any custom id or select value. Every Trails panel handler and
/trails command refuses what the panel never offered (a huge number, letters, a spot or rotation that is
not legal, a figure not allowed) with the stale-panel answer, ephemeral, and changes nothing."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.service_play import PlayMixin
from bot.store.base import Seat, TableRecord
from bot.tables import Table, TableError
from cogs.trails import (
    BUTTON_TEMPLATE,
    SELECT_TEMPLATE,
    PanelSelect,
    TrailsCog,
    TrailsPanel,
)
from games.trails import GAME
from games.trails.engine import figure_options, legal_spots
from presentation.trails import (
    KEY,
    PanelState,
    encode_figure,
)

CHANNEL = 10
ALICE, BOB = 1, 2
HUGE = "9" * 4400


class Response:
    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.log = log

    def is_done(self) -> bool:
        return bool(self.log)

    @property
    def type(self) -> discord.InteractionResponseType | None:
        deferred = any(kind == "defer" for kind, _ in self.log)
        return discord.InteractionResponseType.deferred_message_update if deferred else None

    async def send_message(self, content: str | None = None, *, ephemeral: bool = False, **kwargs: Any) -> None:
        self.log.append(("message", (content, ephemeral)))

    async def defer(self, **kwargs: Any) -> None:
        self.log.append(("defer", kwargs))

    async def edit_message(self, **kwargs: Any) -> None:
        self.log.append(("edit", kwargs))


class Interaction:
    """What the handlers use of ``discord.Interaction``."""

    def __init__(self, panel: TrailsPanel, user: int, locale: discord.Locale, values: Any = None) -> None:
        self.log: list[tuple[str, Any]] = []
        self.channel_id = CHANNEL
        self.user = SimpleNamespace(id=user)
        self.locale = locale
        self.guild_locale = None
        self.response = Response(self.log)
        self.followup = SimpleNamespace(send=self._followup)
        self.data = {"values": values} if values is not None else {}
        self.client = SimpleNamespace(get_cog=lambda name: SimpleNamespace(panels={KEY: panel}))
        self.namespace = SimpleNamespace()
        self.extras: dict[str, Any] = {}
        self.type = discord.InteractionType.component

    async def _followup(self, *args: Any, **kwargs: Any) -> None:
        self.log.append(("followup", (args, kwargs)))

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.log.append(("edit_original", kwargs))


class Service:
    def __init__(self, table: Table) -> None:
        self.tables = {CHANNEL: table}
        self.acts: list[list[str]] = []

    def table(self, channel_id: int) -> Table:
        if channel_id not in self.tables:
            raise TableError("no_table")
        return self.tables[channel_id]

    mover = PlayMixin.mover  # the real check of whose turn it is, on this stand-in's tables

    async def act(self, channel_id: int, user_id: int, moves: list[str], expected_version: int | None = None) -> Any:
        self.acts.append(moves)
        raise AssertionError(f"a forged value reached the table: {moves}")


@pytest.fixture
def table() -> Table:
    record = TableRecord(1, None, CHANNEL, KEY, {}, "playing", ALICE, 3, 0.0,
                         seats=[Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")])
    state = GAME.setup(2, {"expansions": "inns,traders"}, 3)
    return Table(record, GAME, state, version=4)


@pytest.fixture
def panel(table: Table) -> TrailsPanel:
    bot = SimpleNamespace(tables=Service(table), get_cog=lambda name: None)
    return TrailsPanel(bot)


def _mover(table: Table) -> int:
    return [ALICE, BOB][table.state.seat]


def _chosen(table: Table) -> PanelState:
    """A panel with a legal spot, rotation and figure chosen."""
    (x, y), rots = next((spot, rots) for spot, rots in legal_spots(table.state).items()
                        if figure_options(table.state, *spot, rots[0]))
    return PanelState(table.version, 0, x, y, rots[0], figure_options(table.state, x, y, rots[0])[0])


STALE = {locale: t(locale, "trails.panel.stale") for locale in ("en", "ru")}


def _assert_stale(interaction: Interaction, locale: str = "en") -> None:
    assert interaction.log == [("message", (STALE[locale], True))]


def _forged(table: Table) -> list[tuple[str, str, str | None, list[str]]]:
    """(op, encoded state, arg, values) a modified client could send."""
    chosen = _chosen(table)
    start = PanelState(table.version).encode()
    spot = f"{chosen.x},{chosen.y}"
    illegal = next(f"{x},{y}" for x in range(-3, 4) for y in range(-3, 4) if (x, y) not in legal_spots(table.state))
    return [
        # position select
        ("pos", start, None, [HUGE + ",0"]),
        ("pos", start, None, ["a,b"]),
        ("pos", start, None, ["1e400,0"]),
        ("pos", start, None, [illegal]),
        ("pos", start, None, ["1,2,3"]),
        ("pos", start, None, ["x" * 6000]),
        ("pos", start, None, []),
        ("pos", start, None, [spot, spot]),
        ("pos", start, "1", [spot]),
        ("pos", start, None, ["١,٠"]),
        # rotation buttons
        ("rot", chosen.encode(), "7", []),
        ("rot", chosen.encode(), HUGE, []),
        ("rot", chosen.encode(), None, []),
        ("rot", start, "0", []),
        # page buttons
        ("page", start, HUGE, []),
        ("page", start, None, []),
        # figure select
        ("fig", chosen.encode(), None, ["zcity0"]),
        ("fig", chosen.encode(), None, [""]),
        ("fig", chosen.encode(), None, ["ncity" + HUGE]),
        ("fig", chosen.encode(), None, ["nfield99"]),  # well formed, not on this tile
        ("fig", chosen.encode(), None, ["nmonastery"]),  # the drawn tile has no abbey
        ("fig", chosen.encode(), None, ["ucity0"]),  # a builder needs an own figure there
        ("fig", start, None, ["none"]),  # no tile chosen yet
        # confirm and undo buttons
        ("ok", start, None, []),
        ("ok", chosen.encode(), "3", []),
        ("undo", chosen.encode(), "1", []),
        # a state no panel ever wrote
        ("undo", "4.0.1.0.7._", None, []),
        ("ok", f"4.0.{HUGE}.0.0._", None, []),
        ("ok", "4.0.5.5.0._", None, []),
        ("ok", "4.0.1._.0._", None, []),
        ("ok", "4.0._._._.ncity0", None, []),
        ("pos", "4.0", None, [spot]),
        ("pos", "٤.0._._._._", None, [spot]),
        ("fig", "4." + "1" * 4400, None, ["none"]),
        ("unknown", start, None, []),
    ]


async def test_every_forged_value_is_refused_as_a_stale_panel_and_changes_nothing(table, panel):
    before = GAME.to_json(table.state)
    for op, encoded, arg, values in _forged(table):
        interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
        await panel.handle(interaction, op, encoded, arg, values)
        assert interaction.log == [("message", (STALE["en"], True))], (op, encoded[:40], arg and arg[:20], values)
    assert GAME.to_json(table.state) == before and panel.service.acts == [] and table.version == 4


async def test_a_forged_figure_in_a_confirm_is_refused_before_the_table_is_asked(table, panel):
    chosen = _chosen(table)
    forged = PanelState(chosen.version, 0, chosen.x, chosen.y, chosen.rot).encode()[:-1] + "ncity9"
    interaction = Interaction(panel, _mover(table), discord.Locale.russian)
    await panel.handle(interaction, "ok", forged, None, [])
    _assert_stale(interaction, "ru")
    assert panel.service.acts == []


async def test_the_offered_values_still_work(table, panel):
    chosen = _chosen(table)
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await panel.handle(interaction, "pos", PanelState(table.version).encode(), None, [f"{chosen.x},{chosen.y}"])
    assert [kind for kind, _ in interaction.log] == ["defer", "edit_original"]
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await panel.handle(interaction, "fig", replace_figure(chosen), None, [encode_figure(chosen.figure)])
    assert [kind for kind, _ in interaction.log] == ["defer", "edit_original"]


def replace_figure(chosen: PanelState) -> str:
    return PanelState(chosen.version, 0, chosen.x, chosen.y, chosen.rot).encode()


@pytest.mark.parametrize("custom_id", [
    f"pbc:trails:rot:4.0.0.-1.0._:{HUGE[:60]}",
    "pbc:trails:page:4.0._._._._:٣",
    "pbc:trails:ok:4.0.0.-1.0.nroad0:7",
    "pbc:trails:undo:4.0.0.-1.7._",
])
async def test_forged_button_custom_ids_routed_by_the_dynamic_items_are_refused(table, panel, custom_id):
    match = re.fullmatch(BUTTON_TEMPLATE, custom_id)
    assert match is not None  # the template routes it to the handler
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await panel.handle(interaction, match["op"], match["state"], match["arg"], [])
    _assert_stale(interaction)


@pytest.mark.parametrize("values", [[HUGE], [12], [None], "1,0", [["1", "0"]], [{"x": 1}]])
async def test_select_values_of_the_wrong_type_are_refused(table, panel, values):
    custom_id = f"pbc:trails:pos:{PanelState(table.version).encode()}"
    match = re.fullmatch(SELECT_TEMPLATE, custom_id)
    select = PanelSelect(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="A")]),
                         match["op"], match["state"])
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english, values=values)
    await select.callback(interaction)
    _assert_stale(interaction)


@pytest.mark.parametrize(("position", "rotation"), [
    (HUGE, "90"), ("1," + HUGE, "0"), ("1e400,0", "90"), ("inf,0", "90"), ("x" * 6000, "90"),
    ("A", HUGE), ("A", "1e400"), ("A", "inf"), ("A", "45"), ("A", "r7"), ("A", "x" * 6000),
])
async def test_the_place_command_refuses_hostile_text_with_a_short_answer(table, panel, position, rotation):
    cog = TrailsCog.__new__(TrailsCog)  # the command's body only: no bot needed to build the group
    cog.bot, cog.panel = panel.bot, panel
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await TrailsCog.place.callback(cog, interaction, position, rotation)
    [(kind, (text, ephemeral))] = interaction.log
    assert kind == "message" and ephemeral and len(text) < 300 and text.startswith("I do not understand the position")
    assert panel.service.acts == []


@pytest.mark.parametrize("feature", ["city:" + HUGE, "x" * 6000, "figure big tower:0", "1e400"])
async def test_the_figure_command_refuses_hostile_text_with_a_short_answer(table, panel, feature):
    cog = TrailsCog.__new__(TrailsCog)
    cog.bot, cog.panel = panel.bot, panel
    mover = table.state.seat
    GAME.apply(table.state, mover, GAME.legal_actions(table.state, mover)[0])
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await TrailsCog.figure_command.callback(cog, interaction, feature)
    [(kind, (text, ephemeral))] = interaction.log
    assert kind == "message" and ephemeral and len(text) < 300
    assert panel.service.acts == []


async def test_rotation_autocomplete_survives_a_hostile_position(table, panel):
    cog = TrailsCog.__new__(TrailsCog)
    cog.bot, cog.panel = panel.bot, panel
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    interaction.namespace = SimpleNamespace(position=HUGE)
    choices = await TrailsCog.rotation_autocomplete(cog, interaction, "")
    assert {choice.value for choice in choices} <= {"0", "90", "180", "270"} and choices
