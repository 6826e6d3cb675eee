"""Each kind of message reaches a real SMTP server once, sent by a real Celery worker, with what
it must say: a round's seating ("Round 1: table 2, seat E", from the seating rows), results
published (the player's scorecard), the correction window ("check them until" a date and time
in the event's zone: the event's correction minutes after the table's last game was stored), a
registration received and decided (with its status page). Players who turned e-mail off, or
have no address, get none; queued again, nothing more arrives.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils.formats import date_format

from games.models import Game
from tests.conftest import Worker
from tests.factories import duplicate_round, round_fill
from tests.smtp_server import SmtpSink, body_of
from tournaments.core import mail
from tournaments.core.outbox import message_id
from tournaments.events import round_states
from tournaments.models import (
    EventRole,
    MailState,
    OutgoingMail,
    Player,
    Registration,
    RegistrationStatus,
    Role,
    Seat,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _addresses(event, players):
    """Give each player an address of this event (so that no other test's mail is counted);
    the first turns e-mail off, the second has none. Those who should get mail."""
    writable = []
    for n, player in enumerate(players):
        player.email = "" if n == 1 else f"{event.slug}-{player.pk}@example.org"
        player.mail_off = n == 0
        player.save(update_fields=["email", "mail_off"])
        if n > 1:
            writable.append(player)
    return writable


def _players(round_):
    return [s.player for s in Seat.objects.filter(table__round=round_).select_related("player")]


def _all_sent(keys_prefix: str, count: int):
    def done() -> bool:
        rows = OutgoingMail.objects.filter(key__startswith=keys_prefix)
        return rows.count() == count and not rows.exclude(state=MailState.SENT).exists()

    return done


def _wait_sent(smtp: SmtpSink, prefix: str, count: int) -> None:
    from tests.conftest import wait_for

    wait_for(_all_sent(prefix, count), what=f"{count} mails {prefix}… sent")
    smtp.wait(lambda got: False, timeout=0.5)  # anything sent twice would arrive meanwhile


def test_seating_results_and_correction_each_arrive_once(
    celery_worker: Worker, smtp_server: SmtpSink
) -> None:
    event, round_, _tables, _boards = duplicate_round(tables=2, boards=1, seed="mail-kinds")
    event.time_zone = "Asia/Shanghai"
    event.correction_minutes = 45
    event.save(update_fields=["time_zone", "correction_minutes"])
    organizer = get_user_model().objects.create_user(f"td-{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    writable = _addresses(event, _players(round_))

    with transaction.atomic():
        mail.round_seated(round_)
    _wait_sent(smtp_server, f"seating:{round_.pk}:", len(writable))
    for seat in Seat.objects.filter(table__round=round_).select_related("player", "table"):
        player = seat.player
        if player not in writable:
            continue
        got = smtp_server.to(player.email)
        assert len(got) == 1, player
        expected = f"Round {round_.number}: table {seat.table.number}, seat {seat.seat}"
        assert expected in body_of(got[0])
        assert got[0]["Message-ID"] == message_id(
            f"seating:{round_.pk}:{player.pk}:{seat.table.number}:{seat.seat}"
        )
        assert mail.unsubscribe_url(player.email) in body_of(got[0])
    # Seated again at the same places: nothing more.
    with transaction.atomic():
        mail.round_seated(round_)
    celery_worker.drain()
    assert all(len(smtp_server.to(p.email)) == 1 for p in writable)

    round_fill(round_, seed="mail-kinds")
    round_states.round_close(round_=round_, actor=organizer)
    _wait_sent(smtp_server, f"correction:{round_.pk}:", len(writable))
    zone = ZoneInfo("Asia/Shanghai")
    for player in writable:
        table = Seat.objects.get(table__round=round_, player=player).table
        last = Game.objects.filter(table=table, replaced_at__isnull=True).aggregate(
            last=Max("submitted_at")
        )["last"]
        # The window's end with its date and zone (a bare "00:15" was the next day's, unsaid).
        local = (last + timedelta(minutes=45)).astimezone(zone)
        until = f"{date_format(local, 'DATETIME_FORMAT')} (Asia/Shanghai)"
        (got,) = smtp_server.with_id(message_id(f"correction:{round_.pk}:{player.pk}"))
        assert f"Check them until {until}" in " ".join(body_of(got).split())

    round_states.round_publish(round_=round_, actor=organizer)
    _wait_sent(smtp_server, f"results:{round_.pk}:", len(writable))
    for player in writable:
        (got,) = smtp_server.with_id(message_id(f"results:{round_.pk}:{player.pk}"))
        scorecard = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk})
        assert settings.DDZ_SITE_URL + scorecard in body_of(got)
        # Seating, correction window, results: three messages, each once.
        assert len(smtp_server.to(player.email)) == 3
    off = Player.objects.get(mail_off=True, seats__table__round=round_)
    assert smtp_server.to(off.email) == []
    assert not OutgoingMail.objects.filter(player=off).exists()


def test_registration_received_and_decided_arrive_once(
    celery_worker: Worker, smtp_server: SmtpSink
) -> None:
    event, _round, _tables, _boards = duplicate_round(tables=1, boards=1, seed="mail-reg")
    address = f"{event.slug}-ann@example.org"
    registration = Registration.objects.create(event=event, name="Ann Wu", email=address)
    with transaction.atomic():
        mail.registration_received(registration)
        mail.registration_received(registration)  # the same message: queued once
    registration.status = RegistrationStatus.ACCEPTED
    registration.save(update_fields=["status"])
    with transaction.atomic():
        mail.registration_decided(registration)
    _wait_sent(smtp_server, f"registration:{registration.pk}:", 2)
    got = smtp_server.to(address)
    assert len(got) == 2
    received, accepted = sorted(got, key=lambda m: "accepted" in str(m["Subject"]))
    assert "received" in str(received["Subject"]) and "accepted" in str(accepted["Subject"])
    assert "Ann Wu" in body_of(received)
    assert mail.registration_status_url(registration) in body_of(accepted)
    assert mail.registration_status_url(registration).startswith(settings.DDZ_SITE_URL)


def test_a_player_with_mail_off_under_another_record_gets_nothing(
    celery_worker: Worker, smtp_server: SmtpSink
) -> None:
    """Mail off holds per address: the same person's other player record keeps it off."""
    event, round_, _tables, _boards = duplicate_round(tables=1, boards=1, seed="mail-off")
    player = _players(round_)[0]
    address = f"{event.slug}-twice@example.org"
    Player.objects.filter(pk=player.pk).update(email=address)
    Player.objects.create(name="Same person, older record", email=address.upper(), mail_off=True)
    with transaction.atomic():
        mail.round_seated(round_)
    celery_worker.drain()
    assert smtp_server.to(address) == []
    assert not OutgoingMail.objects.filter(to__iexact=address).exists()
