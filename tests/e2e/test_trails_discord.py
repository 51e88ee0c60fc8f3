"""Trails & Fortresses through the real bot over the fake Discord: whole games played with the one panel
(cogs/panel.py: the position, its rotation with a picture of each, the figure or none, which plays the turn)
and with the /trails commands and their autocomplete; Undo inside the turn; refusals; the final post with the
standings breakdown and the board PNG."""

from __future__ import annotations

import asyncio
import random

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import start_bot, start_table

TURN = "pbc:panel:turn"


def panel_choices(message) -> list[tuple[str, str | None, str]]:
    """The panel's answers: (custom id, the select value or None for a button, the label); Undo, paging and
    disabled components left out."""
    out: list[tuple[str, str | None, str]] = []
    for component in message.all_components():
        custom_id = component.get("custom_id", "")
        if component.get("disabled") or not custom_id.startswith(("pbc:panel:do:", "pbc:panel:sel:")):
            continue
        if custom_id.startswith("pbc:panel:sel:"):
            out += [(custom_id, o["value"], o["label"]) for o in component["options"]]
        else:
            out.append((custom_id, None, component["label"]))
    return out


async def choose(fake: FakeDiscord, message, choice: tuple[str, str | None, str], user):
    """Click a panel's answer (a button, or a select's option)."""
    custom_id, value, _label = choice
    if value is None:
        return await fake.click(message, custom_id, user=user)
    return await fake.select(message, custom_id, [value], user=user)


def _id(message, prefix: str) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith(prefix)), None)


def _enabled(message, prefix: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith(prefix) and not message.component(c).get("disabled")]


async def _open_table(fake: FakeDiscord, world, options: str):
    channel = world.general
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel,
                                    options={"game": "trails", "options": options})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    board = await start_table(fake, lobby, world.alice, channel)
    return channel, board


def _player(world, board):
    return world.alice if board.mentions == [world.alice.id] else world.bob


async def _after(fake: FakeDiscord, inter, message, mark: int):
    """The panel message once the bot has answered ``inter`` by editing it."""
    callback = await inter.response()
    assert callback.type in (6, 7), callback
    return await fake.wait_for_message(None, lambda m: m.id == message.id, after=mark)


async def test_a_whole_game_with_every_expansion_through_the_panel(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel, board = await _open_table(fake, world, "expansions=river,inns,traders")
    assert "🎲" in board.embeds[0]["description"]  # the dice for the turn order, in words
    assert TURN in board.custom_ids()

    # Not seated, and seated but not on turn: an ephemeral refusal, no panel, nothing posted.
    for user, words in ((world.carol, "not seated"), (_other(world, board), "not your turn")):
        mark = fake.mark()
        refusal = await (await fake.click(board, TURN, user=user)).reply()
        assert refusal.ephemeral and words in refusal.content.lower() and not refusal.custom_ids()
        assert not [m for m in fake.channel_messages(channel) if m.seq > mark and not m.ephemeral]

    rng = random.Random(5)
    seen = {"rotate": 0, "figure": 0, "undo": 0, "preview": 0}
    turns = 0
    while TURN in board.custom_ids():
        user = _player(world, board)
        panel = await (await fake.click(board, TURN, user=user)).reply()
        assert panel.ephemeral and "tile" in panel.content.lower()
        positions = panel_choices(panel)
        assert positions and not panel.attachments
        version = table_version(bot, channel)
        mark = fake.mark()
        panel = await _after(fake, await choose(fake, panel, rng.choice(positions), user), panel, mark)
        while panel.attachments:  # a step of the turn with its picture: the rotations, then the figure
            assert panel.attachments[0].image().format == "PNG"
            seen["preview"] += 1
            answers = panel_choices(panel)
            rotating = answers[0][2].startswith("↻")
            if not rotating and not seen["undo"] and _id(panel, "pbc:panel:undo:"):  # back one step, nothing played
                mark, shown = fake.mark(), panel.content
                panel = await _after(fake, await fake.click(panel, _id(panel, "pbc:panel:undo:"), user=user),
                                     panel, mark)
                assert panel.content != shown and table_version(bot, channel) == version
                seen["undo"] += 1
                continue
            figures = [a for a in answers if a[2] not in ("No figure", "Confirm")]
            pick = rng.choice(answers) if rotating else rng.choice(figures) if figures and rng.random() < 0.6 \
                else answers[0]
            seen["rotate" if rotating else "figure"] += pick in figures or rotating
            mark = fake.mark()
            inter = await choose(fake, panel, pick, user)
            if rotating:
                panel = await _after(fake, inter, panel, mark)
                continue
            board = await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral,
                                                after=mark)
            assert (await inter.response()).type == 6  # acknowledged first, then the panel is edited
            break
        turns += 1
    assert turns > 60 and all(seen.values()), seen

    final = board
    assert "game over" in final.content.lower() and not final.custom_ids()
    assert final.attachments[0].image().format == "PNG"
    standings = final.embeds[1]
    assert standings["title"] == "Final standings" and len(standings["fields"]) == 2
    for field in standings["fields"]:
        for word in ("Trails", "Fortresses", "Abbeys", "Meadows", "Goods", "Inns & sanctuaries"):
            assert word in field["value"]
    assert fake.unknown_routes == []
    await bot.stop()


