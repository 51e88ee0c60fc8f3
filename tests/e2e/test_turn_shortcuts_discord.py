"""Shorter turns (issue 39, "Rough edges players meet"), through the real bot over the fake Discord:
``/game move``'s suggestions (at most 25, grouped, every legal move reached by typing on from them, a group
sent as it is answered with what it may become); the /deole step commands saying why a step has no answers;
a Trails turn started by picking its position under the board post; a Déole pick started from the board
post's select menu, with answers that play several steps at once."""

from __future__ import annotations

import random

from tests.e2e.harness import start_bot, start_table

MARK = "…"


async def _open(fake, world, game: str, players, options: str = "", locale: str = "en-US", is_board=None):
    lobby = await (await fake.slash("/game new", user=players[0], channel=world.general, locale=locale,
                                    options={"game": game, "options": options})).reply()
    for user in players[1:]:
        await (await fake.click(lobby, "pbc:lobby:join", user=user)).response()
    if is_board is None:
        return await start_table(fake, lobby, players[0], world.general)
    return await start_table(fake, lobby, players[0], world.general, is_board, locale)


def _mover(bot, world, channel):
    table = bot.client.tables.tables[channel.id]
    user_id = table.seats[table.game.to_act(table.state)[0]].user_id
    return next(u for u in (world.alice, world.bob, world.carol, world.dave) if u.id == user_id)


def _is_deole_board(message) -> bool:
    return not message.ephemeral and len(message.attachments) == 2


