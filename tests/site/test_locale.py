"""The zh_Hans locale: every message translated, the compiled .mo in step with the .po."""

from __future__ import annotations

import gettext
import re

from tests.paths import ROOT_DIR

LOCALE = ROOT_DIR / "ddz_site" / "locale" / "zh_Hans" / "LC_MESSAGES"
TERMS = ["地主", "农民", "叫分", "春天", "炸弹", "火箭", "底牌", "复式", "积分", "排名"]


def _po_entries() -> dict[str, str]:
    """msgid → msgstr; a message with a context (msgctxt) is keyed "context\x04msgid", as
    gettext stores it."""
    text = (LOCALE / "django.po").read_text(encoding="utf-8")
    assert "#, fuzzy" not in text.split("\n\n", 1)[1]
    entries = {}
    pattern = r'^(?:msgctxt "(.*)"\n)?msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)'
    for context, msgid, msgstr in re.findall(pattern, text, re.M):
        key = "".join(re.findall(r'"(.*)"', msgid)).replace('\\"', '"')
        value = "".join(re.findall(r'"(.*)"', msgstr)).replace('\\"', '"')
        if key:
            entries[f"{context}\x04{key}" if context else key] = value
    return entries


def _compiled(translations: gettext.GNUTranslations, key: str) -> str:
    context, sep, msgid = key.partition("\x04")
    return translations.pgettext(context, msgid) if sep else translations.gettext(key)


def test_every_message_is_translated_and_compiled() -> None:
    entries = _po_entries()
    assert len(entries) > 100
    assert [k for k, v in entries.items() if not v] == []
    with (LOCALE / "django.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    assert {k: _compiled(compiled, k) for k in entries} == entries


def test_the_chinese_terms_are_used() -> None:
    values = " ".join(_po_entries().values())
    assert [t for t in TERMS if t not in values] == []
