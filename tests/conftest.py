import hypothesis  # noqa: F401  (see below)
import pytest

from games import registry
from games.registry import GameEntry

# hypothesis is imported before any test runs: its pytest plugin otherwise imports it at the end of a run
# that used none of it (``pytest tests/bot``), and CPython 3.11.7 can then fail to compile it ("AST
# constructor recursion depth mismatch") after the bot's commands were built, failing a green run.
registry.register(GameEntry("nim", "tests.nim:GAME", "rendering:render_text_card", catalogs="tests",
                            presentation="tests.nim_presentation"))  # the generic panel
registry.register(GameEntry("gems", "tests.cards:GAME", "rendering:render_text_card", catalogs="tests"))  # hands


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "tables.sqlite3")
