"""Replays: a real game played by AI, rebuilt from its record, animated one frame per turn with the last frame
the final board, a turn counter on every frame and a pace that fits the number of players; records refused
when they cannot be replayed as played."""

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.replay import RecordError, check_record, final_state, frame_captions, new_record, replay_views
from bot.tables import turn_key
from games import registry
from games.ai import GreedyAI
from rendering import render_board
from rendering.replay import (
    LAST_FRAME_MS,
    MAX_FRAME_MS,
    MIN_FRAME_MS,
    ROUND_MS,
    animate,
    canvas_frames,
    counted_frames,
    counter_height,
    encode,
    frame_durations,
    open_frames,
    turn_ms,
)

NAMES = ["Alice", "Борис"]


def played_trails(tiles: int = 12, seed: int = 7) -> tuple[dict, int]:
    """A short Trails game (a fixed deck of ``tiles``) played to the end by the bot's AI; the record and the
    number of turns that ended (counted as it was played)."""
    game = registry.get("trails")
    options = {"deck": ",".join(game.setup(2, {}, seed).deck[:tiles])}
    state = game.setup(2, options, seed)
    ai = GreedyAI(seed, candidates=4)
    moves, turns = [], 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        before = turn_key(game, state)
        action = ai.choose(game, state, seat)
        game.apply(state, seat, action)
        moves.append((len(moves) + 1, seat, game.format(action)))
        turns += turn_key(game, state) != before or game.is_over(state)
    seats = [{"position": n, "name": name, "ai": False} for n, name in enumerate(NAMES)]
    return new_record("trails", options, seed, seats, moves), turns


@pytest.fixture(scope="module")
def trails_game():
    record, turns = played_trails()
    pngs = [render_board("trails", view, "en", NAMES) for view in replay_views(record)]
    return record, turns, pngs


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(data))
    out = []
    for number in range(image.n_frames):
        image.seek(number)
        out.append((image.convert("RGB"), image.info.get("duration", 0)))
    return out


def difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_a_frame_per_turn_and_the_last_is_the_final_board(trails_game):
    record, turns, pngs = trails_game
    assert len(pngs) == turns + 1  # the start, then the end of every turn
    game = registry.get("trails")
    final = render_board("trails", game.view(final_state(record), None), "en", NAMES)
    assert pngs[-1] == final
    data = encode(canvas_frames(open_frames(pngs)), "webp", frame_durations(len(pngs), players=2))
    frames = frames_of(data)
    assert len(frames) == turns + 1
    assert [d for _, d in frames] == [turn_ms(2)] * turns + [LAST_FRAME_MS]  # the last held
    last, before = frames[-1][0], frames[-2][0]
    final_image = Image.open(io.BytesIO(final)).convert("RGB")
    assert last.size == final_image.size
    # Lossy WebP: the last frame is the final board up to compression noise, far closer than the turn before.
    assert difference(last, final_image) < 2.0 < difference(before, final_image) or \
        difference(last, final_image) < difference(before, final_image) / 4


def test_lossless_formats_hold_the_final_board_exactly(trails_game):
    _, turns, pngs = trails_game
    final_image = Image.open(io.BytesIO(pngs[-1])).convert("RGB")
    frames = frames_of(encode(canvas_frames(open_frames(pngs)), "png"))  # APNG
    assert len(frames) == turns + 1
    assert ImageChops.difference(frames[-1][0], final_image).getbbox() is None


def test_every_frame_has_its_turn_counter_above_the_board(trails_game):
    _, turns, pngs = trails_game
    boards = canvas_frames(open_frames(pngs))
    captions = frame_captions(len(pngs), "en")
    assert captions[0] == f"Start · {turns} turns" and captions[1] == f"Turn 1 of {turns}"
    assert captions[-1] == f"Turn {turns} of {turns}"
    assert frame_captions(3, "ru") == ["Начало · 2 хода", "Ход 1 из 2", "Ход 2 из 2"]
    counted = counted_frames(boards, captions)
    strip = counter_height(boards[-1].width)
    for board, frame in zip(boards, counted, strict=True):
        assert frame.size == (board.width, board.height + strip)  # above the board: nothing of it hidden
        assert ImageChops.difference(frame.crop((0, strip, frame.width, frame.height)), board).getbbox() is None
    heads = [frame.crop((0, 0, frame.width, strip)) for frame in counted]
    assert all(ImageChops.difference(a, b).getbbox() is not None for a, b in zip(heads, heads[1:], strict=False))  # it counts
    # The progress bar grows: more of the strip's last row is lit at each turn.
    lit = [sum(1 for x in range(head.width)
               if head.getpixel((x, strip - 1)) != head.getpixel((head.width - 1, strip - 1))) for head in heads[1:-1]]
    assert lit == sorted(lit) and lit[0] < lit[-1]
    # Readable where Discord shows it 550 px wide (a taller strip for a wider board).
    assert counter_height(550) >= 13 * 1.5 and counter_height(1100) >= 2 * 13 * 1.5
    with pytest.raises(ValueError):
        counted_frames(boards, captions[:-1])


