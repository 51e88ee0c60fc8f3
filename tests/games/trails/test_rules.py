"""Conformance tests, one rule at a time, on positions built with the ``deck`` option.

Coordinates: x grows eastwards, y southwards; the start tile BA-D lies at (0,0) unturned: its fortress
faces north (0,-1), its trail runs west-east, its south side is meadow. ``A`` is the seat that plays
first (dice), ``B`` the second.
"""

from __future__ import annotations

import pytest

from games.core import IllegalAction, InvalidOptions
from games.trails import GAME
from games.trails.actions import CONFIRM, UNDO

from .helpers import codes, figure_refs, new_game, score, turn


def seats(state):
    return state.order[0], state.order[1]


# -- setup ---------------------------------------------------------------------------------------
def test_turn_order_from_two_dice_with_rerolls_among_tied_players():
    tie_seen = False
    for seed in range(60):
        state = GAME.setup(4, {}, seed)
        rolls = [e.params for e in GAME.initial_events(state) if e.code == "dice_rolled"]
        first_round = {r["seat"]: r["total"] for r in rolls if r["round"] == 1}
        assert sorted(first_round) == [0, 1, 2, 3]
        assert all(2 <= r["die1"] + r["die2"] == r["total"] <= 12 for r in rolls)
        # Higher first-round sum always plays earlier; tied players re-rolled among themselves.
        for i, a in enumerate(state.order):
            for b in state.order[i + 1:]:
                assert first_round[a] >= first_round[b]
        rerolled = {r["seat"] for r in rolls if r["round"] == 2}
        tied = {s for s in first_round if list(first_round.values()).count(first_round[s]) > 1}
        assert rerolled == tied
        tie_seen |= bool(tied)
        order_event = [e.params for e in GAME.initial_events(state) if e.code == "turn_order"][0]
        assert order_event["order"] == state.order and order_event["first_seat"] == state.order[0]
        assert GAME.to_act(state) == [state.order[0]]
    assert tie_seen


def test_player_counts_and_supply():
    with pytest.raises(InvalidOptions):
        GAME.setup(1, {}, 0)
    with pytest.raises(InvalidOptions):
        GAME.setup(7, {}, 0)
    view = GAME.view(GAME.setup(6, {"expansions": "inns,traders"}, 0), None)
    assert [p["color"] for p in view["players"]] == ["red", "blue", "green", "yellow", "black", "purple"]
    assert {(p["figures_left"], p["big_left"], p["builder_left"], p["keeper_left"]) for p in view["players"]} == {
        (7, 1, 1, 1)
    }


@pytest.mark.parametrize(
    ("expansions", "in_deck"),
    # 72 base incl. start, River 12, Inns 18, Traders 24; with the River the spring replaces the start tile.
    [("", 71), ("river", 82), ("inns", 89), ("traders", 95), ("river,inns,traders", 124)],
)
def test_tile_counts(expansions, in_deck):
    state = GAME.setup(2, {"expansions": expansions}, 3)
    assert len(state.deck) + 1 + len(state.set_aside) == in_deck  # +1: the tile being placed
    everything = [state.tile, *state.deck, *state.set_aside]
    assert everything.count("BA-D") == 3  # one BA-D is the start tile, or is out of the game with the River


def test_river_tiles_come_first_lake_last_and_spring_starts():
    state = GAME.setup(2, {"expansions": "river"}, 5)
    view = GAME.view(state, None)
    assert view["board"] == [{"x": 0, "y": 0, "tile": "RI-A", "rot": 0}]
    pile = [state.tile, *state.deck]
    assert all(t.startswith("RI-") for t in pile[:11]) and pile[10] == "RI-L"
    assert not any(t.startswith("RI-") for t in pile[11:])


def test_deck_option_is_validated():
    for bad, code in [("BA-Z", "deck_unknown_tile"), ("BA-C,BA-C", "deck_too_many"), ("BA-D,BA-D,BA-D,BA-D", "deck_too_many"),
                      ("RI-D", "deck_needs_expansion")]:
        with pytest.raises(InvalidOptions) as err:
            new_game(bad)
        assert err.value.code == code
    with pytest.raises(InvalidOptions) as err:
        new_game("RI-D,BA-E,RI-D", expansions="river")
    assert err.value.code == "deck_river_order"
    with pytest.raises(InvalidOptions) as err:
        new_game("RI-L,RI-D", expansions="river")
    assert err.value.code == "deck_river_order"
    state = new_game("ba-e, BA-U")
    assert state.tile == "BA-E" and state.deck == ["BA-U"] and state.options["deck"] == "BA-E,BA-U"


