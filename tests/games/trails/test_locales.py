"""Every event and error code the engine emits has a message in both catalogs, with the same fields."""

from __future__ import annotations

import json
import re
from pathlib import Path

import games.trails
from bot.i18n import Entry, text_of

PACKAGE = Path(games.trails.__file__).parent
SHARED_ERRORS = {"notation", "not_your_turn", "game_over"}


def _catalog(locale: str) -> dict[str, Entry]:
    return json.loads((PACKAGE / "locales" / f"{locale}.json").read_text(encoding="utf-8"))


def _fields(entry: Entry) -> set[str]:
    """The placeholders of a text, or of every form of a plural entry."""
    forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "plural"]
    return {name for text in forms for name in re.findall(r"{(\w+)}", text)}


def test_catalogs_cover_every_code_with_identical_placeholders():
    source = "".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    events = set(re.findall(r'Event\(\s*"(\w+)"', source)) | {"monastery_final", "monastery_scored"}
    errors = set(re.findall(r'(?:IllegalAction|InvalidOptions)\(\s*"(\w+)"', source)) - SHARED_ERRORS
    en, ru = _catalog("en"), _catalog("ru")
    assert set(en) == set(ru)
    for code in events:
        assert f"event.{code}" in en, code
    for code in errors:
        assert f"error.{code}" in en, code
    for key in ("name", "option.expansions", "option.fields", "option.deck", "option.expansions.river",
                "option.expansions.inns", "option.expansions.traders"):
        assert key in en
    for key, text in en.items():
        assert _fields(ru[key]) == _fields(text), key


def test_every_emitted_event_formats_in_both_languages():
    from games.ai import RandomAI
    from games.trails import GAME

    catalogs = [_catalog("en"), _catalog("ru")]
    seen = set()
    for seed in range(6):
        state = GAME.setup(3, {"expansions": "river,inns,traders"}, seed)
        events = list(GAME.initial_events(state))
        ai = RandomAI(seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            if seed == 0 and len(state.deck) == 40:
                events += GAME.eliminate(state, seat)
                continue
            events += GAME.apply(state, seat, ai.choose(GAME, state, seat))
        for event in events:
            seen.add(event.code)
            for locale, catalog in zip(("en", "ru"), catalogs, strict=True):
                text_of(locale, catalog[f"event.{event.code}"], event.params).format(**event.params)  # no missing field
    assert {"dice_rolled", "city_scored", "road_scored", "field_scored", "game_end", "eliminated"} <= seen