def table_version(bot, channel) -> int:
    return bot.client.tables.tables[channel.id].version


def _other(world, board):
    return world.bob if board.mentions == [world.alice.id] else world.alice


async def test_a_whole_game_with_every_expansion_through_the_commands(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel, board = await _open_table(fake, world, "expansions=river,inns,traders")
    rng = random.Random(8)
    figures = undone = 0
    while TURN in board.custom_ids():
        user = _player(world, board)
        positions = await fake.autocomplete("/trails place", user=user, channel=channel, focused="position", value="")
        position = rng.choice(positions)["value"]
        rotations = await fake.autocomplete("/trails place", user=user, channel=channel, focused="rotation",
                                            value="", position=position)
        reply = await (await fake.slash("/trails place", user=user, channel=channel, position=position,
                                        rotation=rng.choice(rotations)["value"])).reply()
        assert reply.ephemeral and reply.attachments[0].image().format == "PNG"  # the preview, for this player only
        choices = await fake.autocomplete("/trails figure", user=user, channel=channel, focused="feature", value="")
        if len(choices) > 1 and rng.random() < 0.5:
            await (await fake.slash("/trails figure", user=user, channel=channel,
                                    feature=rng.choice(choices[1:])["value"])).reply()
            figures += 1
            if not undone:  # undo before confirm: the figure goes back, the turn goes on
                reply = await (await fake.slash("/trails undo", user=user, channel=channel)).reply()
                assert reply.ephemeral and "taken back" in reply.content
                undone += 1
        mark = fake.mark()
        await fake.slash("/trails confirm", user=user, channel=channel)
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark)
    assert figures and undone
    assert "game over" in board.content.lower()
    assert [e["title"] for e in board.embeds[1:]] == ["Final standings"]
    assert fake.unknown_routes == []
    await bot.stop()


async def test_panels_survive_a_restart_a_stale_panel_changes_nothing_and_game_move_still_works(
        fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel, board = await _open_table(fake, world, "")
    user = _player(world, board)
    first = await (await fake.click(board, TURN, user=user)).reply()
    second = await (await fake.click(board, TURN, user=user)).reply()

    await bot.stop()  # the panel's state lives in its custom ids: it works with a new client
    bot = await start_bot(fake, make_bot)
    mark = fake.mark()
    first = await _after(fake, await choose(fake, first, panel_choices(first)[0], user), first, mark)
    while not any(label in ("No figure", "Confirm") for _i, _v, label in panel_choices(first)):  # the rotation
        mark = fake.mark()
        first = await _after(fake, await choose(fake, first, panel_choices(first)[0], user), first, mark)
    mark = fake.mark()
    await choose(fake, first, next(c for c in panel_choices(first) if c[2] in ("No figure", "Confirm")), user)
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark)
    assert _player(world, board) != user

    # The second panel was opened at the same version: out of date, nothing is played or posted.
    mark = fake.mark()
    stale = await (await choose(fake, second, panel_choices(second)[0], user)).reply(lambda m: m.id != second.id)
    assert stale.ephemeral and "out of date" in stale.content
    assert not [m for m in fake.channel_messages(channel) if m.seq > mark and not m.ephemeral]

    # /game move keeps working, one step at a time: the steps answered privately with the preview, the
    # confirmed turn on the channel's board.
    user = _player(world, board)
    choices = await fake.autocomplete("/game move", user=user, channel=channel, focused="action", value="place")
    mark = fake.mark()
    step = await (await fake.slash("/game move", user=user, channel=channel, action=choices[0]["value"])).reply()
    assert step.ephemeral and "not played yet" in step.content and step.attachments[0].image().format == "PNG"
    assert not [m for m in fake.channel_messages(channel) if m.seq > mark]
    mark = fake.mark()
    await fake.slash("/game move", user=user, channel=channel, action="confirm")
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark)
    assert _player(world, board) != user and TURN in board.custom_ids()
    await bot.stop()


async def _board_png(fake: FakeDiscord, user, channel) -> bytes:
    reply = await (await fake.slash("/game board", user=user, channel=channel)).reply()
    assert reply.ephemeral
    return reply.attachments[0].data


