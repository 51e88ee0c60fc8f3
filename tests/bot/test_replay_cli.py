"""``python -m bot replay FILE --render DIR``: every position of a record rebuilt and drawn; a record the engine
cannot replay as played is refused with one clear line."""

import json

from PIL import Image

from bot.__main__ import main
from bot.replay import final_state, new_record
from games import registry
from rendering.replay import LAST_FRAME_MS, counter_height, turn_ms

SEATS = [{"position": 0, "name": "alice", "ai": False}, {"position": 1, "name": "bob", "ai": False}]


def nim_record() -> dict:
    """Alice takes 2, bob 1, alice 2: she takes the last stick; three turns."""
    return new_record("nim", {"pile": 5}, 3, SEATS, [(1, 0, "take 2"), (2, 1, "take 1"), (3, 0, "take 2")])


def test_replay_renders_every_turn_and_the_animation(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(nim_record()), encoding="utf-8")
    out = tmp_path / "frames"
    assert main(["replay", str(path), "--render", str(out), "--animation"]) == 0
    frames = sorted(out.glob("*.png"))
    assert [f.name for f in frames] == ["00000.png", "00001.png", "00002.png", "00003.png"]
    animation = Image.open(out / "replay.webp")
    assert animation.n_frames == 4
    durations = []
    for number in range(animation.n_frames):
        animation.seek(number)
        animation.load()  # the frame's duration is read with the frame
        durations.append(animation.info["duration"])
    assert durations == [turn_ms(2)] * 3 + [LAST_FRAME_MS]  # two players' pace, the final board held
    board = Image.open(frames[-1])
    assert animation.size == (board.width, board.height + counter_height(board.width))  # the turn counter above
    assert "3 moves, 3 turns (4 positions" in capsys.readouterr().out
    assert registry.get("nim").is_over(final_state(nim_record()))


def test_a_record_of_other_rules_is_refused(tmp_path, capsys):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({**nim_record(), "rules_version": 0}), encoding="utf-8")
    assert main(["replay", str(path), "--render", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert "version 0 of the nim rules" in error and "now plays version 1" in error
    assert not (tmp_path / "out").exists()  # nothing drawn


def test_a_file_that_is_not_a_record_is_refused(tmp_path, capsys):
    for name, text in (("notes.txt", "hello"), ("other.json", json.dumps({"moves": []}))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["replay", str(path)]) == 2
    errors = capsys.readouterr().err
    assert "Cannot read" in errors and "not a Play-by-Chat game record" in errors
    bad_move = {**nim_record(), "moves": [{"seq": 1, "seat": 0, "move": "take 9"}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad_move), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "Move 1 of this record (“take 9”) does not replay" in capsys.readouterr().err


def test_an_animation_without_a_folder_is_one_line(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(nim_record()), encoding="utf-8")
    assert main(["replay", str(path), "--animation"]) == 2
    assert capsys.readouterr().err.strip() == "--animation needs --render DIR (the animation is written there)"
