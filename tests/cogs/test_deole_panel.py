"""Déole's turn as the panel shows it (presentation/deole.py): the solo panel's labels and text (the Disaster
each answer leaves, before the click), answers that play several steps at once, and the typed commands'
suggestions that explain an empty list. Forged clicks and command text are refused end to end
(tests/e2e/test_deole_discord.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.store import SqliteStore
from bot.tables import TableService
from cogs.deole import DeoleCog
from cogs.panel import GenericPanel
from games.deole import GAME
from games.deole.engine import DisasterOutlook
from presentation.core import Step
from presentation.deole import action_label, choices, flow, panel_choices, prompt
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
    bot = SimpleNamespace(tables=service)
    game_cog = SimpleNamespace(panels={"deole": GenericPanel(bot)})  # what the /deole commands ask of /game
    bot.get_cog = lambda name: game_cog if name == "GameCog" else None
    cog = DeoleCog(bot)
    yield service, cog
    await store.close()


def _snapshot(service: TableService) -> tuple[int, str]:
    table = service.tables[CHANNEL]
    return table.version, json.dumps(table.game.to_json(table.state), sort_keys=True)


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


# -- answers that play several steps at once (issue 39: a pick took up to 8 clicks) ---------------------
def _apply(game: Any, state: Any, seat: int, notations: tuple[str, ...]) -> Any:
    after = game.clone(state)
    for notation in notations:
        game.apply(after, seat, game.parse(notation))
    return after


def _check_answers(game: Any, state: Any, seat: int) -> int:
    """The panel's answers at ``state``: at most 20, all different and legal; each step of an answer is
    followed, among the answers sharing it, by every answer of the next step (no move lost); a step that
    rolls or draws a die, or ends the pick, ends its answer. Returns the answers that play several steps."""
    answers = panel_choices(game, state, seat, "en")
    steps = choices(game, state, seat, "en")
    assert len(answers) <= max(20, len(steps)) and len({a.notations for a in answers}) == len(answers)
    combined = 0

    def check(prefix: tuple[str, ...], at: Any, depth: int) -> None:
        following = [a for a in answers if a.notations[:len(prefix)] == prefix and len(a.notations) > len(prefix)]
        if not following:
            return
        nexts = choices(game, at, seat, "en")
        starts = {n.notations for n in nexts}
        found = {a.notations[len(prefix):len(prefix) + len(n.notations)] for a in following for n in nexts
                 if a.notations[len(prefix):len(prefix) + len(n.notations)] == n.notations}
        assert found == starts, (prefix, starts - found)  # every answer of this step is still offered
        for step in nexts:
            after = _apply(game, at, seat, step.notations)
            longer = (*prefix, *step.notations)
            if any(len(a.notations) > len(longer) and a.notations[:len(longer)] == longer for a in answers):
                assert after.rng.getstate() == at.rng.getstate() and after.bag == at.bag  # nothing unknown
                assert not game.pick_over(after, seat)
            check(longer, after, depth + 1)

    check((), state, 0)
    for answer in answers:
        _apply(game, state, seat, answer.notations)  # legal, step by step
        combined += answer.steps > 1
        assert answer.steps == 1 or " · " in answer.label
    return combined


def test_panel_answers_play_several_steps_and_lose_no_move() -> None:
    import random

    from games import registry

    game = registry.get("deole")
    combined = 0
    for players in (1, 2, 4):
        state = game.setup(players, {}, 40 + players)
        rng = random.Random(players)
        for _ in range(120):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            combined += _check_answers(game, state, seat)
            answer = rng.choice(panel_choices(game, state, seat, "en"))
            for notation in answer.notations:
                game.apply(state, seat, game.parse(notation))
    assert combined > 50


def test_a_die_with_a_new_track_is_picked_with_its_mode_and_value_in_one_answer() -> None:
    from tests.games.deole.helpers import prepared

    state = prepared(2)
    give(state, ("blue", 5), ("red", 2), ("green", 3))
    game = GAME
    labels = {a.label: a for a in panel_choices(game, state, 0, "en")}
    assert len(labels) <= 20
    # e.g. "red 2 · Red track · EVEN": the die, the track it starts and that track's mode, in one click
    one = next(a for label, a in labels.items() if label.startswith("red 2 · Red track · "))
    assert one.steps == 3 and one.notations[:2] == ("die red 2", "track red") and one.notations[2].startswith("mode ")
    assert {a.notations[0] for a in labels.values()} == {"die blue 5", "die red 2", "die green 3"}
    step = flow(state, 0, (), "en")
    assert isinstance(step, Step) and "An answer with · plays those steps at once." in step.prompt


# -- the step commands say why a step has no answers ---------------------------------------------------
async def test_a_step_already_played_is_explained_instead_of_an_empty_list(solo_table) -> None:
    service, cog = solo_table
    table = service.tables[CHANNEL]
    state = table.state
    state.bag.extend(c for c, _ in state.pool)
    give(state, ("blue", 4), ("red", 2))
    interaction = FakeInteraction(cog)
    dice = await cog.die_choices(interaction, "")
    assert [c.value for c in dice] and all(c.value.startswith(("die ", "anchor ")) for c in dice)
    await service.act(CHANNEL, ALICE, "die blue 4")  # the die is taken: the next step is its track
    assert table.game.view(table.state, None)["phase"] == "track"
    (done,) = await cog.die_choices(interaction, "")
    assert done.name == "ⓘ This step is already done. Now: choosing a track" and done.value == "?"
    (later,) = await cog.sail_choices(FakeInteraction(cog, locale="ru"), "")
    assert later.name == "ⓘ До этого шага ещё не дошло. Сейчас: выбор дорожки" and later.value == "?"
    assert [c.value for c in await cog.track_choices(interaction, "")] == ["track blue", "track crew"]
    # Sent as it is, the explanation shows the current question with its answers, and plays nothing.
    before = _snapshot(service)
    interaction.type = discord.InteractionType.application_command
    await cog.typed(interaction, done.value)
    ((text, private),) = interaction.sent
    assert private and "Choose the track for this die." in (text or "")
    assert _snapshot(service) == before


async def test_someone_elses_turn_is_explained_to_a_seated_player(db_path) -> None:
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    await service.create(1, CHANNEL, "deole", ALICE, "alice", {}, seed=5)
    await service.join(CHANNEL, 2, "bob")
    await service.start(CHANNEL, ALICE)
    cog = DeoleCog(SimpleNamespace(tables=service))
    table = service.tables[CHANNEL]
    mover = table.game.to_act(table.state)[0]
    waiting = FakeInteraction(cog)
    waiting.user = SimpleNamespace(id=[ALICE, 2][1 - mover])
    (hint,) = await cog.die_choices(waiting, "")
    assert hint.name == "ⓘ Nothing to choose now: It is not your turn." and hint.value == "?"
    stranger = FakeInteraction(cog)
    stranger.user = SimpleNamespace(id=77)
    assert await cog.die_choices(stranger, "") == []  # not seated: nothing to suggest
    await store.close()