# -- placement -----------------------------------------------------------------------------------
def test_placement_must_touch_the_map_and_match_every_edge():
    state = new_game("BA-E,BA-U")
    a, _ = seats(state)
    legal = {(p.x, p.y, p.rot) for p in GAME.legal_actions(state, a)}
    # BA-E (fortress on one side) north of the start's fortress: only turned 180° (its fortress faces south).
    assert {r for x, y, r in legal if (x, y) == (0, -1)} == {2}
    # East of the start (trail edge): BA-E has no trail, so nothing fits there.
    assert not any((x, y) == (1, 0) for x, y, _ in legal)
    assert not any(abs(x) + abs(y) > 1 for x, y, _ in legal)  # touches the map on at least one side
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, a, GAME.parse("place 0,-1 r0"))
    assert err.value.code == "illegal_placement"
    view = GAME.view(state, None)
    assert view["turn"]["legal_rotations"]["0,-1"] == [2]
    assert [0, -1] in view["turn"]["legal_positions"]


def test_unplaceable_tile_is_set_aside_and_next_is_drawn():
    # After BA-E closes the start fortress no fortress edge is open: BA-C (all fortress) fits nowhere.
    state = new_game("BA-E,BA-C,BA-U")
    _, events = turn(state, "place 0,-1 r180")
    assert codes(events, "tile_set_aside") == [{"tile": "BA-C"}]
    assert state.tile == "BA-U" and state.set_aside == ["BA-C"]
    assert GAME.view(state, None)["set_aside"] == ["BA-C"]
    # The game still ends when the pile is empty, even if the last tiles are set aside.
    state = new_game("BA-E,BA-C")
    turn(state, "place 0,-1 r180")
    assert GAME.is_over(state)


# -- figures and undo ----------------------------------------------------------------------------
def test_figures_only_on_unoccupied_features_of_the_new_tile():
    state = new_game("BA-U,BA-U")
    a, b = seats(state)
    turn(state, "place 1,0 r0", "figure road:0")  # A on the start trail
    GAME.apply(state, b, GAME.parse("place -1,0 r0"))
    offered = figure_refs(state)
    # The trail continues A's occupied trail: no figure there; both meadows are free.
    assert offered == {"figure field:0", "figure field:1"}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, b, GAME.parse("figure road:0"))
    assert err.value.code == "illegal_figure"


def test_no_field_figures_when_fields_are_off():
    state = new_game("BA-U", fields=False)
    a, _ = seats(state)
    GAME.apply(state, a, GAME.parse("place 1,0 r0"))
    assert figure_refs(state) == {"figure road:0"}  # the start trail is free; meadows are out of play


def test_undo_steps_back_until_confirmed():
    state = new_game("BA-U,BA-U")
    a, _ = seats(state)
    before = GAME.to_json(state)
    placements = GAME.legal_actions(state, a)
    GAME.apply(state, a, GAME.parse("place 1,0 r0"))
    GAME.apply(state, a, GAME.parse("figure road:0"))
    assert GAME.view(state, a)["turn"]["phase"] == "confirm"
    assert GAME.legal_actions(state, a) == [CONFIRM, UNDO]
    GAME.apply(state, a, UNDO)  # the figure comes back
    assert GAME.view(state, a)["turn"]["phase"] == "figure"
    GAME.apply(state, a, UNDO)  # the tile comes back
    assert GAME.to_json(state) == before
    assert GAME.legal_actions(state, a) == placements


# -- scoring during the game ---------------------------------------------------------------------
def test_two_tile_fortress_scores_four_and_figure_returns_same_turn():
    state = new_game("BA-E,BA-U")
    a, _ = seats(state)
    _, events = turn(state, "place 0,-1 r180", "figure city:0")
    # 2 tiles, no crest: 2*2 = 4; the figure is back in the supply at once.
    assert score(state, a)["cities"] == 4
    assert GAME.view(state, None)["players"][a]["figures_left"] == 7
    assert codes(events, "city_scored") == [
        {"seat": a, "seats": [a], "tiles": 2, "pennants": 0, "cathedral": False, "points": 4}
    ]


