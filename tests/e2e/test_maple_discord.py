"""Maple Valley through the real bot over the fake Discord: a 3-player game and a solo game to the end through
the generic "Take turn" panel (card, destination, location choice, craft or End; Undo; the preview), stale
and forged clicks refused, old Maple buttons answered, a restart in the middle, boards that mention only the
next player and never show a hidden card, and /maple commands with hostile values."""

from __future__ import annotations

import json

from games.maple import data as D
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.server import MESSAGE_COMPONENT
from tests.e2e.harness import start_bot

TURN = "pbc:panel:turn"
LEGACY = "pbc:maple:turn"  # a board posted before Maple Valley used the one panel
HUGE = "9" * 4400


def _is_board(message) -> bool:
    return not message.ephemeral and bool(message.attachments)


async def _start(fake: FakeDiscord, channel, players, locale: str = "en-US"):
    lobby = await (await fake.slash("/game new", user=players[0], channel=channel, locale=locale,
                                    game="maple")).reply()
    for user in players[1:]:
        await (await fake.click(lobby, "pbc:lobby:join", user=user)).response()
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=players[0], locale=locale)
    return await fake.wait_for_message(channel, _is_board, after=mark)


async def _private(inter):
    """The bot's private answer to a click (a message of its own, not the clicked panel's edit)."""
    source = getattr(inter.source_message, "id", None)
    return await inter.reply(lambda m: m.id != source)


async def _after(fake: FakeDiscord, inter, panel, mark: int):
    """The panel once the bot has answered a click on it by editing it."""
    callback = await inter.response()
    assert callback.type in (6, 7), callback
    return await fake.wait_for_message(None, lambda m: m.id == panel.id, after=mark, timeout=20)


def _ids(panel, prefix: str) -> list[str]:
    return [i for i in panel.custom_ids() if i.startswith(prefix)]


def _key(custom_id: str) -> str:
    """The key a panel button answers (the last of the keys chosen, in its custom id)."""
    return custom_id.rsplit(":", 1)[1].split(".")[-1]


def _end_button(panel) -> str | None:
    return next((i for i in _ids(panel, "pbc:panel:do:") if panel.component(i).get("style") == 1), None)


def _pinned(panel, key: str) -> str | None:
    """The pinned Undo or Show board button, if the panel has it."""
    return next((i for i in _ids(panel, "pbc:panel:do:") if _key(i) == key), None)


def _answers(panel) -> list[tuple[str, str | None, str]]:
    """The panel's answers (End, Undo and Show board aside): ``(custom id, select value or None, label)``."""
    end = _end_button(panel)
    out = [(i, None, panel.component(i)["label"]) for i in _ids(panel, "pbc:panel:do:")
           if i != end and _key(i).isdigit()]
    out += [(i, o["value"], o["label"]) for i in _ids(panel, "pbc:panel:sel:") for o in panel.component(i)["options"]]
    return out


async def _answer(fake: FakeDiscord, panel, answer, user, locale: str = "en-US"):
    custom_id, value, _label = answer
    if value is None:
        return await fake.click(panel, custom_id, user=user, locale=locale)
    return await fake.select(panel, custom_id, [value], user=user, locale=locale)


async def _click(fake: FakeDiscord, panel, user, step: int, locale: str, seen: dict[str, int]):
    """One answer on the panel: at the craft step a craft every other time it can, else End; elsewhere a
    choice varied by ``step``."""
    selects, end = _ids(panel, "pbc:panel:sel:"), _end_button(panel)
    buttons = [i for i in _ids(panel, "pbc:panel:do:") if i != end and _key(i).isdigit()]
    mark = fake.mark()
    if end and selects and step % 2 == 0:  # the craft step: craft the first favor offered
        seen["craft"] += 1
        options = panel.component(selects[0])["options"]
        inter = await fake.select(panel, selects[0], [options[0]["value"]], user=user, locale=locale)
    elif end and buttons and step % 2 == 0:
        seen["craft"] += 1
        inter = await fake.click(panel, buttons[0], user=user, locale=locale)
    elif end:
        seen["end"] += 1
        inter = await fake.click(panel, end, user=user, locale=locale)
    elif selects:  # varied answers, so that players gather goods for favors
        options = panel.component(selects[0])["options"]
        inter = await fake.select(panel, selects[0], [options[step % len(options)]["value"]], user=user,
                                  locale=locale)
    else:
        inter = await fake.click(panel, buttons[step % len(buttons)], user=user, locale=locale)
    return await _after(fake, inter, panel, mark)


