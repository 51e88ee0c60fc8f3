"""Section 10 of the specification, one test per case, on fixture F2 (Red = seat 0, Blue = seat 1) unless said.

F2: A = S1 (Red, start A0), B = S2 (Blue, start B0), C = N1, D = N2, no rotation. Terrains: A1 F, A2 D, A3 M,
A4 B, A5 W, A6 F; B1 D, B2 M, B3 B, B4 F, B5 W, B6 D; C0 W, C1 F, C2 B, C3 D, C4 M, C5 W, C6 B; D0 M, D1 M,
D2 W, D3 F, D4 D, D5 B, D6 D. Cards: c01-c05 B, c06-c10 M, c11-c15 D, c16-c20 F, c21-c25 W (symbols fire,
berry, art, pig, cry in that order), c35/c36 F/W fire, c37 F/W berry, c47 M/D, c53 D/F.
"""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.dewan import GAME
from games.dewan import data as D
from tests.games.dewan.helpers import (
    camp,
    codes,
    fixture,
    give,
    legal,
    payments,
    place,
    play,
    stories,
    tuck,
)


def test_01_start_camp_pays_any_card_then_the_destination() -> None:
    # Route A0>A1: the start hex takes any card (c21, water), A1 (forest) takes c18.
    state = fixture()
    give(state, 0, "c21", "c18")
    assert "camp A1" in legal(state, 0)
    assert payments(state, 0, "A1") == {"d:c18,c21"}
    events = play(state, 0, "camp A1")  # the only payment: played at once
    assert events[0].params == {"seat": 0, "hex": "A1", "route": "A0-A1", "slot": 1, "cards": "c18 c21"}
    assert state.seats[0]["hand"] == [] and state.discard[-2:] == ["c18", "c21"]
    assert state.camps["A1"] == 0


def test_02_a_water_run_costs_one_card() -> None:
    # C4 (M, c07) - C0, C5 (one water run, c22) - B3 (B, c02): 3 items, 3 cards. C4 also touches C5, and
    # C4-C5-B3 costs the same 3 items: the engine reports that shorter route (fewest hexes).
    state = fixture()
    camp(state, 0, "C4")
    assert GAME.route_cost(state, 0, ["C4", "C0", "C5", "B3"]) == [("M", None), ("W", None), ("B", None)]
    assert GAME.route_cost(state, 0, ["C4", "C5", "B3"]) == [("M", None), ("W", None), ("B", None)]
    give(state, 0, "c07", "c22", "c02")
    assert payments(state, 0, "B3") == {"d:c02,c07,c22"}
    events = play(state, 0, "camp B3")
    assert events[0].params["route"] == "C4-C5-B3"


def test_03_two_separate_water_runs_cost_two_cards() -> None:
    # A4 (B) - A5 (W) - D3 (F) - D2 (W) - D1 (M): the forest hex splits the water, so 5 items.
    state = fixture()
    camp(state, 0, "A4")
    assert GAME.route_cost(state, 0, ["A4", "A5", "D3", "D2", "D1"]) == [
        ("B", None), ("W", None), ("F", None), ("W", None), ("M", None)]


def test_04_a_card_for_another_players_camp_goes_to_that_player() -> None:
    # A6 (F) - D3 (F) - C1 (F, Blue's camp) - C6 (B, c01). Three forest cards: any one of them goes to Blue,
    # so three placements; nothing cheaper reaches C6 (no W card, no D card).
    state = fixture()
    camp(state, 0, "A6")
    camp(state, 1, "C1")
    give(state, 0, "c16", "c17", "c18", "c01")
    assert payments(state, 0, "C6") == {"d:c01,c17,c18 g2:c16", "d:c01,c16,c18 g2:c17", "d:c01,c16,c17 g2:c18"}
    play(state, 0, "camp C6")
    # Cards are picked in card order: c01 (the only badlands card) is forced and picked at once. Then c16 is
    # discarded or given (giving c17 first would skip c16 and leave too few forest cards).
    assert state.pending["picks"] == [["c01", None]]
    assert legal(state, 0) == ["pay c16", "give c16 2"]
    events = play(state, 0, "pay c16", "give c17 2")  # c18 is then forced
    assert events[0].params["route"] == "A6-D3-C1-C6"
    assert "c17" in state.seats[1]["hand"] and {"c01", "c16", "c18"} <= set(state.discard)
    assert state.seats[0]["hand"] == []


