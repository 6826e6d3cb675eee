"""The deal seed stays secret until its reveal: no archive (whoever asks, and the export
command), page, API answer, admin screen or audit entry carries it, only its commitment; an
archive restored without the seed deals no board.
"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from ddz_site.kernel.errors import DomainError
from tests.factories import round_fill
from tournaments.events import round_states, rounds
from tournaments.models import AuditEntry, EventRole, Role

pytestmark = pytest.mark.django_db


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


def _archive(client, event, user) -> tuple[int, str]:
    client.force_login(user)
    response = client.get(reverse("public:archive", args=[event.slug]))
    return response.status_code, response.content.decode()


def test_the_archive_has_no_seed_before_the_reveal_whoever_asks(client, event_in_play) -> None:
    event, round_, users = event_in_play
    seed = event.deal_seed
    assert len(seed) == 64
    status, body = _archive(client, event, users["ref"])
    assert status in (200, 404) and seed not in body  # a referee may not get it at all
    for key in ("td", "chief"):
        status, body = _archive(client, event, users[key])
        assert status == 200
        assert seed not in body
        archived = json.loads(body)["event"]
        assert "deal_seed" not in archived
        assert archived["deal_commitment"] == event.deal_commitment
    superuser = _user("root", is_staff=True, is_superuser=True)
    assert seed not in _archive(client, event, superuser)[1]
    out = io.StringIO()
    call_command("ddz_export_event", event.slug, stdout=out)
    assert seed not in out.getvalue() and event.deal_commitment in out.getvalue()

    # Once every round is closed and the seed revealed, the archive may carry it.
    round_fill(round_)
    round_states.round_close(round_=round_, actor=users["td"])
    assert rounds.event_seed_reveal(event=event, actor=users["td"]) == seed
    status, body = _archive(client, event, users["chief"])
    assert json.loads(body)["event"]["deal_seed"] == seed


def test_a_restored_archive_without_the_seed_deals_nothing(event_in_play) -> None:
    from tournaments.archive.event_archive import event_export, event_import

    event, round_, users = event_in_play
    data = event_export(event=event)
    data["event"]["name"], data["event"]["slug"] = "Copy", "copy"
    copy = event_import(data=data)
    assert copy.deal_seed == "" and copy.deal_commitment == event.deal_commitment
    td = users["td"]
    EventRole.objects.create(event=copy, user=td, role=Role.ORGANIZER)
    extra = rounds.round_create(event=copy, actor=td)
    with pytest.raises(DomainError, match="secret seed is not stored here"):
        rounds.round_deal(round_=extra, boards=1, actor=td)


def test_no_page_api_admin_or_audit_entry_shows_the_seed(client, event_in_play) -> None:
    event, round_, users = event_in_play
    seed = event.deal_seed
    slug = event.slug
    pages = [
        reverse("organizer:dashboard", args=[slug]),
        reverse("organizer:players", args=[slug]),
        reverse("organizer:print", args=[slug, 1, "hand-records"]),
        reverse("organizer:print", args=[slug, 1, "table-cards"]),
        reverse("deals:event", args=[slug]),
        reverse("public:event", args=[slug]),
        reverse("public:round", args=[slug, 1]),
        reverse("public:standings", args=[slug]),
        f"/referee/events/{slug}/",
        f"/referee/events/{slug}/status/",
    ]
    for key in ("td", "chief", "ref"):
        client.force_login(users[key])
        for url in pages:
            response = client.get(url)
            assert seed not in response.content.decode(), (key, url)
    client.logout()
    for url in pages:
        assert seed not in client.get(url).content.decode(), url

    # The API's audit log, for a chief referee.
    api = APIClient()
    api.force_authenticate(users["chief"])
    audit = api.get(f"/api/events/{slug}/audit/")
    assert audit.status_code == 200 and seed not in audit.content.decode()

    # The admin, for staff who are not organizers of the event, and for a superuser.
    staff = _user("staff", is_staff=True)
    staff.user_permissions.set(
        Permission.objects.filter(codename__in=["view_event", "change_event", "view_auditentry"])
    )
    root = _user("root", is_staff=True, is_superuser=True)
    for user in (staff, root):
        client.force_login(user)
        for url in (
            reverse("admin:tournaments_event_change", args=[event.pk]),
            reverse("admin:tournaments_event_changelist"),
            reverse("admin:tournaments_auditentry_changelist"),
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            assert seed not in response.content.decode(), url

    # The audit log records the commitment, never the secret, even after the reveal.
    round_fill(round_)
    round_states.round_close(round_=round_, actor=users["td"])
    rounds.event_seed_reveal(event=event, actor=users["td"])
    commit = AuditEntry.objects.get(action="event.seed_commit")
    assert commit.changes == {"commitment": event.deal_commitment}
    for entry in AuditEntry.objects.filter(event=event):
        assert seed not in json.dumps(entry.changes), entry.action
