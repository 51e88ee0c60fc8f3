import pytest

from games import registry

registry.register("nim", "tests.nim:GAME")
registry.register("gems", "tests.cards:GAME")  # hidden hands


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "tables.sqlite3")
