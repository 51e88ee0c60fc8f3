"""The contract every registered game keeps (games/core.py, docs/adding-a-game.md), checked for each entry
of games/registry.py: its parts exist, and random games to the end, for every player count and a mix of
options, keep the engine contract. A game that forgets a part fails here with the part named."""

from __future__ import annotations

import ast
import copy
import importlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import LOCALES, _read
from games import registry
from games.core import Game, IllegalAction, Result
from games.registry import GameEntry
from presentation.core import Done, Step, presentation_of, walk

ENTRIES = registry.entries()
MAX_ACTIONS = 20_000


def game_of(entry: GameEntry) -> Any:
    return registry.get(entry.key)


def player_counts(game: Game[Any, Any]) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def option_mix(game: Game[Any, Any], rng: random.Random) -> dict[str, str]:
    """A random value for each option, among those the option suggests (a whole deck is left out)."""
    mix = {}
    for spec in game.option_specs:
        values = [v for v in spec.suggestions() if len(v) < 100]
        if values and spec.kind != "text":
            mix[spec.name] = rng.choice(values)
    return mix


# -- the parts -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_every_part_of_the_entry_exists(entry: GameEntry) -> None:
    try:
        game = registry.load(entry.engine)
    except (ImportError, AttributeError) as error:
        pytest.fail(f"{entry.key}: engine {entry.engine!r} cannot be loaded: {error}")
    assert isinstance(game, Game), f"{entry.key}: engine {entry.engine!r} is not a Game"
    assert game.key == entry.key, f"{entry.key}: engine's key is {game.key!r}"
    assert set(game.names) >= set(LOCALES), f"{entry.key}: engine names lack a language: {game.names}"
    try:
        render = registry.load(entry.renderer)
    except (ImportError, AttributeError) as error:
        pytest.fail(f"{entry.key}: renderer {entry.renderer!r} cannot be loaded: {error}")
    assert callable(render), f"{entry.key}: renderer {entry.renderer!r} is not a function"
    if entry.cog is not None:
        try:
            module = importlib.import_module(entry.cog)
        except ImportError as error:
            pytest.fail(f"{entry.key}: cog {entry.cog!r} cannot be imported: {error}")
        assert callable(getattr(module, "setup", None)), f"{entry.key}: cog {entry.cog!r} has no setup(bot)"
    if entry.presentation is not None:
        check_presentation(entry)
    catalogs = {locale: _read(entry.catalog_package, locale) for locale in LOCALES}
    for locale, texts in catalogs.items():
        assert texts, f"{entry.key}: catalogs: no {entry.catalog_package}/locales/{locale}.json"
        for key in ("rules.summary", "rules.play"):
            assert texts.get(key), f"{entry.key}: catalogs: the /game rules card needs {key!r} in {locale}.json"
    missing = set(catalogs["en"]) ^ set(catalogs["ru"])
    assert not missing, f"{entry.key}: catalogs: keys in one language only: {sorted(missing)[:10]}"


def check_presentation(entry: GameEntry) -> None:
    """The presentation module loads, has ``flow`` and ``narrate``, and imports no discord (a pure module:
    the generic panel in cogs/ is the only Discord code the game's turn needs)."""
    try:
        module = importlib.import_module(str(entry.presentation))
    except ImportError as error:
        pytest.fail(f"{entry.key}: presentation {entry.presentation!r} cannot be imported: {error}")
    for name in ("flow", "narrate"):
        assert callable(getattr(module, name, None)), f"{entry.key}: presentation has no {name}()"
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [m for m in imported if m.split(".")[0] == "discord" or m.startswith("cogs")], \
        f"{entry.key}: presentation {entry.presentation!r} imports Discord code"


# -- the engine contract over random games ---------------------------------------------------------------------
def check_position(game: Game[Any, Any], state: Any, deep: bool) -> None:
    seats = game.to_act(state)
    assert seats, f"{game.key}: nobody to act in a game that is not over"
    for seat in seats:
        actions = game.legal_actions(state, seat)
        assert actions, f"{game.key}: seat {seat} is to act but has no legal action"
        if deep:
            for action in actions[:200]:
                text = game.format(action)
                assert game.parse(text) == action, f"{game.key}: notation {text!r} does not round-trip"
            default = game.default_action(state, seat)
            assert default in actions, f"{game.key}: default action {default!r} is not legal"


def check_result(game: Game[Any, Any], result: Result, players: int) -> None:
    assert sorted(p.seat for p in result.ranking) == list(range(players)), f"{game.key}: ranking misses seats"
    for p in result.ranking:
        assert sum(p.breakdown.values()) == p.score, f"{game.key}: seat {p.seat}'s breakdown does not add up"
    ranks = [p.rank for p in result.ranking]
    assert ranks == sorted(ranks) and ranks[0] == 1, f"{game.key}: ranking not best first"


