"""``/game move``'s suggestions without discord.py (cogs/move_search.py): at most 25, groups marked, every
legal move of every game reachable by typing on from the suggestions, a group sent as it is answered with
what it may become."""

from __future__ import annotations

import random

import pytest

from cogs.move_search import LIMIT, MARK, Suggestion, normalize, suggest, unfinished, unfinished_text
from games import registry

TRAILS_PLACES = [f"place {x},{y} r{r}" for x in range(-3, 4) for y in range(-2, 2) for r in (0, 90, 180)]


def reached(notations: list[str], locale: str = "en") -> tuple[set[str], int]:
    """Every move a typist reaches from an empty box by picking suggestions, a picked group leaving its
    *name* in the box as Discord does (and its value, when sent at once, reaching the same moves): the moves
    found, and the most suggestions shown at once."""
    found: set[str] = set()
    most = 0
    boxes, seen = [""], set()
    while boxes:
        box = boxes.pop()
        if box in seen:
            continue
        seen.add(box)
        suggestions = suggest(notations, box)
        most = max(most, len(suggestions))
        for s in suggestions:
            assert len(s.name(locale)) <= 100 and 0 < len(s.value) <= 100
            if s.group:
                assert MARK in s.name(locale) and MARK not in s.value
                assert normalize(s.name(locale)) == normalize(s.value)  # what is shown is what is sent
                boxes.append(s.name(locale))
            else:
                assert s.name(locale) == s.value == s.text and s.text in notations
                found.add(s.text)
    return found, most


def test_few_moves_are_suggested_as_they_are() -> None:
    moves = ["take 1", "take 2", "take 3"]
    assert [s.value for s in suggest(moves, "")] == moves
    assert [s.value for s in suggest(moves, "2")] == ["take 2"]  # a word from inside a move
    assert [s.value for s in suggest(moves, "TAKE 3")] == ["take 3"]


def test_trails_positions_first_then_their_rotations() -> None:
    assert len(TRAILS_PLACES) == 84 > LIMIT
    first = suggest(TRAILS_PLACES, "")
    assert len(first) == LIMIT and sum(s.count for s in first) == len(TRAILS_PLACES)
    # 28 positions of 3 rotations: 24 of them as they are, the last four by the letters they share
    names = [s.name("en") for s in first]
    assert names[:2] == ["place -3,-2 … (3 moves)", "place -3,-1 … (3 moves)"]
    assert names[-1] == "place 3,… (12 moves)" and first[-1].value == "place 3,"
    assert first[0].value == "place -3,-2 "  # sent at once: the position with a space for the next word
    then = suggest(TRAILS_PLACES, names[-1])  # picked: Discord puts the group's name in the box
    assert [s.value for s in then] == [m for m in TRAILS_PLACES if m.startswith("place 3,")]  # 12: they fit
    rotations = suggest(TRAILS_PLACES, names[0])
    assert [s.value for s in rotations] == ["place -3,-2 r0", "place -3,-2 r90", "place -3,-2 r180"]
    typed_on = suggest(TRAILS_PLACES, names[0] + " r9")  # typing on after the picked group
    assert [s.value for s in typed_on] == ["place -3,-2 r90"]
    assert [s.value for s in suggest(TRAILS_PLACES, "place 3,-2 r1")] == ["place 3,-2 r180"]


def test_positions_that_fit_are_suggested_each_as_a_group() -> None:
    moves = [f"place {x},0 r{r}" for x in range(10) for r in (0, 90, 180)] + ["place 20,0 r0"]
    names = [s.name("en") for s in suggest(moves, "")]
    assert names == [*(f"place {x},0 … (3 moves)" for x in range(10)), "place 20,0 r0"]
    assert [s.name("ru") for s in suggest(moves, "")][0] == "place 0,0 … (3 хода)"


def test_a_move_that_starts_others_is_suggested_beside_their_group() -> None:
    moves = [f"path {n}" for n in range(20)] + [f"path {n} tok" for n in range(20)]
    found = suggest(moves, "")
    assert len(found) <= LIMIT and sum(s.count for s in found) == len(moves)
    assert reached(moves)[0] == set(moves)


def test_normalize_reads_a_picked_group_and_what_follows_it() -> None:
    assert normalize("place 0,-1 … (3 moves)") == "place 0,-1 "
    assert normalize("place 0,-1 … (3 moves) r9") == "place 0,-1 r9"
    assert normalize("place -1… (8 moves)") == "place -1"
    assert normalize("place -1… (8 moves),2") == "place -1,2"
    assert normalize("place 0,-1 … (3 mo") == "place 0,-1 "  # cut short
    assert normalize("  Die   Blue 5 ") == "die blue 5 "
    assert normalize("") == ""


@pytest.mark.parametrize("key", ["trails", "deole", "dewan", "maple"])
def test_every_legal_move_of_every_game_is_reachable_by_typing(key: str) -> None:
    """Random games of each game: at every step, at most 25 suggestions at once, and typing on from them
    reaches every legal move."""
    game = registry.get(key)
    rng = random.Random(11)
    players = max(game.min_players, 2) if key != "trails" else 4
    options = {"expansions": "river,inns,traders"} if key == "trails" else {}
    state = game.setup(players, options, 5)
    checked = large = 0
    for step in range(400):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if step % 3 == 0 or len(actions) > LIMIT:
            notations = [game.format(a) for a in actions]
            found, most = reached(notations)
            assert found == set(notations) and most <= LIMIT, (key, step)
            checked += 1
            large += len(notations) > LIMIT
        game.apply(state, seat, rng.choice(actions))
    assert checked > 10
    assert key != "trails" or large > 10  # Trails does have more moves than Discord shows


def test_a_group_sent_as_it_is_lists_what_it_may_become() -> None:
    starts = unfinished(TRAILS_PLACES, "place -3,-2 ")
    assert [s.value for s in starts] == ["place -3,-2 r0", "place -3,-2 r90", "place -3,-2 r180"]
    assert unfinished(TRAILS_PLACES, "place -3,-2 … (3 moves)") == starts  # the name, as Discord may send it
    assert unfinished(TRAILS_PLACES, "place -3,-2") == starts
    assert unfinished(TRAILS_PLACES, "place -3,-2 r90") == []  # a move: played
    assert unfinished(TRAILS_PLACES, "fly away") == []  # not a start: the game refuses it in words
    assert unfinished(TRAILS_PLACES, "") == []
    many = unfinished(TRAILS_PLACES, "place")
    assert len(many) <= LIMIT and sum(s.count for s in many) == len(TRAILS_PLACES)
    text = unfinished_text(starts, "place -3,-2 … (3 moves)", "en")
    assert text.startswith("“place -3,-2” is only the start of a move") and "`place -3,-2 r90`" in text
    assert unfinished_text(starts, "place -3,-2", "ru").startswith("«place -3,-2» — только начало хода")
    assert unfinished_text([Suggestion("place 1,", 4, word=False, group=True)], "place", "ru").endswith(
        "`place 1,… (4 хода)`")


def test_hostile_text_is_read_quickly_and_suggests_nothing_wrong() -> None:
    import time

    for typed in (" " * 6000, " " * 6000 + "x", MARK * 6000, "(" + MARK * 3000, "place " * 1000):
        started = time.perf_counter()
        found = suggest(TRAILS_PLACES, typed)
        assert time.perf_counter() - started < 0.05 and len(found) <= LIMIT
        assert unfinished(TRAILS_PLACES, typed) == []  # nothing a move starts with: the game refuses it
