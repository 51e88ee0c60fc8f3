"""Dewan through the real bot over the fake Discord: a 3-player game to the end through the generic Take turn
panel (take, or destination / payment / confirm with its private preview), with after every board: no card of any
hand in a public message or image, a mention of the next player only; stale and forged clicks refused
privately with nothing changed; a restart in the middle that an open panel survives; and the /dewan
commands answering hostile values privately and briefly."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import re

from rendering.dewan import board_image
from tests.e2e.fake_discord import commands as cmd
from tests.e2e.fake_discord.server import MESSAGE_COMPONENT
from tests.e2e.harness import start_bot

TURN = "pbc:panel:turn"
CARD = re.compile(r"\bc\d\d\b")
SPACE = re.compile(r"[a-h][0-6]")
HOSTILE = ["x" * 6000, "9" * 4400, "1e400", "-inf", "<@&1> @everyone \u202e\u0000"]


def _is_board(message) -> bool:
    return not message.ephemeral and bool(message.attachments)


def _private(message) -> bool:
    """A button on a public message is acknowledged silently; its answer is a private message of its own."""
    return message.ephemeral


def _ids(message, prefix: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith(prefix)]


def _choices(message) -> list[tuple[str, str | None, str]]:
    """The panel's answers as (custom id, select value or None for a button, the answer's key)."""
    out: list[tuple[str, str | None, str]] = []
    for custom_id in message.custom_ids():
        if custom_id.startswith("pbc:panel:do:"):
            out.append((custom_id, None, custom_id.rsplit(":", 1)[1].split(".")[-1]))
        elif custom_id.startswith("pbc:panel:sel:"):
            out += [(custom_id, o["value"], o["value"]) for o in message.component(custom_id)["options"]]
    return out


async def _answer(fake, message, choice, user):
    custom_id, value, _key = choice
    if value is None:
        return await fake.click(message, custom_id, user=user)
    return await fake.select(message, custom_id, [value], user=user)


async def _start(fake, world, players):
    lobby = await (await fake.slash("/game new", user=players[0], channel=world.general, game="dewan")).reply()
    for user in players[1:]:
        await (await fake.click(lobby, "pbc:lobby:join", user=user)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=players[0])
    return await fake.wait_for_message(world.general, _is_board, after=mark)


async def _edited(fake, inter, message, mark: int):
    """The panel once the bot has answered ``inter`` by editing it (acknowledged first: type 6)."""
    assert (await inter.response()).type == 6
    return await fake.wait_for_message(None, lambda m: m.id == message.id and not m.loading, after=mark)


def _check_public(fake, channel, table, since: int, board) -> None:
    """Nothing public since ``since`` names a card of a hand; the board image is the spectators' view; the
    board mentions the next player only."""
    game, state = table.game, table.state
    hands = {card for seat in range(state.players) for card in game.view(state, seat)["hand"]}
    public = game.view(state, None)
    assert not hands & set(CARD.findall(str(public))), "a hand card in the spectators' view"
    for message in fake.channel_messages(channel):
        if message.seq > since and not message.ephemeral:
            assert not CARD.findall(message.text), message.text  # cards are told by their terrains only
    names = [s.display for s in table.seats]
    # The image is the spectators' view, pixel for pixel (compared decoded: encoding is most of a render).
    assert board.attachments[0].image().convert("RGB").tobytes() == board_image(public, names, "en").tobytes()
    if game.is_over(state):
        assert board.mentions == [] and not board.custom_ids()
    else:
        (seat,) = game.to_act(state)
        assert board.mentions == [table.seats[seat].user_id], board.content
        assert TURN in board.custom_ids() and "pbc:hand" in board.custom_ids()


async def _forged_values_change_nothing(fake, world, table, panel, user) -> None:
    before = (table.version, table.game.to_json(table.state))
    mark = fake.mark()
    version = table.version
    button = _ids(panel, "pbc:panel:do:")[0]
    forged = []  # a modified client's buttons: the panel's message with a button's id rewritten
    for chosen in ("take_9", "z9", "a1.0.ok", "ok", "c6.99.ok", "x" * 20, "pass.ok", "take_1.take_2"):
        custom_id = f"pbc:panel:do:{version}:0:{chosen}"
        components = json.loads(json.dumps(panel.components).replace(json.dumps(button), json.dumps(custom_id)))
        forged.append(({"custom_id": custom_id, "component_type": 2}, dataclasses.replace(panel, components=components)))
    for custom_id in _ids(panel, "pbc:panel:sel:"):
        for values in (["9" * 4400], ["x" * 6000], ["Z9"], ["c99g9"], ["take_9"], [], ["A1", "A2"]):
            forged.append(({"custom_id": custom_id, "component_type": 3, "values": values}, panel))
    for data, message in forged:
        reply = await (await fake._send_interaction(MESSAGE_COMPONENT, user, world.general, data, "en-US",
                                                    message)).reply(lambda m: m.ephemeral and m.id != panel.id)
        assert reply.ephemeral and "out of date" in reply.content and len(reply.content) < 300
    assert not [m for m in fake.channel_messages(world.general) if m.seq > mark and not m.ephemeral]
    assert (table.version, table.game.to_json(table.state)) == before


async def test_a_three_player_game_to_the_end_through_the_panel(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    users = {u.id: u for u in (world.alice, world.bob, world.carol)}
    mark = fake.mark()
    board = await _start(fake, world, list(users.values()))
    table = bot.client.tables.tables[channel.id]
    _check_public(fake, channel, table, 0, board)

    # Not seated, and seated but not to move: private refusals, nothing public.
    mover = users[board.mentions[0]]
    other = next(u for u in users.values() if u is not mover)
    for user, words in ((world.dave, "not seated"), (other, "not your turn")):
        refusal = await (await fake.click(board, TURN, user=user)).reply(_private)
        assert refusal.ephemeral and words in refusal.content.lower() and not refusal.custom_ids()

    rng = random.Random(3)
    seen = {"take": 0, "camp": 0, "payment choice": 0, "reward choice": 0, "stale": 0, "forged": 0, "restart": 0}
    turns = 0
    spare = None
    while board.mentions:
        user = users[board.mentions[0]]
        since = fake.mark()
        panel = await (await fake.click(board, TURN, user=user)).reply(_private)
        assert panel.ephemeral and not panel.attachments
        if turns == 1:
            spare = await (await fake.click(board, TURN, user=user)).reply(_private)
        if not seen["forged"] and any(SPACE.fullmatch(key) for _id, _value, key in _choices(panel)):
            await _forged_values_change_nothing(fake, world, table, panel, user)
            seen["forged"] += 1
        if turns == 12 and not seen["restart"]:  # an open panel survives a restart (its state is its ids)
            await bot.stop()
            bot = await start_bot(fake, make_bot)
            table = bot.client.tables.tables[channel.id]
            seen["restart"] += 1
        first = _choices(panel)
        destinations = [c for c in first if SPACE.fullmatch(c[2])]
        if destinations and rng.random() < 0.95:
            mark = fake.mark()
            panel = await _edited(fake, await _answer(fake, panel, rng.choice(destinations), user), panel, mark)
            if not panel.attachments:  # a choice of payments first
                payments = _choices(panel)
                assert payments and all(key.isdigit() for _id, _value, key in payments), panel.text
                assert _ids(panel, "pbc:panel:undo:")  # back to the destinations
                seen["payment choice"] += 1
                mark = fake.mark()
                panel = await _edited(fake, await _answer(fake, panel, rng.choice(payments), user), panel, mark)
            assert panel.ephemeral and panel.attachments[0].image().format == "PNG"  # the preview
            assert "route" in panel.text and _ids(panel, "pbc:panel:undo:")
            confirms = _choices(panel)
            if [key for _id, _value, key in confirms] != ["ok"]:  # Confirm · story t07, one per reward
                seen["reward choice"] += 1
                assert all(key.startswith(("story_", "tuck_")) for _id, _value, key in confirms)
            mark = fake.mark()
            inter = await _answer(fake, panel, rng.choice(confirms), user)
            seen["camp"] += 1
        else:
            steps = [c for c in first if not SPACE.fullmatch(c[2])]
            mark = fake.mark()
            choice = rng.choice(steps)
            inter = await _answer(fake, panel, choice, user)
            seen["take"] += choice[2].startswith("take")
        board = await fake.wait_for_message(channel, _is_board, after=mark, timeout=15)
        assert (await inter.response()).type == 6
        _check_public(fake, channel, table, since, board)
        turns += 1
        if spare is not None:  # a second panel opened at the same version: refused, nothing played
            before = table.version
            mark = fake.mark()
            inter = await _answer(fake, spare, _choices(spare)[0], user)
            stale = await inter.reply(lambda m, source=spare.id: m.ephemeral and m.id != source)
            assert stale.ephemeral and "out of date" in stale.content
            assert not [m for m in fake.channel_messages(channel) if m.seq > mark and not m.ephemeral]
            assert table.version == before
            seen["stale"] += 1
            spare = None

    assert all(seen.values()), seen
    assert 30 <= turns <= 80
    final = board
    assert "game over" in final.content.lower()
    scores = final.embeds[1]
    assert scores["title"] == "Final scores" and len(scores["fields"]) == 3
    for field in scores["fields"]:
        assert all(word in field["value"] for word in ("Stories", "Fire", "Most fire", "Groups", "Berries"))
    told = " ".join(m.embeds[0].get("description") or "" for m in fake.channel_messages(channel) if _is_board(m))
    assert " places camp " in told and " takes 2 cards from the row: " in told
    assert fake.unknown_routes == []
    await bot.stop()


async def test_the_hand_the_russian_panel_and_the_rules_card(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    board = await _start(fake, world, [world.alice, world.bob])
    table = bot.client.tables.tables[world.general.id]
    for seat, user in enumerate((world.alice, world.bob)):  # My hand: the seat's own view, its cards drawn
        hand = await (await fake.click(board, "pbc:hand", user=user)).reply(_private)
        own = table.game.view(table.state, seat)
        assert hand.ephemeral and len(own["hand"]) == 2
        expected = board_image(own, [s.display for s in table.seats], "en")
        assert hand.attachments[0].image().convert("RGB").tobytes() == expected.tobytes()
    mover = world.alice if board.mentions == [world.alice.id] else world.bob
    panel = await (await fake.click(board, TURN, user=mover, locale="ru")).reply(_private)
    assert "Деван: ваш ход" in panel.text and "Ваша рука (2)" in panel.text
    rules = await (await fake.slash("/game rules", user=world.carol, channel=world.general, game="dewan")).reply()
    text = rules.text
    assert rules.ephemeral and "Take turn" in text and "/dewan camp" in text
    ru = await (await fake.slash("/game rules", user=world.carol, channel=world.general, game="dewan",
                                 locale="ru")).reply()
    assert "Сделать ход" in ru.text


def _leaves(command: dict, prefix: str = "") -> list[tuple[str, list[dict]]]:
    name = f"{prefix} {command['name']}".strip()
    subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
    if not subs:
        return [(f"/{name}", command.get("options", []))]
    return [leaf for sub in subs for leaf in _leaves(sub, name)]


async def test_dewan_commands_answer_hostile_values_privately_and_briefly(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    board = await _start(fake, world, [world.alice, world.bob])
    table = bot.client.tables.tables[world.general.id]
    before = (table.version, table.game.to_json(table.state))
    mover = world.alice if board.mentions == [world.alice.id] else world.bob
    (dewan,) = [c for c in fake.registered_commands(world.guild) if c["name"] == "dewan"]
    attacked = 0
    for name, options in _leaves(dewan):
        strings = [o for o in options if o["type"] == cmd.STRING]
        for option, value in itertools.product(strings, HOSTILE):
            values = {o["name"]: "C6" for o in options if o.get("required") and o is not option}
            values[option["name"]] = value
            mark, known = fake.mark(), {m.id for m in fake.channel_messages(world.general)}
            for user in (mover, world.carol):
                reply = await (await fake.slash(name, user=user, channel=world.general, options=values,
                                                 unchecked=True)).reply()
                attacked += 1
                assert reply.ephemeral and len(reply.text) < 400, (name, option["name"], reply.text[:200])
                assert "went wrong" not in reply.text
            assert [m for m in fake.channel_messages(world.general) if m.seq > mark and m.id not in known] == []
        for user in (mover, world.carol):  # autocomplete with hostile text: at most 25 short suggestions
            for option in strings:
                found = await fake.autocomplete(name, user=user, channel=world.general, focused=option["name"],
                                                value="x" * 6000, **({"to": "C6"} if option["name"] == "pay" else {}))
                assert len(found) <= 25
    assert attacked >= 40
    assert (table.version, table.game.to_json(table.state)) == before
    assert [r.getMessage() for r in bot.errors] == []


async def test_a_typist_plays_with_the_dewan_commands_and_an_ai_seat_fills_in(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel, game="dewan")).reply()
    await (await fake.slash("/game ai add", user=world.alice, channel=channel)).reply()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    board = await fake.wait_for_message(channel, _is_board, after=mark)
    table = bot.client.tables.tables[channel.id]
    typed = {"take": 0, "camp": 0, "choose": 0}
    while sum(typed.values()) < 6 and board.mentions:
        assert board.mentions == [world.alice.id]  # the AI's turns are played at once and told
        since = fake.mark()
        for _ in range(5):  # the steps of one turn, each answered privately until the board
            wanted = ("choose" if table.game.view(table.state, None)["phase"] != "turn"
                      else "camp" if typed["camp"] <= typed["take"] else "take")
            if wanted == "camp":
                spaces = await fake.autocomplete("/dewan camp", user=world.alice, channel=channel, focused="to",
                                                 value="")
                if not spaces:
                    wanted = "take"
            if wanted == "take":
                pairs = await fake.autocomplete("/dewan take", user=world.alice, channel=channel, focused="pair",
                                                value="")
                inter = await fake.slash("/dewan take", user=world.alice, channel=channel, pair=pairs[-1]["value"])
            elif wanted == "camp":
                pays = await fake.autocomplete("/dewan camp", user=world.alice, channel=channel, focused="pay",
                                               value="", to=spaces[0]["value"])
                options = {"to": spaces[0]["value"]} | ({"pay": pays[0]["value"]} if typed["camp"] else {})
                inter = await fake.slash("/dewan camp", user=world.alice, channel=channel, **options)
            else:
                steps = await fake.autocomplete("/dewan choose", user=world.alice, channel=channel, focused="step",
                                                value="")
                inter = await fake.slash("/dewan choose", user=world.alice, channel=channel, step=steps[0]["value"])
            typed[wanted] += 1
            reply = await inter.reply()
            if "https://discord.com/channels/" in reply.content:  # "Done: your move is on the board (link)"
                break
            assert reply.ephemeral and "Dewan" in reply.text  # the next step, privately, with its buttons
            assert not [m for m in fake.channel_messages(channel) if m.seq > since and not m.ephemeral]
        board = await fake.wait_for_message(channel, _is_board, after=since)
        _check_public(fake, channel, table, since, board)
    assert all(typed.values()), typed
    told = " ".join(m.embeds[0].get("description") or "" for m in fake.channel_messages(channel) if _is_board(m))
    ai = next(s.display for s in table.seats if s.is_ai)
    assert f"{ai} takes 2 cards from the row" in told or f"{ai} places camp" in told
    assert [r.getMessage() for r in bot.errors] == []


async def test_buttons_of_the_former_dewan_panel_open_the_panel_or_say_out_of_date(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    board = await _start(fake, world, [world.alice, world.bob])
    table = bot.client.tables.tables[world.general.id]
    before = (table.version, table.game.to_json(table.state))
    mover = world.alice if board.mentions == [world.alice.id] else world.bob
    for old, opens in (("pbc:dewan:turn", True), (f"pbc:dewan:do:{table.version}:take_1", False),
                       (f"pbc:dewan:ok:{table.version}:C6:c05:-", False)):
        components = json.loads(json.dumps(board.components).replace(json.dumps(TURN), json.dumps(old)))
        posted = dataclasses.replace(board, components=components)  # a board posted before the change
        reply = await (await fake._send_interaction(MESSAGE_COMPONENT, mover, world.general,
                                                    {"custom_id": old, "component_type": 2}, "en-US",
                                                    posted)).reply(_private)
        if opens:
            assert "Dewan: your turn" in reply.text and _choices(reply)
        else:
            assert "out of date" in reply.content and not reply.custom_ids()
    assert (table.version, table.game.to_json(table.state)) == before
    await bot.stop()