def test_05_crossing_another_start_camp_gives_a_card_of_your_choice() -> None:
    # B2 (M) - B0 (Blue's start: any card, to Blue) - B4 (F). With c06, c07 (both M) and c16 (F), one M card
    # pays B2, the other goes to Blue. B2-B3-B4 would need a badlands card.
    state = fixture()
    camp(state, 0, "B2")
    assert GAME.route_cost(state, 0, ["B2", "B0", "B4"]) == [("M", None), ("*", 1), ("F", None)]
    give(state, 0, "c06", "c07", "c16")
    assert payments(state, 0, "B4") == {"d:c06,c16 g2:c07", "d:c07,c16 g2:c06"}
    events = place(state, 0, "B4", ["c06", "c16"], {1: ["c07"]})
    assert events[0].params["route"] == "B2-B0-B4" and "c07" in state.seats[1]["hand"]


def test_06_the_first_card_must_match_the_origin_unless_it_is_the_start_camp() -> None:
    # Red camp D3 (forest). D3 > C1 (forest) with c21 (water) for D3: illegal; c35 (forest/water): legal.
    state = fixture()
    camp(state, 0, "D3")
    give(state, 0, "c21", "c17")
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "camp C1")
    assert err.value.code == "no_route"
    state = fixture()
    camp(state, 0, "D3")
    give(state, 0, "c35", "c17")
    assert payments(state, 0, "C1") == {"d:c17,c35"}


def test_07_the_destination_is_land_without_a_camp() -> None:
    state = fixture()
    camp(state, 1, "A1")
    give(state, 0, "c21", "c22", "c16")
    for text, code in (("camp C5", "water"), ("camp A1", "occupied"), ("camp B0", "occupied"), ("camp H4", "no_hex")):
        before = GAME.to_json(state)
        with pytest.raises(IllegalAction) as err:
            play(state, 0, text)
        assert err.value.code == code
        assert GAME.to_json(state) == before


def test_08_a_berry_is_taken_from_the_zone_once() -> None:
    # A1 is in the forest zone {A1 A6 C1 D3}; its only berry lies on C1.
    state = fixture()
    give(state, 0, "c18", "c21")
    events = play(state, 0, "camp A1")
    assert ("berry", "C1") in [(e.code, e.params.get("hex")) for e in events]
    assert "C1" not in state.berries and state.seats[0]["berries"] == 1
    play(state, 0, "story deck")  # slot 1: a story tile
    play(state, 1, "take 1")
    give(state, 0, "c16", "c17")
    events = place(state, 0, "A6", ["c16", "c17"])
    assert "berry" not in codes(events) and state.seats[0]["berries"] == 1


def test_09_take_two_adjacent_cards_and_refill_nearest_the_deck_first() -> None:
    state = fixture()
    state.deck += [c for c in state.row]
    state.row = ["c01", "c02", "c03", "c04", "c05", "c06"]
    for card in ["c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08"]:
        state.deck.remove(card)
    state.deck += ["c08", "c07"]  # c07 on top
    play(state, 0, "take 3")
    assert state.seats[0]["hand"] == ["c03", "c04"]
    assert state.row == ["c01", "c02", "c07", "c08", "c05", "c06"]


def test_10_single_cards_when_no_two_neighbours_are_left() -> None:
    state = fixture()
    state.row = ["c01", None, "c03", None, "c05", None]
    state.deck, state.discard = [], []
    assert legal(state, 0) == ["take1 1", "take1 3", "take1 5"]
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "take 1")
    assert err.value.code == "no_pair"


def test_11_a_printed_symbol_counts_once() -> None:
    # t22 (F M pig pig): A1 F, A3 M; the A1-A2 pigment touches two own camps but counts once -> 1 pigment.
    state = fixture()
    camp(state, 0, "A1", "A2", "A3")
    assert GAME.resources(state, 0)["pig"] == 1
    assert not GAME.story_met(state, 0, "t22")
    camp(state, 0, "C4")  # touches the C0-C4 pigment: 2 pigments
    assert GAME.story_met(state, 0, "t22")


def test_12_distinct_printed_symbols_add_up() -> None:
    # t24 (M B art art): B2 M, B3 B; art B2-B3 and D0-D5 are two artifacts.
    state = fixture()
    camp(state, 1, "B2", "B3", "D0")
    assert GAME.resources(state, 1)["art"] == 2
    assert GAME.story_met(state, 1, "t24")


