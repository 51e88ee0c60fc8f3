"""Each game's Russian catalog follows the glossary of its page (docs/games/<key>.md, "Glossary (en → ru)"):
its terms are there, and the synonyms the glossary rules out are not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# game: (terms the catalog uses, as written; stems it must not use, in any case): patterns matched inside words.
GLOSSARIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "trails": (
        ("плитк", "тропа", "крепость", "луг", "обитель", "герб", "зверь", "старший зверь", "зодчий", "хранитель",
         "гости\\w+ двор", "святилище", "колод", "объект"),
        ("фигурк", "тайл", "стопк", "дорог", "город", "замок", "луговин", "монастыр", "щит", "мипл", "подданн",
         "строител", "свинь", "трактир", "собор", "\\bвин[оау]\\b", "ткан", "\\bрек[аиуе]\\b", "карточк", "балл"),
    ),
    "deole": (
        ("кубик", "дорожк", "клетк", "руль", "Бедствие", "буря", "кораблекрушение", "затонувший корабль",
         "потерпевш", "Роз[аыу] ветров", "родной порт", "маршрут", "Экипаж", "режим размещения", "соло",
         "Одиночное плавание"),
        ("кост", "трек", "штурвал", "шторм", "катастроф", "ячейк", "колонк", "гаван", "одиночн.. игр", "планшет",
         "обломк", "выживш", "утопающ", "наград", "шкала ветра", "\\bпуть\\b"),
    ),
    "dewan": (
        ("лагер", "стартов\\w+ лагер", "карт\\w* местности", "ряд", "колод", "стопк\\w* сброса", "сюжетн\\w+ плитк",
         "пол\\w+ племени", "ячейк", "ягод", "огон|огн", "зон", "клетк", "маршрут", "групп", "[Фф]ишк\\w+ Девана"),
        ("стоянк", "тайл", "планшет", "гекс"),
    ),
    "maple": (
        ("гостинец", "нашивк", "забав", "припас", "диковинк", "местечк", "жетон карты", "карт[аыу] прогулки", "поход",
         "ПО", "рюкзак", "деревн", "утёс", "Завершить ход"),
        ("карты местности", "карт местности", "ресурс", "прут", "подар", "значок", "полян", "тропа", "раунд",
         "Закончить ход"),
    ),
}


def russian_texts(key: str) -> list[str]:
    """Every Russian text of the game's catalog (each plural form of a plural entry), without the placeholders
    and the codes typed in commands (`/maple card`, option values)."""
    catalog = json.loads((ROOT / "games" / key / "locales" / "ru.json").read_text(encoding="utf-8"))
    texts = []
    for entry in catalog.values():
        forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "plural"]
        texts += [re.sub(r"{\w+}|`[^`]*`", " ", text) for text in forms]
    return texts


@pytest.mark.parametrize("key", sorted(GLOSSARIES))
def test_the_russian_catalog_uses_the_glossary_terms(key: str) -> None:
    text = "\n".join(russian_texts(key))
    uses, _banned = GLOSSARIES[key]
    assert [term for term in uses if not re.search(term, text)] == []


@pytest.mark.parametrize("key", sorted(GLOSSARIES))
def test_the_russian_catalog_avoids_the_synonyms_the_glossary_rules_out(key: str) -> None:
    banned = GLOSSARIES[key][1]
    found = [(stem, text) for text in russian_texts(key) for stem in banned if re.search(stem, text, re.IGNORECASE)]
    assert found == []


@pytest.mark.parametrize("key", sorted(GLOSSARIES))
def test_the_game_page_has_its_glossary(key: str) -> None:
    page = (ROOT / "docs" / "games" / f"{key}.md").read_text(encoding="utf-8")
    assert "## Glossary (en → ru)" in page
    glossary = page.split("## Glossary (en → ru)", 1)[1]
    uses, _banned = GLOSSARIES[key]
    assert [term for term in uses if not re.search(term, glossary, re.IGNORECASE)] == []
