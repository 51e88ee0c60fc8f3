"""Configuration is checked when it is read: a bad value is one clear sentence, exit code 2."""

import os
import subprocess
import sys
import time

import pytest

from bot.config import Config, ConfigError


@pytest.mark.parametrize(("name", "value", "words"), [
    ("DEV_GUILD_ID", "my-server", "digits only"),
    ("LOG_LEVEL", "loud", "one of DEBUG"),
    ("DISCORD_API_BASE", "discord.example/api", "http://"),
    ("DISCORD_GATEWAY_URL", "http://gateway", "ws://"),
])
def test_a_bad_value_names_the_variable_and_what_it_accepts(name, value, words):
    with pytest.raises(ConfigError) as error:
        Config.from_env({"DISCORD_TOKEN": "t", name: value}, dotenv=None)
    assert name in str(error.value) and words in str(error.value)


def test_good_values_and_defaults():
    config = Config.from_env({"DISCORD_TOKEN": " t ", "DEV_GUILD_ID": "42", "LOG_LEVEL": "debug"}, dotenv=None)
    assert (config.token, config.dev_guild_id, config.log_level, config.database_path) == (
        "t", 42, "DEBUG", "playbychat.sqlite3")


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
