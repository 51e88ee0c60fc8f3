"""Dewan's turn on the generic panel without Discord: every payment the engine offers is planned into
notations that place exactly that camp; the panel's components stay within Discord's limits and the
confirm step draws its preview; choices the flow never offered (forged keys in custom ids or select values)
are refused and change nothing; the board tells turns in words without a card number, in English and
Russian; the score pad names every row."""

from __future__ import annotations

import json
import random
import re

import pytest

import presentation.dewan as dewan
from bot.i18n import t
from cogs.panel import Stale, decode, step_view
from games.core import Event, IllegalAction
from games.dewan import GAME
from games.dewan.engine import DewanState
from presentation.core import Done, Step, walk
from presentation.dewan import (
    decode_payment,
    destinations,
    encode_payment,
    event_line,
    final_at,
    payments,
    plan_camp,
)

NAMES = ["alice", "bob", "carol"]


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


def test_a_camp_through_the_panel_steps() -> None:
    state = camp_positions(4, 1)[0]
    seat = GAME.to_act(state)[0]
    first = flow_at(state, seat, ())
    ids = [c.custom_id for c in step_view(first, (), 9, 0, "en").children]
    assert any(i.startswith("pbc:panel:do:9:0:take_") for i in ids), ids
    hex_ = destinations(GAME, state, seat)[0]
    chosen: tuple[str, ...] = (hex_.lower(),)
    screens = [first]
    step = flow_at(state, seat, chosen)
    if step.picture is None:  # a choice of payments first
        screens.append(step)
        chosen += (step.choices[0].key,)
        step = flow_at(state, seat, chosen)
    screens.append(step)
    assert step.picture is not None and step.can_undo and "route" in step.prompt
    assert step.picture(["alice", "bob", "carol"])[:8] == b"\x89PNG\r\n\x1a\n"  # the preview of the camp
    done = walk(dewan, state, seat, (*chosen, step.choices[0].key), "en")
    assert isinstance(done, Done) and done.notations[0] == f"camp {hex_}"
    for shown, at in zip(screens, [(), (hex_.lower(),), chosen], strict=False):
        view = step_view(shown, at, 9, 0, "en")
        assert len(view.children) <= 25
        for item in view.children:
            assert len(item.custom_id) <= 100
            for option in getattr(item, "options", []):
                assert len(option.label) <= 100 and len(option.value) <= 100


def flow_at(state: DewanState, seat: int, chosen: tuple[str, ...]) -> Step:
    step = walk(dewan, state, seat, chosen, "en")
    assert isinstance(step, Step)
    return step


FORGED = ["take_9", "camp_a1", "x" * 20, "take_1.take_2", "story_t99", "z9", "a1.0", "a1.99", "a1.-1",
          "a1.0.story_t01", "a1.0.ok.ok", "pass.ok", "ok", "", "a1..0", "A1", "c99g9", "9" * 64]


@pytest.mark.parametrize("forged", FORGED)
def test_choices_the_flow_never_offered_are_refused(forged: str) -> None:
    state = camp_positions(5, 1)[0]
    seat = GAME.to_act(state)[0]
    before = _snapshot(state)
    try:
        at = walk(dewan, state, seat, decode(forged), "en")
    except (Stale, ValueError, IndexError, KeyError, IllegalAction):  # what the panel answers "out of date"
        at = None
    assert at is None or forged == "" and isinstance(at, Step)
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
    final = final_at(state, NAMES, locale)
    assert final.title == t(locale, "dewan.final.title") and len(final.fields) == 3 and not final.inline
    result = GAME.result(state)
    for (name, value), player in zip(final.fields, result.ranking, strict=True):
        assert name.startswith(f"{player.rank}. {NAMES[player.seat]}: {player.score} ")
        for key in ("story", "fire", "fire_bonus", "groups", "berries"):
            assert str(player.breakdown[key]) in value


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
