"""An event's life around its first round, as its people live it, in Chromium against the live
site, its real Celery worker and a real SMTP server (tests/smtp_server.py):

a new player signs up on his phone and confirms his address from the mail that arrived,
registers, is accepted by the organizer, and is checked in at the venue by the QR code of his
registration page (decoded from the pixels the browser drew, as a phone's camera would); the
organizer checks the others in with a tap, withdraws one entrant from round 1, adds a walk-in
after registration closed (the late entry), seats round 1 with those present and prints the
guide cards; the round is played, closed and published. Every mail the players should get
arrived once: the seating ("Round 1: table T, seat X", as the seating rows say) and the results,
and nothing to the entrant who withdrew.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
import zxingcpp
from django.contrib.auth import get_user_model
from PIL import Image

from tests.browser.chromium import CHROMIUM, chromium, fits, on_server, phone_context, session_of
from tests.factories import round_fill
from tests.smtp_server import SmtpSink
from tournaments.events import round_states, rounds, stages
from tournaments.events.setup import event_create
from tournaments.models import Entry, Event, EventRole, Registration, Role, Round, Seat
from tournaments.people import registration

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

NEWCOMER = "li.wei@example.org"
PASSWORD = "a-strong-password-42"
# Eight entrants accepted before the day; the last of them withdraws from round 1, so with the
# newcomer and the walk-in nine are present: three tables of three.
OTHERS = [f"Player {c}" for c in "ABCDEFGH"]
WALK_IN = "Walk-in Wu"


def _address(name: str) -> str:
    return f"{name.lower().replace(' ', '.').replace('-', '')}@example.org"


def _setup() -> dict[str, Any]:
    users = get_user_model().objects
    td = users.create_user("spring-td", password="td-password-42")
    event = event_create(name="Spring Open", rules="classic")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    Event.objects.filter(pk=event.pk).update(check_in_required=True)
    event.refresh_from_db()
    registration.registration_open(event=event, actor=td, limit=12)
    for name in OTHERS:
        registration.registration_add(
            event=event, actor=td, name=name, email=_address(name), accept=True
        )
    stage = stages.stage_create(event=event, actor=td)
    first = rounds.round_create(event=event, stage=stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=first, boards=1, actor=td)
    return {"td": td, "event": event, "round": first, "session": session_of(td)}


def _path(text: str, pattern: str) -> str:
    found = re.search(rf"https?://[^\s/]+({pattern}\S*)", text)
    assert found, text
    return found.group(1)


def _body(message: Any) -> str:
    part = message.get_body(preferencelist=("plain",))
    return part.get_content()


def test_a_new_player_signs_up_registers_checks_in_and_gets_each_mail_once(
    live_server, celery_worker: Any, smtp_server: SmtpSink
) -> None:
    world = on_server(_setup)
    event, td_session = world["event"], world["session"]
    url = live_server.url
    with chromium() as browser:
        phone = phone_context(browser, live_server)
        page = phone.new_page()

        # Sign up, and confirm from the mail that arrived.
        page.goto(f"{url}/accounts/signup/")
        page.fill("input[name=email]", NEWCOMER)
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("#sign-up button[type=submit]")
        page.wait_for_url("**/accounts/confirm-email/")
        smtp_server.wait(lambda got: any(NEWCOMER in str(m["To"]) for m in got))
        [confirmation] = smtp_server.to(NEWCOMER)
        page.goto(url + _path(_body(confirmation), "/accounts/confirm-email/"))
        page.click("main form button[type=submit]")
        page.wait_for_selector("#my-account")

        # Register from the event's page.
        page.goto(f"{url}/events/{event.slug}/")
        page.click("text=Register")
        page.wait_for_selector("#register")
        fits(page)
        page.fill("#register input[name=name]", "Li Wei")
        page.click("#register button[type=submit]")
        page.wait_for_selector("#registration-status")
        assert "received" in page.inner_text("#registration-status")

        # The organizer accepts him on his registrations page.
        desk = phone_context(browser, live_server, td_session)
        organizer = desk.new_page()
        organizer.goto(f"{url}/organizer/events/{event.slug}/registrations/")
        newcomer_row = on_server(lambda: Registration.objects.get(event=event, name="Li Wei"))
        organizer.click(f"#registration-{newcomer_row.pk} >> text=Accept")
        organizer.wait_for_selector(f"#registration-{newcomer_row.pk} >> text=accepted")

        # His registration page shows the check-in code; the organizer's phone reads it.
        page.goto(f"{url}/events/{event.slug}/registration/")
        page.wait_for_selector("#check-in svg")
        shot = page.locator("#check-in .checkin-qr").screenshot()
        [code] = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)).convert("L"))
        assert f"/organizer/events/{event.slug}/check-in/" in code.text
        organizer.goto(code.text)
        assert "Li Wei" in organizer.inner_text("main")
        assert "round 1" in organizer.inner_text("main")

        # Registration closes; a walk-in is added at the venue (the late entry).
        organizer.goto(f"{url}/organizer/events/{event.slug}/registrations/")
        organizer.click("#close-registration")
        organizer.fill("#add-entrant input[name=name]", WALK_IN)
        organizer.fill("#add-entrant input[name=email]", _address(WALK_IN))
        organizer.click("#add-entrant button[type=submit]")
        organizer.wait_for_selector(f"#registrations >> text={WALK_IN}")

        # The check-in list: the last of the seven withdraws from round 1, the others and the
        # walk-in are tapped present.
        organizer.goto(f"{url}/organizer/events/{event.slug}/check-in/?round=1")
        fits(organizer)
        gone = on_server(lambda: Entry.objects.get(event=event, player__name=OTHERS[-1]))
        row = organizer.locator(f"#checkin-{gone.player_id}")
        row.locator("summary").click()
        row.locator("input[name=withdrawn_from]").fill("1")
        row.locator("button:text('Save')").click()
        organizer.wait_for_selector(f"#checkin-{gone.player_id}.out")
        for name in [*OTHERS[:-1], WALK_IN]:
            player_id = on_server(
                lambda name=name: Entry.objects.get(event=event, player__name=name).player_id
            )
            organizer.click(f"#checkin-{player_id} form.tap button")
            organizer.wait_for_selector(f"#checkin-{player_id}.present")
        assert "9 present" in organizer.inner_text("#checkin-count")
        organizer.click("#seat-present")
        organizer.wait_for_selector(".ok, .messages")

        seats = on_server(
            lambda: {
                s.player.name: (s.table.number, s.seat)
                for s in Seat.objects.filter(table__round=world["round"]).select_related(
                    "player", "table"
                )
            }
        )
        # Seated: exactly those present, three to a table, never the one who withdrew.
        assert sorted(seats) == sorted([*OTHERS[:-1], "Li Wei", WALK_IN])
        assert sorted(t for t, _seat in seats.values()) == [1, 1, 1, 2, 2, 2, 3, 3, 3]

        # The guide cards print each player's table and seat.
        organizer.goto(f"{url}/organizer/events/{event.slug}/print/guide-cards/")
        organizer.emulate_media(media="print")
        assert organizer.pdf(format="A4")[:5] == b"%PDF-"
        cards = organizer.inner_text("body")
        for name in seats:
            assert name in cards
        desk.close()
        phone.close()

    # Play, close and publish the round; the seating and results mails arrived once each.
    def play() -> None:
        round_ = Round.objects.get(pk=world["round"].pk)
        round_states.round_start(round_=round_, actor=world["td"])
        round_fill(round_)
        round_states.round_close(round_=round_, actor=world["td"])
        round_states.round_publish(round_=round_, actor=world["td"])

    on_server(play)
    seated = {name: _address(name) for name in seats if name != "Li Wei"}
    seated["Li Wei"] = NEWCOMER

    def seating_mails(address: str) -> list[Any]:
        return [m for m in smtp_server.to(address) if "Round 1" in _body(m) and "seat" in _body(m)]

    smtp_server.wait(lambda got: all(seating_mails(a) for a in seated.values()), timeout=60)
    for name, address in seated.items():
        [mail] = seating_mails(address)
        table, seat = seats[name]
        # The issue's own example of the message: "Round 3: table 7, seat E".
        assert f"Round 1: table {table}, seat {seat}\r\n" in _body(mail), name
    assert seating_mails(_address(OTHERS[-1])) == []

    def subjects(address: str, text: str) -> list[str]:
        return [str(m["Subject"]) for m in smtp_server.to(address) if text in str(m["Subject"])]

    # The round's close sends the correction window, its publication the results.
    published = "Spring Open: results of round 1"
    smtp_server.wait(lambda got: all(subjects(a, published) for a in seated.values()), timeout=60)
    for address in seated.values():
        assert subjects(address, published) == [published], address
        assert len(subjects(address, "check your results of round 1")) == 1, address
    assert subjects(_address(OTHERS[-1]), "round 1") == []