def play(game: Game[Any, Any], players: int, options: dict[str, str], seed: int,
         on_position: Any = None) -> tuple[Any, int]:
    state = game.setup(players, options, seed)
    rng = random.Random(seed)
    for count in range(MAX_ACTIONS):
        if game.is_over(state):
            return state, count
        if on_position is not None:
            on_position(state, count)
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(len(actions))])
    pytest.fail(f"{game.key}: not over after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_random_games_to_the_end_keep_the_contract(entry: GameEntry) -> None:
    game = game_of(entry)
    for players in player_counts(game):
        for seed in (1, 2):
            rng = random.Random(seed * 100 + players)
            options = {} if seed == 1 else option_mix(game, rng)

            def on_position(state: Any, count: int) -> None:
                check_position(game, state, deep=count % 11 == 0)
                json.dumps(game.view(state, None))  # views are JSON

            state, count = play(game, players, options, seed, on_position)
            check_result(game, game.result(state), players)
            assert game.to_act(state) == [], f"{game.key}: someone is to act in a finished game"
            # same seed, same game
            again, count_again = play(game, players, options, seed)
            assert count_again == count and game.to_json(again) == game.to_json(state), \
                f"{game.key}: the same seed and actions gave another game"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_json_round_trip_mid_game_and_illegal_actions_change_nothing(entry: GameEntry) -> None:
    game = game_of(entry)
    players = max(2, game.min_players)
    state = game.setup(players, {}, 5)
    rng = random.Random(5)
    for _ in range(40):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(len(actions))])
    data = game.to_json(state)
    copy = game.from_json(json.loads(json.dumps(data)))
    assert game.to_json(copy) == data, f"{game.key}: JSON round trip is not lossless"
    # A snapshot's text (``dumps``, which may skip to_json's copies) says what to_json says.
    assert json.loads(game.dumps(state)) == json.loads(json.dumps(data)), f"{game.key}: dumps differs from to_json"
    for _ in range(30):  # the copy plays on exactly as the original
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        action = game.legal_actions(state, seat)[0]
        assert game.apply(state, seat, action) == game.apply(copy, seat, action)
        assert game.to_json(state) == game.to_json(copy), f"{game.key}: a restored state plays differently"
    if not game.is_over(state):
        before = game.to_json(state)
        outsider = next((s for s in range(players) if s not in game.to_act(state)), None)
        if outsider is not None:
            action = game.legal_actions(state, game.to_act(state)[0])[0]
            with pytest.raises(IllegalAction):
                game.apply(state, outsider, action)
        with pytest.raises(IllegalAction):
            game.parse("\u2603 not a move " + "9" * 4400)
        assert game.to_json(state) == before, f"{game.key}: a refused action changed the state"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_eliminating_the_player_to_act_keeps_the_game_playable(entry: GameEntry) -> None:
    game = game_of(entry)
    for players in {max(2, game.min_players), game.max_players}:
        if players < 2:
            continue
        state = game.setup(players, {}, 9)
        rng = random.Random(9)
        for _ in range(25):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            game.apply(state, seat, actions[rng.randrange(len(actions))])
        if game.is_over(state):
            continue
        out = game.to_act(state)[0]
        game.eliminate(state, out)
        for _ in range(MAX_ACTIONS):
            if game.is_over(state):
                break
            assert out not in game.to_act(state), f"{game.key}: an eliminated seat is asked to act"
            check_position(game, state, deep=False)
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            game.apply(state, seat, actions[rng.randrange(len(actions))])
        assert game.is_over(state), f"{game.key}: no end after an elimination"
        result = game.result(state)
        check_result(game, result, players)
        assert next(p for p in result.ranking if p.seat == out).eliminated
        if players == 2:
            assert result.ranking[-1].seat == out, f"{game.key}: the eliminated seat does not rank last"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_every_position_of_a_random_game_renders(entry: GameEntry) -> None:
    game = game_of(entry)
    render = registry.renderer(entry.key)
    players = max(2, game.min_players)
    names = [f"Player {n}" for n in range(players)]

    def draw(state: Any, count: int) -> None:
        seats = game.to_act(state)
        views = [game.view(state, None)] + ([game.view(state, seats[0])] if count % 10 == 0 and seats else [])
        for view in views:
            image = Image.open(io.BytesIO(render(view, names=names, locale="ru" if count % 2 else "en")))
            assert image.format == "PNG" and max(image.size) <= 4096, f"{game.key}: renderer output"

    final, _ = play(game, players, {}, 3, draw)
    draw(final, 0)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
async def test_game_move_accepts_the_legal_actions_through_the_service(entry: GameEntry, db_path: str) -> None:
    """What /game move sends: the notation of a legal action, committed through the table service."""
    from bot.store import SqliteStore
    from bot.tables import TableService

    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store)
    game = game_of(entry)
    players = max(2, game.min_players)
    await service.create(1, 7, entry.key, 100, "p0", seed=4)
    for n in range(1, players):
        await service.join(7, 100 + n, f"p{n}")
    await service.start(7, 100)
    rng = random.Random(4)
    for _ in range(60):
        table = service.tables.get(7)
        if table is None:
            break
        user = table.seats[game.to_act(table.state)[0]].user_id
        notations = service.legal_notations(7, user)
        assert notations, f"{game.key}: no legal notation for the player to act"
        await service.act(7, user, rng.choice(notations))
    await store.close()