def test_rules_example_three_tile_fortress_with_one_crest_is_eight():
    state = new_game("BA-F,BA-E,BA-U")
    a, b = seats(state)
    turn(state, "place 0,-1 r90", "figure city:0")  # BA-F: fortress band north-south, one crest
    _, events = turn(state, "place 0,-2 r180")  # B closes it without a figure of its own
    # 3 tiles + 1 crest: 2*3 + 2*1 = 8, all for A.
    assert codes(events, "city_scored") == [
        {"seat": b, "seats": [a], "tiles": 3, "pennants": 1, "cathedral": False, "points": 8}
    ]
    assert score(state, a)["cities"] == 8 and score(state, b)["cities"] == 0


def _joined_fortress(expansions: str = "", a_figure: str = "figure city:0"):
    """A's fortress (start + corner at (0,-1)) and B's fortress (cap at (1,0)) are joined at (1,-1)."""
    state = new_game("BA-N,BA-K,BA-N,BA-U", expansions=expansions)
    turn(state, "place 0,-1 r180", a_figure)  # BA-N corner: fortress south and east
    turn(state, "place 1,0 r0", "figure city:0")  # BA-K: fortress cap north, trail south-west
    _, events = turn(state, "place 1,-1 r270")  # BA-N corner: fortress west and south closes both
    return state, events


def test_joined_fortress_scores_in_full_for_every_tied_player():
    state, events = _joined_fortress()
    a, b = seats(state)
    # 4 tiles, no crest: 8 points each (tie: both score in full).
    assert codes(events, "city_scored") == [
        {"seat": a, "seats": sorted([a, b]), "tiles": 4, "pennants": 0, "cathedral": False, "points": 8}
    ]
    assert score(state, a)["cities"] == 8 and score(state, b)["cities"] == 8


def test_big_figure_weighs_two_in_majorities():
    state, events = _joined_fortress("inns", "figure big city:0")
    a, b = seats(state)
    # A's big figure (2) beats B's one figure: A alone scores 8.
    assert codes(events, "city_scored")[0]["seats"] == [a]
    assert score(state, a)["cities"] == 8 and score(state, b)["cities"] == 0
    assert GAME.view(state, None)["players"][a]["big_left"] == 1  # returned


def test_trail_closed_by_junctions_scores_one_per_tile():
    state = new_game("BA-W,BA-L,BA-U")
    a, b = seats(state)
    turn(state, "place 1,0 r0", "figure road:2")  # BA-W junction east of the start, A on its west stub
    _, events = turn(state, "place -1,0 r0")  # BA-L junction west of the start closes the trail
    # 3 tiles: 3 points for A.
    assert codes(events, "road_scored") == [{"seat": b, "seats": [a], "tiles": 3, "inn": False, "points": 3}]
    assert score(state, a)["roads"] == 3


def test_trail_loop_is_complete():
    state = new_game("BA-V,BA-V,BA-V,BA-V,BA-U")
    a, _ = seats(state)
    turn(state, "place 0,1 r270", "figure road:0")  # curve east-south
    turn(state, "place 1,1 r0")  # curve west-south
    turn(state, "place 1,2 r90")  # curve north-west
    _, events = turn(state, "place 0,2 r180")  # curve north-east closes the loop
    # A loop of 4 tiles: 4 points.
    assert codes(events, "road_scored")[0]["points"] == 4 and score(state, a)["roads"] == 4


def test_monastery_with_eight_neighbours_scores_nine():
    deck = "BA-B,BA-U,BA-U,BA-B,BA-B,BA-B,BA-A,BA-A,BA-U"
    state = new_game(deck)
    a, _ = seats(state)
    turn(state, "place 0,1 r0", "figure monastery")
    for placement in ["place 1,0 r0", "place -1,0 r0", "place -1,1 r0", "place 1,1 r0", "place -1,2 r0",
                      "place 0,2 r0"]:
        _, events = turn(state, placement)
        assert not codes(events, "monastery_scored")
    _, events = turn(state, "place 1,2 r0")  # the eighth neighbour
    assert codes(events, "monastery_scored") == [{"seat": a, "x": 0, "y": 1, "points": 9}]
    assert score(state, a)["monasteries"] == 9 and GAME.view(state, None)["players"][a]["figures_left"] == 7


