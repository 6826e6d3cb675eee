"""`manage.py ddz_verify_deals EVENT --seed HEX` tells a script the outcome by its exit status
(DESIGN.md, command table): 0 when the seed matches the event's commitment and every board,
1 when it does not (the JSON is still printed, to show what differed), 2 for bad input."""

from __future__ import annotations

import hashlib
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import EventFactory, PlayerFactory
from tournaments.events import rounds, stages
from tournaments.models import Entry, EventRole, Role

pytestmark = pytest.mark.django_db

SEED = "5a" * 32
# The commitment is the SHA-256 of the seed's 32 bytes (README, "Deals").
COMMITMENT = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.fixture
def dealt_event():
    """An event of nine players whose two boards were dealt from SEED."""
    event = EventFactory(name="Verify Cup", slug="verify-cup")
    td = get_user_model().objects.create_user("td", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for _ in range(9):
        Entry.objects.create(event=event, player=PlayerFactory())
    stage = stages.stage_create(event=event, actor=td)
    round_ = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td, seed=SEED)
    rounds.round_deal(round_=round_, boards=2, actor=td)
    return event


def test_the_right_seed_exits_0(dealt_event) -> None:
    out = io.StringIO()
    call_command("ddz_verify_deals", dealt_event.slug, "--seed", SEED, stdout=out)
    assert json.loads(out.getvalue()) == {"boards": 2, "commitment": COMMITMENT, "match": True}


def test_a_wrong_seed_exits_1_and_still_prints_its_report(dealt_event) -> None:
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("ddz_verify_deals", dealt_event.slug, "--seed", "11" * 32, stdout=out)
    # The exit status manage.py gives is the CommandError's returncode.
    assert caught.value.returncode == 1
    report = json.loads(out.getvalue())
    assert report["match"] is False and report["seed_matches_commitment"] is False
    assert report["boards"] == 2 and report["commitment"] == COMMITMENT


def test_bad_input_still_exits_2(dealt_event) -> None:
    for argv in ([dealt_event.slug, "--seed", "xyz"], ["no-such-event", "--seed", SEED]):
        out = io.StringIO()
        with pytest.raises(CommandError) as caught:
            call_command("ddz_verify_deals", *argv, stdout=out)
        assert caught.value.returncode == 2 and out.getvalue() == ""
