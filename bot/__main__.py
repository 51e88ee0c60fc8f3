"""Command line: ``play-by-chat run | health | games | migrate-db | simulate | replay`` (or ``python -m bot ...``).

A value that cannot be used is one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from bot.config import Config, ConfigError, MissingToken
from bot.i18n import LOCALES, t
from bot.store import POSTGRES_SCHEMES, make_store
from bot.store.base import StoreUnavailable
from games import registry
from games.ai import DEFAULT_LEVEL, LEVELS
from games.core import IllegalAction


def cmd_games(_: argparse.Namespace) -> int:
    game_keys = registry.game_keys()
    if not game_keys:
        print("No games registered yet.")
    for key in game_keys:
        game = registry.get(key)
        print(f"{key}: {game.names.get('en', key)} ({game.min_players}-{game.max_players} players)")
        for spec in game.option_specs:
            choices = f" [{', '.join(spec.choices)}]" if spec.choices else ""
            print(f"    --option {spec.name}=...  ({spec.kind}{choices}, default {spec.format(spec.default)})")
    return 0


class CommandLineError(Exception):
    """A value on the command line that cannot be used: one line on stderr, exit code 2."""


def one_line_error(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def option_pairs(items: list[str]) -> dict[str, str]:
    """``--option key=value`` items as a dict; a malformed one is a ``CommandLineError``."""
    options: dict[str, str] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise CommandLineError(f"--option {item!r}: give it as KEY=VALUE, e.g. --option {key.strip() or 'KEY'}=..."
                                   " (`python -m bot games` lists each game's options)")
        options[key.strip()] = value
    return options


def comma_list(text: str | None) -> list[str]:
    return [part.strip() for part in text.split(",")] if text else []


def seat_levels(text: str, players: int) -> list[str]:
    """``--ai``: one level for every seat, or one per seat (``hard,normal``)."""
    levels = comma_list(text) or [DEFAULT_LEVEL]
    for level in levels:
        if level not in LEVELS:
            raise CommandLineError(t("en", "error.bad_ai_level", value=level[:100], choices=", ".join(LEVELS)))
    if len(levels) == 1:
        return levels * players
    if len(levels) != players:
        raise CommandLineError(f"--ai {text}: give one level for every seat, or one per seat ({players} here)")
    return levels


def illegal_text(error: IllegalAction) -> str:
    """An engine's refusal (bad options, player count...) in English, as the bot says it."""
    text = t("en", f"error.{error.code}", **error.params)
    return text if text != f"error.{error.code}" else f"{error.code} {error.params}"


def seat_label(seat: dict[str, Any]) -> str:
    """A seat as a person reads it: "AI 1 (normal)", "Ann (hard)"."""
    return f"{seat['name']} ({seat['ai_level']})"


def write_turn_images(out: Path, key: str, view: dict[str, Any], number: int, locale: str,
                      names: list[str]) -> bytes:
    """The board of the position after turn ``number`` (0: the start) as DIR/00012.png, and the game's images
    after the board (Déole's Navigation sheets) as DIR/00012-sheets.png; the board's PNG."""
    from rendering import render_board, render_details

    board = render_board(key, view, locale, names)
    (out / f"{number:05d}.png").write_bytes(board)
    for name, png in render_details(key, view, locale, names):
        (out / f"{number:05d}-{name}").write_bytes(png)
    return board


def write_animation(out: Path, boards: list[bytes], players: int, locale: str) -> None:
    from bot.replay import frame_captions
    from rendering.replay import animate

    (out / "replay.webp").write_bytes(animate(boards, players=players,
                                              captions=frame_captions(len(boards), locale))[0])