def test_the_pace_fits_the_number_of_players():
    for players in range(1, 7):
        assert MIN_FRAME_MS <= turn_ms(players) <= MAX_FRAME_MS
    # A round of every seat's turn takes the same time from 2 to 6 players; a solo turn is the longest.
    assert {players * turn_ms(players) for players in range(2, 7)} == {ROUND_MS}
    assert turn_ms(1) == MAX_FRAME_MS and turn_ms(6) < turn_ms(4) < turn_ms(2)
    for players in (1, 2, 6):
        durations = frame_durations(10, players)
        assert durations == [turn_ms(players)] * 9 + [LAST_FRAME_MS]
        assert 4 * max(durations[:-1]) <= LAST_FRAME_MS  # the final board held longer than any turn


def test_the_animation_has_the_tables_pace_and_counter(trails_game):
    _, turns, pngs = trails_game
    data, scale = animate(pngs, players=2, captions=frame_captions(len(pngs)))
    frames = frames_of(data)
    assert [d for _, d in frames] == [turn_ms(2)] * turns + [LAST_FRAME_MS]
    final = Image.open(io.BytesIO(pngs[-1]))
    assert frames[-1][0].size == (final.width, final.height + counter_height(final.width)) and scale == 1.0


def test_smaller_boards_are_centred_and_larger_ones_scaled_into_the_final_size():
    small, large, final = (Image.new("RGB", size, colour) for size, colour in
                           (((10, 10), (255, 0, 0)), ((400, 100), (0, 255, 0)), ((200, 200), (0, 0, 255))))
    large.putpixel((0, 0), (255, 255, 255))  # its background: the padding's colour
    framed = canvas_frames([small, large, final])
    assert [f.size for f in framed] == [(200, 200)] * 3
    assert framed[0].getpixel((100, 100)) == (255, 0, 0) and framed[0].getpixel((0, 0)) == (255, 0, 0)
    assert framed[1].getpixel((100, 100)) == (0, 255, 0) and framed[1].getpixel((100, 10)) == (255, 255, 255)
    half = canvas_frames([small, final], scale=0.5)
    assert [f.size for f in half] == [(100, 100)] * 2


def test_the_animation_fits_the_limit_by_scaling_down(trails_game):
    from rendering.replay import animate

    _, _, pngs = trails_game
    full, scale = animate(pngs)
    assert scale == 1.0  # a short game fits as drawn
    limit = len(full) // 3
    smaller, scale = animate(pngs, limit=limit)
    assert len(smaller) <= limit and scale < 1.0
    assert frames_of(smaller)[-1][0].width == round(Image.open(io.BytesIO(pngs[-1])).width * scale)
    assert frames_of(full)[0][0].height > Image.open(io.BytesIO(pngs[-1])).height  # the counter's strip


def test_records_that_do_not_replay_as_played_are_refused(trails_game):
    record, _, _ = trails_game
    assert check_record(record) is registry.get("trails")
    cases = {
        "not_a_record": {"game": "trails"},
        "rules_version": {**record, "rules_version": registry.get("trails").rules_version + 1},
        "unknown_game": {**record, "game": "chess"},
        "malformed": {**record, "moves": [{"seat": 9, "move": "x"}]},
        "record_version": {**record, "version": 99},
    }
    for code, data in cases.items():
        with pytest.raises(RecordError) as error:
            check_record(data)
        assert error.value.code == code
    changed = {**record, "moves": [{"seq": 1, "seat": 0, "move": "nonsense"}, *record["moves"]]}
    with pytest.raises(RecordError) as error:
        replay_views(changed)
    assert error.value.code == "does_not_replay" and error.value.params["seq"] == 1