async def test_a_spectator_sees_no_unconfirmed_placement_and_forged_panel_values_change_nothing(fake, world, make_bot):
    from tests.e2e.fake_discord.server import MESSAGE_COMPONENT

    bot = await start_bot(fake, make_bot)
    channel, board = await _open_table(fake, world, "expansions=inns,traders")
    user = _player(world, board)
    before = await _board_png(fake, world.carol, channel)

    # The player to move lays a tile (typed, so it is pending in the engine) and chooses a figure.
    positions = await fake.autocomplete("/trails place", user=user, channel=channel, focused="position", value="")
    rotations = await fake.autocomplete("/trails place", user=user, channel=channel, focused="rotation", value="",
                                        position=positions[0]["value"])
    await (await fake.slash("/trails place", user=user, channel=channel, position=positions[0]["value"],
                            rotation=rotations[0]["value"])).reply()
    figures = await fake.autocomplete("/trails figure", user=user, channel=channel, focused="feature", value="")
    if len(figures) > 1:
        await (await fake.slash("/trails figure", user=user, channel=channel, feature=figures[1]["value"])).reply()
    assert await _board_png(fake, world.carol, channel) == before  # a spectator
    assert await _board_png(fake, _other(world, board), channel) == before  # the other player

    # A modified client sends select values the panel never offered (discord.py itself drops custom ids
    # that are not on the message): the stale-panel answer, nothing changes.
    panel = await (await fake.click(board, TURN, user=user)).reply()
    assert "not played yet" in panel.content and panel.attachments  # the typed step, with its picture
    select = _id(board, "pbc:panel:sel:")  # the positions under the board (discord.py drops ids not on a message)
    forged = [(select, values) for values in (["9" * 4400], ["a,b"], ["99_99"], ["x" * 6000], ["1e400"], [],
                                              ["zzz"], ["ncity" + "9" * 4400], ["ncity9"])]
    mark = fake.mark()
    for custom_id, values in forged:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        inter = await fake._send_interaction(MESSAGE_COMPONENT, user, channel, data, "en-US", board)
        reply = await inter.reply(lambda m, pid=board.id: m.id != pid)
        assert reply.ephemeral and "out of date" in reply.content, custom_id[:40]
    assert not [m for m in fake.channel_messages(channel) if m.seq > mark and not m.ephemeral]
    assert await _board_png(fake, world.carol, channel) == before

    # Confirmed, the tile is on everyone's board.
    mark = fake.mark()
    await fake.slash("/trails confirm", user=user, channel=channel)
    await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark)
    assert await _board_png(fake, world.carol, channel) != before
    assert fake.unknown_routes == []
    await bot.stop()


async def _said(fake: FakeDiscord, mark: int, words: str):
    """The bot's first message after ``mark`` with ``words`` (however the answer was delivered: the refusal
    is what matters here)."""
    for _ in range(200):
        found = [m for m in fake.messages.values() if m.seq > mark and m.author.id == fake.bot_user.id
                 and any(words in text for text in (m.text, *(h.get("content") or "" for h in m.history)))]
        if found:
            return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never said {words!r}")


async def test_a_deck_the_game_cannot_use_is_refused_when_the_table_is_opened(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    for options, words in (("deck=ZZZ", "Unknown tile ZZZ"), ("deck=RI-D", "river"),
                           ("deck=" + "BA-U," * 290, "too long")):
        mark = fake.mark()
        await fake.slash("/game new", user=world.alice, channel=world.general,
                         options={"game": "trails", "options": options})
        refusal = await _said(fake, mark, words)
        assert len(refusal.content) < 400 and "pbc:lobby:start" not in refusal.custom_ids(), refusal.content
    lobby = await (await fake.slash("/game new", user=world.alice, channel=world.general,
                                    options={"game": "trails", "options": "deck=ba-u,ba-e"})).reply()
    assert "pbc:lobby:start" in lobby.custom_ids()  # the channel had no table: the refusals created none
    await bot.stop()


async def test_a_select_of_the_former_trails_panel_says_out_of_date(fake, world, make_bot):
    """A board posted before the one panel carried a position select (pbc:trails:pos:…): picked now, it is
    answered "out of date" and nothing is played."""
    import dataclasses
    import json

    from tests.e2e.fake_discord.server import MESSAGE_COMPONENT

    bot = await start_bot(fake, make_bot)
    channel, board = await _open_table(fake, world, "")
    table = bot.client.tables.tables[channel.id]
    before = (table.version, table.game.to_json(table.state))
    select = _id(board, "pbc:panel:sel:")
    old = "pbc:trails:pos:0.0._._._._"
    value = board.component(select)["options"][0]["value"]
    posted = dataclasses.replace(board, components=json.loads(
        json.dumps(board.components).replace(json.dumps(select), json.dumps(old))))
    reply = await (await fake._send_interaction(MESSAGE_COMPONENT, _player(world, board), channel,
                                                {"custom_id": old, "component_type": 3, "values": [value]},
                                                "en-US", posted)).reply(lambda m: m.ephemeral)
    assert "out of date" in reply.content and not reply.custom_ids()
    assert (table.version, table.game.to_json(table.state)) == before
    await bot.stop()
