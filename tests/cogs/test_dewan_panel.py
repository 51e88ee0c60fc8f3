"""The Dewan panel without Discord: every payment the engine offers is planned into notations that place
exactly that camp; the panel's components stay within Discord's limits; clicks the panel never offered
(forged custom-id arguments or select values) are refused and change nothing; the board tells turns in
words without a card number, in English and Russian; the score pad names every row."""

from __future__ import annotations

import json
import random
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import t
from cogs.dewan import (
    Commit,
    DewanPanel,
    Screen,
    Stale,
    decode_payment,
    destinations,
    encode_payment,
    final_embed,
    payments,
    plan_camp,
)
from games.core import Event, IllegalAction
from games.dewan import GAME
from games.dewan.engine import DewanState
from presentation.dewan import event_line

NAMES = ["alice", "bob", "carol"]


def _table(state: DewanState, version: int = 9) -> Any:
    return SimpleNamespace(game=GAME, state=state, version=version,
                           seats=[SimpleNamespace(display=name, is_ai=False) for name in NAMES[:state.players]])


def camp_positions(seed: int, count: int) -> list[DewanState]:
    """Positions of random 3-player games where the player to move may place a camp."""
    rng = random.Random(seed)
    state = GAME.setup(3, {}, seed)
    found = []
    while not GAME.is_over(state) and len(found) < count:
        seat = GAME.to_act(state)[0]
        if state.phase == "turn" and destinations(GAME, state, seat) and rng.random() < 0.3:
            found.append(GAME.from_json(GAME.to_json(state)))
        actions = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, rng.choice(actions))
    return found


def _components(view: discord.ui.View | None) -> list[Any]:
    return list(view.children) if view is not None else []


def _snapshot(state: DewanState) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_offered_payment_plans_exactly_that_camp(seed: int) -> None:
    for state in camp_positions(seed, 4):
        seat = GAME.to_act(state)[0]
        before = _snapshot(state)
        for hex_ in destinations(GAME, state, seat):
            for payment, route in payments(GAME, state, seat, hex_):
                assert decode_payment(encode_payment(payment)) == payment
                plan = plan_camp(GAME, state, seat, hex_, payment)
                work = GAME.from_json(GAME.to_json(state))  # the notations replayed as the table service does
                events = [e for n in plan.notations for e in GAME.apply(work, seat, GAME.parse(n))]
                camp = next(e for e in events if e.code == "camp")
                assert camp.params["hex"] == hex_ and len(plan.route) >= 2 and route[-1] == hex_
                for reward in plan.rewards:
                    assert reward[0] in ("story", "tuck")
        assert _snapshot(state) == before  # planning plays on copies only


def test_a_turn_through_the_panel_screens() -> None:
    panel = DewanPanel(None)
    state = camp_positions(4, 1)[0]
    seat = GAME.to_act(state)[0]
    table = _table(state)
    first = panel.step_screen(table, seat, "en")
    ids = [c.custom_id for c in _components(first.view)]
    assert any(i.startswith("pbc:dewan:do:9:take_") for i in ids) and "pbc:dewan:dest:9:0" in ids
    hex_ = destinations(GAME, state, seat)[0]
    screen = panel.step(table, seat, "dest", "0", [hex_], "en")
    assert isinstance(screen, Screen)
    if screen.preview is None:  # a choice of payments first
        select = next(c for c in _components(screen.view) if c.custom_id.startswith("pbc:dewan:pay:"))
        args = select.custom_id.split(":", 4)[4]
        screen = panel.step(table, seat, "pay", args, [select.options[0].value], "en")
        assert isinstance(screen, Screen)
    assert screen.preview is not None and "hand" in screen.preview  # the mover's own view, with the camp
    assert hex_ in screen.preview["camps"]
    confirm = next(c for c in _components(screen.view) if c.custom_id.startswith("pbc:dewan:ok:"))
    args = confirm.custom_id.split(":", 4)[4]
    commit = panel.step(table, seat, "ok", args, [], "en")
    assert isinstance(commit, Commit) and commit.notations[0] == f"camp {hex_}"
    for shown in (first, screen):
        for item in _components(shown.view):
            assert len(item.custom_id) <= 100
            for option in getattr(item, "options", []):
                assert len(option.label) <= 100 and len(option.value) <= 100


