"""An unconfirmed placement belongs to the player to move: public views (spectators, every other seat)
show the confirmed position only, the mover's own view shows the pending tile and figure."""

from __future__ import annotations

import json

from games.ai import RandomAI
from games.trails import GAME, Figure, Place
from games.trails.actions import CONFIRM


def _placement_with_a_figure(state, seat):
    for action in GAME.legal_actions(state, seat):
        GAME.apply(state, seat, action)
        figures = [a for a in GAME.legal_actions(state, seat) if isinstance(a, Figure)]
        if figures:
            return action, figures[0]
        GAME.apply(state, seat, GAME.parse("undo"))
    raise AssertionError("no placement allows a figure")


def test_a_pending_placement_and_figure_are_seen_by_the_mover_only_until_confirmed():
    state = GAME.setup(3, {"expansions": "inns,traders"}, 4)
    mover = GAME.to_act(state)[0]
    others = [seat for seat in range(3) if seat != mover]
    before = GAME.view(state, None)
    assert all(GAME.view(state, seat) == before for seat in range(3))
    tile = state.tile

    placement, chosen = _placement_with_a_figure(state, mover)
    for step in ("tile", "figure"):
        if step == "figure":
            GAME.apply(state, mover, chosen)
        assert GAME.view(state, None) == before  # no trace of the pending step, not even the step name
        assert all(GAME.view(state, seat) == before for seat in others)
        mine = GAME.view(state, mover)["turn"]
        expected_figure = {"kind": chosen.kind, "feature": chosen.feature} if step == "figure" else None
        assert mine["placed"] == {"x": placement.x, "y": placement.y, "rot": placement.rot, "figure": expected_figure}
        assert mine["phase"] == ("confirm" if step == "figure" else "figure") and mine["legal_positions"] == []

    GAME.apply(state, mover, CONFIRM)
    after = GAME.view(state, None)
    assert {"x": placement.x, "y": placement.y, "tile": tile, "rot": placement.rot} in after["board"]
    assert after["last_placed"] == [placement.x, placement.y]
    assert {"seat": mover, "x": placement.x, "y": placement.y, "kind": chosen.kind, "feature": chosen.feature} \
        in after["figures"]


def test_public_views_never_show_a_pending_step_in_random_games():
    for seed in range(3):
        state = GAME.setup(4, {"expansions": "river,inns,traders"}, seed)
        ai = RandomAI(seed)
        confirmed = GAME.view(state, None)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            action = ai.choose(GAME, state, seat)
            GAME.apply(state, seat, action)
            public = GAME.view(state, None)
            if state.pending is not None:
                assert public == confirmed
                assert [GAME.view(state, s) for s in range(4) if s != seat] == [public] * 3
                assert GAME.view(state, seat)["turn"]["placed"]["x"] == state.pending[0]
                copy = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
                assert GAME.view(copy, None) == public and GAME.view(copy, seat) == GAME.view(state, seat)
            else:
                assert public["turn"] is None or public["turn"]["placed"] is None
                if not isinstance(action, Place):
                    confirmed = public
