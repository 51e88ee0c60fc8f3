"""Déole read on a phone (issue 38): wind colours told apart (and a wind arrowhead on every die), ships marked
with their owner's letter, a header with the last turn, final places, Disaster values, 12 px text inline,
the board at most twice as tall as wide."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.deole import GAME
from games.deole import data as D
from rendering.deole import DIE_COLOURS, INK, PAPER, SEA, _draw_die, _last_text, render, render_sheets
from tests.rendering.colour_vision import MIN_DELTA_E, closest_pairs
from tests.rendering.inline import recorded_text, smallest_inline_text
from tests.rendering.positions import played

NAMES = ["Alice", "Борис", "Carol", "Dmitri"]


def _played(players: int, steps: int, seed: int = 3, options: dict | None = None):
    state = played(GAME, players, steps, seed, options or {})
    return state


def test_wind_colours_stay_apart_and_show_on_the_sea_and_the_paper() -> None:
    assert set(DIE_COLOURS) == set(D.WIND_COLOURS)
    assert closest_pairs(DIE_COLOURS, MIN_DELTA_E) == []
    for ground in (SEA, PAPER):  # traces cross the sea, dice and cards lie on the paper
        for name, colour in DIE_COLOURS.items():
            assert closest_pairs({name: colour, "ground": ground}, MIN_DELTA_E) == [], (name, ground)


@pytest.mark.parametrize("colour", D.WIND_COLOURS)
def test_every_die_points_to_its_wind_edge(colour: str) -> None:
    """The arrowhead lies on the side of the die its wind pushes a ship to: north for blue, east for yellow..."""
    image = Image.new("RGB", (40, 40), PAPER)
    from PIL import ImageDraw

    _draw_die(ImageDraw.Draw(image), 0, 0, 40, colour, None)  # no value: only the arrowhead is ink
    ink = INK if colour == "yellow" else (255, 255, 255)
    outer = [(x - 20, y - 20) for x in range(40) for y in range(40)
             if image.getpixel((x, y)) == ink and max(abs(x - 20), abs(y - 20)) > 10]
    row, col = D.STEP[D.EDGE_OF[colour]]
    toward = sum(dx * col + dy * row for dx, dy in outer) / len(outer)
    assert toward > 6, colour  # the ink near the die's sides lies on its wind's side


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize("steps", [0, 60, 100_000])
def test_text_reads_at_12_px_inline(players: int, steps: int) -> None:
    view = GAME.view(_played(players, steps), None)
    for locale in ("en", "ru"):
        for draw in (render, render_sheets):
            size, text = smallest_inline_text(lambda draw=draw, locale=locale: draw(view, locale, NAMES))
            assert size >= 12, (draw.__name__, locale, text)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_board_is_at_most_twice_as_tall_as_wide(players: int) -> None:
    for steps in (0, 100_000):
        image = Image.open(io.BytesIO(render(GAME.view(_played(players, steps), None), "en", NAMES)))
        assert image.height <= 2 * image.width


def test_the_header_tells_the_mover_and_the_last_turn() -> None:
    view = GAME.view(_played(2, 0), None)
    view["last"] = {"seat": 1, "score_before": 10, "dice": [["blue", 5, "crew"], ["red", 2, None]]}
    view["scores"]["1"] = {"wind": 9, "crew": 4}
    assert _last_text(view, "en", NAMES) == "Борис: Blue 5 → Crew, Red 2 discarded · +3"
    assert _last_text(view, "ru", NAMES) == "Борис: Синий 5 → Экипаж, Красный 2 сброшен · +3"
    with recorded_text() as drawn:
        render(view, "en", NAMES)
    assert f"{NAMES[view['actor']]} to act" in [t for t, _ in drawn]


def test_the_final_board_shows_places() -> None:
    view = GAME.view(_played(4, 100_000), None)
    totals = {s: sum(v.values()) for s, v in ((int(k), v) for k, v in view["scores"].items())}
    best = max(totals, key=lambda s: (totals[s], -s))
    with recorded_text() as drawn:
        render(view, "en", NAMES)
    texts = [t for t, _ in drawn]
    assert any(t.startswith(f"{NAMES[best]}") and " won" in t for t in texts)
    assert any(t.startswith(f"1. {NAMES[best]}") for t in texts)


def test_solo_disaster_boxes_show_the_die_value() -> None:
    state = _played(1, 100_000, seed=3, options={"side": "green"})
    sheet = GAME.view(state, None)["sheets"][0]
    assert sheet["disasters"]
    with recorded_text() as drawn:
        render_sheets(GAME.view(state, None), "en", NAMES)
    shown = [t for t, size in drawn if size == 22]
    for _track, _box, value in sheet["disasters"]:
        assert str(value) in shown


def test_every_ship_at_sea_carries_its_owner_letter() -> None:
    view = GAME.view(_played(4, 40), None)
    at_sea = [s for s in view["sheets"] if s.get("pos") is not None and not s.get("docked")]
    assert at_sea
    with recorded_text() as drawn:
        render(view, "en", NAMES)
    letters = [t for t, _ in drawn]
    for sheet in at_sea:
        assert letters.count(NAMES[sheet["seat"]][0]) >= 2  # on the ship and on the player's card
