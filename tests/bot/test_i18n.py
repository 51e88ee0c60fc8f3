import re
from pathlib import Path

from bot.i18n import LOCALES, catalog, pick_locale, plural_category, t

FORMS = {"en": {"one", "other"}, "ru": {"one", "few", "many", "other"}}


def placeholders(entry) -> set[str]:
    texts = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "plural"]
    return {name for text in texts for name in re.findall(r"{(\w+)}", text)}


def test_catalogs_have_identical_keys_and_placeholders():
    english = catalog("en")
    for locale in LOCALES:
        other = catalog(locale)
        assert set(other) == set(english), f"{locale}: missing {set(english) - set(other)}, extra {set(other) - set(english)}"
        for key, text in english.items():
            assert placeholders(other[key]) == placeholders(text), (locale, key)


def test_every_plural_text_has_its_languages_forms_and_renders_for_any_count():
    for locale in LOCALES:
        for key, entry in catalog(locale).items():
            if isinstance(entry, str):
                continue
            assert FORMS[locale] <= set(entry), (locale, key, "forms missing", FORMS[locale] - set(entry))
            counting = entry.get("plural", "count")
            assert counting in placeholders(entry), (locale, key, "counts a parameter it does not show")
            for n in (0, 1, 2, 5, 11, 21, 1.5):
                params = {name: n if name == counting else "x" for name in placeholders(entry)}
                text = t(locale, key, **params)
                assert str(n) in text and "{" not in text, (locale, key, n, text)


def test_plural_categories_follow_cldr():
    assert [plural_category("ru", n) for n in (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1.5)] == [
        "many", "one", "few", "few", "many", "many", "many", "many", "one", "few", "many", "one", "many", "other"]
    assert [plural_category("en", n) for n in (0, 1, 2, 1.5)] == ["other", "one", "other", "other"]


def test_every_error_code_of_the_table_service_is_translated():
    source = Path("bot/tables.py").read_text(encoding="utf-8")
    for code in set(re.findall(r'TableError\("(\w+)"', source)):
        for locale in LOCALES:
            assert f"error.{code}" in catalog(locale), (locale, code)


def test_locale_choice_and_formatting():
    assert pick_locale("ru", "en-US") == "ru"
    assert pick_locale(None, "en-GB") == "en"
    assert pick_locale("de", None) == "en"
    assert t("ru", "error.table_full", maximum=4) == "Стол заполнен: здесь играют не больше 4 игроков."
    assert t("ru", "lobby.custom_option", option="deck", count=21) == "deck: свой вариант (21 элемент)"
    assert t("ru", "lobby.custom_option", option="deck", count=24) == "deck: свой вариант (24 элемента)"
    assert t("en", "lobby.custom_option", option="deck", count=1) == "deck: custom (1 item)"
    assert t("ru", "no.such.key") == "no.such.key"


def test_seat_parameters_become_player_names():
    from cogs.common import seat_label

    names = ["alice", "bob", "carol"]
    assert seat_label(names, "seat", 1) == "bob"
    assert seat_label(names, "closer_seat", 2) == "carol"
    assert seat_label(names, "seats", [0, 2]) == "alice, carol"
    assert seat_label(names, "points", 12) == 12


def test_every_catalog_counts_with_plural_entries():
    """Counted texts of every game say "1 очко", "2 очка", "5 очков", not "очков: 1"; old-style
    ``plural.<word>.one|few|many`` keys are gone (one plural entry per word, chosen by bot.i18n)."""
    english = catalog("en")
    games = ("trails.", "deole.", "dewan.", "maple.")
    for game in games:
        assert any(not isinstance(entry, str) for key, entry in english.items() if key.startswith(game)), game
    assert any(not isinstance(entry, str) for key, entry in english.items() if not key.startswith(games))
    assert not [key for key in english if re.search(r"\.(one|few|many)$", key)]
    for locale, single, plural in (("en", "one", "other"), ("ru", "one", "many")):
        for key, entry in catalog(locale).items():
            if not isinstance(entry, str):
                assert entry[single] != entry[plural], (locale, key, "one form for every count")


def test_russian_and_english_counts_read_naturally():
    assert [t("ru", "trails.plural.points", n=n) for n in (1, 2, 5, 11, 21, 22)] == [
        "1 очко", "2 очка", "5 очков", "11 очков", "21 очко", "22 очка"]
    assert [t("en", "trails.plural.points", n=n) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert t("ru", "trails.final.footer", turns=21) == "Сыгран 21 ход"
    assert t("ru", "trails.final.footer", turns=44) == "Сыграно 44 хода"
    assert t("ru", "dewan.plural.card", n=3) == "3 карты"
    assert t("ru", "dewan.panel.camps", count=5, reward="x").startswith("На поле племени осталось 5 лагерей")
    assert t("ru", "deole.event.storm", colour="синего", rows=1) == "С синего края надвигается буря: 1 ряд."
    assert t("en", "maple.label.free", count=1) == "1 free path"
    assert t("ru", "maple.label.free", count=2) == "2 бесплатных пути"
