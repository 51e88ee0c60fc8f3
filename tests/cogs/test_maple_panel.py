"""The Maple Valley panel's parts: the destinations it offers are walks the engine accepts, Undo takes
back what one click played, the board tells the turn without the steps taken back, labels and sentences
are in words in both languages, and forged or hostile values are refused before the engine sees them."""

from __future__ import annotations

import random
from types import SimpleNamespace

import discord

import presentation.maple as maple
from cogs.maple import typed_pieces
from cogs.panel import GenericPanel, step_view
from games.core import Event
from games.maple import GAME
from presentation.core import Step, walk
from presentation.maple import (
    STEP,
    choice_label,
    event_lines,
    held,
    position_choices,
    told_events,
    undo_steps,
)

NAMES = ["Alice", "Bob", "Carol"]


def _copy(state):
    return GAME.from_json(GAME.to_json(state))


def _positions(players: int, seed: int, limit: int = 400):
    """Positions of a game played with the panel's choices (varied by a seeded generator)."""
    state = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if GAME.is_over(state):
            return
        seat = GAME.to_act(state)[0]
        choices = position_choices(GAME, state, seat)
        yield state, seat, choices
        choice = rng.choice(choices)
        for text in choice.notations:
            GAME.apply(state, seat, GAME.parse(text))


def test_every_choice_is_played_by_the_engine_and_destinations_end_where_they_say():
    walks = 0
    for players, seed in ((1, 3), (3, 5), (5, 8)):
        for state, seat, choices in _positions(players, seed):
            assert choices
            assert len({c.notations for c in choices}) == len(choices)  # no choice twice
            for choice in choices:
                work = _copy(state)
                events = [e for text in choice.notations for e in GAME.apply(work, seat, GAME.parse(text))]
                if choice.route is not None:
                    walks += 1
                    arrived = [e for e in events if e.code == "arrived"]
                    assert arrived and arrived[0].params["location"] == choice.route.to
    assert walks > 50


def test_one_destination_per_place_with_the_fewest_map_tokens():
    for state, seat, choices in _positions(3, 11):
        routes = [c.route for c in choices if c.route is not None]
        assert len({r.to for r in routes}) == len(routes)
        singles = [c for c in choices if c.group == "path" and c.action[0] == "path" and c.action[2] == "main"]
        for single in singles:  # a destination one main path away costs no token
            work = _copy(state)
            GAME.apply(work, seat, single.action)
            if ("stop",) in GAME.legal_actions(work, seat):
                there = GAME.view(work, None)["turn"]["walk"]["at"]
                assert any(r.to == there and r.tokens == 0 for r in routes)


def test_undo_takes_back_what_one_click_played():
    checked = 0
    for state, seat, choices in _positions(3, 21, limit=120):
        for choice in choices:
            if GAME.view(state, None)["step"] not in ("walk", "card") or not choice.notations:
                continue
            work = _copy(state)
            before = GAME.to_json(work)
            for text in choice.notations:
                GAME.apply(work, seat, GAME.parse(text))
            if GAME.to_act(work) != [seat] or GAME.view(work, None)["step"] in ("card",):
                continue  # the turn ended (nothing to take back)
            count = undo_steps(GAME, work, seat)
            if count != len(choice.notations):
                continue  # a hidden card was revealed: Undo stops there
            for _ in range(count):
                GAME.apply(work, seat, ("undo",))
            after = GAME.to_json(work)
            assert {k: after[k] for k in ("seats", "ctx", "supply")} == {k: before[k] for k in ("seats", "ctx", "supply")}
            checked += 1
    assert checked > 20


def test_the_board_leaves_out_the_steps_taken_back():
    walk = [Event(STEP), Event("walked", {"seat": 0, "path": 4, "to": "C", "by": "main"}),
            Event(STEP), Event("arrived", {"seat": 0, "location": "C", "paths": 1})]
    events = [(0, e) for e in [Event(STEP), Event("friend_played", {"seat": 0, "friend": "s1", "type": "F"}),
                               *walk, Event(STEP, {"undo": 1}), Event("undone", {"seat": 0}),
                               Event("undone", {"seat": 0}),
                               Event(STEP), Event("walked", {"seat": 0, "path": 1, "to": "GM1", "by": "tok"}),
                               Event(STEP), Event("arrived", {"seat": 0, "location": "GM1", "paths": 1})]]
    told = [e.code for _s, e in told_events(events)]
    assert told == ["friend_played", "walked", "arrived"]
    lines = event_lines(events, NAMES, "en", {})
    assert lines == ["Alice plays Bunny and walks forest paths.",
                     "Alice walks paths 1 (map token) to Maple Grove (GM1)."]
    ru = event_lines(events, NAMES, "ru", {})
    assert ru[1] == "Alice проходит пути 1 (жетон карты); конец похода: кленовая роща (GM1)."