def test_inn_doubles_a_closed_trail_and_zeroes_an_open_one():
    state = new_game("IC-15,BA-L,BA-W,BA-U", expansions="inns")
    a, _ = seats(state)
    turn(state, "place 1,0 r0", "figure road:0")  # straight trail with an inn
    turn(state, "place -1,0 r0")
    _, events = turn(state, "place 2,0 r0")  # BA-W closes the east end
    # 4 tiles with an inn: 2*4 = 8.
    assert codes(events, "road_scored")[0] == {"seat": a, "seats": [a], "tiles": 4, "inn": True, "points": 8}
    assert score(state, a)["roads"] == 8

    state = new_game("IC-15,BA-L", expansions="inns")
    a, _ = seats(state)
    turn(state, "place 1,0 r0", "figure road:0")
    _, events = turn(state, "place -1,0 r0")  # last tile: the inn trail is still open
    # Unfinished trail with an inn: 0 (without the inn it would be 3).
    assert codes(events, "road_final") == [{"seats": [a], "tiles": 3, "inn": True, "points": 0}]
    assert score(state, a)["roads"] == 0


def test_cathedral_triples_a_closed_fortress_and_zeroes_an_open_one():
    state = new_game("IC-01,BA-E,BA-E,BA-E,BA-U", expansions="inns")
    a, _ = seats(state)
    turn(state, "place 0,-1 r0", "figure city:0")
    turn(state, "place 0,-2 r180")
    turn(state, "place 1,-1 r270")
    _, events = turn(state, "place -1,-1 r90")
    # 5 tiles with a sanctuary: 3*5 = 15.
    assert codes(events, "city_scored")[0]["points"] == 15 and score(state, a)["cities"] == 15

    state = new_game("IC-01,BA-E,BA-E", expansions="inns")
    a, _ = seats(state)
    turn(state, "place 0,-1 r0", "figure city:0")
    turn(state, "place 0,-2 r180")
    _, events = turn(state, "place 1,-1 r270")  # west side still open at the end
    assert codes(events, "city_final") == [{"seats": [a], "tiles": 4, "pennants": 0, "cathedral": True, "points": 0}]
    assert score(state, a)["cities"] == 0


# -- end of the game -----------------------------------------------------------------------------
def test_end_scores_every_unfinished_feature_kind():
    state = new_game("BA-F,BA-U,BA-B")
    a, b = seats(state)
    turn(state, "place 0,-1 r90", "figure city:0")  # fortress start+BA-F, one crest, open north
    turn(state, "place 1,0 r0", "figure road:0")  # trail start+BA-U, open both ends
    _, events = turn(state, "place 0,1 r0", "figure monastery")  # abbey with start and (1,0) around
    assert GAME.is_over(state)
    # Fortress: 2 tiles + 1 crest = 3. Trail: 2 tiles = 2. Abbey: itself + 2 neighbours = 3.
    assert score(state, a) == {"roads": 0, "cities": 3, "monasteries": 3, "fields": 0, "goods": 0}
    assert score(state, b) == {"roads": 2, "cities": 0, "monasteries": 0, "fields": 0, "goods": 0}
    assert codes(events, "monastery_final") == [{"seat": a, "x": 0, "y": 1, "points": 3}]
    result = GAME.result(state)
    assert [(p.seat, p.rank, p.score) for p in result.ranking] == [(a, 1, 6), (b, 2, 2)]
    assert all(sum(p.breakdown.values()) == p.score for p in result.ranking)


def _two_fields(expansions: str = ""):
    """Start fortress closed by BA-E at (0,-1): A on BA-E's meadow; B on the meadow of BA-V at (1,0),
    which is the start tile's north meadow (a different field touching the same fortress)."""
    state = new_game("BA-E,BA-V,BA-B", expansions=expansions)
    turn(state, "place 0,-1 r180", "figure field:0")
    turn(state, "place 1,0 r0", "figure field:0")
    return state