def _hidden_ids(table) -> set[str]:
    """Cards face down now (the decks' contents) that no view has shown so far."""
    rows = table.state.rows
    return {card for row in rows.values() for card in row["deck"]}


def _check_board_public(board, table, shown: set[str]) -> None:
    """A board tells no face-down card: neither its words nor the view its image is drawn from."""
    view_text = json.dumps(table.game.view(table.state, None))
    hidden = _hidden_ids(table) - shown
    for card in hidden:
        assert f'"{card}"' not in view_text, card
        names = {getattr(item, "name", None) for table_ in (D.FRIENDS, D.FAVORS, D.PATCHES)
                 for key, item in table_.items() if key == card}
        for name in filter(None, names):
            # Names that are also other things' ("Treasure Hunt" is a dawdle card, "Lookout" in "Lookout
            # Rock") cannot tell a leak.
            others = [n for n in (*D.DAWDLE_NAMES.values(), *(c.name for c in D.CLEARINGS.values()),
                                  *(f.name for f in D.FESTIVITIES.values()), *(p.name for p in D.PATCHES.values()),
                                  *(f.name for f in D.FAVORS.values()), *(f.name for f in D.FRIENDS.values()))
                      if name in n and n != name or n == name]
            if len(others) <= 1:
                assert name not in board.text, (card, name)
    for row in table.game.view(table.state, None)["rows"].values():
        shown.update(row["display"])
        shown.update(row["discard"])


async def _play(fake: FakeDiscord, bot, board, channel, users: dict[int, object], locale: str = "en-US",
                restart_at: int | None = None, make_bot=None):
    """Every turn through the panel to the end; returns the last board, the number of boards, the bot."""
    seen = {"craft": 0, "end": 0, "boards": 1}
    shown: set[str] = set()
    step = 0
    while TURN in board.custom_ids():
        assert len(board.mentions) == 1, board.mentions  # only the next player
        table = bot.client.tables.tables[channel.id]
        _check_board_public(board, table, shown)
        user = users[board.mentions[0]]
        assert table.seats[table.game.to_act(table.state)[0]].user_id == user.id
        mark = fake.mark()
        panel = await _private(await fake.click(board, TURN, user=user, locale=locale))
        assert panel.ephemeral
        while True:
            step += 1
            panel = await _click(fake, panel, user, step, locale, seen)
            if not panel.custom_ids() or "board is posted" in panel.content or "доска опубликована" in panel.content:
                break
            if seen["boards"] == restart_at and not seen.get("restarted"):
                # A restart in the middle of a turn: the open panel goes on (its ids name the version).
                await bot.stop()
                bot = await start_bot(fake, make_bot)
                seen["restarted"] = 1
        board = await fake.wait_for_message(channel, _is_board, after=mark, timeout=20)
        seen["boards"] += 1
    return board, seen, bot


