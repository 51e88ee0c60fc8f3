"""The image and the install carry every package of the bot: a package added to the code but not to the
Dockerfile or to pyproject's package list imports on a developer's editable install and fails in production."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name not in ("tests",
                                                                                                   "benchmarks"))


def test_every_package_is_installed_and_copied_into_the_image():
    assert {"bot", "cogs", "games", "presentation", "rendering"} <= set(PACKAGES)
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    copied = set(re.findall(r"^COPY (\w+) \1$", (ROOT / "Dockerfile").read_text(), re.MULTILINE))
    for package in PACKAGES:
        assert f"{package}*" in listed, f"{package} is not in pyproject's [tool.setuptools.packages.find] include"
        assert package in copied, f"the Dockerfile does not COPY {package}"
