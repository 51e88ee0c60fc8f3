"""The Déole panel's handlers against forged input (a modified client can send any select value, custom id
or command text): each gets the panel's stale / not-a-choice answer, privately, and nothing changes. Also
the solo panel's labels and text: the Disaster each answer leaves, before the click."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.store import SqliteStore
from bot.tables import TableService
from cogs.deole import ChoiceButton, ChoiceSelect, DeoleCog, action_label, choice_index, choices, prompt
from games.deole.engine import DisasterOutlook
from tests.games.deole.helpers import give

CHANNEL = 77
ALICE = 1


class FakeResponse:
    def __init__(self, sent: list[tuple[str | None, bool]]) -> None:
        self.sent = sent
        self.type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self.type is not None

    async def send_message(self, content: str | None = None, *, ephemeral: bool = False, **_: Any) -> None:
        self.type = discord.InteractionResponseType.channel_message
        self.sent.append((content, ephemeral))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self.type = (discord.InteractionResponseType.deferred_channel_message if thinking
                     else discord.InteractionResponseType.deferred_message_update)

    async def edit_message(self, *, content: str | None = None, **_: Any) -> None:
        raise AssertionError(f"a refused answer must not edit the panel: {content!r}")


class FakeInteraction:
    """What the handlers read from a discord.Interaction, recording every answer (text, private?)."""

    def __init__(self, cog: DeoleCog, data: dict[str, Any] | None = None, locale: str = "en-US") -> None:
        self.sent: list[tuple[str | None, bool]] = []
        self.client = SimpleNamespace(get_cog=lambda name: cog if name == "DeoleCog" else None)
        self.channel_id = CHANNEL
        self.user = SimpleNamespace(id=ALICE)
        self.locale = discord.Locale(locale)
        self.guild_locale = None
        self.type = discord.InteractionType.component
        self.data = data or {}
        self.extras: dict[str, Any] = {}
        self.command = None
        self.response = FakeResponse(self.sent)
        self.followup = SimpleNamespace(send=self._followup)

    async def _followup(self, content: str | None = None, *, ephemeral: bool = False, **_: Any) -> None:
        self.sent.append((content, ephemeral))

    async def edit_original_response(self, *, content: str | None = None, **_: Any) -> None:
        self.sent.append((content, True))  # the private "thinking" turned into the answer

    async def delete_original_response(self) -> None:
        pass


@pytest.fixture
async def solo_table(db_path):
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    await service.create(1, CHANNEL, "deole", ALICE, "alice", {"side": "blue"}, seed=5)
    await service.start(CHANNEL, ALICE)
    cog = DeoleCog(SimpleNamespace(tables=service))
    yield service, cog
    await store.close()


def _snapshot(service: TableService) -> tuple[int, str]:
    table = service.tables[CHANNEL]
    return table.version, json.dumps(table.game.to_json(table.state), sort_keys=True)


STALE = {locale: t(locale, "error.already_played") for locale in ("en", "ru")}
FORGED_VALUES: list[Any] = [["abc"], [""], ["-1"], ["1e3"], ["٣"], ["99"], ["0", "1"], [], None, [5], ["0" * 90]]


def test_choice_index_takes_one_small_decimal_index_only() -> None:
    assert choice_index(["0"]) == 0 and choice_index(["17"]) == 17
    for values in FORGED_VALUES:
        assert choice_index(values) is None or values == ["99"], values


@pytest.mark.parametrize("values", FORGED_VALUES)
async def test_forged_select_values_get_the_stale_answer(solo_table, values) -> None:
    service, cog = solo_table
    before = _snapshot(service)
    version = service.tables[CHANNEL].version
    data = {"custom_id": f"pbc:deole:pick:{version}", "component_type": 3}
    if values is not None:
        data["values"] = values
    interaction = FakeInteraction(cog, data)
    await ChoiceSelect(version).callback(interaction)
    assert interaction.sent == [(STALE["en"], True)]
    assert _snapshot(service) == before


@pytest.mark.parametrize("custom_id", ["pbc:deole:do:{v}:999", "pbc:deole:do:{v}:" + "9" * 80,
                                       "pbc:deole:do:" + "9" * 80 + ":0", "pbc:deole:do:{old}:0"])
async def test_forged_button_ids_get_the_stale_answer(solo_table, custom_id) -> None:
    service, cog = solo_table
    before = _snapshot(service)
    version = service.tables[CHANNEL].version
    custom_id = custom_id.format(v=version, old=version + 7)
    match = ChoiceButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    button = await ChoiceButton.from_custom_id(None, None, match)
    interaction = FakeInteraction(cog, {"custom_id": custom_id, "component_type": 2}, locale="ru")
    await button.callback(interaction)
    assert interaction.sent == [(STALE["ru"], True)]
    assert _snapshot(service) == before


@pytest.mark.parametrize("text", ["die purple 9", "anchor blue 3 | disaster crew", "x" * 3000, "|||", "track crew",
                                  "die blue 1 | die blue 1", "move ß", "value 12"])
async def test_forged_command_text_is_refused_in_words(solo_table, text) -> None:
    service, cog = solo_table
    before = _snapshot(service)
    interaction = FakeInteraction(cog)
    interaction.type = discord.InteractionType.application_command
    await cog.typed(interaction, text)
    assert len(interaction.sent) == 1
    reply, private = interaction.sent[0]
    assert private and reply and "unexpected" not in reply.lower() and len(reply) <= 2000
    assert _snapshot(service) == before


async def test_solo_panel_says_what_becomes_the_disaster_before_the_click(solo_table) -> None:
    service, _ = solo_table
    table = service.tables[CHANNEL]
    state = table.state
    state.bag.extend(c for c, _ in state.pool)
    give(state, ("blue", 4), ("red", 2))
    labels = [c.label for c in choices(table.game, state, 0, "en")]
    # Take blue 4 -> red 2 is the Disaster (red box 7 or Crew box 6); anchor with the red 2 -> blue 4 is.
    assert "Take blue 4; Disaster red 2 → Red box 7 or Crew box 6" in labels
    assert "Drop anchor: discard red 2; Disaster blue 4 → Blue box 7 or Crew box 6" in labels
    assert all(len(label) <= 80 for label in labels)
    text = prompt(table.game, state, 0, ["alice"], "en")
    assert "the die you do not take is your Disaster" in text
    ru = [c.label for c in choices(table.game, state, 0, "ru")]
    assert "Якорь: сбросить красный 2; Бедствие синий 4 → синий ветер №7 или Экипаж №6" in ru
    assert "Бедствие" in prompt(table.game, state, 0, ["алиса"], "ru")


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_solo_die_and_anchor_labels_fit_a_button(locale) -> None:
    colours = ("blue", "yellow", "green", "red")
    for colour in colours:
        for other in colours:
            for outlook in (DisasterOutlook(other, 4, False, ((other, 7), ("crew", 6)), 0),
                            DisasterOutlook(other, 4, True, (), 0), DisasterOutlook(other, 4, False, (), 1),
                            DisasterOutlook(other, 4, False, (), 0)):
                for kind in ("die", "anchor"):
                    assert len(action_label((kind, colour, 5), {}, locale, outlook)) <= 80  # Discord's limit


async def test_solo_panel_names_the_disaster_until_it_is_placed(solo_table) -> None:
    service, _ = solo_table
    table = service.tables[CHANNEL]
    state = table.state
    state.bag.extend(c for c, _ in state.pool)
    state.sheets[0].update(port=1, pos=[5, 1], heading="N")
    give(state, ("yellow", 3), ("red", 4))
    table.game.apply(state, 0, ("die", "yellow", 3))
    text = prompt(table.game, state, 0, ["alice"], "en")
    assert "To place after this die: Disaster red 4 → Red box 7 or Crew box 6" in text
    for notation in ("track yellow", "mode odd"):  # written, then traced east by the yellow wind
        table.game.apply(state, 0, table.game.parse(notation))
    text = prompt(table.game, state, 0, ["alice"], "en")
    assert "In hand: Disaster red 4 → Red box 7 or Crew box 6" in text
    assert [c.label for c in choices(table.game, state, 0, "en")] == [
        "Disaster: Red track, box 7 (a storm rises from the red edge)", "Disaster: Crew track, box 6 (no storm)"]
