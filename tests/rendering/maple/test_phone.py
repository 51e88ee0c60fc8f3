"""Issue 38 for Maple Valley: colour-blind-safe seats with initials, a header with the last turn, goods as
icons with names, a first image that fits a phone, text of 12 px or more at 550 px wide, solo without worm or
dawdle, final places with the breakdown, the players' areas in a details image."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from PIL import Image

from games.ai import RandomAI
from games.maple import GAME
from rendering import maple
from rendering import render_details as details_of
from tests.rendering.colour_vision import closest_pairs
from tests.rendering.inline import INLINE_WIDTH, recorded_text
from tests.rendering.positions import played

NAMES = ["Alice", "Борис", "Carol", "Dmitri", "Eve"]


def _view(players: int, steps: int, seed: int = 3) -> dict[str, Any]:
    state = played(GAME, players, steps, seed)
    return GAME.view(state, None)


def _clear_caches() -> None:
    """Forget every cached layer, so that a render draws (and records) all its text again."""
    for value in vars(maple).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def _texts(view: dict[str, Any], locale: str = "en") -> list[str]:
    _clear_caches()
    with recorded_text() as drawn:
        maple.board_image(view, NAMES[:view["players"]], locale)
        maple.details_image(view, NAMES[:view["players"]], locale)
    return [text for text, _ in drawn]


def test_seat_colours_on_critters_and_cubes_stay_apart_under_every_colour_vision() -> None:
    assert closest_pairs({str(seat): maple.seat_colour(seat) for seat in range(5)}) == []


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("steps", [0, 80, 100_000])
def test_the_first_image_fits_a_phone_and_the_details_follow(players: int, steps: int) -> None:
    view = _view(players, steps)
    image = Image.open(io.BytesIO(maple.render_board(view, NAMES[:players])))
    assert image.width == maple.WIDTH and image.height <= 2 * image.width, image.size
    details = details_of("maple", view, names=NAMES[:players])
    assert [name for name, _ in details] == ["players.png"]
    assert Image.open(io.BytesIO(details[0][1])).format == "PNG"


@pytest.mark.parametrize("players", [1, 3, 5])
@pytest.mark.parametrize("steps", [0, 80, 100_000])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_no_text_under_12_px_on_a_550_px_display(players: int, steps: int, locale: str) -> None:
    view = _view(players, steps)
    _clear_caches()
    with recorded_text() as drawn:
        maple.board_image(view, ["Александра Константиновна", *NAMES][:players], locale)
        maple.details_image(view, NAMES[:players], locale)
    minimum = math.ceil(12 * maple.WIDTH / INLINE_WIDTH)
    small = [(text, size) for text, size in drawn if text.strip() and size < minimum]
    assert not small, small
    assert min(maple.TEXT_SIZES) >= minimum


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_goods_are_pictures_named_in_a_legend_not_codes(locale: str) -> None:
    texts = _texts(_view(3, 80), locale)
    for item in (*maple.D.GOODS, *maple.D.CURIOS):
        assert maple._term(locale, f"item.{item}") in texts
    assert not {"a", "b", "t", "c", "l", "h", "y", "fl", "pe", "bu", "m"} & set(texts)


def test_solo_shows_won_or_lost_and_no_worm_or_dawdle() -> None:
    view = _view(1, 100_000)
    assert view["over"]
    texts = _texts(view)
    score = sum(view["scores"]["0"].values())
    verdict = "Won: " if score >= 70 else "Not won: "
    assert any(t.startswith(f"{verdict}{score} VP") for t in texts)
    assert not [t for t in texts if "worm" in t or "dawdle" in t]
    assert any("worm" in t for t in _texts(_view(2, 20)))  # the worm shows with two players


def test_the_final_board_shows_places_and_the_breakdown() -> None:
    view = _view(3, 100_000)
    texts = _texts(view)
    totals = sorted((sum(b.values()) for b in view["scores"].values()), reverse=True)
    assert f"#1 · {totals[0]} pts" in texts
    assert any(t.startswith("favors ") and "festivities" in t for t in texts)


def test_the_header_tells_the_last_turn_with_its_points() -> None:
    view = _view(3, 80)
    last = view["last_turn"]
    text = maple._last_turn_text(view, "en", NAMES)
    assert text.startswith(NAMES[last["seat"]]) and f"→ {last['at']}" in text
    if last["points"]:
        assert f"{last['points']:+d} pts" in text
    assert any(t.startswith(f"{NAMES[view['actor']]} to move") for t in _texts(view))


def test_the_last_turn_counts_its_points() -> None:
    state = GAME.setup(2, {}, 5)
    ai = RandomAI(5)
    before = mover = -1
    while not GAME.view(state, None)["last_turn"]:
        seat = GAME.to_act(state)[0]
        if state.turn_steps == [] and not state.keep_order:
            before, mover = sum(GAME.breakdown(state, seat).values()), seat
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
    last = GAME.view(state, None)["last_turn"]
    assert last["seat"] == mover
    assert last["points"] == sum(GAME.breakdown(state, mover).values()) - before


def test_saves_from_before_the_last_turn_still_load() -> None:
    state = GAME.setup(2, {}, 1)
    data = GAME.to_json(state)
    del data["turn_base"], data["last_turn"]
    assert GAME.view(GAME.from_json(data), None)["last_turn"] == {}
