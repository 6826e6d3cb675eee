"""`ddz_import_event` refuses a file it cannot read as JSON with a sentence and exit status 2,
as its docstring promises, whatever the bytes: JSON nested deeper than the parser goes, bytes that
are not UTF-8, an empty file. Nothing is stored (a trial found tracebacks for the first two)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"\xff\xfe{\x00", "not UTF-8"),
        (b"", "not JSON"),
    ],
    ids=["deep", "not-utf8", "empty"],
)
def test_unreadable_archive_exits_2_with_a_sentence(
    tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "archive.json"
    path.write_bytes(content)
    with pytest.raises(CommandError) as caught:
        call_command("ddz_import_event", str(path))
    assert caught.value.returncode == 2
    assert says in str(caught.value)
    assert str(path) in str(caught.value)
    assert not Event.objects.exists()
