"""The docs name no file that is not in the repository: every relative path or link cited in ``README.md`` and
``docs/**/*.md`` (in backquotes or as a Markdown link) exists, from the repository's root or from the page's
own folder. A bare file name (``engine.py``, next to a folder the sentence names) must exist somewhere in the
repository. ``<key>``, ``NNN`` and ``*`` stand for any name; ``{a,b}`` for each of a and b."""

import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "tests").rglob("README.md"))]
QUOTED = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PATH = re.compile(r"^\.?[\w<>{}*-]+(?:[./][\w<>{}*,.-]*)*$")
EXTENSIONS = (".py", ".md", ".txt", ".json", ".png", ".toml", ".yaml", ".yml", ".sql", ".webp", ".sh")
# Made by the install or the user, not kept in the repository.
NOT_IN_GIT = (".venv", ".env", ".venv-ci")
# Files of other projects a page names on purpose (discord.py's own modules, in tests/e2e/README.md).
ELSEWHERE = {"http.py", "webhook/async_.py"}
PLACEHOLDER = re.compile(r"^[A-Z]+/")  # DIR/00000.png: what a command writes where it is told


def cited(text: str) -> list[str]:
    """Every path a page cites: backquoted tokens that look like paths (a slash, or a file's extension) and
    Markdown links that are not web addresses or anchors."""
    found = []
    for token in QUOTED.findall(text):
        token = token.strip()
        if token.startswith("/") or "://" in token or not PATH.match(token) or PLACEHOLDER.match(token):
            continue  # a slash command, an address, code, a command's output
        if "/" in token or token.endswith(EXTENSIONS):
            if token.split("/")[0].count(".") and not token.startswith(".") and "/" in token:
                continue  # a dotted name (fake.world.add_user/add_role): code, not a path
            found.append(token)
    found += [link.split("#")[0] for link in LINK.findall(text) if "://" not in link and not link.startswith("#")]
    return [path for path in found if path]


def expansions(path: str) -> list[str]:
    """``{a,b}`` expanded, ``<key>`` and ``NNN`` made wildcards."""
    parts = re.split(r"\{([^}]*)\}", path)
    choices = [[part] if n % 2 == 0 else part.split(",") for n, part in enumerate(parts)]
    return [re.sub(r"<[^>]+>|NNN", "*", "".join(combo)) for combo in itertools.product(*choices)]


def exists(path: str, page: Path) -> bool:
    if path in ELSEWHERE or path.split("/")[0] in NOT_IN_GIT:
        return True
    for pattern in expansions(path.rstrip("/")):
        for base in (ROOT, page.parent):
            if any(base.glob(pattern)) if "*" in pattern else (base / pattern).exists():
                break
        else:
            if "/" in pattern or not any(p for p in ROOT.rglob(pattern) if ".venv" not in p.parts):
                return False
    return True


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_cited_path_exists(page):
    missing = sorted({path for path in cited(page.read_text(encoding="utf-8")) if not exists(path, page)})
    assert not missing, f"{page.relative_to(ROOT)} cites what the repository does not have: {missing}"


def test_the_check_finds_a_missing_file():
    text = ("See `rules/tiles.ru.txt`, [guide](../shared/guide.md), `games/<key>/`, `docs/games/{trails,deole}.md`,"
            " `DIR/00000.png`, `/game new`, `python -m bot run`.")
    page = ROOT / "docs" / "design.md"
    assert cited(text) == ["rules/tiles.ru.txt", "games/<key>/", "docs/games/{trails,deole}.md", "../shared/guide.md"]
    assert [exists(path, page) for path in cited(text)] == [False, True, True, False]
    assert not exists("docs/games/{trails,chess}.md", page)
