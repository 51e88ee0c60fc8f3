"""Configuration is checked when it is read: a bad value is one clear sentence, exit code 2."""

import os
import subprocess
import sys
import time

import pytest

from bot.config import Config, ConfigError, shard_of


@pytest.mark.parametrize(("name", "value", "words"), [
    ("DEV_GUILD_ID", "my-server", "digits only"),
    ("LOG_LEVEL", "loud", "one of DEBUG"),
    ("DISCORD_API_BASE", "discord.example/api", "http://"),
    ("DISCORD_GATEWAY_URL", "http://gateway", "ws://"),
    ("DATABASE_URL", "mysql://db/bot", "postgresql://"),
    ("SHARD_COUNT", "two", "whole number"),
    ("SHARD_COUNT", "0", "whole number"),
])
def test_a_bad_value_names_the_variable_and_what_it_accepts(name, value, words):
    with pytest.raises(ConfigError) as error:
        Config.from_env({"DISCORD_TOKEN": "t", name: value}, dotenv=None)
    assert name in str(error.value) and words in str(error.value)


def test_good_values_and_defaults():
    config = Config.from_env({"DISCORD_TOKEN": " t ", "DEV_GUILD_ID": "42", "LOG_LEVEL": "debug"}, dotenv=None)
    assert (config.token, config.dev_guild_id, config.log_level, config.database_path) == (
        "t", 42, "DEBUG", "playbychat.sqlite3")


@pytest.mark.parametrize(("shard_ids", "words"), [
    ("0-4", "outside 0-3"),
    ("3-1", "backwards"),
    ("0;2", "list of shard ids"),
    ("a-b", "list of shard ids"),
    ("-1", "list of shard ids"),
])
def test_bad_shard_ids_are_refused(shard_ids, words):
    with pytest.raises(ConfigError) as error:
        Config.from_env({"SHARD_COUNT": "4", "SHARD_IDS": shard_ids}, dotenv=None)
    assert "SHARD_IDS" in str(error.value) and words in str(error.value)


def test_a_bad_database_url_is_refused_without_echoing_its_password():
    with pytest.raises(ConfigError) as error:
        Config.from_env({"DATABASE_URL": "mysql://bot:s3cret@db/pbc"}, dotenv=None)
    assert "DATABASE_URL" in str(error.value) and "postgresql://" in str(error.value)
    assert "s3cret" not in str(error.value)


def test_shard_ids_need_a_shard_count():
    with pytest.raises(ConfigError, match="needs SHARD_COUNT"):
        Config.from_env({"SHARD_IDS": "0"}, dotenv=None)


def test_shards_and_the_guilds_they_own():
    config = Config.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0-1,3", "DATABASE_URL": "postgresql://db/bot"},
                             dotenv=None)
    assert (config.shard_count, config.shard_ids, config.database_url) == (4, (0, 1, 3), "postgresql://db/bot")
    assert config.sharded and config.syncs_commands
    assert [config.owns_guild(shard << 22) for shard in range(8)] == [True, True, False, True] * 2
    assert config.owns_guild(None)  # direct messages come to shard 0
    second = Config.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, dotenv=None)
    assert not second.syncs_commands and not second.owns_guild(None) and second.owns_guild(1 << 22)
    every = Config.from_env({"SHARD_COUNT": "3"}, dotenv=None)
    assert every.shard_ids == (0, 1, 2)
    plain = Config.from_env({}, dotenv=None)
    assert not plain.sharded and plain.syncs_commands and plain.owns_guild(12345 << 22)
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2


def test_the_bot_connects_as_an_auto_sharded_client_only_when_sharded():
    import discord

    from bot.app import make_bot

    sharded = make_bot(Config.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "2,3"}, dotenv=None))
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
    assert sharded.tables.owns_guild(2 << 22) and not sharded.tables.owns_guild(1 << 22)
    assert not isinstance(make_bot(Config.from_env({}, dotenv=None)), discord.AutoShardedClient)


def run(*args, env, cwd):
    return subprocess.run([sys.executable, "-m", "bot", *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=60, cwd=cwd)


def test_run_with_a_bad_value_exits_2_with_one_line(tmp_path):
    done = run("run", env={"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0 and "LOG_LEVEL" in done.stderr


def test_health_reads_the_age_of_the_health_file(tmp_path):
    health = tmp_path / "health"
    assert run("health", env={"HEALTH_FILE": str(health)}, cwd=tmp_path).returncode == 1  # never connected
    health.touch()
    assert run("health", env={"HEALTH_FILE": str(health)}, cwd=tmp_path).returncode == 0
    old = time.time() - 600
    os.utime(health, (old, old))
    done = run("health", env={"HEALTH_FILE": str(health)}, cwd=tmp_path)
    assert done.returncode == 1 and "unhealthy: last connected 60" in done.stderr


def test_run_with_an_unreachable_postgresql_exits_2_with_one_line_and_no_password(tmp_path):
    done = run("run", env={"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://bot:s3cret@127.0.0.1:1/pbc"},
               cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0, done.stderr
    assert "Cannot start: the database postgresql://bot@127.0.0.1:1/pbc cannot be used" in done.stderr
    assert "s3cret" not in done.stderr
