"""One test per line of the rules text (the published Russian rulebook, not in this repository), in its
order. Lines already pinned by a case of the specification's list (test_spec_cases.py) name that case and add
what it does not cover.
"""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.dewan import GAME
from games.dewan import data as D
from tests.games.dewan.helpers import camp, codes, fixture, give, legal, payments, place, play, stories, tuck


def _cycle(state, seats: int) -> list[int]:
    order = []
    for _ in range(seats):
        seat = GAME.to_act(state)[0]
        order.append(seat)
        play(state, seat, legal(state, seat)[0] if legal(state, seat)[0].startswith("take") else "take 1")
    return order


def test_turns_go_clockwise_from_the_dewan_holder_and_a_round_ends_when_everyone_played() -> None:
    # «начиная с игрока, у которого находится фишка Девана, и далее по часовой стрелке»; «Раунд завершается,
    # когда все игроки сделали свой ход». Holder seat 2 of 4: 2, 3, 0, 1, then round 2 starts with 2 again.
    state = fixture(4)
    state.dewan = state.actor = 2
    assert _cycle(state, 4) == [2, 3, 0, 1]
    assert state.round == 2 and GAME.to_act(state) == [2]


def test_a_turn_is_either_taking_cards_or_placing_a_camp() -> None:
    # «В свой ход вы должны выполнить одно из следующих двух действий»: after a take the turn is over.
    state = fixture()
    give(state, 0, "c18", "c21")
    assert {a.split()[0] for a in legal(state, 0)} == {"take", "camp"}
    play(state, 0, "take 2")
    assert GAME.to_act(state) == [1]


def test_take_two_neighbouring_cards_never_from_the_deck_and_without_hand_limit() -> None:
    # «Выберите 2 карты ... лежащих рядом друг с другом ... Вы не можете взять карту из колоды. Ограничений по
    # количеству карт в руке нет.» Only positions 1-5 (with their right neighbour) are offered; a hand of 20
    # still takes.
    state = fixture()
    give(state, 0, *[c for c in D.CARD_IDS if c in state.deck][:20])
    takes = [a for a in legal(state, 0) if a.startswith("take")]
    assert takes == ["take 1", "take 2", "take 3", "take 4", "take 5"]
    row = list(state.row)
    play(state, 0, "take 5")
    assert len(state.seats[0]["hand"]) == 22 and set(row[4:6]) <= set(state.seats[0]["hand"])


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discard_pile() -> None:
    # «если при замене карты колода оказывается пустой, перетасуйте все карты в стопке сброса»
    state = fixture()
    state.discard = state.deck[:-1]
    state.deck = state.deck[-1:]
    events = play(state, 0, "take 1")
    assert "reshuffled" in codes(events)
    assert all(state.row) and state.discard == []


def test_the_origin_is_an_own_camp_and_the_destination_a_free_land_space() -> None:
    # «Выберите лагерь своего цвета ... в качестве отправной точки ... свободное место ... не может находиться
    # на водном пространстве.» Red cannot start from Blue's camp C1 to reach C6 next to it.
    state = fixture()
    camp(state, 1, "C1")
    give(state, 0, "c16", "c01")
    assert "camp C6" not in legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "camp C6")
    assert err.value.code == "no_route"


def test_one_matching_card_per_space_and_a_two_terrain_card_pays_as_either() -> None:
    # «сбросьте 1 карту ... соответствующую типу местности на каждом участке, который вы пересекаете, включая
    # начальную и конечную точки. Если на карте изображены 2 типа местности, выберите 1 из них»
    # Red camp A1 (F) > A2 (D): c53 (D/F) pays either space, together with c16 (F) or c11 (D).
    state = fixture()
    camp(state, 0, "A1")
    give(state, 0, "c53", "c16")
    assert payments(state, 0, "A2") == {"d:c16,c53"}
    state = fixture()
    camp(state, 0, "A1")
    give(state, 0, "c53", "c11")
    assert payments(state, 0, "A2") == {"d:c11,c53"}
    state = fixture()
    camp(state, 0, "A1")
    give(state, 0, "c16", "c17")
    assert "camp A2" not in legal(state, 0)  # no desert card


def test_the_start_camp_takes_any_first_card_another_origin_its_terrain() -> None:
    # Case 6 of the specification; here: from the start camp even a water card pays the origin.
    state = fixture()
    give(state, 0, "c25", "c18")
    assert payments(state, 0, "A1") == {"d:c18,c25"}


def test_one_water_card_crosses_a_whole_water_zone() -> None:
    # Case 2 of the specification; here the route cost of the run C0-C5 directly.
    state = fixture()
    camp(state, 0, "C4")
    assert [k for k, _ in GAME.route_cost(state, 0, ["C4", "C0", "C5", "B3"])] == ["M", "W", "B"]


def test_cards_for_other_camps_go_to_their_owner() -> None:
    # Cases 4 and 5 of the specification (a camp: a card of its terrain; a start camp: any card).
    state = fixture()
    camp(state, 0, "B2")
    give(state, 0, "c06", "c07", "c16")
    place(state, 0, "B4", ["c07", "c16"], {1: ["c06"]})
    assert state.seats[1]["hand"] == ["c06"]


