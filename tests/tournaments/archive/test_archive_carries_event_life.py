"""The event archive carries the event's life: its dates, venue, status, registration settings
and categories, each entry's categories and rounds (a late entry, a withdrawal), the prizes, the
registrations and who was present for each round. Restored, the event exports the same archive.
It carries no secret and no contact data: no registration's check-in token (a restore gives
each registration a new one), no e-mail address, and no player's tie to an account (a player is
shared by the events of a site, and his account is tied to him on that site). An archive of the
previous version, without any of these, still restores, with the defaults."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from tests.factories import PlayerFactory, duplicate_round
from tournaments.archive.event_archive import VERSION, event_export, event_import
from tournaments.models import (
    Entry,
    Event,
    EventStatus,
    Player,
    Presence,
    Prize,
    Registration,
    RegistrationStatus,
    Round,
)

pytestmark = pytest.mark.django_db

SEED = "life"
ORGANIZER, REGISTRANT = f"organizer-{SEED}", f"registrant-{SEED}"
STARTS = datetime(2026, 5, 1, 1, 30, tzinfo=UTC)
ENDS = datetime(2026, 5, 2, 9, 0, tzinfo=UTC)
DEADLINE = datetime(2026, 4, 28, 16, 0, tzinfo=UTC)
LIFE = {
    "status": EventStatus.FINISHED,
    "starts_at": STARTS,
    "ends_at": ENDS,
    "time_zone": "Asia/Shanghai",
    "online": False,
    "venue_name": "Harbour Club",
    "venue_address": "1 Quay Road\nQingdao",
    "registration_limit": 9,
    "registration_deadline": DEADLINE,
    "waiting_list": True,
    "categories": ["women", "Over 70"],
    "check_in_required": True,
}


@pytest.fixture
def world() -> dict:
    """A finished event of two rounds with its life set: six players in round 1, a seventh
    entered late (from round 2), one withdrawn from round 2; prizes overall and for women;
    an accepted registration by an account and one on the waiting list; presences for round 1,
    by QR code and by the organizer's tap. The player with an account also has an address and
    has turned the site's e-mail off."""
    event, round1, tables, _boards = duplicate_round(tables=2, boards=1, seed=SEED)
    Event.objects.filter(pk=event.pk).update(**LIFE)
    event.refresh_from_db()
    Round.objects.create(event=event, number=2)
    organizer = User.objects.create_user(ORGANIZER, password="x")
    registrant = User.objects.create_user(REGISTRANT, password="x")
    seated = [s.player for t in tables for s in t.seats.order_by("seat")]
    late = PlayerFactory(name=f"Late {SEED}")
    for player in [*seated, late]:
        Entry.objects.create(event=event, player=player)
    Entry.objects.filter(event=event, player=seated[0]).update(categories=["women"])
    Entry.objects.filter(event=event, player=late).update(first_round=2)
    Entry.objects.filter(event=event, player=seated[5]).update(withdrawn_from=2)
    Player.objects.filter(pk=seated[0].pk).update(
        user=registrant, email="first@example.org", mail_off=True
    )
    Prize.objects.create(event=event, place=1, description="The cup")
    Prize.objects.create(event=event, place=2, description="A book")
    Prize.objects.create(event=event, category="women", place=1, description="A vase")
    accepted = Registration.objects.create(
        event=event,
        user=registrant,
        player=seated[0],
        name=seated[0].name,
        email="first@example.org",
        club="Harbour",
        categories=["women"],
        note="Vegetarian lunch",
        status=RegistrationStatus.ACCEPTED,
        decided_at=DEADLINE,
    )
    waiting = Registration.objects.create(
        event=event,
        name="Waiting Wang",
        email="wang@example.org",
        categories=["Over 70"],
        status=RegistrationStatus.WAITLISTED,
        decided_at=DEADLINE,
    )
    for player, how in zip(seated, ["qr", "tap"] * 3, strict=True):
        Presence.objects.create(round=round1, player=player, how=how, by=organizer)
    return {
        "event": event,
        "seated": seated,
        "late": late,
        "tokens": {accepted.token, waiting.token},
    }


def _text(event: Event) -> str:
    return json.dumps(event_export(event=event), sort_keys=True)


def _delete(event: Event) -> None:
    """The event and everything it owns (its players stay: they are the site's)."""
    event.rounds.all().delete()
    event.delete()