def test_13_each_provider_serves_one_terrain_icon_per_tile() -> None:
    # t20 (F F D D): A1 F, A2 D, tucked c53 (D/F) are 3 providers for 4 icons; A6 (F) makes 4.
    state = fixture()
    camp(state, 0, "A1", "A2")
    tuck(state, 0, "c53")
    assert not GAME.story_met(state, 0, "t20")
    camp(state, 0, "A6")
    assert GAME.story_met(state, 0, "t20")


def test_14_two_tiles_completed_in_one_turn_draw_two_cards() -> None:
    # Red already has A1, A6 (F F), A2 (D), A3 (M): t01 (F F) and t09 (F D M) complete at the end of any turn,
    # here a take: hand = 2 taken + 2 drawn.
    state = fixture()
    camp(state, 0, "A1", "A6", "A2", "A3")
    stories(state, 0, "t01", "t09")
    deck = len(state.deck)
    events = play(state, 0, "take 1")
    assert codes(events).count("story_completed") == 2
    assert [e.params["count"] for e in events if e.code == "cards_drawn"] == [2]
    assert len(state.seats[0]["hand"]) == 4 and len(state.deck) == deck - 4
    assert state.seats[0]["stories"] == [["t01", True], ["t09", True]]


def test_15_fire_majority_ties_all_score() -> None:
    # Red 3 fire (c01 c06 c11), Blue 3 (c16 c21 c26), Yellow 1 (c29): +4, +4, 0.
    state = fixture(3)
    tuck(state, 0, "c01", "c06", "c11")
    tuck(state, 1, "c16", "c21", "c26")
    tuck(state, 2, "c29")
    scores = GAME.breakdowns(state)
    assert [scores[s]["fire"] for s in range(3)] == [3, 3, 1]
    assert [scores[s]["fire_bonus"] for s in range(3)] == [4, 4, 0]
    state = fixture(3)
    assert [GAME.breakdowns(state)[s]["fire_bonus"] for s in range(3)] == [0, 0, 0]  # all at 0: nobody


def test_16_the_round_ends_after_the_last_camp() -> None:
    # 3 players, Dewan seat 0. Seat 1 empties slot 8 on its turn; seat 2 still plays; then the game is over.
    state = fixture(3)
    play(state, 0, "take 1")
    state.seats[1]["placed"] = 7
    neighbour = next(h for h in state.board.neighbours["B0"] if state.board.terrain[h] in D.LAND)
    card = next(c for c in D.CARD_IDS if D.CARDS[c][0] == (state.board.terrain[neighbour],)
                and c not in state.row)
    give(state, 1, card, "c21")
    events = play(state, 1, f"camp {neighbour}")
    assert "last_camp" in codes(events) and state.final_round
    assert GAME.to_act(state) == [2] and not GAME.is_over(state)
    events = play(state, 2, "take 1")
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert "final_score" in codes(events)


def _score(state, seat: int, tiles: list[str], berries: int) -> None:
    state.seats[seat]["stories"] = [[t, True] for t in tiles]
    state.seats[seat]["berries"] = berries


def test_17_tie_break_most_cards_in_hand_then_shared() -> None:
    # Red: t19 t22 t23 t24 = 35 + 3 berries x 2 = 41. Blue: t17 t18 t09 t10 t11 = 25 + 8 berries x 2 = 41.
    state = fixture()
    _score(state, 0, ["t19", "t22", "t23", "t24"], 3)
    _score(state, 1, ["t17", "t18", "t09", "t10", "t11"], 8)
    give(state, 0, "c01", "c02", "c03")
    give(state, 1, "c04", "c05", "c06", "c07", "c08")
    ranking = GAME.result(state).ranking
    assert [(p.seat, p.rank, p.score) for p in ranking] == [(1, 1, 41), (0, 2, 41)]
    give(state, 0, "c09", "c10")  # 5 cards each: shared first place
    assert [(p.seat, p.rank) for p in GAME.result(state).ranking] == [(0, 1), (1, 1)]


def _worked_example():
    state = fixture()
    camp(state, 0, "A1", "A2", "A6", "D3", "D4", "C2", "C3", "C4")
    tuck(state, 0, "c03", "c37", "c47", "c16")
    stories(state, 0, "t01", "t09", "t14", "t22", "t13")
    state.seats[0]["berries"] = 2
    camp(state, 1, "B1", "B2", "B3", "C6", "C1", "D5", "D6", "D0")
    tuck(state, 1, "c35", "c21", "c10", "c41")
    stories(state, 1, "t02", "t07", "t17", "t23", "t24")
    state.seats[1]["berries"] = 1
    for seat in (0, 1):
        for story in state.seats[seat]["stories"]:
            story[1] = GAME.story_met(state, seat, story[0])
    return state


