"""Every game's final breakdown names an AI seat as the standings of the same post do ("AI 1 · Bot (hard)"),
in English and Russian (issue 39)."""

from __future__ import annotations

import random

import pytest

from bot.store import Seat, TableRecord
from bot.tables import Table
from cogs.common import seat_labels
from cogs.panel import GenericPanel
from games import registry

GAMES = ("deole", "dewan", "maple", "trails")


def final_embed(table: Table, locale: str):
    """The breakdown under the last board: the one panel's, from the game's presentation module."""
    (embed,) = GenericPanel(None).final_embeds(table, locale)
    return embed


def finished_table(key: str) -> Table:
    game = registry.get(key)
    seats = [Seat(0, 1, "Alice"), Seat(1, None, "AI 1", ai_level="hard")]
    record = TableRecord(1, 1, 1, key, {}, "finished", 1, 3, 0.0, seats=seats)
    state = game.setup(len(seats), {}, 3)
    rng = random.Random(3)
    for _ in range(20_000):
        if game.is_over(state):
            return Table(record, game, state)
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(len(actions))])
    raise AssertionError(f"{key}: not over")


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize(("locale", "label"), [("en", "AI 1 · Bot (hard)"), ("ru", "AI 1 · Бот (сложный)")])
def test_the_breakdown_names_an_ai_seat_as_the_standings_do(key, locale, label):
    table = finished_table(key)
    assert seat_labels(table, locale) == ["Alice", label]
    names = [field.name for field in final_embed(table, locale).fields]
    assert any(label in name for name in names) and any("Alice" in name for name in names), names