def test_the_archive_holds_the_event_life(world: dict) -> None:
    data = json.loads(_text(world["event"]))
    assert data["version"] == VERSION
    stored = {k: data["event"][k] for k in LIFE}
    assert stored == {
        **LIFE,
        "starts_at": STARTS.isoformat(),
        "ends_at": ENDS.isoformat(),
        "registration_deadline": DEADLINE.isoformat(),
    }
    seated, late = world["seated"], world["late"]
    entries = {e["player"]: e for e in data["entries"]}
    assert entries[seated[0].name]["categories"] == ["women"]
    assert entries[late.name]["first_round"] == 2 and entries[late.name]["withdrawn_from"] is None
    assert entries[seated[5].name]["withdrawn_from"] == 2
    assert [(p["category"], p["place"], p["description"]) for p in data["prizes"]] == [
        ("", 1, "The cup"),
        ("", 2, "A book"),
        ("women", 1, "A vase"),
    ]
    accepted, waiting = data["registrations"]
    assert (accepted["status"], accepted["player"], accepted["user"]) == (
        "accepted",
        seated[0].name,
        REGISTRANT,
    )
    assert accepted["categories"] == ["women"] and accepted["note"] == "Vegetarian lunch"
    assert (waiting["status"], waiting["player"], waiting["user"]) == ("waitlisted", None, None)
    assert waiting["name"] == "Waiting Wang" and waiting["categories"] == ["Over 70"]
    presences = [(p["round"], p["player"], p["how"], p["by"]) for p in data["presences"]]
    how = dict(zip(seated, ["qr", "tap"] * 3, strict=True))
    assert presences == sorted((1, p.name, how[p], ORGANIZER) for p in seated)


def test_no_secret_and_no_contact_data_travel(world: dict) -> None:
    text = _text(world["event"])
    for token in world["tokens"]:
        assert str(token) not in text
    assert "example.org" not in text
    data = json.loads(text)
    for registration in data["registrations"]:
        assert "token" not in registration and "email" not in registration
    for player in data["players"]:
        assert not {"user", "email", "mail_off"} & player.keys()


def test_a_restored_event_exports_the_same_archive(world: dict) -> None:
    event = world["event"]
    text = _text(event)
    _delete(event)
    User.objects.filter(username__endswith=f"-{SEED}").delete()
    restored = event_import(data=json.loads(text))
    assert _text(restored) == text
    # New check-in tokens: the QR codes of the deleted event open nothing of the restored one.
    tokens = set(Registration.objects.filter(event=restored).values_list("token", flat=True))
    assert len(tokens) == 2 and not tokens & world["tokens"]
    # The registrant and the organizer are named by username: missing, made inactive.
    registrant = Registration.objects.get(event=restored, status="accepted").user
    assert registrant.username == REGISTRANT and not registrant.is_active
    assert Presence.objects.filter(round__event=restored, by__username=ORGANIZER).count() == 6
    # The stored player keeps what is his on this site; the archive did not touch it.
    first = Player.objects.get(pk=world["seated"][0].pk)
    assert (first.email, first.mail_off) == ("first@example.org", True)


def test_a_restore_ties_no_player_to_an_account(world: dict) -> None:
    """On a site that has none of the players, the restored ones are tied to no account, even
    one of the username the registration names."""
    event = world["event"]
    data = json.loads(_text(event))
    _delete(event)
    Player.objects.filter(pk__in=[p.pk for p in [*world["seated"], world["late"]]]).delete()
    restored = event_import(data=data)
    first = Player.objects.get(entries__event=restored, name=world["seated"][0].name)
    assert first.user is None and first.email == "" and not first.mail_off
    assert Registration.objects.get(event=restored, player=first).user.username == REGISTRANT


def _previous_format(data: dict) -> dict:
    """`data` as the previous version wrote it: no life of the event at all."""
    old = copy.deepcopy(data)
    old["version"] = VERSION - 1
    for key in ("prizes", "registrations", "presences"):
        del old[key]
    for key in LIFE:
        del old["event"][key]
    for entry in old["entries"]:
        for key in ("categories", "first_round", "withdrawn_from"):
            del entry[key]
    return old


def test_an_archive_of_the_previous_version_restores_with_the_defaults(world: dict) -> None:
    event = world["event"]
    data = json.loads(_text(event))
    _delete(event)
    restored = event_import(data=_previous_format(data))
    assert restored.status == EventStatus.IN_PLAY and restored.starts_at is None
    assert (restored.venue_name, restored.categories, restored.check_in_required) == ("", [], False)
    assert restored.registration_limit is None and restored.waiting_list
    assert not restored.prizes.exists() and not restored.registrations.exists()
    assert not Presence.objects.filter(round__event=restored).exists()
    entries = Entry.objects.filter(event=restored)
    assert entries.count() == 7
    assert all((e.categories, e.first_round, e.withdrawn_from) == ([], None, None) for e in entries)
    # Exported again, it is an archive of this version, with the defaults.
    again = event_export(event=restored)
    assert again["version"] == VERSION and again["prizes"] == [] and again["presences"] == []