async def test_three_player_game_through_the_panel(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    players = [world.alice, world.bob, world.carol]
    board = await _start(fake, channel, players)
    assert TURN in board.custom_ids() and "pbc:hand" not in board.custom_ids()  # nothing is private
    assert "The valley is ready" in board.embeds[0]["description"]
    users = {u.id: u for u in players}

    # Not seated, and seated but not to move: private refusals, nothing posted.
    mover = users[board.mentions[0]]
    other = next(u for u in players if u != mover)
    before = len(fake.channel_messages(channel))
    for user, words in ((world.dave, "not seated"), (other, "not your turn")):
        refusal = await _private(await fake.click(board, TURN, user=user))
        assert refusal.ephemeral and words in refusal.content.lower() and not refusal.custom_ids()
    assert len(fake.channel_messages(channel)) == before

    # The setup choice (keep two favors), then the first real turn, with the checks along the way.
    table = bot.client.tables.tables[channel.id]
    while table.game.view(table.state, None)["step"] == "keep":
        mover = users[board.mentions[0]]
        mark = fake.mark()
        panel = await _private(await fake.click(board, TURN, user=mover))
        assert "Keep two" in panel.content
        await _answer(fake, panel, _answers(panel)[0], mover)
        board = await fake.wait_for_message(channel, _is_board, after=mark)
        assert "keeps the favors" in board.embeds[0]["description"]
    mover = users[board.mentions[0]]
    # A board posted before Maple Valley used the one panel: its Take turn opens the panel, anything else of
    # the old panel says it is out of date.
    for legacy, words in ((LEGACY, "Play a card"), ("pbc:maple:do:3:0", "out of date"),
                          ("pbc:maple:show:3", "out of date")):
        board.component(TURN)["custom_id"] = legacy
        reply = await _private(await fake.click(board, legacy, user=mover))
        assert reply.ephemeral and words in reply.content, legacy
        board.component(legacy)["custom_id"] = TURN
    first = await _private(await fake.click(board, TURN, user=mover))
    second = await _private(await fake.click(board, TURN, user=mover))
    assert "Play a card" in first.content
    version = table.version

    # The card through the first panel; the second panel, opened at the same version, is now stale.
    panel = await _click(fake, first, mover, 1, "en-US", {"craft": 0, "end": 0})
    assert "Where do you walk" in panel.content
    played = table.version
    assert played > version
    stale = await _private(await _answer(fake, second, _answers(second)[0], mover))
    assert stale.ephemeral and "out of date" in stale.content
    assert table.version == played

    # Forged select values and button keys: the out-of-date answer, nothing changes.
    mark = fake.mark()
    for walk_select in _ids(panel, "pbc:panel:sel:")[:1]:
        for values in ([HUGE], ["x" * 6000], ["999"], ["-1"], ["1e400"], []):
            data = {"custom_id": walk_select, "component_type": 3, "values": values}
            inter = await fake._send_interaction(MESSAGE_COMPONENT, mover, channel, data, "en-US", panel)
            reply = await _private(inter)
            assert reply.ephemeral and "out of date" in reply.content, values
    button = next(a[0] for a in _answers(panel) if a[1] is None)
    for key in ("9" * 60, "x" * 60, "999", "-1", "1e400", "show", "0.0"):
        forged = f"{button.rsplit(':', 1)[0]}:{key}"
        panel.component(button)["custom_id"] = forged  # the client sends what it was given: a forged id
        reply = await _private(await fake.click(panel, forged, user=mover))
        assert reply.ephemeral and "out of date" in reply.content, key
        panel.component(forged)["custom_id"] = button
    assert not [m for m in fake.channel_messages(channel) if m.seq > mark and not m.ephemeral]
    assert table.version == played

    # A destination (the whole walk in one click), then Undo takes the walk back; walk again.
    destinations = [a for a in _answers(panel) if " · paths " in a[2]]
    assert destinations
    mark = fake.mark()
    walked = await _after(fake, await _answer(fake, panel, destinations[0], mover), panel, mark)
    mark = fake.mark()
    panel = await _after(fake, await fake.click(walked, _pinned(walked, "undo"), user=mover), walked, mark)
    assert "Where do you walk" in panel.content
    assert [a[2] for a in _answers(panel) if " · paths " in a[2]] == [a[2] for a in destinations]
    destinations = [a for a in _answers(panel) if " · paths " in a[2]]
    # A typist's autocomplete offers the same walks, in words; a stranger gets none.
    found = await fake.autocomplete("/maple walk", user=mover, channel=channel, focused="route", value="")
    assert [f["name"] for f in found[:len(destinations)]] == [a[2] for a in destinations]
    assert found[0]["value"].endswith("| stop")
    assert await fake.autocomplete("/maple walk", user=world.dave, channel=channel, focused="route",
                                   value="") == []
    mark = fake.mark()
    panel = await _after(fake, await _answer(fake, panel, destinations[0], mover), panel, mark)
    # Up to the craft step: the preview before ending (the panel shows the board; the same answers).
    step = 1
    while not _pinned(panel, "show") and panel.custom_ids():
        step += 2  # odd: first choices, never a craft
        panel = await _click(fake, panel, mover, step, "en-US", {"craft": 0, "end": 0})
    assert "If you end the turn now" in panel.content
    labels = [a[2] for a in _answers(panel)]
    mark = fake.mark()
    preview = await _after(fake, await fake.click(panel, _pinned(panel, "show"), user=mover), panel, mark)
    assert preview.ephemeral and preview.attachments[0].image().format == "PNG"
    assert "nothing is played until you end the turn" in preview.content and not _pinned(preview, "show")
    assert [a[2] for a in _answers(preview)] == labels and _end_button(preview)
    panel = preview
    mark = fake.mark()
    await fake.click(panel, _end_button(panel), user=mover)
    board = await fake.wait_for_message(channel, _is_board, after=mark)
    told = board.embeds[0]["description"]
    paths = destinations[0][2].split(" · paths ")[1].split(" · ")[0].split(", ")
    (walk,) = [line for line in told.split("\n") if " walks paths " in line]  # the walk taken back is untold
    assert [p.split(" ")[0] for p in walk.split(" walks paths ")[1].split(" to ")[0].split(", ")] == paths
    assert "f0" not in told and " tok)" not in told  # cards and places by name, not by code

    # The rest of the game, with a restart in the middle of a turn.
    final, seen, bot = await _play(fake, bot, board, channel, users, restart_at=12, make_bot=make_bot)
    assert final.mentions == [] and final.custom_ids() == []
    assert "game over" in final.content.lower()
    standings = final.embeds[1]
    assert standings["title"] == "Final scores" and len(standings["fields"]) == 3
    for field in standings["fields"]:
        for part in ("favors", "friends", "patches", "leftovers", "festivities"):
            assert part in field["value"], field
    assert seen["craft"] > 0 and seen["boards"] >= 25 and seen["restarted"]
    assert fake.unknown_routes == []
    await bot.stop()


async def test_solo_game_in_russian_to_the_end(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.lounge  # any channel: one seat
    board = await _start(fake, channel, [world.dave], locale="ru")
    assert "Долина готова" in board.embeds[0]["description"]
    refusal = await _private(await fake.click(board, TURN, user=world.alice))
    assert refusal.ephemeral
    final, seen, bot = await _play(fake, bot, board, channel, {world.dave.id: world.dave}, locale="ru")
    assert final.mentions == [] and final.custom_ids() == []
    standings = final.embeds[1]
    assert standings["description"].startswith("Соло: ") and "праздник" in standings["description"]
    assert len(standings["fields"]) == 1 and "Большой пир" in standings["fields"][0]["value"]
    assert seen["boards"] >= 5
    await bot.stop()


async def test_maple_commands_answer_hostile_values_privately_and_briefly(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    board = await _start(fake, channel, [world.alice, world.bob])
    table = bot.client.tables.tables[channel.id]
    before = (table.version, table.game.to_json(table.state))
    mover = world.alice if board.mentions == [world.alice.id] else world.bob
    await fake.wait_for_message(channel, lambda m: "game started" in m.text)  # the lobby, edited at start
    before_ids = {m.id for m in fake.channel_messages(channel)}
    for command, option in (("/maple card", "card"), ("/maple walk", "route"), ("/maple choose", "choice"),
                            ("/maple craft", "favor")):
        for value in ("x" * 6000, HUGE, "path " + HUGE, "path 4 | " * 600, "1e400", "<@&1> @everyone \u202e"):
            for user in (mover, world.carol):
                reply = await (await fake.slash(command, user=user, channel=channel, options={option: value},
                                                unchecked=True)).reply()
                assert reply.ephemeral and len(reply.text) <= 300 and "went wrong" not in reply.text, (command,
                                                                                                     reply.text)
    for command in ("/maple end", "/maple undo", "/maple turn"):
        reply = await (await fake.slash(command, user=world.carol, channel=channel)).reply()
        assert reply.ephemeral and "not seated" in reply.content.lower()
    assert {m.id for m in fake.channel_messages(channel)} == before_ids
    assert (table.version, table.game.to_json(table.state)) == before
    assert [r.getMessage() for r in bot.errors] == []
    await bot.stop()


async def test_a_typist_plays_turns_with_the_maple_commands(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.general
    board = await _start(fake, channel, [world.alice, world.bob], locale="ru")
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    table = bot.client.tables.tables[channel.id]
    for _ in range(2):  # each keeps two favors (/maple choose and its suggestions, in Russian)
        mover = users[board.mentions[0]]
        found = await fake.autocomplete("/maple choose", user=mover, channel=channel, focused="choice", value="",
                                        locale="ru")
        assert found and found[0]["name"].startswith("Оставить ")
        mark = fake.mark()
        await fake.slash("/maple choose", user=mover, channel=channel, choice=found[0]["value"], locale="ru")
        board = await fake.wait_for_message(channel, _is_board, after=mark)
    mover = users[board.mentions[0]]
    cards = await fake.autocomplete("/maple card", user=mover, channel=channel, focused="card", value="")
    reply = await (await fake.slash("/maple card", user=mover, channel=channel, card=cards[-1]["value"])).reply()
    while "Where do you walk" not in reply.content:  # a play ability's questions (Turtle's two goods)
        assert reply.ephemeral and "**" in reply.content
        found = await fake.autocomplete("/maple choose", user=mover, channel=channel, focused="choice", value="")
        reply = await (await fake.slash("/maple choose", user=mover, channel=channel,
                                        choice=found[0]["value"])).reply()
    assert reply.ephemeral and _answers(reply)
    walks = await fake.autocomplete("/maple walk", user=mover, channel=channel, focused="route", value="")
    reply = await (await fake.slash("/maple walk", user=mover, channel=channel, route=walks[0]["value"])).reply()
    assert reply.ephemeral
    version = table.version
    reply = await (await fake.slash("/maple undo", user=mover, channel=channel)).reply()
    assert reply.ephemeral and table.version == version + 1  # one step back: the walk's stop
    mark = fake.mark()
    for _ in range(12):  # the location's questions, then End (or a refusal that names the step in words)
        reply = await (await fake.slash("/maple end", user=mover, channel=channel)).reply()
        if "board" in reply.content:
            break
        assert "is not possible now (the step is:" in reply.content or "Where do you walk" in reply.content
        found = await fake.autocomplete("/maple choose", user=mover, channel=channel, focused="choice", value="")
        await (await fake.slash("/maple choose", user=mover, channel=channel, choice=found[-1]["value"])).reply()
    board = await fake.wait_for_message(channel, _is_board, after=mark)
    assert board.mentions != [mover.id] and "проходит пути" in board.embeds[0]["description"]  # the table speaks Russian
    assert [r.getMessage() for r in bot.errors] == []
    await bot.stop()


async def test_a_game_with_an_ai_seat_tells_its_turns(fake, world, make_bot):
    bot = await start_bot(fake, make_bot)
    channel = world.games
    lobby = await (await fake.slash("/game new", user=world.alice, channel=channel, game="maple")).reply()
    await (await fake.slash("/game ai add", user=world.alice, channel=channel)).reply()
    await fake.wait_for_message(channel, lambda m: m.id == lobby.id and "AI 1" in m.text)
    mark = fake.mark()
    await fake.click(lobby, "pbc:lobby:start", user=world.alice)
    board = await fake.wait_for_message(channel, _is_board, after=mark)
    seen = {"craft": 0, "end": 0}
    told = []
    for step in range(60):  # a few turns of Alice's; the AI replies within her commits
        if len([t for t in told if "AI 1 plays " in t]) >= 2 or TURN not in board.custom_ids():
            break
        assert board.mentions == [world.alice.id]
        mark = fake.mark()
        panel = await _private(await fake.click(board, TURN, user=world.alice))
        while panel.custom_ids() and "board is posted" not in panel.content:
            panel = await _click(fake, panel, world.alice, step, "en-US", seen)
        board = await fake.wait_for_message(channel, _is_board, after=mark)
        told.append(board.embeds[0]["description"])
    assert any("AI 1 plays " in t for t in told) and any("Alice plays " in t for t in told)
    assert [r.getMessage() for r in bot.errors] == []
    await bot.stop()
