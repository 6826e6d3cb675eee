"""Regenerate the Traditional Chinese catalogue (zh_Hant) from the Simplified one (zh_Hans).

The site's Chinese is written once, in ``ddz_site/locale/zh_Hans/LC_MESSAGES/django.po``; the
zh_Hant catalogue is derived from it, entry by entry, so the two never drift:

- each msgstr is converted by OpenCC's ``s2twp`` (Simplified to Traditional as Taiwan writes
  it, with Taiwan's words: 登入, 列印, 連結, 儲存, 網路, 伺服器 …). Taiwan's and Hong Kong's
  players read the same characters; the words are Taiwan's, which Hong Kong readers of web
  pages know too;
- then ``PHRASES`` replaces, in order, what OpenCC writes but the site should not: the rule
  terms as the two Traditional rule texts write them (鬥地主, 叫地主, 搶地主, 炸彈, 火箭, 春天,
  底牌, 農民, 地主, 順子, 連對, 飛機 …; OpenCC already agrees on all of them, and
  tests/site/test_locale.py checks they stay), Taiwan's 帳號 for OpenCC's 賬號, 類型 where
  OpenCC's programmers' 型別 (a data type) would read oddly ("Kind" of a stage), and the
  quotation marks 「」『』 that Taiwan and Hong Kong write for “” ‘’;
- an entry a person wrote by hand is kept: give it a translator comment line containing
  ``hand-edited`` in the zh_Hant .po (``# hand-edited: 說明 why``) and the script keeps its
  msgstr as long as its msgid exists. Any other zh_Hant msgstr is overwritten by the
  conversion, and the script names the ones it overwrote that differed, so an unmarked hand
  edit is seen (a fix for every entry belongs in ``PHRASES``, a fix for one sentence in the
  .po with the comment);
- an entry that zh_Hans leaves untranslated stays untranslated (and a fuzzy one stays fuzzy):
  the translation is written in zh_Hans first.

The header is zh_Hans's with the language changed; entries come in zh_Hans's order, and the file
goes through ``msgcat`` so its wrapping is gettext's, as makemessages writes it.

Refreshing the catalogues after new strings (``make messages`` runs steps 1, 3 and 4), from
the checkout's root::

    1. .venv/bin/python manage.py makemessages -l zh_Hans \\
           --ignore=.venv --ignore=var --ignore=tests --ignore=scripts --no-obsolete
    2. translate the new (empty or fuzzy: drop the flag) entries of
       ddz_site/locale/zh_Hans/LC_MESSAGES/django.po, then
       ``msgcat -o django.po django.po`` there to restore gettext's wrapping
    3. .venv/bin/python scripts/zh_hant.py
    4. cd ddz_site && ../.venv/bin/python ../manage.py compilemessages -l zh_Hans -l zh_Hant
       (from ddz_site/, so that the catalogues of .venv's packages are left alone)

then read the changed zh_Hant entries (``git diff``) and mark any sentence you correct by hand.
``--check`` writes nothing and exits 1 when zh_Hant is not what the script would write.

Needs OpenCC (``pip install opencc``, in the ``dev`` extra) and polib; and GNU gettext's msgcat.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import opencc
import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "ddz_site" / "locale"
HANS = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
HANT = LOCALE / "zh_Hant" / "LC_MESSAGES" / "django.po"

CONVERSION = "s2twp"
HAND_EDITED = "hand-edited"

# (what OpenCC writes, what the site writes), applied in order to every converted msgstr.
PHRASES: list[tuple[str, str]] = [
    # The rule terms as the Traditional seed texts write them (鬥地主; 太空梭 for the chain of
    # bombs): OpenCC agrees today, pinned so a change of its dictionaries cannot move them.
    ("斗地主", "鬥地主"),
    ("航天飛機", "太空梭"),
    # Taiwan's usage where s2twp keeps the mainland word.
    ("賬號", "帳號"),
    ("賬戶", "帳戶"),
    ("型別", "類型"),
    # Quotation marks as Taiwan and Hong Kong write them.
    ("“", "「"),
    ("”", "」"),
    ("‘", "『"),
    ("’", "』"),
]

HEADER_COMMENT = """\
Traditional Chinese messages of the duplicate Dou Dizhu site (複式鬥地主).
Generated from zh_Hans by scripts/zh_hant.py (OpenCC s2twp and its PHRASES); edit zh_Hans, or
mark a sentence corrected here with a translator comment "hand-edited" (see the script).
Terms: 地主 landlord, 農民 farmer, 叫地主 call, 搶地主 rob, 叫分 bid, 春天 spring, 炸彈 bomb,
火箭 rocket, 底牌 bottom cards, 順子 chain, 連對 chain of pairs, 飛機 airplane, 複式 duplicate,
積分 score, 排名 standings/rank."""


def convert(text: str, converter: opencc.OpenCC) -> str:
    """One msgstr in Traditional Chinese: OpenCC's conversion, then ``PHRASES``.

    ASCII (placeholders such as ``%(name)s``, HTML) passes through unchanged.
    """
    out = converter.convert(text)
    for found, wanted in PHRASES:
        out = out.replace(found, wanted)
    return out


def _hand_edited(entry: polib.POEntry) -> bool:
    return HAND_EDITED in (entry.tcomment or "")


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def build(hans: polib.POFile, hant_before: polib.POFile | None) -> tuple[polib.POFile, list[str]]:
    """The zh_Hant catalogue for ``hans``; keeps the hand-edited entries of ``hant_before``.

    Returns (catalogue, msgids whose unmarked zh_Hant msgstr was overwritten by a different one).
    """
    converter = opencc.OpenCC(CONVERSION)
    kept = {_key(e): e for e in hant_before or [] if _hand_edited(e) and not e.obsolete}
    before = {_key(e): e for e in hant_before or [] if not e.obsolete}
    out = polib.POFile(wrapwidth=79)
    out.header = HEADER_COMMENT
    out.metadata = dict(hans.metadata)
    out.metadata["Language"] = "zh_Hant"
    out.metadata["Language-Team"] = "Chinese (Traditional)"
    overwritten = []
    for source in hans:
        if source.obsolete:
            continue
        entry = polib.POEntry(
            msgid=source.msgid,
            msgctxt=source.msgctxt,
            msgid_plural=source.msgid_plural,
            occurrences=list(source.occurrences),
            flags=list(source.flags),
            comment=source.comment,
            tcomment=source.tcomment,
            previous_msgid=source.previous_msgid,
            previous_msgid_plural=source.previous_msgid_plural,
            previous_msgctxt=source.previous_msgctxt,
        )
        hand = kept.get(_key(source))
        if hand is not None:
            entry.tcomment = hand.tcomment
            entry.msgstr = hand.msgstr
            entry.msgstr_plural = dict(hand.msgstr_plural)
            entry.flags = [f for f in hand.flags if f != "fuzzy"] if hand.msgstr else entry.flags
        else:
            entry.msgstr = convert(source.msgstr, converter)
            entry.msgstr_plural = {
                n: convert(s, converter) for n, s in source.msgstr_plural.items()
            }
            old = before.get(_key(source))
            if old is not None and old.msgstr and old.msgstr != entry.msgstr:
                overwritten.append(source.msgid)
        out.append(entry)
    return out, overwritten


def render(hans_path: Path = HANS, hant_path: Path = HANT) -> tuple[str, list[str]]:
    """The text the zh_Hant .po should hold (gettext's wrapping), and the overwritten msgids."""
    hans = polib.pofile(str(hans_path), wrapwidth=79)
    before = polib.pofile(str(hant_path), wrapwidth=79) if hant_path.exists() else None
    catalogue, overwritten = build(hans, before)
    msgcat = shutil.which("msgcat")
    if msgcat is None:
        raise SystemExit("zh_hant: GNU gettext's msgcat is missing (Debian: apt install gettext)")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "django.po"
        catalogue.save(str(raw))
        subprocess.run([msgcat, "-o", str(raw), str(raw)], check=True)
        return raw.read_text(encoding="utf-8"), overwritten


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if zh_Hant is out of step"
    )
    args = parser.parse_args(argv)
    text, overwritten = render()
    current = HANT.read_text(encoding="utf-8") if HANT.exists() else ""
    if args.check:
        if text != current:
            print("zh_hant: the zh_Hant catalogue is out of step; run scripts/zh_hant.py")
            return 1
        return 0
    for msgid in overwritten:
        print(f"zh_hant: overwrote an unmarked zh_Hant msgstr: {msgid!r}", file=sys.stderr)
    HANT.parent.mkdir(parents=True, exist_ok=True)
    HANT.write_text(text, encoding="utf-8")
    print(f"zh_hant: wrote {HANT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
