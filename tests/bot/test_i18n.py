import re
from pathlib import Path

from bot.i18n import LOCALES, catalog, pick_locale, t


def test_catalogs_have_identical_keys_and_placeholders():
    english = catalog("en")
    for locale in LOCALES:
        other = catalog(locale)
        assert set(other) == set(english), f"{locale}: missing {set(english) - set(other)}, extra {set(other) - set(english)}"
        for key, text in english.items():
            assert set(re.findall(r"{(\w+)}", other[key])) == set(re.findall(r"{(\w+)}", text)), (locale, key)


def test_every_error_code_of_the_table_service_is_translated():
    source = Path("bot/tables.py").read_text(encoding="utf-8")
    for code in set(re.findall(r'TableError\("(\w+)"', source)):
        for locale in LOCALES:
            assert f"error.{code}" in catalog(locale), (locale, code)


def test_locale_choice_and_formatting():
    assert pick_locale("ru", "en-US") == "ru"
    assert pick_locale(None, "en-GB") == "en"
    assert pick_locale("de", None) == "en"
    assert t("ru", "error.table_full", maximum=4) == "Стол заполнен (4 игроков)."
    assert t("ru", "no.such.key") == "no.such.key"


def test_seat_parameters_become_player_names():
    from cogs.common import seat_label

    names = ["alice", "bob", "carol"]
    assert seat_label(names, "seat", 1) == "bob"
    assert seat_label(names, "closer_seat", 2) == "carol"
    assert seat_label(names, "seats", [0, 2]) == "alice, carol"
    assert seat_label(names, "points", 12) == 12
