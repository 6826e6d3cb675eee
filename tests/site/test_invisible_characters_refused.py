"""The site's one rule for typed text refuses invisible characters that make two texts look
alike: a zero-width space ("Li\\u200b" read as "Li", a second "Li" in the event), direction
marks and overrides (a name that reads backwards), a word joiner, a byte-order mark. A trial
entered "Li\\u200b". Text people write keeps its joiners (the emoji's ZWJ, U+200D; U+200C)."""

from __future__ import annotations

import pytest
from django.utils import translation

from ddz_site.kernel.text import text_refusal
from tournaments.events import players_csv
from tournaments.events.setup import event_create

INVISIBLE = ["\u200b", "\u200e", "\u200f", "\u202a", "\u202e", "\u2060", "\u2066", "\ufeff"]


@pytest.mark.parametrize("mark", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_a_name_with_an_invisible_character_is_refused(mark: str) -> None:
    with translation.override("en"):
        refused = text_refusal(f"Li{mark}")
    assert refused is not None
    code, message = refused
    assert code == "invisible"
    assert "invisible" in message


@pytest.mark.parametrize("text", ["李伟", "Zoë O'Neil", "👨\u200d👩\u200d👧 family", "Mi\u200cke"])
def test_visible_text_and_its_joiners_are_taken(text: str) -> None:
    assert text_refusal(text) is None


@pytest.mark.django_db
def test_the_players_file_refuses_the_row(django_user_model) -> None:
    td = django_user_model.objects.create_superuser("invisible-td", password="x")
    event = event_create(name="Invisible cup", rules="classic")
    with translation.override("en"), pytest.raises(players_csv.CsvRejected) as refused:
        players_csv.players_csv_import(event=event, text="name\nLi\u200b\nLi\n", actor=td)
    first, second = refused.value.preview.rows
    assert first.errors == ["name holds invisible characters (such as a zero-width space)."]
    assert second.errors == []
    assert not event.entries.exists()