@pytest.mark.parametrize(("change", "part"), [
    ({"engine": "tests.nim:NO_SUCH_GAME"}, "engine"),
    ({"renderer": "rendering:no_such_renderer"}, "renderer"),
    ({"cog": "cogs.no_such_cog"}, "cog"),
    ({"catalogs": "games"}, "catalogs"),
    ({"presentation": "tests.no_such_presentation"}, "presentation"),
])
def test_an_entry_that_forgets_a_part_fails_with_the_part_named(change: dict[str, str], part: str) -> None:
    from dataclasses import replace

    broken = replace(registry.entry("nim"), **change)
    with pytest.raises((AssertionError, pytest.fail.Exception)) as failure:
        test_every_part_of_the_entry_exists(broken)
    assert f"nim: {part}" in str(failure.value)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
@pytest.mark.parametrize("word", ["", "take ", "path ", "place ", "camp ", "die ", "friend f05 ", "cube spring "])
def test_hostile_notation_is_refused_as_illegal_never_crashing(entry: GameEntry, word: str) -> None:
    """What /game move may carry from a hostile client: refused with IllegalAction, echoing little."""
    game = game_of(entry)
    for text in (word + "9" * 4400, word + "1e400", word + "-inf", word + "x" * 6000, word + "\u0000\u202e"):
        try:
            game.parse(text)
        except IllegalAction as error:
            assert all(len(str(v)) <= 120 for v in error.params.values()), (game.key, error.params)


def hidden_parts(private: Any, public: Any, path: str = "") -> list[tuple[str, Any]]:
    """What a seat's view holds that the spectators' does not: (path, value) of each differing part."""
    if isinstance(private, dict) and isinstance(public, dict):
        return [part for key, value in private.items()
                for part in hidden_parts(value, public.get(key), f"{path}.{key}")]
    if isinstance(private, list) and isinstance(public, list) and len(private) == len(public):
        return [part for n, (a, b) in enumerate(zip(private, public, strict=True))
                for part in hidden_parts(a, b, f"{path}[{n}]")]
    return [] if private == public else [(path, private)]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_a_spectators_view_never_holds_a_seats_hidden_content(entry: GameEntry) -> None:
    """For games with private views: what only a seat sees (a hand, say) appears nowhere in the spectators'
    view, the one every public image is drawn from, at any point of random games."""
    game = game_of(entry)
    if not game.private_views:
        pytest.skip(f"{game.key} shows every seat the same as the spectators")
    players = max(2, game.min_players)

    def check(state: Any, count: int) -> None:
        if count % 5:
            return
        public = game.view(state, None)
        public_text = json.dumps(public, sort_keys=True)
        for seat in range(players):
            for path, value in hidden_parts(game.view(state, seat), public):
                if isinstance(value, (list, dict)) and len(value) >= 2:  # a hand, not a lone common value
                    leaked = json.dumps(value, sort_keys=True)
                    assert leaked not in public_text, f"{game.key}: seat {seat}'s {path} is in the public view"

    for seed in (1, 2):
        play(game, players, {}, seed, check)


def test_the_hidden_content_check_catches_a_hand_copied_into_the_public_view(monkeypatch: Any) -> None:
    gems = registry.get("gems")
    view = gems.view

    def leaky(state: Any, seat: Any) -> Any:
        shown = view(state, seat)
        return shown if seat is not None else {**shown, "debug": view(state, 0)}  # a careless debug field

    monkeypatch.setattr(gems, "view", leaky)
    with pytest.raises(AssertionError, match="in the public view"):
        test_a_spectators_view_never_holds_a_seats_hidden_content(registry.entry("gems"))


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.presentation is not None], ids=lambda e: e.key)
def test_every_path_of_the_presentation_flow_plays_a_legal_turn(entry: GameEntry) -> None:
    """At positions of random games, every choice of every step (the first few of each) leads to ``Done``
    whose notations the engine accepts in a row; labels are never empty, keys unique within a step."""
    game = game_of(entry)
    presentation = presentation_of(entry.key)
    assert presentation is not None

    def explore(state: Any, seat: int, chosen: tuple[str, ...], locale: str, depth: int = 0) -> int:
        at = walk(presentation, state, seat, chosen, locale)
        assert at is not None and depth < 30, f"{entry.key}: flow lost its way after {chosen}"
        if isinstance(at, Done):
            trial = copy.deepcopy(state)
            for notation in at.notations:
                game.apply(trial, seat, game.parse(notation))
            return 1
        assert isinstance(at, Step) and at.prompt and at.choices, f"{entry.key}: an empty step after {chosen}"
        keys = [c.key for c in at.choices]
        assert len(set(keys)) == len(keys) and all(c.label for c in at.choices), f"{entry.key}: {keys}"
        return sum(explore(state, seat, (*chosen, key), locale, depth + 1) for key in keys[:4])

    def on_position(state: Any, count: int) -> None:
        if count % 3 == 0:
            assert explore(state, game.to_act(state)[0], (), LOCALES[count % len(LOCALES)]) > 0

    play(game, game.min_players, {}, 7, on_position)
