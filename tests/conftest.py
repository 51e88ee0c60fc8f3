import pytest

from games import registry
from games.registry import GameEntry

registry.register(GameEntry("nim", "tests.nim:GAME", "rendering:render_text_card", catalogs="tests"))
registry.register(GameEntry("gems", "tests.cards:GAME", "rendering:render_text_card", catalogs="tests"))  # hands


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "tables.sqlite3")
