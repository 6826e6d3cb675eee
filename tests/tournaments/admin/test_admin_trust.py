"""The admin goes through the services: a round's state is not edited in
`/admin/` (the transitions are the services' buttons); an event's rules, scoring method,
tie-breaks and seed of the lot are frozen once a round has started, refused by the admin form
and by the model layer (so no other door changes them); and every admin change to a model that
affects results is in the event's audit log with who and when, its rows kept by
django-simple-history."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from ddz_site.kernel.errors import DomainError
from games.models import Board
from tests.factories import EventFactory, PlayerFactory, RoundFactory, duplicate_round
from tournaments.events import round_states, rounds
from tournaments.models import AuditEntry, Event, Round, RoundState, Seat

pytestmark = pytest.mark.django_db

FROZEN_MESSAGE = "fixed once a round of the event has started"


def _form_data(response: Any) -> dict[str, Any]:
    """The POST data of an admin change or add page as it was rendered (its form and inline
    formsets with their current values), to be changed and sent back."""
    data: dict[str, Any] = {}

    def put(key: str, value: Any) -> None:
        if value is None or value is False:
            return
        if value is True:
            data[key] = "on"
        elif isinstance(value, list | tuple):
            data[key] = [str(v) for v in value]
        else:
            data[key] = str(value)

    def add(form: Any) -> None:
        for name, field in form.fields.items():
            put(form.add_prefix(name), form[name].value())
            if field.show_hidden_initial:  # as the page's hidden "initial-…" input
                put(form.add_initial_prefix(name), field.prepare_value(form[name].initial))

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        add(formset.management_form)
        for form in formset.forms:
            add(form)
    return data


def _started_event() -> tuple[Event, Round, list[Any], list[Board]]:
    # round_seat makes a round in play: the event has started.
    return duplicate_round(tables=2, boards=2, seed="trust")


# --- Round.state -------------------------------------------------------------------------


def test_a_rounds_state_is_read_only_in_the_admin(admin_client) -> None:
    event, round_, _tables, _boards = _started_event()
    url = reverse("admin:tournaments_round_change", args=[round_.pk])
    page = admin_client.get(url)
    assert "state" not in page.context["adminform"].form.fields
    data = _form_data(page)
    data["state"] = RoundState.PUBLISHED
    assert admin_client.post(url, data).status_code == 302
    assert Round.objects.get(pk=round_.pk).state == RoundState.IN_PLAY
    # Nor in the event's inline of rounds.
    event_page = admin_client.get(reverse("admin:tournaments_event_change", args=[event.pk]))
    round_forms = [
        f
        for inline in event_page.context["inline_admin_formsets"]
        if inline.formset.model is Round
        for f in inline.formset.forms
    ]
    assert round_forms and all("state" not in f.fields for f in round_forms)


def test_a_round_added_in_the_admin_is_a_draft(admin_client) -> None:
    event = EventFactory()
    url = reverse("admin:tournaments_round_add")
    data = _form_data(admin_client.get(url))
    data.update(event=str(event.pk), number="1")
    assert admin_client.post(url, data).status_code == 302
    # A draft: the dashboard's services seat it, deal it and start it.
    assert Round.objects.get(event=event).state == RoundState.DRAFT


def test_reverting_a_row_from_its_history_is_refused(admin_client) -> None:
    # A revert would write the old row back whole, state included, around the services.
    event = EventFactory()
    round_ = RoundFactory(event=event, state=RoundState.DRAFT)
    Round.objects.filter(pk=round_.pk).update(state=RoundState.SEATED)
    round_.refresh_from_db()
    round_.save()  # a second history row, state "seated"
    first = round_.history.order_by("history_id").first()
    url = reverse("admin:tournaments_round_simple_history", args=[round_.pk, first.history_id])
    assert admin_client.get(url).status_code == 200
    data = {"event": str(event.pk), "number": "1"}
    assert admin_client.post(url, data).status_code == 403
    assert Round.objects.get(pk=round_.pk).state == RoundState.SEATED


# --- Frozen settings -----------------------------------------------------------------------

FROZEN_CHANGES = [
    ("rules", json.dumps({"preset": "rob", "options": {}})),
    ("scoring_method", "datum"),
    ("tiebreaks", json.dumps(["lot"])),
    ("lot_seed", "drawn again"),
]


@pytest.mark.parametrize(("field", "value"), FROZEN_CHANGES)
def test_the_admin_form_refuses_a_frozen_setting_once_a_round_started(
    admin_client, field, value
) -> None:
    event, *_ = _started_event()
    before = Event.objects.values(field).get(pk=event.pk)
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    data = _form_data(admin_client.get(url))
    data[field] = value
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert FROZEN_MESSAGE in response.content.decode()
    assert Event.objects.values(field).get(pk=event.pk) == before
    assert not AuditEntry.objects.filter(event=event, action__startswith="admin.").exists()


def test_the_admin_changes_settings_before_a_round_starts_and_other_fields_after(
    admin_client,
) -> None:
    event = EventFactory()
    draft = RoundFactory(event=event, state=RoundState.DRAFT)
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    data = _form_data(admin_client.get(url))
    data["scoring_method"] = "datum"
    assert admin_client.post(url, data).status_code == 302
    assert Event.objects.get(pk=event.pk).scoring_method == "datum"
    Round.objects.filter(pk=draft.pk).update(state=RoundState.IN_PLAY)
    data = _form_data(admin_client.get(url))
    data["name"] = "Renamed"
    assert admin_client.post(url, data).status_code == 302
    assert Event.objects.get(pk=event.pk).name == "Renamed"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rules", {"preset": "rob", "options": {}}),
        ("scoring_method", "datum"),
        ("tiebreaks", ["lot"]),
        ("lot_seed", "drawn again"),
    ],
)
def test_the_model_refuses_a_frozen_setting_once_a_round_started(field, value) -> None:
    event, *_ = _started_event()
    before = Event.objects.values(field).get(pk=event.pk)
    setattr(event, field, value)
    with pytest.raises(DomainError, match=FROZEN_MESSAGE):
        event.save()
    with pytest.raises(DomainError, match=FROZEN_MESSAGE):
        Event.objects.filter(pk=event.pk).update(**{field: value})
    with pytest.raises(DomainError, match=FROZEN_MESSAGE), transaction.atomic():
        Event.objects.bulk_update([event], [field])
    assert Event.objects.values(field).get(pk=event.pk) == before
    # The same value again, and the other fields, still save.
    event.refresh_from_db()
    event.name = "Renamed"
    event.save()
    assert Event.objects.filter(pk=event.pk).update(**before) == 1


def test_settings_are_frozen_from_the_start_not_from_the_seating(django_user_model) -> None:
    organizer = django_user_model.objects.create_superuser("td", "td@example.org", "pw")
    event = rounds.event_open(actor=organizer, name="Frozen", preset="classic")
    rounds.event_seed_commit(event=event, actor=organizer, seed="5eed" * 16)
    round_ = rounds.round_create(event=event, actor=organizer)
    Event.objects.filter(pk=event.pk).update(tiebreaks=["best_board"])  # draft: free
    rounds.round_deal(round_=round_, boards=1, actor=organizer)
    event.refresh_from_db()
    event.lot_seed = "published"
    event.save()  # dealt, not started: free
    Round.objects.filter(pk=round_.pk).update(state=RoundState.SEATED)
    round_states.round_start(round_=round_, actor=organizer)
    event.refresh_from_db()
    event.lot_seed = "another"
    with pytest.raises(DomainError, match=FROZEN_MESSAGE):
        event.save()


# --- The audit log of admin changes --------------------------------------------------------


def test_admin_changes_are_in_the_events_audit_log_with_who_and_when(
    admin_client, admin_user
) -> None:
    event, round_, tables, _boards = _started_event()
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    data = _form_data(admin_client.get(url))
    data["name"] = "Trust open"
    assert admin_client.post(url, data).status_code == 302
    entry = AuditEntry.objects.get(event=event, action="admin.change", object_type="event")
    assert entry.actor == admin_user and entry.at is not None
    assert entry.changes["fields"]["name"] == [event.name, "Trust open"]

    # A seat changed through the table's inline: the table's entry names the seat, and the
    # seat's own row history keeps the player before and after, with the user.
    newcomer = PlayerFactory(name="Newcomer")
    seat = Seat.objects.get(table=tables[0], seat="S")
    url = reverse("admin:tournaments_table_change", args=[tables[0].pk])
    data = _form_data(admin_client.get(url))
    key = next(k for k, v in data.items() if k.endswith("-id") and v == str(seat.pk))
    data[key.replace("-id", "-player")] = str(newcomer.pk)
    assert admin_client.post(url, data).status_code == 302
    entry = AuditEntry.objects.get(event=event, action="admin.change", object_type="table")
    assert entry.actor == admin_user
    assert "seat" in json.dumps(entry.changes["admin"])
    latest, previous = Seat.objects.get(pk=seat.pk).history.order_by("-history_id")[:2]
    assert latest.history_user == admin_user
    assert (previous.player_id, latest.player_id) == (seat.player_id, newcomer.pk)

    # The organizer's dashboard, the event's log, shows them.
    page = admin_client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert "changed in the administration" in page and admin_user.username in page


def test_admin_additions_and_deletions_are_audited(admin_client, admin_user) -> None:
    event, round_, _tables, boards = _started_event()
    board = boards[1]
    url = reverse("admin:games_board_delete", args=[board.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Board.objects.filter(pk=board.pk).exists()
    entry = AuditEntry.objects.get(event=event, action="admin.delete")
    assert (entry.actor, entry.object_type, entry.object_id) == (
        admin_user,
        "board",
        str(board.pk),
    )

    url = reverse("admin:tournaments_round_add")
    data = _form_data(admin_client.get(url))
    data.update(event=str(event.pk), number="7")
    assert admin_client.post(url, data).status_code == 302
    added = Round.objects.get(event=event, number=7)
    entry = AuditEntry.objects.get(event=event, action="admin.add")
    assert (entry.actor, entry.object_type, entry.object_id) == (
        admin_user,
        "round",
        str(added.pk),
    )


def test_the_row_history_never_holds_the_deal_seed(admin_client, django_user_model) -> None:
    organizer = django_user_model.objects.create_superuser("td", "td@example.org", "pw")
    event = rounds.event_open(actor=organizer, name="Secret", preset="classic")
    seed = "5eed" * 16
    rounds.event_seed_commit(event=event, actor=organizer, seed=seed)
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    data = _form_data(admin_client.get(url))
    data["name"] = "Still secret"
    assert admin_client.post(url, data).status_code == 302
    assert event.history.count() >= 1
    assert all(not hasattr(h, "deal_seed") for h in event.history.all())
    assert Event.objects.get(pk=event.pk).deal_seed == seed
    history = admin_client.get(reverse("admin:tournaments_event_history", args=[event.pk]))
    assert history.status_code == 200 and seed not in history.content.decode()
    for entry in AuditEntry.objects.filter(event=event):
        assert seed not in json.dumps(entry.changes)


def test_the_refusal_is_translated() -> None:
    event, *_ = _started_event()
    event.scoring_method = "datum"
    with translation.override("zh-hans"), pytest.raises(DomainError, match="不可再改"):
        event.save()
