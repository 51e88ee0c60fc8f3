"""Random players on the real bot: people (and an AI seat) click any enabled component of any panel they
have open (old ones too), press Take turn out of turn, or type the game's commands with suggested values
or nonsense, while the turn clock runs out on them now and then. Whatever they do, the bot answers every
interaction, logs no error, uses only modelled endpoints, and the table stays consistent with its store."""

from __future__ import annotations

import json
import random
import time

import pytest

from tests.e2e.harness import start_bot, start_table

SELECT = 3


@pytest.mark.parametrize(("game", "options", "seed"), [("trails", "expansions=river,inns,traders", 1),
                                                       ("deole", "", 2), ("dewan", "", 3), ("maple", "", 4)])
async def test_random_clicks_never_break_a_table(fake, world, make_bot, game, options, seed):
    bot = await start_bot(fake, make_bot)
    service = bot.client.tables
    offset = [0.0]
    service.clock = lambda: time.time() + offset[0]
    channel, rng = world.general, random.Random(seed)
    people = [world.alice, world.bob, world.carol]
    by_id = {user.id: user for user in people}
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel, options={
        "game": game, "options": options, "turn_time": "30s", "timeout": "default"})).reply()
    for user in people[1:]:
        await (await fake.click(lobby, "pbc:lobby:join", user=user)).response()
    await (await fake.slash("/game ai add", user=world.alice, channel=channel)).reply()
    turn = "pbc:panel:turn" if game in ("deole", "dewan") else f"pbc:{game}:turn"  # games on the generic panel
    await start_table(fake, lobby, world.alice, channel, lambda m: turn in m.custom_ids())
    panels: list[tuple[object, object]] = []
    answered = 0
    for _ in range(400):
        boards = [m for m in fake.channel_messages(channel) if turn in m.custom_ids()]
        if channel.id not in service.tables or not boards:
            break
        if rng.random() < 0.02:  # the clock runs out on whoever is to move
            offset[0] += 31
            service.on_deadline_change()
        if not panels or rng.random() < 0.08:
            board = boards[-1] if rng.random() < 0.9 else rng.choice(boards)  # sometimes an old board
            user = rng.choice([*people, world.dave]) if rng.random() < 0.2 else by_id[board.mentions[0]] \
                if board.mentions and board.mentions[0] in by_id else world.alice
            reply = await (await fake.click(board, turn, user=user)).reply()
            if reply.custom_ids():
                panels.append((reply, user))
            answered += 1
            continue
        panel, user = panels[-1] if rng.random() < 0.85 else rng.choice(panels)
        panel = fake.messages[panel.id]  # as last edited
        components = [c for c in panel.all_components() if c.get("custom_id") and not c.get("disabled")]
        if not components:
            panels = [p for p in panels if p[0].id != panel.id]
            continue
        component = rng.choice(components)
        if component["type"] == SELECT:
            value = rng.choice(component["options"])["value"]
            interaction = await fake.select(panel, component["custom_id"], [value], user=user)
        else:
            interaction = await fake.click(panel, component["custom_id"], user=user)
        await interaction.response()  # every click is answered (an edit, a message or a refusal)
        answered += 1
    assert answered > 200
    assert bot.errors == [] and fake.unknown_routes == []
    table = service.tables.get(channel.id)
    record = await bot.client.store.latest_table(channel.id)
    moves = await bot.client.store.moves(record.id)
    if table is not None:  # the live state is the stored one, and its version counts the commits
        recovery = bot.client.store.recovery_now(record.id)
        assert recovery is not None and recovery.version == table.version
        rebuilt = table.game.from_json(json.loads(recovery.state))  # the snapshot, then the moves logged after it
        for seat, text in recovery.moves:
            table.game.apply(rebuilt, seat, table.game.parse(text))
        assert table.game.to_json(rebuilt) == table.game.to_json(table.state)
    assert moves  # the random players and the clock did play


COMMANDS = {  # each command and the option its autocomplete fills
    "trails": [("/trails place", "position"), ("/trails figure", "feature"), ("/trails confirm", None),
               ("/trails undo", None), ("/game move", "action")],
    "deole": [("/deole play", "choice"), ("/deole die", "die"), ("/deole track", "track"), ("/deole mode", "mode"),
              ("/deole write", "value"), ("/deole sail", "direction"), ("/deole bonus", "bonus"),
              ("/game move", "action")],
    "dewan": [("/dewan take", "pair"), ("/dewan camp", "to"), ("/dewan choose", "step"), ("/game move", "action")],
    "maple": [("/maple card", "card"), ("/maple walk", "route"), ("/maple choose", "choice"),
              ("/maple craft", "favor"), ("/maple end", None), ("/maple undo", None), ("/game move", "action")],
}


@pytest.mark.parametrize(("game", "seed"), [("trails", 0), ("deole", 0), ("dewan", 0), ("maple", 0)])
async def test_random_commands_never_break_a_table(fake, world, make_bot, game, seed):
    """Typists at random: the game's commands and /game move, with values from their autocomplete or
    nonsense, by the player to move or anyone else, while the clock runs out now and then."""
    bot = await start_bot(fake, make_bot)
    service = bot.client.tables
    offset = [0.0]
    service.clock = lambda: time.time() + offset[0]
    channel, rng = world.general, random.Random(seed)
    people = [world.alice, world.bob]
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel, options={
        "game": game, "options": "expansions=river,inns,traders" if game == "trails" else "", "turn_time": "30s",
        "timeout": "default"})).reply()
    await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
    await start_table(fake, lobby, world.alice, channel)
    for _ in range(300):
        if channel.id not in service.tables:
            break
        if rng.random() < 0.03:
            offset[0] += 31
            service.on_deadline_change()
        table = service.tables[channel.id]
        mover = table.seats[table.game.to_act(table.state)[0]].user_id if table.game.to_act(table.state) else None
        user = next((p for p in people if p.id == mover), world.alice) if rng.random() < 0.85 \
            else rng.choice([*people, world.carol])
        command, option = rng.choice(COMMANDS[game])
        kwargs = {}
        if option == "position":
            found = await fake.autocomplete(command, user=user, channel=channel, focused="position", value="")
            if not found:
                continue
            position = rng.choice(found)["value"]
            rots = await fake.autocomplete(command, user=user, channel=channel, focused="rotation", value="",
                                           position=position)
            kwargs = {"position": position, "rotation": rng.choice(rots)["value"] if rots else "0"}
        elif option:
            found = await fake.autocomplete(command, user=user, channel=channel, focused=option, value="")
            kwargs = {option: rng.choice(found)["value"] if found and rng.random() < 0.9 else "nonsense 42"}
        await (await fake.slash(command, user=user, channel=channel, **kwargs)).reply(timeout=15)
    assert bot.errors == [] and fake.unknown_routes == []