def test_18_worked_example() -> None:
    # Red: story t01 3 + t09 5 + t14 5 + t22 9 = 22 (t13 lacks a crystal); fire t14 + c16 + slot 8 = 3; no
    # majority; groups {A0 A1 A2 A6 D3 D4} {C2 C3 C4} = 8; berries (2 tokens + c37) x 2 = 6; total 39.
    # Blue: story 3 + 3 + 5 + 9 + 9 = 29; fire t07 + c35 + c21 + slot 8 = 4, the most: +4; one group of 9 = 4;
    # berries 1 x 2 = 2; total 43.
    state = _worked_example()
    assert [t for t, done in state.seats[0]["stories"] if done] == ["t01", "t09", "t14", "t22"]
    assert all(done for _, done in state.seats[1]["stories"])
    scores = GAME.breakdowns(state)
    assert scores[0] == {"story": 22, "fire": 3, "fire_bonus": 0, "groups": 8, "berries": 6}
    assert scores[1] == {"story": 29, "fire": 4, "fire_bonus": 4, "groups": 4, "berries": 2}
    ranking = GAME.result(state).ranking
    assert [(p.seat, p.rank, p.score) for p in ranking] == [(1, 1, 43), (0, 2, 39)]


def test_19_slot_rewards_alternate_story_and_tuck() -> None:
    # Placements 1-8: story, tuck, story, tuck, story, tuck, story, tuck + 1 fire.
    assert D.SLOT_REWARDS == ("story", "tuck") * 4 and D.LAST_SLOT_FIRE == 1
    state = fixture()
    seen = []
    for slot in range(1, 9):
        state.actor, state.phase = 0, "turn"
        hex_ = next(h for h in state.board.neighbours["A0"] if h not in state.camps
                    and state.board.terrain[h] in D.LAND) if slot < 6 else None
        if hex_ is None:  # A0's land neighbours are used up: go on from another own camp
            hex_ = next(h for c in sorted(state.camps) if state.camps[c] == 0
                        for h in state.board.neighbours[c]
                        if h not in state.camps and state.board.terrain[h] in D.LAND)
        state.seats[0]["hand"] = []
        land = next(c for c in ("c38", "c44", "c47", "c53") if state.board.terrain[hex_] in D.CARDS[c][0])
        origin = next(c for c in sorted(state.camps) if state.camps[c] == 0 and hex_ in state.board.neighbours[c])
        extra = [] if origin == "A0" else [next(c for c in ("c39", "c45", "c48", "c54", "c40")
                                                if state.board.terrain[origin] in D.CARDS[c][0])]
        give(state, 0, land, *(extra or ["c21"]))
        fire_before = GAME.fire(state, 0)
        events = play(state, 0, f"camp {hex_}")
        while state.phase == "pay":
            events += play(state, 0, legal(state, 0)[0])
        reward = state.phase if state.actor == 0 and state.phase != "turn" else next(
            e.code for e in events if e.code in ("story_taken", "story_drawn", "tucked", "story_lost", "tuck_lost"))
        seen.append({"story": "story", "story_taken": "story", "story_drawn": "story", "tuck": "tuck",
                     "tucked": "tuck", "story_lost": "story", "tuck_lost": "tuck"}[reward])
        if slot == 8:
            assert GAME.fire(state, 0) == fire_before + 1
    assert seen == list(D.SLOT_REWARDS)


def test_20_groups_score_4_each_whatever_their_size() -> None:
    state = fixture()
    camp(state, 0, "A1", "A2", "C3", "C4", "B1", "D1")  # with the start camp A0
    assert [len(g) for g in GAME.groups(state, 0)] == [3, 2, 1, 1]
    assert GAME.breakdowns(state)[0]["groups"] == 8
    camp(state, 1, "B1", "B2", "B3", "C6", "C1", "D5", "D6", "D0")  # B1 moves to Blue: a chain of 9
    state.seats[0]["camps"].remove("B1")
    assert [len(g) for g in GAME.groups(state, 1)] == [9]
    assert GAME.breakdowns(state)[1]["groups"] == 4
    state = fixture()
    camp(state, 0, "A3", "C3", "C4", "B4", "B5", "D1", "D2", "B1")
    assert sorted(len(g) for g in GAME.groups(state, 0)) == [1, 2, 2, 2, 2]
    assert GAME.breakdowns(state)[0]["groups"] == 16