def test_one_fortress_counts_for_several_fields():
    state = _two_fields()
    a, b = seats(state)
    # The last tile goes south of the start, joining neither meadow.
    turn(state, "place 0,1 r0")
    # Each meadow borders the one closed fortress: 3 for A and 3 for B.
    assert score(state, a)["fields"] == 3 and score(state, b)["fields"] == 3


def test_field_touching_the_same_fortress_twice_counts_it_once():
    state = _two_fields()
    a, b = seats(state)
    _, events = turn(state, "place 1,-1 r0")  # BA-B joins both meadows round the fortress
    # One field, tie 1-1, it touches the fortress on two tiles: counted once, 3 each (not 6).
    assert sorted((e["seat"], e["points"], e["cities"]) for e in codes(events, "field_scored")) == sorted(
        [(a, 3, 1), (b, 3, 1)]
    )


def test_keeper_raises_each_city_from_three_to_four():
    state = _two_fields("traders")
    a, b = seats(state)
    GAME.apply(state, a, GAME.parse("place 1,-1 r0"))
    assert "keeper field:0" in figure_refs(state)  # A already has a figure in the joined meadow
    GAME.apply(state, a, GAME.parse("keeper field:0"))
    events = GAME.apply(state, a, CONFIRM)
    # A (1 figure + keeper) and B (1 figure) lead together; A's keeper makes the city worth 4 to A.
    assert score(state, a)["fields"] == 4 and score(state, b)["fields"] == 3
    assert codes(events, "field_scored")


def test_keeper_needs_an_own_figure_in_the_field():
    state = new_game("BA-U,BA-U", expansions="traders")
    a, b = seats(state)
    turn(state, "place 1,0 r0", "figure field:1")  # A on the south meadow
    GAME.apply(state, b, GAME.parse("place -1,0 r0"))
    offered = figure_refs(state)
    assert "keeper field:1" not in offered and "figure field:1" not in offered  # A's meadow: blocked
    assert "figure field:0" in offered and "builder road:0" not in offered


def test_goods_go_to_the_player_who_closes_the_fortress():
    state = new_game("TB-01,BA-E,BA-U", expansions="traders")
    a, b = seats(state)
    turn(state, "place 0,-1 r180", "figure city:0")  # TB-01 corner with a grain symbol, A's figure
    _, events = turn(state, "place 1,-1 r270")  # B closes the fortress without a figure there
    # 3 tiles: 6 points for A; the grain token for B.
    assert codes(events, "city_scored")[0]["seats"] == [a] and score(state, a)["cities"] == 6
    assert codes(events, "goods_taken") == [{"seat": b, "honey": 0, "grain": 1, "flax": 0}]
    turn(state, "place 1,0 r0")  # last tile; end: B leads grain (1) -> 10; nobody has honey or flax
    assert score(state, b)["goods"] == 10 and score(state, a)["goods"] == 0
    assert GAME.view(state, None)["players"][b]["goods"] == {"honey": 0, "grain": 1, "flax": 0}


def test_goods_majority_ties_all_score():
    state = new_game("TB-01,BA-E,TB-22,BA-E,BA-E", expansions="traders")
    a, b = seats(state)
    turn(state, "place 0,-1 r180")  # TB-01: fortress south-east with grain
    _, events = turn(state, "place 1,-1 r270")  # B closes it: B 1 grain
    assert codes(events, "goods_taken") == [{"seat": b, "honey": 0, "grain": 1, "flax": 0}]
    turn(state, "place -1,-1 r0")  # TB-22: fortress north-west with grain
    turn(state, "place -1,-2 r180")
    _, events = turn(state, "place -2,-1 r90")  # A closes it: A 1 grain; last tile
    # Grain 1-1: both lead and score 10; honey and flax nobody holds: nobody scores them.
    assert score(state, a)["goods"] == 10 and score(state, b)["goods"] == 10
    assert codes(events, "goods_scored") == [{"seats": sorted([a, b]), "good": "grain", "count": 1, "points": 10}]


