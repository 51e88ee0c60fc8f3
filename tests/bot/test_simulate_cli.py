"""``python -m bot simulate``: a whole game played by the bot's AI levels (normal by default), one board per
turn (Déole's sheets too), seats named and counted from 1, a record ``python -m bot replay`` rebuilds board for
board; any value it cannot use is one line and exit code 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.replay import check_record, turn_states
from games import registry
from games.ai import make_player, plan_of

ROOT = Path(__file__).resolve().parents[2]


def short_trails_deck(tiles: int = 10, seed: int = 5) -> str:
    return ",".join(registry.get("trails").setup(2, {}, seed).deck[:tiles])


def simulate_json(capsys, *args: str) -> dict:
    assert main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_board_per_turn_and_a_record_that_replays_board_for_board(tmp_path, capsys):
    sim, rec = tmp_path / "sim", tmp_path / "replay"
    record_path = tmp_path / "game.json"
    out = simulate_json(capsys, "trails", "--seed", "5", "--option", f"deck={short_trails_deck()}",
                        "--render", str(sim), "--record", str(record_path))
    boards = sorted(sim.glob("*.png"))
    assert out["turns"] > 5 and out["images"] == out["turns"] + 1  # the start, then the end of every turn
    assert [b.name for b in boards] == [f"{n:05d}.png" for n in range(out["turns"] + 1)]
    assert len({b.read_bytes() for b in boards}) == len(boards)  # no turn drawn twice
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert check_record(record) is registry.get("trails")
    assert record["seats"] == [{"position": 0, "name": "AI 1", "ai": True, "ai_level": "normal"},
                               {"position": 1, "name": "AI 2", "ai": True, "ai_level": "normal"}]
    assert len(record["moves"]) == out["actions"] and record["seed"] == 5
    assert record["options"]["deck"] == short_trails_deck() and set(record["options"]) == {"expansions", "fields",
                                                                                            "deck"}
    assert sum(1 for _ in turn_states(record)) == out["turns"] + 1
    assert main(["replay", str(record_path), "--render", str(rec), "--animation"]) == 0
    assert f"{out['turns']} turns" in capsys.readouterr().out
    assert [(b.name, b.read_bytes()) for b in sorted(rec.glob("*.png"))] == [(b.name, b.read_bytes()) for b in boards]
    assert (rec / "replay.webp").stat().st_size > 0


def test_the_bots_normal_ai_plays_by_default_and_levels_are_chosen_per_seat(tmp_path, capsys):
    deck = short_trails_deck()
    paths = {name: tmp_path / f"{name}.json" for name in ("default", "normal", "easy", "mixed")}
    for name, extra in (("default", []), ("normal", ["--ai", "normal"]), ("easy", ["--ai", "easy"]),
                        ("mixed", ["--ai", "hard,easy"])):
        simulate_json(capsys, "trails", "--seed", "3", "--option", f"deck={deck}", "--record", str(paths[name]),
                      *extra)
    records = {name: json.loads(path.read_text(encoding="utf-8")) for name, path in paths.items()}
    assert records["default"] == records["normal"] != records["easy"]
    assert [s["ai_level"] for s in records["mixed"]["seats"]] == ["hard", "easy"]
    # The first move is the one the bot's normal AI plays at this table (seeded as the bot seeds it).
    game = registry.get("trails")
    state = game.setup(2, records["normal"]["options"], 3)
    seat = game.to_act(state)[0]
    first = plan_of(make_player("trails", "normal", 3), game, state, seat)[0]
    assert records["normal"]["moves"][0] == {"seq": 1, "seat": seat, "move": game.format(first)}


def test_seats_are_named_and_counted_from_one(capsys):
    deck = short_trails_deck()
    assert main(["simulate", "trails", "--seed", "2", "--option", f"deck={deck}", "--ai", "easy,normal"]) == 0
    text = capsys.readouterr().out
    assert "AI 1 (easy), AI 2 (normal)" in text and "seat 0" not in text
    assert "1. AI " in text and "2. AI " in text
    out = simulate_json(capsys, "trails", "--seed", "2", "--option", f"deck={deck}", "--names", "Ann,Boris")
    assert [(s["seat"], s["name"]) for s in out["seats"]] == [(1, "Ann"), (2, "Boris")]
    assert sorted(p["seat"] for p in out["ranking"]) == [1, 2]
    assert {p["name"] for p in out["ranking"]} == {"Ann", "Boris"}


def test_deole_draws_the_navigation_sheets_of_every_turn(tmp_path, capsys):
    out = simulate_json(capsys, "deole", "--players", "1", "--seed", "3", "--render", str(tmp_path))
    boards = sorted(p.name for p in tmp_path.glob("?????.png"))
    sheets = sorted(p.name for p in tmp_path.glob("*-sheets.png"))
    assert len(boards) == out["turns"] + 1 == out["images"]
    assert sheets == [name.replace(".png", "-sheets.png") for name in boards]


MALFORMED = [
    (["trails", "--option", "fields"], "KEY=VALUE"),
    (["trails", "--option", "=yes"], "KEY=VALUE"),
    (["trails", "--option", "colour=red"], "Unknown option colour"),
    (["trails", "--option", "fields=maybe"], "Option fields needs yes or no"),
    (["trails", "--option", "expansions=dragons"], "Option expansions cannot be dragons"),
    (["trails", "--players", "9"], "This game needs 2 to 6 players; there are 9."),
    (["trails", "--players", "two"], "invalid int value"),
    (["trails", "--ai", "genius"], "There is no AI level “genius”"),
    (["trails", "--ai", "easy,hard,normal"], "one per seat"),
    (["trails", "--names", "Ann"], "give 2 names"),
    (["trails", "--animation"], "--animation needs --render"),
    (["chess"], "Unknown game 'chess'"),
    (["trails", "--colour"], "unrecognized arguments: --colour"),
]


@pytest.mark.parametrize(("args", "said"), MALFORMED, ids=[" ".join(a) for a, _ in MALFORMED])
def test_a_malformed_value_is_one_line_and_exit_code_2(args, said, tmp_path, capsys):
    try:
        code = main(["simulate", *args, "--render", str(tmp_path / "out")]
                    if "--animation" not in args else ["simulate", *args])
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], captured.err
    assert captured.out == "" and not (tmp_path / "out").exists()  # nothing played, nothing written


def test_the_command_itself_prints_no_traceback():
    done = subprocess.run([sys.executable, "-m", "bot", "simulate", "trails", "--option", "fields"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "--option 'fields': give it as KEY=VALUE" in done.stderr
