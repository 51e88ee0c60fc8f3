"""The generic panel (cogs/panel.py) through the real bot over the fake Discord, on Nim: a game with a
presentation module (tests/nim_presentation.py) and no cog of its own is played to the end only with the
Take turn button under each board and the panel's buttons; Undo goes back inside the turn, a stale panel
refuses itself and changes nothing, the board tells the turn in the presentation's words."""

from __future__ import annotations

from tests.e2e import harness
from tests.e2e.harness import start_bot

TURN = "pbc:panel:turn"


def _private(message) -> bool:
    return message.ephemeral


def _ids(message, prefix: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith(prefix)]


async def _edited(fake, inter, message, mark: int):
    """The panel once the bot has answered ``inter`` by editing it (acknowledged first: type 6)."""
    assert (await inter.response()).type == 6
    return await fake.wait_for_message(None, lambda m: m.id == message.id and not m.loading, after=mark)


async def _press(fake, panel, custom_id, user):
    mark = fake.mark()
    return await _edited(fake, await fake.click(panel, custom_id, user=user), panel, mark)


async def test_nim_to_the_end_through_the_generic_panel(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    _lobby, board = await harness.open_table(fake, world, "nim", world.bob, options="pile=7")
    table = bot.client.tables.tables[world.general.id]
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    assert TURN in board.custom_ids() and board.mentions == [world.alice.id]

    # Not to move, not seated: private refusals.
    for user, words in ((world.bob, "not your turn"), (world.carol, "not seated")):
        refusal = await (await fake.click(board, TURN, user=user)).reply(_private)
        assert words in refusal.content.lower() and not refusal.custom_ids()

    turns, spare = 0, None
    while board.mentions:
        user = users[board.mentions[0]]
        panel = await (await fake.click(board, TURN, user=user)).reply(_private)
        assert "sticks are left" in panel.content or "stick is left" in panel.content
        counts = _ids(panel, "pbc:panel:do:")
        assert 1 <= len(counts) <= 3 and not _ids(panel, "pbc:panel:undo:")  # nothing to undo yet
        if turns == 0:
            assert [c["label"] for c in map(panel.component, counts)] == ["Take 1 stick", "Take 2 sticks",
                                                                           "Take 3 sticks"]
            # Undo inside the turn: pick 3, go back, the first question again; nothing was played.
            confirm = await _press(fake, panel, counts[2], user)
            assert "Take 3, leaving 4?" in confirm.content and _ids(confirm, "pbc:panel:undo:")
            panel = await _press(fake, confirm, _ids(confirm, "pbc:panel:undo:")[0], user)
            assert _ids(panel, "pbc:panel:do:") == counts and table.version == 0 and table.state.pile == 7
            spare = await (await fake.click(board, TURN, user=user)).reply(_private)  # a second panel, kept
            spare = await _press(fake, spare, _ids(spare, "pbc:panel:do:")[0], user)
        take = counts[-1] if turns % 2 else counts[0]
        count = int(panel.component(take)["label"].split()[1])
        left = table.state.pile - count
        confirm = await _press(fake, panel, take, user)
        mark = fake.mark()
        (ok,) = [c for c in _ids(confirm, "pbc:panel:do:") if c.endswith(".ok")]
        await fake.click(confirm, ok, user=user)
        board = await fake.wait_for_message(world.general, harness.has_image, after=mark)
        assert f"{table.seats[0 if user is world.alice else 1].display} took {count}; {left} left." in board.text
        done = await fake.wait_for_message(None, lambda m, panel_id=confirm.id: m.id == panel_id and "Turn played" in m.content,
                                           after=mark)
        assert not done.custom_ids()
        if turns == 0:  # the kept panel is out of date now: it refuses itself and plays nothing
            before = (table.version, table.state.pile)
            (stale_ok,) = [c for c in _ids(spare, "pbc:panel:do:") if c.endswith(".ok")]
            refusal = await (await fake.click(spare, stale_ok, user=user)).reply(
                lambda m, panel_id=spare.id: m.ephemeral and m.id != panel_id)
            assert "out of date" in refusal.content
            assert (table.version, table.state.pile) == before
        turns += 1
    assert table.game.is_over(table.state) and not board.custom_ids() and turns >= 3


async def test_forged_panel_ids_are_refused(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    _lobby, board = await harness.open_table(fake, world, "nim", world.bob, options="pile=2")
    table = bot.client.tables.tables[world.general.id]
    panel = await (await fake.click(board, TURN, user=world.alice)).reply(_private)
    (first,) = [c for c in _ids(panel, "pbc:panel:do:") if c.endswith(":1")]
    for forged in (first[:-1] + "3", first[:-1] + "2.ok.ok", first.replace(":do:0:", ":do:5:"), first + ".zz"):
        component = panel.component(first)
        component["custom_id"] = forged  # the client sends what it was given: a forged id
        refusal = await (await fake.click(panel, forged, user=world.alice)).reply(
            lambda m: m.ephemeral and m.id != panel.id)
        assert "out of date" in refusal.content, forged
        component["custom_id"] = first
    assert table.version == 0 and table.state.pile == 2


async def test_game_turn_opens_the_same_panel_typed(fake, world, make_bot):
    await start_bot(fake, make_bot)
    none = await (await fake.slash("/game turn", user=world.alice, channel=world.general)).reply()
    assert none.ephemeral and "no game table" in none.content.lower()
    await harness.open_table(fake, world, "nim", world.bob, options="pile=4")
    panel = await (await fake.slash("/game turn", user=world.alice, channel=world.general)).reply()
    assert panel.ephemeral and "4 sticks are left" in panel.content
    assert len([c for c in panel.custom_ids() if c.startswith("pbc:panel:do:0:0:")]) == 3
    refusal = await (await fake.slash("/game turn", user=world.bob, channel=world.general)).reply()
    assert "not your turn" in refusal.content.lower()


async def test_game_choose_and_game_undo_are_the_panel_typed(fake, world, make_bot):
    """On Trails: /game choose suggests the current step's answers and answers one (the rest of the turn in
    the panel that follows); /game undo takes back a typed step of the turn, and says so when there is none."""
    bot = await start_bot(fake, make_bot)
    _lobby, board = await harness.open_table(fake, world, "trails", world.bob)
    channel = world.general
    table = bot.client.tables.tables[channel.id]
    user = world.alice if board.mentions == [world.alice.id] else world.bob
    other = world.bob if user is world.alice else world.alice
    assert await fake.autocomplete("/game choose", user=other, channel=channel, focused="choice", value="") == []
    found = await fake.autocomplete("/game choose", user=user, channel=channel, focused="choice", value="")
    assert found and all(" · " in c["name"] for c in found)  # "A · 0, -1": the positions, by their letter
    nothing = await (await fake.slash("/game undo", user=user, channel=channel)).reply()
    assert nothing.ephemeral and "Nothing to take back" in nothing.content
    wrong = await (await fake.slash("/game choose", user=user, channel=channel, choice="zz_top")).reply()
    assert wrong.ephemeral and "not one of your answers" in wrong.content and table.version == 0
    step = await (await fake.slash("/game choose", user=user, channel=channel, choice=found[0]["value"])).reply()
    assert step.ephemeral and step.attachments and _ids(step, "pbc:panel:")  # the next step, with its picture
    assert table.version == 0  # nothing played yet

    # A step typed with /trails place is taken back by /game undo.
    positions = await fake.autocomplete("/trails place", user=user, channel=channel, focused="position", value="")
    rotations = await fake.autocomplete("/trails place", user=user, channel=channel, focused="rotation", value="",
                                        position=positions[0]["value"])
    await (await fake.slash("/trails place", user=user, channel=channel, position=positions[0]["value"],
                            rotation=rotations[0]["value"])).reply()
    assert table.state.pending is not None and table.version == 1
    undone = await (await fake.slash("/game undo", user=user, channel=channel)).reply()
    assert undone.ephemeral and table.state.pending is None and table.version == 2
    assert fake.unknown_routes == [] and bot.errors == []
    await bot.stop()