def test_builder_gives_one_extra_tile_when_its_feature_is_extended():
    state = new_game("BA-U,BA-E,BA-U,BA-B,BA-U,BA-U,BA-U", expansions="traders")
    a, b = seats(state)
    turn(state, "place 1,0 r0", "figure road:0")  # A on the start trail
    turn(state, "place 0,-1 r180")
    seat, events = turn(state, "place 2,0 r0", "builder road:0")  # builder joins A's trail
    assert seat == a and not codes(events, "builder_bonus")  # the builder's own tile never triggers
    assert GAME.to_act(state) == [b]
    turn(state, "place 0,1 r0")
    seat, events = turn(state, "place 3,0 r0")  # A extends the builder's trail
    assert seat == a and codes(events, "builder_bonus") == [{"seat": a}]
    assert GAME.to_act(state) == [a]  # the extra tile
    seat, events = turn(state, "place 4,0 r0")  # extends again: still no third tile
    assert seat == a and not codes(events, "builder_bonus")
    assert GAME.to_act(state) == [b]


def test_builder_needs_own_figure_and_carries_no_weight():
    state = new_game("BA-U,BA-U", expansions="traders")
    a, b = seats(state)
    turn(state, "place 1,0 r0", "figure road:0")
    GAME.apply(state, b, GAME.parse("place -1,0 r0"))
    assert "builder road:0" not in figure_refs(state)  # B has no figure on A's trail


# -- the River -----------------------------------------------------------------------------------
def test_river_u_turn_is_refused():
    state = new_game("RI-G,RI-G,RI-D", expansions="river")
    turn(state, "place 1,0 r90")  # curve: water west and north, the river turns left (flows north)
    a = GAME.to_act(state)[0]
    legal = {(p.x, p.y, p.rot) for p in GAME.legal_actions(state, a)}
    # Only at the river's open end (1,-1); turning left again (r0: water south-west) is a U-turn.
    assert legal == {(1, -1, 3)}
    with pytest.raises(IllegalAction):
        GAME.apply(state, a, GAME.parse("place 1,-1 r0"))


def test_river_tile_must_continue_the_river():
    state = new_game("RI-D,RI-D", expansions="river")
    a = GAME.to_act(state)[0]
    # Straight river east of the spring only, either way round.
    assert {(p.x, p.y, p.rot) for p in GAME.legal_actions(state, a)} == {(1, 0, 0), (1, 0, 2)}


def test_no_figures_on_water_and_the_river_splits_fields():
    state = new_game("RI-B,RI-D,RI-D,BA-U", expansions="river")
    turn(state, "place 1,0 r0")  # fortress north, trail south: cuts the meadows off the spring
    turn(state, "place 2,0 r0", "figure field:0")  # B on the meadow north of the water
    GAME.apply(state, GAME.to_act(state)[0], GAME.parse("place 3,0 r0"))
    # North meadow is B's; south meadow is free; nothing else (no river feature) is offered.
    assert figure_refs(state) == {"figure field:1"}


def test_the_lake_ends_the_river_and_land_tiles_follow():
    state = new_game("RI-D,RI-L,BA-U", expansions="river")
    turn(state, "place 1,0 r0")
    a = GAME.to_act(state)[0]
    assert {(p.x, p.y, p.rot) for p in GAME.legal_actions(state, a)} == {(2, 0, 0)}  # lake: water west
    turn(state, "place 2,0 r0")
    assert state.river_end is None and state.tile == "BA-U"


# -- elimination ---------------------------------------------------------------------------------
def test_eliminate_mid_turn_undoes_the_placement_and_moves_on():
    state = new_game("BA-U,BA-U,BA-U", players=3)
    a, b, c = state.order
    GAME.apply(state, a, GAME.parse("place 1,0 r0"))
    events = GAME.eliminate(state, a)
    assert codes(events, "eliminated") == [{"seat": a}]
    assert GAME.to_act(state) == [b] and state.tile == "BA-U" and GAME.view(state, None)["board"][1:] == []
    turn(state, "place 1,0 r0", "figure road:0")
    turn(state, "place 2,0 r0")
    assert GAME.to_act(state) == [b]  # a is skipped
    GAME.eliminate(state, c)
    assert GAME.is_over(state)
    ranking = GAME.result(state).ranking
    assert ranking[0].seat == b and {p.seat for p in ranking[1:]} == {a, c}
    assert all(p.eliminated for p in ranking[1:])