async def test_game_move_suggests_25_at_most_and_every_trails_move_is_reached_by_typing_on(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel, service = world.general, bot.client.tables
    await _open(fake, world, "trails", [world.alice, world.bob])
    table = service.tables[channel.id]
    rng = random.Random(4)
    while len(service.legal_notations(channel.id, _mover(bot, world, channel).id)) <= 25:  # a grown board
        user = _mover(bot, world, channel)
        await service.act(channel.id, user.id, [rng.choice(service.legal_notations(channel.id, user.id)), "confirm"])
    user = _mover(bot, world, channel)
    legal = set(service.legal_notations(channel.id, user.id))

    first = await fake.autocomplete("/game move", user=user, channel=channel, focused="action", value="")
    assert len(first) <= 25 < len(legal)
    groups = [c for c in first if MARK in c["name"]]
    assert groups and all(MARK not in c["value"] and c["value"].startswith("place ") for c in groups)
    # Typing on from the suggestions reaches every legal move: a picked group leaves its name in the box, as
    # Discord does, and the suggestions go on from there.
    reached: set[str] = set()
    boxes, seen = [""], set()
    while boxes:
        box = boxes.pop()
        if box in seen:
            continue
        seen.add(box)
        found = await fake.autocomplete("/game move", user=user, channel=channel, focused="action", value=box)
        assert 0 < len(found) <= 25
        for choice in found:
            if MARK in choice["name"]:
                boxes.append(choice["name"])
            else:
                assert choice["name"] == choice["value"]
                reached.add(choice["value"])
    assert reached == legal
    ru = await fake.autocomplete("/game move", user=user, channel=channel, focused="action", value="", locale="ru")
    assert [c["value"] for c in ru] == [c["value"] for c in first]
    assert all(("ход" in c["name"]) == (MARK in c["name"]) for c in ru)  # "place 0,-1 … (3 хода)"

    # A group sent as it is (its value, or its name as Discord may send it): what it may become, privately;
    # nothing is played.
    version = table.version
    for group in groups:  # a group that a single pick more turns into moves
        then = await fake.autocomplete("/game move", user=user, channel=channel, focused="action",
                                       value=group["name"])
        if any(MARK not in c["name"] for c in then):
            break
    for sent in (group["value"], group["name"]):
        reply = await (await fake.slash("/game move", user=user, channel=channel, action=sent)).reply()
        assert reply.ephemeral and "is only the start of a move" in reply.content
        assert all(f"`{c['name']}`" in reply.content for c in then)
    assert table.version == version
    ru_reply = await (await fake.slash("/game move", user=user, channel=channel, action=group["value"],
                                       locale="ru")).reply()
    assert ru_reply.ephemeral and "только начало хода" in ru_reply.content
    # A move reached by typing on is played as ever: the step is answered privately with its preview.
    move = next(c["value"] for c in then if MARK not in c["name"])
    step = await (await fake.slash("/game move", user=user, channel=channel, action=move)).reply()
    assert step.ephemeral and "not played yet" in step.content
    assert fake.unknown_routes == []
    await bot.stop()


async def test_deole_step_commands_say_why_a_step_has_no_answers(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel, service = world.general, bot.client.tables
    await _open(fake, world, "deole", [world.alice, world.bob], is_board=_is_deole_board)
    table = service.tables[channel.id]
    user = _mover(bot, world, channel)
    other = world.bob if user == world.alice else world.alice
    dice = await fake.autocomplete("/deole die", user=user, channel=channel, focused="die", value="")
    assert dice and all(c["value"].startswith("die ") for c in dice)
    # A die whose pick goes on (a track to choose): taken with the command, its step is done.
    game = table.game
    chosen = next(c["value"] for c in dice if game.view(_after(game, table.state, user, table, c["value"]),
                                                        None)["phase"] == "track")
    await (await fake.slash("/deole die", user=user, channel=channel, die=chosen)).reply()
    (done,) = await fake.autocomplete("/deole die", user=user, channel=channel, focused="die", value="")
    assert done == {"name": "ⓘ This step is already done. Now: choosing a track", "value": "?"}
    (later,) = await fake.autocomplete("/deole bonus", user=user, channel=channel, focused="bonus", value="",
                                       locale="ru")
    assert later["name"] == "ⓘ До этого шага ещё не дошло. Сейчас: выбор дорожки"
    (waiting,) = await fake.autocomplete("/deole track", user=other, channel=channel, focused="track", value="")
    assert waiting["name"] == "ⓘ Nothing to choose now: It is not your turn."
    # Sent as it is, the explanation brings the current question with its buttons; nothing is played.
    version = table.version
    reply = await (await fake.slash("/deole die", user=user, channel=channel, die=done["value"])).reply()
    assert reply.ephemeral and "Choose the track for this die." in reply.content
    assert [i for i in reply.custom_ids() if i.startswith("pbc:panel:do:")]
    assert table.version == version
    await bot.stop()


def _after(game, state, user, table, notation: str):
    trial = game.clone(state)
    game.apply(trial, table.seat_of(user.id).position, game.parse(notation))
    return trial


async def test_a_trails_turn_starts_by_picking_its_position_under_the_board(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    board = await _open(fake, world, "trails", [world.alice, world.bob])
    for _ in range(3):  # a few turns, each in two or three clicks
        user = _mover(bot, world, channel)
        other = world.bob if user == world.alice else world.alice
        selects = [i for i in board.custom_ids() if i.startswith("pbc:panel:sel:")]
        assert selects and "pbc:panel:turn" in board.custom_ids()
        option = board.component(selects[0])["options"][-1]
        refusal = await (await fake.select(board, selects[0], [option["value"]], user=other)).reply()
        assert refusal.ephemeral and "not your turn" in refusal.content.lower()
        shown = len(board.history)
        panel = await (await fake.select(board, selects[0], [option["value"]], user=user)).reply()
        assert panel.ephemeral and panel.attachments[0].image().format == "PNG"  # the picture, on that position
        assert option["label"].split(" · ")[0] in panel.content or "turned" in panel.content
        assert len(fake.messages[board.id].history) == shown  # the board post itself is left as it was
        while True:  # the rotation when there are several, then no figure: the turn is played
            answers = [i for i in panel.custom_ids() if i.startswith("pbc:panel:do:")]
            final = [i for i in answers if panel.component(i)["label"] in ("No figure", "Confirm")]
            mark = fake.mark()
            await fake.click(panel, (final or answers)[0], user=user)
            if final:
                break
            panel = await fake.wait_for_message(None, lambda m, pid=panel.id: m.id == pid, after=mark)
        old, board = board, await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral,
                                                        after=mark)
    # A position picked under an old board: out of date, nothing played.
    stale_id = next(i for i in old.custom_ids() if i.startswith("pbc:panel:sel:"))
    stale = await (await fake.select(old, stale_id, [old.component(stale_id)["options"][0]["value"]],
                                     user=_mover(bot, world, channel))).reply()
    assert stale.ephemeral and "out of date" in stale.content
    assert fake.unknown_routes == []
    await bot.stop()


async def test_a_deole_pick_starts_from_the_board_and_an_answer_plays_several_steps(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    board = await _open(fake, world, "deole", [world.alice, world.bob], is_board=_is_deole_board)
    several = 0
    for _ in range(4):  # a few picks, each started on its board post
        user = _mover(bot, world, channel)
        other = world.bob if user == world.alice else world.alice
        pick = next(i for i in board.custom_ids() if i.startswith("pbc:panel:sel:"))
        options = board.component(pick)["options"]
        assert "pbc:panel:turn" in board.custom_ids() and 0 < len(options) <= 25
        assert board.component(pick)["placeholder"].endswith(": Choose…")
        refusal = await (await fake.select(board, pick, [options[0]["value"]], user=other)).reply()
        assert refusal.ephemeral and "not your turn" in refusal.content.lower()
        option = max(options, key=lambda o: o["label"].count(" · "))  # the answer playing the most steps
        several += " · " in option["label"]
        shown = len(board.history)
        mark = fake.mark()
        reply = await (await fake.select(board, pick, [option["value"]], user=user)).reply(lambda m: m.ephemeral)
        assert reply.ephemeral and len(fake.messages[board.id].history) == shown  # the board is left as it was
        while "board is posted" not in reply.content:  # the rest of the pick in the private panel
            ids = [i for i in reply.custom_ids() if i.startswith(("pbc:panel:do:", "pbc:panel:sel:"))]
            assert ids, reply.content
            seen = reply.seq
            if ids[0].startswith("pbc:panel:sel:"):
                inter = await fake.select(reply, ids[0], [reply.component(ids[0])["options"][0]["value"]], user=user)
            else:
                inter = await fake.click(reply, ids[0], user=user)
            assert (await inter.response()).type == 6
            reply = await fake.wait_for_message(None, lambda m, r=reply.id: m.id == r, after=seen)
        board = await fake.wait_for_message(channel, _is_deole_board, after=mark, timeout=20)
    assert several  # answers with several steps were offered and played
    assert fake.unknown_routes == []
    await bot.stop()