FORGED: list[tuple[str, str, list[str]]] = [
    ("do", "take_9", []), ("do", "camp_a1", []), ("do", "x" * 20, []), ("do", "take_1", ["take_2"]),
    ("pick", "", ["story_t99"]), ("pick", "", []), ("pick", "junk", ["take_1"]),
    ("dest", "0", ["Z9"]), ("dest", "0", ["9" * 4400]), ("dest", "7", ["A1"]), ("dest", "0", ["A1", "A2"]),
    ("pay", "Z9:0", ["c01"]), ("pay", "A1", ["c01"]), ("pay", "A1:0", ["x" * 6000]), ("pay", "A1:0", ["c99g9"]),
    ("ok", "A1:c01:-", []), ("ok", "A1:c01.c02:story_t01", []), ("ok", "A1", []), ("ok", "::", []),
    ("okr", "A1:c01", ["tuck_c01"]), ("back", "1", []), ("back", "", ["x"]), ("nonsense", "", []),
]


@pytest.mark.parametrize(("op", "args", "values"), FORGED)
def test_clicks_the_panel_never_offered_are_refused(op: str, args: str, values: list[str]) -> None:
    panel = DewanPanel(None)
    state = camp_positions(5, 1)[0]
    seat = GAME.to_act(state)[0]
    before = _snapshot(state)
    with pytest.raises((Stale, ValueError, IllegalAction)):
        panel.step(_table(state), seat, op, args, values, "en")
    assert _snapshot(state) == before


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_board_tells_turns_in_words_without_card_numbers(locale: str) -> None:
    rng = random.Random(7)
    state = GAME.setup(3, {}, 7)
    codes = set()
    lines = [line for e in GAME.initial_events(state) if (line := event_line(e, NAMES, locale))]
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        for event in GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))):
            codes.add(event.code)
            line = event_line(event, NAMES, locale)
            assert line is not None or event.code == "final_score", event
            if line:
                assert not re.search(r"\bc\d\d\b", line) and "{" not in line and "dewan." not in line, line
                lines.append(line)
    assert {"took", "camp", "story_taken"} <= codes
    if locale == "ru":
        assert any("ставит лагерь" in line for line in lines)
    else:
        assert any("places camp" in line for line in lines)
        line = event_line(Event("took", {"seat": 1, "cards": "c16 c37", "position": 2}), NAMES, "en")
        assert line == "bob takes 2 cards from the row: forest · fire, forest/water · berry."


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_score_pad_names_every_row(locale: str) -> None:
    rng = random.Random(2)
    state = GAME.setup(3, {}, 2)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    embed = final_embed(_table(state), locale)
    assert embed.title == t(locale, "dewan.final.title") and len(embed.fields) == 3
    result = GAME.result(state)
    for field, player in zip(embed.fields, result.ranking, strict=True):
        assert field.name.startswith(f"{player.rank}. {NAMES[player.seat]}: {player.score} ")
        for key in ("story", "fire", "fire_bonus", "groups", "berries"):
            assert str(player.breakdown[key]) in (field.value or "")


def test_every_text_of_the_cog_and_its_presentation_is_in_both_catalogs() -> None:
    from pathlib import Path

    from bot.i18n import catalog

    source = "".join(Path(path).read_text(encoding="utf-8") for path in ("cogs/dewan.py", "presentation/dewan.py"))
    keys = set(re.findall(r'tr\(locale, "([a-z_.]+)"', source))
    keys |= {f"term.{code}" for code in ("B", "M", "D", "F", "W", "fire", "berry", "art", "pig", "cry")}
    keys |= {f"panel.{phase}" for phase in ("first_story", "story", "tuck", "pay")}
    keys |= {f"step.{phase}" for phase in ("first_story", "turn", "pay", "story", "tuck")}
    keys |= {f"panel.reward_{r}" for r in ("story", "tuck")} | {f"panel.confirm_{r}" for r in ("story", "tuck")}
    keys |= {f"say.{code}" for code in ("story_taken", "story_drawn")}
    keys |= {f"plural.{word}" for word in ("card", "point")}  # plural entries: bot.i18n picks the form
    assert len(keys) > 60
    for locale in ("en", "ru"):
        missing = sorted(k for k in keys if f"dewan.{k}" not in catalog(locale))
        assert missing == [], (locale, missing)