# -- notation ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["place 2,-1 r90", "place 0,0 r0", "place -3,7 r270", "figure city:0", "figure big road:1", "builder road:0",
     "keeper field:2", "figure monastery", "figure big monastery", "confirm", "undo"],
)
def test_notation_round_trip(text):
    action = GAME.parse(text)
    assert GAME.format(action) == text and GAME.parse(GAME.format(action)) == action


@pytest.mark.parametrize(("text", "code"), [
    ("", "notation"), ("place 1,1", "notation"), ("place 1,1 r45", "bad_rotation"), ("figure", "notation"),
    ("figure tower:0", "notation"), ("keeper", "notation"), ("jump", "notation"),
])
def test_malformed_notation(text, code):
    with pytest.raises(IllegalAction) as err:
        GAME.parse(text)
    assert err.value.code == code


@pytest.mark.parametrize(("text", "code"), [
    ("place " + "9" * 4400 + ",0 r90", "bad_position"),
    ("place 0,-" + "1" * 5000 + " r90", "bad_position"),
    ("place 1e400,0 r90", "bad_position"),
    ("place inf,-inf r90", "bad_position"),
    ("place 0,nan r90", "bad_position"),
    ("place 1234567,0 r90", "bad_position"),
    ("place 1,0 r" + "9" * 4400, "bad_rotation"),
    ("place 1,0 r1e400", "bad_rotation"),
    ("place 1,0 rinf", "bad_rotation"),
    ("place 1,0 r7", "bad_rotation"),
    ("place ١,٢ r90", "bad_position"),  # digits of other scripts are no notation
    ("x" * 6000, "notation"),
    ("figure city:" + "1" * 6000, "notation"),
    ("place 1,0 r90 " + "y" * 20000, "notation"),
])
def test_hostile_notation_is_refused_with_a_clear_code_and_a_short_echo(text, code):
    with pytest.raises(IllegalAction) as err:
        GAME.parse(text)
    assert err.value.code == code
    assert all(len(str(value)) <= 100 for value in err.value.params.values())


def test_default_action_places_then_confirms():
    state = new_game("BA-U,BA-U")
    a = GAME.to_act(state)[0]
    first = GAME.default_action(state, a)
    assert first in GAME.legal_actions(state, a)
    GAME.apply(state, a, first)
    assert GAME.default_action(state, a) == CONFIRM
    GAME.apply(state, a, GAME.parse("figure road:0"))
    # A figure chosen but not confirmed is taken back: the timed-out turn ends without a new figure.
    assert GAME.default_action(state, a) == UNDO
    GAME.apply(state, a, UNDO)
    GAME.apply(state, a, GAME.default_action(state, a))
    assert GAME.to_act(state) != [a] and state.figures == {}


def test_crest_belongs_to_its_own_fortress_segment():
    state = new_game("IC-06", expansions="inns")
    a, _ = seats(state)
    # IC-06: crested corner fortress north-west and a separate cap south; the cap closes the start fortress.
    _, events = turn(state, "place 0,-1 r0", "figure city:1")
    # 2 tiles, the crest is on the other segment: 4 (not 6).
    assert codes(events, "city_scored")[0]["points"] == 4 and codes(events, "city_scored")[0]["pennants"] == 0
    assert score(state, a)["cities"] == 4


def test_inner_field_never_connects_and_scores_its_fortresses():
    # IC-03: four separate fortress caps round an inner meadow; the start closes the south cap at once.
    state = new_game("IC-03,BA-E,BA-E,BA-E", expansions="inns")
    a, _ = seats(state)
    turn(state, "place 0,-1 r0", "figure field:0")
    turn(state, "place 0,-2 r180")
    turn(state, "place 1,-1 r270")
    _, events = turn(state, "place -1,-1 r90")
    # All four fortresses (2 tiles each) are closed and border the inner meadow: 4 * 3 = 12.
    assert score(state, a)["fields"] == 12
    assert codes(events, "field_scored") == [{"seat": a, "cities": 4, "keeper": False, "points": 12}]
