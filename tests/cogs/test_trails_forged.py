"""A modified Discord client can send any custom id or select value. The panel (cogs/panel.py, on Trails'
flow) and the /trails commands refuse what was never offered (a huge number, letters, a spot or rotation
that is not legal, a figure not allowed) with the stale-panel answer, ephemeral, and change nothing."""

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
from cogs.panel import SELECT_TEMPLATE, GenericPanel, PanelSelect
from cogs.trails import TrailsCog
from games.trails import GAME
from games.trails.engine import figure_options, legal_spots
from presentation.trails import KEY, figure_key, spot_key

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

    def __init__(self, panel: GenericPanel, user: int, locale: discord.Locale, values: Any = None) -> None:
        self.log: list[tuple[str, Any]] = []
        self.channel_id = CHANNEL
        self.user = SimpleNamespace(id=user)
        self.locale = locale
        self.guild_locale = None
        self.response = Response(self.log)
        self.followup = SimpleNamespace(send=self._followup)
        self.data: dict[str, Any] = {"custom_id": "pbc:panel:do:4:0:", **({"values": values} if values is not None else {})}
        self.message: Any = SimpleNamespace(flags=SimpleNamespace(ephemeral=True))  # a click on a private panel
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
def panel(table: Table) -> GenericPanel:
    bot = SimpleNamespace(tables=Service(table), get_cog=lambda name: None)
    return GenericPanel(bot)


def _mover(table: Table) -> int:
    return [ALICE, BOB][table.state.seat]


def _chosen(table: Table) -> tuple[str, ...]:
    """The keys of a legal spot, its rotation when it has several, and a figure allowed there."""
    (x, y), rots = next((spot, rots) for spot, rots in legal_spots(table.state).items()
                        if figure_options(table.state, *spot, rots[0]))
    keys = (spot_key(x, y), f"r{rots[0]}") if len(rots) > 1 else (spot_key(x, y),)
    return (*keys, figure_key(figure_options(table.state, x, y, rots[0])[0]))


STALE = {locale: t(locale, "panel.stale") for locale in ("en", "ru")}


def _refusal(interaction: Interaction) -> str | None:
    """The text of the interaction's last answer if it was a private message of its own."""
    kind, (args, kwargs) = interaction.log[-1]
    return args[0] if kind == "followup" and kwargs.get("ephemeral") else None


def _forged(table: Table) -> list[tuple[str, str | None]]:
    """(chosen so far, the key picked) a modified client could send."""
    *placement, fig = _chosen(table)
    spot = placement[0]
    at = ".".join(placement)
    illegal = next(spot_key(x, y) for x in range(-3, 4) for y in range(-3, 4) if (x, y) not in legal_spots(table.state))
    return [
        ("", HUGE), ("", "a,b"), ("", "1e400_0"), ("", illegal), ("", "1_2_3"), ("", "x" * 6000), ("", ""),
        ("", "١_٠"), ("", "none"), ("", "r0"), ("", "ok"),
        (f"{spot}.r7", None), (f"{spot}.r{HUGE}", None), (f"{illegal}.r0", None), ("r0", None),
        (at, "zcity0"), (at, ""), (at, "ncity" + HUGE[:40]), (at, "nfield99"), (at, "nmonastery"), (at, "ucity0"),
        (f"{at}.{fig}", "none"), (f"{at}.{fig}.{fig}", None), ("." * 40, None), ("A", None), (HUGE[:64], None),
    ]


async def test_every_forged_value_is_refused_as_a_stale_panel_and_changes_nothing(table, panel):
    before = GAME.to_json(table.state)
    for chosen, picked in _forged(table):
        interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
        await panel.handle(interaction, table.version, 0, chosen, picked)
        assert _refusal(interaction) == STALE["en"], (chosen[:40], picked and picked[:20], interaction.log)
    assert GAME.to_json(table.state) == before and panel.service.acts == [] and table.version == 4


async def test_a_click_at_another_version_is_refused_before_the_table_is_asked(table, panel):
    interaction = Interaction(panel, _mover(table), discord.Locale.russian)
    *placement, fig = _chosen(table)
    await panel.handle(interaction, table.version - 1, 0, ".".join(placement), fig)
    assert _refusal(interaction) == STALE["ru"]
    assert panel.service.acts == []


async def test_the_offered_values_still_work(table, panel):
    *placement, _fig = _chosen(table)
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await panel.handle(interaction, table.version, 0, "", placement[0])
    assert [kind for kind, _ in interaction.log] == ["defer", "edit_original"]
    edited = interaction.log[-1][1]
    assert edited["attachments"] and edited["view"].children  # the picture of the tile there, and its choices


@pytest.mark.parametrize("values", [[HUGE], [12], [None], "1,0", [["1", "0"]], [{"x": 1}]])
async def test_select_values_of_the_wrong_type_are_refused(table, panel, values):
    custom_id = f"pbc:panel:sel:{table.version}:0:"
    match = re.fullmatch(SELECT_TEMPLATE, custom_id)
    assert match is not None
    select = PanelSelect(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="A")]),
                         table.version, 0, "")
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english, values=values)
    interaction.client = SimpleNamespace(get_cog=lambda name: SimpleNamespace(
        panels={KEY: panel}, service=panel.service))
    await select.callback(interaction)
    assert _refusal(interaction) == STALE["en"]
    assert panel.service.acts == []


def _cog(panel: GenericPanel) -> TrailsCog:
    cog = TrailsCog.__new__(TrailsCog)  # the command's body only: no bot needed to build the group
    cog.bot = panel.bot
    return cog


@pytest.mark.parametrize(("position", "rotation"), [
    (HUGE, "90"), ("1," + HUGE, "0"), ("1e400,0", "90"), ("inf,0", "90"), ("x" * 6000, "90"),
    ("A", HUGE), ("A", "1e400"), ("A", "inf"), ("A", "45"), ("A", "r7"), ("A", "x" * 6000),
])
async def test_the_place_command_refuses_hostile_text_with_a_short_answer(table, panel, position, rotation):
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await TrailsCog.place.callback(_cog(panel), interaction, position, rotation)
    [(kind, (text, ephemeral))] = interaction.log
    assert kind == "message" and ephemeral and len(text) < 300 and text.startswith("I do not understand the position")
    assert panel.service.acts == []


@pytest.mark.parametrize("feature", ["city:" + HUGE, "x" * 6000, "figure big tower:0", "1e400"])
async def test_the_figure_command_refuses_hostile_text_with_a_short_answer(table, panel, feature):
    mover = table.state.seat
    GAME.apply(table.state, mover, GAME.legal_actions(table.state, mover)[0])
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    await TrailsCog.figure_command.callback(_cog(panel), interaction, feature)
    [(kind, (text, ephemeral))] = interaction.log
    assert kind == "message" and ephemeral and len(text) < 300
    assert panel.service.acts == []


async def test_rotation_autocomplete_survives_a_hostile_position(table, panel):
    interaction = Interaction(panel, _mover(table), discord.Locale.american_english)
    interaction.namespace = SimpleNamespace(position=HUGE)
    choices = await TrailsCog.rotation_autocomplete(_cog(panel), interaction, "")
    assert {choice.value for choice in choices} <= {"0", "90", "180", "270"} and choices