def test_21_berries_tokens_and_tucked_berry_symbols() -> None:
    # (3 tokens + c02 + c37) x 2 = 10
    state = fixture()
    state.seats[0]["berries"] = 3
    tuck(state, 0, "c02", "c37")
    assert GAME.breakdowns(state)[0]["berries"] == 10


def test_22_fire_from_tiles_tucked_cards_and_the_last_camp() -> None:
    # t05, t13, t20: 3; c01, c35: 2; slot 8 empty: 1 -> 6. Slot 8 still full: 5.
    state = fixture()
    _score(state, 0, ["t05", "t13", "t20"], 0)
    tuck(state, 0, "c01", "c35")
    state.seats[0]["placed"] = 8
    assert GAME.breakdowns(state)[0]["fire"] == 6
    state.seats[0]["placed"] = 7
    assert GAME.breakdowns(state)[0]["fire"] == 5


def test_23_only_completed_tiles_score_and_the_rest_are_removed() -> None:
    # t19 8 + t22 9 = 17; t01 unfinished: 0, removed at the end.
    state = fixture()
    state.seats[0]["stories"] = [["t19", True], ["t22", True], ["t01", False]]
    assert GAME.breakdowns(state)[0]["story"] == 17
    GAME._finish(state, [])
    assert state.seats[0]["stories"] == [["t19", True], ["t22", True]]
    assert GAME.result(state).ranking[0].breakdown["story"] == 17


def test_24_fire_majority_among_three() -> None:
    # fire 6 / 6 / 2: +4 / +4 / 0
    state = fixture(3)
    tuck(state, 0, "c01", "c06", "c11", "c16", "c21", "c26")
    tuck(state, 1, "c29", "c32", "c35", "c36")
    _score(state, 1, ["t20", "t21"], 0)
    tuck(state, 2, "c02")
    _score(state, 2, ["t05", "t06"], 0)
    scores = GAME.breakdowns(state)
    assert [scores[s]["fire"] for s in range(3)] == [6, 6, 2]
    assert [scores[s]["fire_bonus"] for s in range(3)] == [4, 4, 0]


def test_25_a_tucked_resource_symbol_counts() -> None:
    # t13 (art pig cry): C2 touches the C0-C2 artifact, A1 the A1-A2 pigment, tucked c05 gives the crystal.
    state = fixture()
    camp(state, 0, "C2", "A1")
    tuck(state, 0, "c05")
    stories(state, 0, "t13")
    play(state, 0, "take 1")
    assert state.seats[0]["stories"] == [["t13", True]]
    scores = GAME.breakdowns(state)[0]
    assert (scores["story"], scores["fire"]) == (6, 1)


def test_26_a_two_terrain_tucked_card_is_one_terrain_per_tile() -> None:
    # c47 (M/D) + camp A3 (M): t03 (M M) met. c47 + camp A1 (F): t09 (F D M) would need c47 as D and as M: not
    # met; with the M camp A3 as well it is.
    state = fixture()
    camp(state, 0, "A3")
    tuck(state, 0, "c47")
    assert GAME.story_met(state, 0, "t03")
    state = fixture()
    camp(state, 0, "A1")
    tuck(state, 0, "c47")
    assert not GAME.story_met(state, 0, "t09")
    camp(state, 0, "A3")
    assert GAME.story_met(state, 0, "t09")


def test_payments_come_cheapest_first_and_stop_at_the_limit() -> None:
    # From A0 (start: any card) to A1 (forest): every forest card with any other card is a 2-card payment.
    state = fixture()
    give(state, 0, "c16", "c17", "c18", "c01", "c02", "c21")
    found = GAME.payments(state, 0, "A1", limit=None)
    sizes = [len(d) + sum(len(c) for _, c in g) for d, g, _ in found]
    assert sizes == sorted(sizes) and sizes[0] == 2
    assert ("c01", "c16") in [d for d, _, _ in found]
    assert GAME.payments(state, 0, "A1", limit=3) == found[:3]
    # each listed payment is reachable by the steps
    discards, gives, route = found[-1]
    events = place(state, 0, "A1", list(discards), dict(gives))
    assert events[0].params["route"] == "-".join(route)