def test_an_ai_seats_undo_committed_with_the_move_before_drops_nothing_else():
    events = [(0, e) for e in [Event(STEP), Event("crafted", {"seat": 0, "favor": "tr01", "symbol": "Treat"}),
                               Event("turn_end", {"seat": 0}), Event("walked", {"seat": 1, "path": 4, "to": "C"}),
                               Event("undone", {"seat": 1})]]
    assert [e.code for _s, e in told_events(events)] == ["crafted", "turn_end", "walked"]


def test_an_act_of_several_steps_is_held_step_by_step():
    state = next(s for s, _seat, c in _positions(3, 5) if any(ch.route and len(ch.notations) > 2 for ch in c))
    seat = GAME.to_act(state)[0]
    route = next(c for c in position_choices(GAME, state, seat) if c.route and len(c.notations) > 2)
    before = GAME.to_json(state)
    work = _copy(state)
    events = [(seat, e) for text in route.notations for e in GAME.apply(work, seat, GAME.parse(text))]
    kept = held([(seat, n) for n in route.notations], events, before)
    assert [e.code for _s, e in kept].count(STEP) == len(route.notations)
    assert [e.code for _s, e in held([(seat, n) for n in route.notations], events, None)].count(STEP) == 1
    undo = ([(seat, "undo")] * 2, [(seat, Event("undone", {"seat": seat}))] * 2)
    assert [(e.code, e.params) for _s, e in held(*undo, None)] == [
        (STEP, {"undo": 1}), ("undone", {"seat": seat}), ("undone", {"seat": seat})]
    told = told_events([*kept, *held(*undo, None)])
    assert [e.code for _s, e in told].count("walked") == len(route.notations) - 2  # the stop and a path


def test_labels_and_sentences_are_words_in_both_languages():
    for locale in ("en", "ru"):
        for state, _seat, choices in _positions(3, 9, limit=150):
            view = GAME.view(state, None)
            for choice in choices:
                label = choice_label(locale, choice, view)
                assert label and "maple." not in label and "{" not in label, label
    state = GAME.setup(3, {}, 9)
    events = []
    for state_, seat, choices in _positions(3, 9, limit=300):
        work = _copy(state_)
        for text in choices[0].notations:
            events += [(seat, e) for e in GAME.apply(work, seat, GAME.parse(text))]
    for locale in ("en", "ru"):
        lines = event_lines(events, NAMES, locale, dict(state.clearings))
        assert lines and not [line for line in lines if "maple." in line or "{" in line]


def test_forged_and_hostile_values_never_reach_the_engine():
    state = GAME.setup(2, {}, 6)
    seat = GAME.to_act(state)[0]
    before = GAME.to_json(state)
    for key in ("9" * 4400, "1e400", "-1", "x", "1" * 13, "999", "show", "undo"):
        assert walk(maple, state, seat, (key,), "en") is None, key[:20]
    assert GAME.to_json(state) == before
    assert typed_pieces("path 4 | path 20 | stop") == ["path 4", "path 20", "stop"]
    assert typed_pieces("friend s3 M | take fl") == ["friend s3 M", "take fl"]
    for text in ("x" * 6000, "path " + "9" * 4400, "path 4 | " * 600, "<@&1> @everyone", "path 4 ||", ""):
        assert typed_pieces(text) is None, text[:40]


def test_the_final_embed_gives_the_breakdown_and_the_solo_rating():
    state = GAME.setup(1, {}, 4)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.default_action(state, seat))
    seats = [SimpleNamespace(display="Dave", is_ai=False)]
    table = SimpleNamespace(game=GAME, state=state, seats=seats)
    panel = GenericPanel(None)
    (embed,) = panel.final_embeds(table, "en")
    assert embed.description.startswith("Solo: ") and "festival" in embed.description
    (field,) = embed.fields
    assert field.name.startswith("1. Dave: total ")
    assert all(part in field.value for part in ("favors", "friends", "patches", "leftovers", "Great Feast"))
    assert "Большой пир" in panel.final_embeds(table, "ru")[0].fields[0].value


def test_the_panel_fits_discords_limits_at_every_step():
    for state, seat, choices in _positions(4, 13, limit=250):
        step = maple.flow(state, seat, (), "ru")
        assert isinstance(step, Step)
        panel = step_view(step, (), 123456, 0, "ru")
        ids = [item.custom_id for item in panel.children]
        assert len(ids) == len(set(ids)) and all(i.startswith("pbc:panel:") and len(i) <= 100 for i in ids)
        rows: dict[int, int] = {}
        for item in panel.children:
            rows[item.row] = rows.get(item.row, 0) + (5 if isinstance(item, discord.ui.Select) else 1)
            if isinstance(item, discord.ui.Select):
                assert 1 <= len(item.options) <= 25 and all(len(o.label) <= 100 for o in item.options)
            else:
                assert len(item.label) <= 80
        assert all(count <= 5 for count in rows.values()) and max(rows) <= 4
        offered = {i.rsplit(":", 1)[1] for i in ids if i.startswith("pbc:panel:do:")}
        offered |= {o.value for item in panel.children if isinstance(item, discord.ui.Select) for o in item.options}
        assert {str(i) for i in range(len(choices))} <= offered or len(choices) > 100  # every choice has its control
