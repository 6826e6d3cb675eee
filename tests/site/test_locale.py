"""The Chinese locales: every message translated, the compiled .mo in step with the .po, the
rule terms in use; zh_Hant is scripts/zh_hant.py's conversion of zh_Hans, written with the
Traditional rule texts' terms and no Simplified character; browsers asking for Taiwan's or Hong
Kong's Chinese get it."""

from __future__ import annotations

import gettext
import importlib.util
import re

import polib
import pytest
from django.test import Client
from django.utils import translation

from tests.paths import ROOT_DIR

LOCALES = ROOT_DIR / "ddz_site" / "locale"
TERMS = {
    "zh_Hans": ["地主", "农民", "叫分", "春天", "炸弹", "火箭", "底牌", "复式", "积分", "排名"],
    # As the two rule texts in Traditional Chinese write them (the seeds: 鬥地主, 叫地主, 搶地主,
    # 炸彈, 火箭, 春天, 底牌, 農民, 順子, 連對, 飛機, 王炸, 三帶一, 四帶二, 太空梭 …).
    "zh_Hant": [
        "鬥地主",
        "地主",
        "叫地主",
        "搶地主",
        "農民",
        "叫分",
        "春天",
        "炸彈",
        "火箭",
        "王炸",
        "底牌",
        "順子",
        "連對",
        "飛機",
        "三帶一",
        "四帶二",
        "太空梭",
        "複式",
        "積分",
        "排名",
    ],
}
# Simplified forms that Traditional Chinese writes otherwise (这→這, 们→們, 发→發 …): none may be
# left in a zh_Hant msgstr.
SIMPLIFIED_ONLY = (
    "这们发为说对时后个来会过还进开关门问间页题项顺头实现点种机张称级总输赢战轮"
    "复积农斗弹连龙记录场将举动单庄号码钮设删编辑览预赛选队员组条认证"
    "请误败态无应该让给从与业务网络数据库账户线报类别邮册确"
)


def _po_entries(locale: str) -> dict[str, str]:
    """msgid → msgstr of the singular messages (escapes such as ``\\n`` read as gettext reads
    them); a message with a context (msgctxt) is keyed "context\x04msgid", as gettext stores
    it."""
    catalogue = polib.pofile(str(LOCALES / locale / "LC_MESSAGES" / "django.po"))
    assert [e.msgid for e in catalogue if "fuzzy" in e.flags] == []
    return {
        (f"{e.msgctxt}\x04{e.msgid}" if e.msgctxt else e.msgid): e.msgstr
        for e in catalogue
        if e.msgid and not e.msgid_plural and not e.obsolete
    }


def _compiled(translations: gettext.GNUTranslations, key: str) -> str:
    context, sep, msgid = key.partition("\x04")
    return translations.pgettext(context, msgid) if sep else translations.gettext(key)


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_every_message_is_translated_and_compiled(locale: str) -> None:
    entries = _po_entries(locale)
    assert len(entries) > 100
    assert [k for k, v in entries.items() if not v] == []
    with (LOCALES / locale / "LC_MESSAGES" / "django.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    assert {k: _compiled(compiled, k) for k in entries} == entries


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_the_chinese_terms_are_used(locale: str) -> None:
    values = " ".join(_po_entries(locale).values())
    assert [t for t in TERMS[locale] if t not in values] == []


def test_zh_hant_has_the_messages_of_zh_hans_and_no_simplified_character() -> None:
    hans, hant = _po_entries("zh_Hans"), _po_entries("zh_Hant")
    assert set(hant) == set(hans)
    left = {k: v for k, v in hant.items() if set(v) & set(SIMPLIFIED_ONLY)}
    assert left == {}
    # The quotation marks of Taiwan and Hong Kong.
    assert not any("“" in v or "”" in v for v in hant.values())


def test_zh_hant_is_the_scripts_conversion_of_zh_hans() -> None:
    """Regenerating changes nothing: zh_Hant follows the zh_Hans it was made from (after new
    strings: scripts/zh_hant.py, then compilemessages)."""
    spec = importlib.util.spec_from_file_location("zh_hant", ROOT_DIR / "scripts" / "zh_hant.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text, _overwritten = script.render()
    assert text == (LOCALES / "zh_Hant" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("asked", "given"),
    [
        ("zh-TW", "zh-hant"),
        ("zh-HK", "zh-hant"),
        ("zh-MO", "zh-hant"),
        ("zh-Hant", "zh-hant"),
        ("zh-Hant-TW", "zh-hant"),
        ("zh-CN", "zh-hans"),
        ("zh-Hans", "zh-hans"),
        ("zh-SG", "zh-hans"),
        ("zh-TW,zh;q=0.9,en;q=0.8", "zh-hant"),
        ("en-GB,en;q=0.9", "en"),
    ],
)
@pytest.mark.django_db
def test_the_browsers_language_picks_the_script(asked: str, given: str) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=asked).get("/").content.decode()
    assert f'<html lang="{given}">' in page
    with translation.override(given):
        assert translation.gettext("Duplicate Dou Dizhu") in page


@pytest.mark.django_db
def test_the_language_menu_names_each_language_in_its_own_script() -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="zh-hant").get("/").content.decode()
    menu = re.search(r'<select name="language".*?</select>', page, re.S)
    assert menu is not None
    options = re.findall(r'<option value="([^"]+)"( selected)?>([^<]+)</option>', menu.group(0))
    assert options == [
        ("en", "", "English"),
        ("zh-hans", "", "简体中文"),
        ("zh-hant", " selected", "繁體中文"),
    ]
    assert "複式鬥地主" in page


@pytest.mark.parametrize(
    ("locale", "reserve", "substitute"), [("zh_Hans", "候补", "替补"), ("zh_Hant", "候補", "替補")]
)
def test_a_reserve_is_one_word_and_a_substitute_another(
    locale: str, reserve: str, substitute: str
) -> None:
    # A reserve (a player kept in hand, DESIGN.md) and a substitute (who plays a seat for a
    # while) are two things: a trial read "替補" for a reserve beside "候補" for the same one.
    po = polib.pofile(str(LOCALES / locale / "LC_MESSAGES" / "django.po"))
    for entry in po:
        if "reserve" not in entry.msgid.lower() or "substitut" in entry.msgid.lower():
            continue
        said = entry.msgstr or entry.msgstr_plural.get(0, "")
        assert reserve in said and substitute not in said, (entry.msgid, said)
