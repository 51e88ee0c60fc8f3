"""Command line: ``play-by-chat run | games | simulate | health`` (or ``python -m bot ...``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from pathlib import Path

from bot.config import Config, ConfigError, MissingToken
from bot.store import POSTGRES_SCHEMES, make_store
from bot.store.base import StoreUnavailable
from games import registry
from games.ai import play_out
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


def cmd_simulate(args: argparse.Namespace) -> int:
    if not registry.has(args.game):
        print(f"Unknown game {args.game!r}; known: {', '.join(registry.game_keys()) or 'none'}", file=sys.stderr)
        return 2
    game = registry.get(args.game)
    options = dict(item.split("=", 1) for item in args.option)
    try:
        state = game.setup(args.players, options, args.seed)
    except IllegalAction as error:
        print(f"Invalid setup: {error.code} {error.params}", file=sys.stderr)
        return 2
    render = None
    if args.render:
        from rendering import render_board

        out = Path(args.render)
        out.mkdir(parents=True, exist_ok=True)
        render = (out, render_board)
    actions = 0

    def after_action(seat, action, events) -> None:
        nonlocal actions
        actions += 1
        if render is not None:
            (render[0] / f"{actions:05d}.png").write_bytes(render[1](game.key, game.view(state, None)))

    result = play_out(game, state, seed=args.seed, on_action=after_action)
    if args.json:
        print(json.dumps({
            "game": game.key, "players": args.players, "seed": args.seed, "turns": result.turns,
            "actions": actions, "extra": result.extra,
            "ranking": [{"seat": p.seat, "rank": p.rank, "score": p.score, "breakdown": p.breakdown,
                         "eliminated": p.eliminated} for p in result.ranking],
        }))
    else:
        print(f"{game.names.get('en', game.key)}: {args.players} players, seed {args.seed}, "
              f"{result.turns} turns, {actions} actions")
        for p in result.ranking:
            detail = ", ".join(f"{k} {v}" for k, v in p.breakdown.items())
            print(f"  {p.rank}. seat {p.seat}: {p.score} ({detail})")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Rebuild every position of a game record (``/game replay``'s JSON file); with ``--render``, draw each
    turn's board into a folder (and the animation the bot posts, with ``--animation``)."""
    from bot.i18n import t
    from bot.replay import RecordError, check_record, turn_states

    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"Cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        game = check_record(data)
        views = [json.loads(json.dumps(game.view(state, None))) for _game, state in turn_states(data)]
    except RecordError as error:
        print(f"Cannot replay {args.file}: {t('en', f'replay.error.{error.code}', **error.params)}", file=sys.stderr)
        return 2
    names = [str(seat.get("name", "?")) for seat in data["seats"]]
    if args.render:
        from rendering import render_board

        out = Path(args.render)
        out.mkdir(parents=True, exist_ok=True)
        pngs = [render_board(game.key, view, "en", names) for view in views]
        for number, png in enumerate(pngs):
            (out / f"{number:05d}.png").write_bytes(png)
        if args.animation:
            from rendering.replay import animate

            (out / "replay.webp").write_bytes(animate(pngs)[0])
    print(f"{game.names.get('en', game.key)}: {len(data['moves'])} moves, {len(views)} positions (one per turn)"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="play-by-chat", description="Play-by-Chat: board games in Discord.")
    commands = parser.add_subparsers(dest="command", required=True)
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
    sim = commands.add_parser("simulate", help="play a whole game with built-in AI players")
    sim.add_argument("game")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    sim.add_argument("--render", metavar="DIR", help="write the board image after every action")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=cmd_simulate)
    replay = commands.add_parser("replay", help="rebuild every position of a game record (JSON from /game replay)")
    replay.add_argument("file")
    replay.add_argument("--render", metavar="DIR", help="write each turn's board image into DIR")
    replay.add_argument("--animation", action="store_true", help="with --render: also DIR/replay.webp")
    replay.set_defaults(func=cmd_replay)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