def test_the_camp_comes_from_the_leftmost_slot() -> None:
    # «переместите крайний левый лагерь с поля вашего племени»: the slots empty 1, 2, 3 ... and the event names it.
    state = fixture()
    give(state, 0, "c18", "c21")
    events = play(state, 0, "camp A1")
    assert events[0].params["slot"] == 1 and GAME.view(state, None)["seats"][0]["camps_left"] == 7
    assert GAME.view(state, None)["seats"][0]["next_reward"] == "tuck"


def test_a_berry_in_the_zone_and_the_slot_effect() -> None:
    # Cases 8 and 19 of the specification; here a zone without berry gives none: A3 (mountain) alone.
    state = fixture()
    give(state, 0, "c06", "c21")
    events = play(state, 0, "camp A3")
    assert "berry" not in codes(events) and state.phase == "story"


def test_each_story_tile_is_checked_alone_and_camps_serve_several_tiles() -> None:
    # «Требования к каждой сюжетной плитке проверяются отдельно. Каждый лагерь ... может быть использован для
    # выполнения требований нескольких сюжетных плиток.» A1 and A6 (F F) complete t01 (F F) and t05 (F art)?
    # t05 also needs an artifact: not met; t01 is. Then the tucked c03 (art) completes t05 with the same A1.
    state = fixture()
    camp(state, 0, "A1", "A6")
    stories(state, 0, "t01", "t05")
    play(state, 0, "take 1")
    assert state.seats[0]["stories"] == [["t01", True], ["t05", False]]
    tuck(state, 0, "c03")
    play(state, 1, "take 1")
    assert state.seats[0]["stories"][1] == ["t05", False]  # only checked at the end of one's own turn
    play(state, 0, "take 1")
    assert state.seats[0]["stories"] == [["t01", True], ["t05", True]]


def test_completed_tiles_draw_one_card_each_then_the_next_player() -> None:
    # «возьмите по одной карте местности из колоды для каждой только что завершённой плитки ... Затем ход
    # переходит к игроку слева от вас.» Case 14 draws 2; here one tile, one card, and an empty deck and discard
    # draw nothing.
    state = fixture()
    camp(state, 0, "A1", "A6")
    stories(state, 0, "t01")
    state.discard = []
    state.deck = state.deck[:2]
    play(state, 0, "take 1")
    assert len(state.seats[0]["hand"]) == 2 and state.seats[0]["stories"] == [["t01", True]]
    assert GAME.to_act(state) == [1]


def test_the_game_ends_with_the_round_and_everyone_has_as_many_turns() -> None:
    # «Завершите текущий раунд так, чтобы у каждого игрока было равное количество ходов». Holder seat 1 of 3;
    # seat 0 (the last of the round) places its last camp: the game ends at once, 3 turns each... here 1 each.
    state = fixture(3)
    state.dewan = state.actor = 1
    play(state, 1, "take 1")
    play(state, 2, "take 1")
    state.seats[0]["placed"] = 7
    give(state, 0, "c18", "c21")
    events = play(state, 0, "camp A1")
    assert "last_camp" in codes(events) and GAME.is_over(state) and state.turns == 3


def test_unfinished_story_tiles_are_removed_and_score_nothing() -> None:
    # Case 23 of the specification; here through a real end of game.
    state = fixture()
    stories(state, 0, "t19")
    state.seats[1]["placed"] = 7
    play(state, 0, "take 1")
    give(state, 1, "c11", "c21")
    events = play(state, 1, "camp B1")
    assert GAME.is_over(state) and "stories_removed" in codes(events)
    assert state.seats[0]["stories"] == []


def test_scoring_rows() -> None:
    # Stories, fire (tiles, tucked cards, +1 for the last camp), most fire +4 (ties: all), 4 per group of 2+
    # camps, 2 per berry token and per berry symbol under the tribe board: cases 15, 18, 20-24. Here: a tucked
    # fire card counts as fire, not as a berry; a resource symbol under the board scores nothing by itself.
    state = fixture()
    tuck(state, 0, "c01", "c03")
    scores = GAME.breakdowns(state)[0]
    assert scores == {"story": 0, "fire": 1, "fire_bonus": 4, "groups": 0, "berries": 0}


def test_most_points_win_then_most_cards_then_shared() -> None:
    # Case 17 of the specification; here the final_score events carry the hand size.
    state = fixture()
    give(state, 1, "c01", "c02", "c11", "c21")
    state.seats[1]["placed"] = 7
    play(state, 0, "take 1")
    events = place(state, 1, "B1", ["c11", "c21"])
    events += play(state, 1, "tuck c01")  # slot 8
    finals = {e.params["seat"]: e.params for e in events if e.code == "final_score"}
    assert finals[0]["hand"] == 2 and finals[1]["hand"] == 1


def test_pass_only_when_nothing_is_possible_and_a_round_of_passes_ends_the_game() -> None:
    # Design (spec decision 14): no card in the row, deck or discard, and no payable camp: pass. When every
    # player passed in one round, the game ends.
    state = fixture()
    state.row = [None] * 6
    state.deck, state.discard = [], []
    give_all = [c for c in D.CARD_IDS if D.CARDS[c][0] == ("W",)]  # water cannot pay a land destination
    state.seats[0]["hand"] = give_all[:1]
    assert legal(state, 0) == ["pass"]
    play(state, 0, "pass")
    assert not GAME.is_over(state)
    play(state, 1, "pass")
    assert GAME.is_over(state)