def cmd_simulate(args: argparse.Namespace) -> int:
    """A whole game played by the bot's AI players (``bot/simulate.py``)."""
    from bot.replay import record_json
    from bot.simulate import seat_entries, simulate, stored_options

    if not registry.has(args.game):
        return one_line_error(f"Unknown game {args.game!r}; known: {', '.join(registry.game_keys()) or 'none'}")
    game = registry.get(args.game)
    try:
        if args.animation and not args.render:
            raise CommandLineError("--animation needs --render DIR (the animation is written there)")
        raw = option_pairs(args.option)
        levels = seat_levels(args.ai, args.players)
        names = comma_list(args.names)
        if names and (len(names) != args.players or not all(names)):
            raise CommandLineError(f"--names {args.names}: give {args.players} names, one per seat, comma-separated")
        options = stored_options(game, raw)
        game.check_players(args.players)
    except CommandLineError as error:
        return one_line_error(str(error))
    except IllegalAction as error:
        return one_line_error(illegal_text(error))
    seats = seat_entries(levels, names or None)
    plain = [str(seat["name"]) for seat in seats]  # as the bot draws its seats on a board ("AI 1")
    out: Path | None = None
    if args.render:
        out = Path(args.render)
        out.mkdir(parents=True, exist_ok=True)
    boards: list[bytes] = []

    def after_turn(number: int, state: Any) -> None:
        if out is not None:
            view = json.loads(json.dumps(game.view(state, None)))
            boards.append(write_turn_images(out, game.key, view, number, args.language, plain))

    try:
        played = simulate(game, options, args.seed, seats, on_turn=after_turn)
    except IllegalAction as error:
        return one_line_error(illegal_text(error))
    if out is not None and args.animation:
        write_animation(out, boards, args.players, args.language)
    if args.record:
        Path(args.record).write_bytes(record_json(played.record))
    result = played.result
    if args.json:
        print(json.dumps({
            "game": game.key, "players": args.players, "seed": args.seed, "options": options,
            "turns": played.turns, "actions": played.actions, "extra": result.extra,
            "seats": [{"seat": s["position"] + 1, "name": s["name"], "ai_level": s["ai_level"]} for s in seats],
            "ranking": [{"seat": p.seat + 1, "name": seats[p.seat]["name"], "rank": p.rank, "score": p.score,
                         "breakdown": p.breakdown, "eliminated": p.eliminated} for p in result.ranking],
            "images": len(boards), "record": args.record,
        }, ensure_ascii=False))
        return 0
    print(f"{game.names.get('en', game.key)}: {args.players} player{'s' if args.players != 1 else ''} "
          f"({', '.join(seat_label(s) for s in seats)}), seed {args.seed}, {played.turns} turns, "
          f"{played.actions} actions")
    for p in result.ranking:
        detail = ", ".join(f"{k} {v}" for k, v in p.breakdown.items())
        out_text = ", out" if p.eliminated else ""
        print(f"  {p.rank}. {seat_label(seats[p.seat])}: {p.score}{out_text} ({detail})")
    facts = {k: v for k, v in result.extra.items() if k != "solo" and isinstance(v, (str, int, float))}
    if facts:  # a solo game's outcome; facts per seat (keyed by position) are left to --json
        print("  " + ", ".join(f"{k}: {'yes' if v is True else 'no' if v is False else v}" for k, v in facts.items()))
    if out is not None:
        print(f"{len(boards)} boards (the start and one per turn) in {out}"
              + (", with replay.webp" if args.animation else ""))
    if args.record:
        print(f"Record in {args.record} (replay it: python -m bot replay {args.record} --render DIR)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Rebuild every position of a game record (``/game replay``'s JSON file); with ``--render``, draw each
    turn's board into a folder (and the animation the bot posts, with ``--animation``)."""
    from bot.replay import RecordError, check_record, turn_states

    if args.animation and not args.render:
        return one_line_error("--animation needs --render DIR (the animation is written there)")
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return one_line_error(f"Cannot read {args.file}: {error}")
    try:
        game = check_record(data)
        views = [json.loads(json.dumps(game.view(state, None))) for _game, state in turn_states(data)]
    except RecordError as error:
        return one_line_error(f"Cannot replay {args.file}: {t('en', f'replay.error.{error.code}', **error.params)}")
    names = [str(seat.get("name", "?")) for seat in data["seats"]]
    if args.render:
        out = Path(args.render)
        out.mkdir(parents=True, exist_ok=True)
        boards = [write_turn_images(out, game.key, view, number, args.language, names)
                  for number, view in enumerate(views)]
        if args.animation:
            write_animation(out, boards, len(names), args.language)
    print(f"{game.names.get('en', game.key)}: {len(data['moves'])} moves, {len(views) - 1} turns "
          f"({len(views)} positions: the start and the end of every turn)"
          + (f" rendered in {args.render}" if args.render else ""))
    return 0


async def probe_store(path: str, url: str | None = None) -> str | None:
    """Open the database once before connecting to Discord: a read-only, locked, corrupt, unreachable or newer
    database is one clear line at start instead of a traceback at the first move."""
    store = make_store(url, path)
    try:
        await store.open()
    except StoreUnavailable as error:
        return str(error)
    await store.close()
    return None


HEALTHY_WITHIN = 90.0  # seconds: the bot touches its health file every 30 s while connected


def cmd_health(_: argparse.Namespace) -> int:
    """For a container's health check: 0 while the running bot says it is connected, 1 otherwise."""
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"Bad configuration: {error}.", file=sys.stderr)
        return 2
    if config.health_file is None:
        print("HEALTH_FILE is not set: the bot does not report its health.", file=sys.stderr)
        return 1
    try:
        age = time.time() - Path(config.health_file).stat().st_mtime
    except OSError:
        print("unhealthy: the bot has not reported being connected yet", file=sys.stderr)
        return 1
    if age > HEALTHY_WITHIN:
        print(f"unhealthy: last connected {age:.0f} s ago", file=sys.stderr)
        return 1
    print("healthy")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"Bad configuration: {error}.", file=sys.stderr)
        return 2
    try:
        config.require_token()
    except MissingToken:
        print("DISCORD_TOKEN is not set: put it in the environment or in a .env file "
              "(DISCORD_TOKEN=...) and run again.", file=sys.stderr)
        return 2
    error = asyncio.run(probe_store(config.database_path, config.database_url))
    if error is not None:
        print(f"Cannot start: {error}.", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.app import run_bot

    run_bot(config, force_sync=args.sync)
    return 0


def cmd_migrate_db(args: argparse.Namespace) -> int:
    """Copy a SQLite database into an empty PostgreSQL one, every row, and check the counts."""
    from bot.store.migrate_db import MigrationError, migrate

    if not args.source.startswith("sqlite:"):
        print(f"--from {args.source!r}: give the SQLite file as sqlite:FILE", file=sys.stderr)
        return 2
    if not args.target.startswith(POSTGRES_SCHEMES):
        print("--to: give the PostgreSQL database as postgresql://USER@HOST:PORT/DATABASE", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(migrate(args.source, args.target))
    except (MigrationError, StoreUnavailable) as error:
        print(f"Nothing copied: {error}.", file=sys.stderr)
        return 2
    for entry in copied:
        print(f"{entry.table}: {entry.rows} rows")
    print(f"Copied {sum(entry.rows for entry in copied)} rows in {len(copied)} tables; the counts match.")
    return 0


class OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line (what is wrong, and where help is) and exit code 2, not the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="play-by-chat", description="Play-by-Chat: board games in Discord.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    run = commands.add_parser("run", help="start the bot")
    run.add_argument("--sync", action="store_true",
                     help="sync the slash commands with Discord even if they did not change")
    run.set_defaults(func=cmd_run)
    commands.add_parser("health", help="exit 0 if the running bot is connected (health checks)").set_defaults(
        func=cmd_health)
    commands.add_parser("games", help="list the games and their options").set_defaults(func=cmd_games)
    move = commands.add_parser("migrate-db", help="copy the SQLite database into an empty PostgreSQL database")
    move.add_argument("--from", dest="source", required=True, metavar="sqlite:FILE")
    move.add_argument("--to", dest="target", required=True, metavar="postgresql://...")
    move.set_defaults(func=cmd_migrate_db)
    sim = commands.add_parser("simulate", help="play a whole game with the bot's AI players")
    sim.add_argument("game")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a game option (python -m bot games lists them); repeat for more")
    sim.add_argument("--ai", default=DEFAULT_LEVEL, metavar="|".join(LEVELS),
                     help=f"the AI level of every seat, or one per seat: hard,normal (default {DEFAULT_LEVEL})")
    sim.add_argument("--names", metavar="NAME,NAME,...", help="the seats' names (default AI 1, AI 2, ...)")
    sim.add_argument("--render", metavar="DIR",
                     help="write the board of the start and after every turn: DIR/00000.png, 00001.png, ...")
    sim.add_argument("--animation", action="store_true", help="with --render: also DIR/replay.webp")
    sim.add_argument("--record", metavar="FILE", help="write the game's record (the JSON /game replay posts)")
    sim.add_argument("--language", choices=LOCALES, default="en", help="the images' language")
    sim.add_argument("--json", action="store_true", help="print one JSON object (seats numbered from 1)")
    sim.set_defaults(func=cmd_simulate)
    replay = commands.add_parser("replay", help="rebuild every position of a game record (JSON from /game replay)")
    replay.add_argument("file")
    replay.add_argument("--render", metavar="DIR",
                        help="write the board of the start and after every turn: DIR/00000.png, 00001.png, ...")
    replay.add_argument("--animation", action="store_true", help="with --render: also DIR/replay.webp")
    replay.add_argument("--language", choices=LOCALES, default="en", help="the images' language")
    replay.set_defaults(func=cmd_replay)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
