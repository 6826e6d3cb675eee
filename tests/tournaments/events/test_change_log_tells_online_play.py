"""The change log of an online robot duplicate tells what happened at its tables
(tournaments.events.audit_lines): an entrant's step reads "<entrant> played <cards> at <seat>"
(or passed, or his call in the bidding) with the entrant as who, a robot's "robot at <seat>
played …"; a robot's take-over names the seat, whose it was and why; a table the robots
completed says so; the organizer's "End the window now" has its own label; an invitation or an
account tied names the player. Entries stored before (no phase, other shapes) still read."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import PlayerFactory, online_board_play, online_event, online_table_seated
from tournaments.core.audit import audit_record
from tournaments.events.audit_lines import change_log, change_log_lines
from tournaments.models import AuditEntry, Event, Seat, Table
from tournaments.online import play
from tournaments.online.close import online_window_end_now

pytestmark = pytest.mark.django_db


def _lines(event: Event) -> list[tuple[AuditEntry, str, str]]:
    with translation.override("en"):
        return change_log_lines(change_log(event=event, steps=True), event=event)


def _line(event: Event, entry: AuditEntry) -> tuple[str, str]:
    return next((who, what) for e, who, what in _lines(event) if e.pk == entry.pk)


def test_an_entrants_steps_name_him_his_cards_and_his_seat() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    table = Table.objects.get(round__event=event)
    label = f"Round 1, table {table.number}"
    steps = AuditEntry.objects.filter(event=event, action="entry.step").order_by("pk")
    mine = [e for e in steps if e.changes.get("via", {}).get("link") == "online"]
    robots = [e for e in steps if "via" not in e.changes]
    assert mine and robots
    for entry in mine:
        who, what = _line(event, entry)
        step, seat = entry.changes["step"], entry.changes["seat"]
        assert (who, seat) == ("Entrant 1", "S")
        if step == "pass":
            assert what == f"Entrant 1 passed at S · {label}"
        elif entry.changes["phase"] == "bidding":
            assert what.startswith("Entrant 1 at S: ") and what.endswith(label)
        else:
            assert what == f"Entrant 1 played {step} at S · {label}"
    for entry in robots:
        who, what = _line(event, entry)
        step, seat = entry.changes["step"], entry.changes["seat"]
        assert who == "the system" and seat in ("E", "W")
        if entry.changes["phase"] == "play" and step != "pass":
            assert what == f"robot at {seat} played {step} · {label}"
        elif step == "pass":
            assert what == f"robot at {seat} passed · {label}"
        else:
            assert what.startswith(f"robot at {seat}: ")
    # The game his last step stored is his too.
    submit = AuditEntry.objects.filter(event=event, action="game.submit")
    assert {_line(event, e)[0] for e in submit} <= {"Entrant 1", "the system"}


def test_steps_stored_before_the_phase_was_kept_still_read() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    table = play.online_board_start(event=event, user=ann, number=1)
    via = {"link": "online", "id": ann.pk, "table_id": table.pk, "seat": "S"}
    old = [
        ({"board": 1, "step": "33", "seat": "S", "at": 7, "via": via}, "Entrant 1 played 33 at S"),
        ({"board": 1, "step": "pass", "seat": "S", "at": 8, "via": via}, "Entrant 1 passed at S"),
        ({"board": 1, "step": "2", "seat": "S", "at": 0, "via": via}, "Entrant 1 at S: 2"),
        ({"board": 1, "step": "call", "seat": "S", "at": 0, "via": via}, "Entrant 1 at S: call"),
        ({"board": 1, "step": "3", "seat": "E", "at": 1}, "robot at E: 3"),
        ({"board": 1, "step": "777", "seat": "W", "at": 9}, "robot at W played 777"),
    ]
    made = [
        AuditEntry.objects.create(
            event=event,
            action="entry.step",
            object_type="table",
            object_id=str(table.pk),
            changes=changes,
        )
        for changes, _said in old
    ]
    for entry, (_changes, said) in zip(made, old, strict=True):
        assert _line(event, entry)[1].startswith(said), said
    odd = AuditEntry.objects.create(
        event=event, action="entry.step", object_type="table", object_id="x", changes=["?"]
    )
    assert _line(event, odd) == ("the system", "step entered through a table link · table")


def test_a_take_over_names_the_seat_whose_it_was_and_why() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    devices = online_table_seated(event, users, 1)
    leaver = next(s for s, (d, _r) in devices.items() if d.bearer.via["id"] == users[0].pk)
    play.online_board_leave(event=event, user=users[0], number=1)
    seat = Seat.objects.get(table__round__event=event, seat=leaver)
    left = AuditEntry.objects.get(event=event, action="online.table_leave")
    move = seat.robot_from + 1
    assert f"seat {leaver} of Entrant 1, from move {move}: left the table" in _line(event, left)[1]
    audit_record(
        event=event,
        actor=None,
        action="online.robot_takeover",
        obj=seat.table,
        changes={"board": 1, "seat": leaver, "robot_from": 4, "why": "timeout"},
    )
    timeout = AuditEntry.objects.filter(event=event, action="online.robot_takeover").get()
    _who, what = _line(event, timeout)
    assert what.startswith(
        f"robot took over an online seat · seat {leaver} of Entrant 1, from move 5: ran out of time"
    )


def test_a_table_the_robots_completed_is_told_apart_from_one_entrants_filled() -> None:
    event, _td, users = online_event(entrants=3, boards=2, tables=True)
    online_table_seated(event, users, 1)
    full = AuditEntry.objects.get(event=event, action="online.table_full")
    assert _line(event, full)[1].startswith("online table full, its board started")
    table = play.online_board_start(event=event, user=users[0], number=2)
    from tournaments.online.tables import table_fill

    table_fill(table=table, board=event.boards.get(number=2), force=True)
    filled = AuditEntry.objects.filter(event=event, action="online.table_full").latest("pk")
    seats = ", ".join(filled.changes["robots"])
    assert _line(event, filled)[1].startswith(
        f"online table completed by robots at {seats}, its board started"
    )


def test_end_the_window_now_has_its_own_label() -> None:
    event, td, _users = online_event(entrants=1, boards=1)
    online_window_end_now(event=event, actor=td)
    ended = AuditEntry.objects.get(event=event, action="online.window_end")
    assert set(ended.changes) == {"ends_at"}
    assert _line(event, ended)[1].startswith("window ended early")
    assert not AuditEntry.objects.filter(event=event, action="event.place").exists()


def test_an_invitation_and_an_account_tied_name_the_player() -> None:
    event, td, _users = online_event(entrants=0, boards=1)
    ann = PlayerFactory(name="Ann Lee")
    invite = audit_record(event=event, actor=td, action="player.invite", obj=ann, changes={})
    tied = audit_record(event=event, actor=td, action="player.account", obj=ann, changes={})
    assert _line(event, invite)[1] == "player invited to tie an account · Ann Lee"
    assert _line(event, tied)[1] == "account tied to the player · Ann Lee"


def test_the_change_log_page_shows_the_lines() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    page = client.get(reverse("organizer:changes", args=[event.slug]) + "?steps=1")
    log = page.content.decode()
    log = log[log.index('id="audit"') :]
    rows = re.findall(r"<td>([^<]*)</td><td class=\"text\">([^<]*)</td>", log)
    assert "Entrant 1" in {who for who, _what in rows}
    assert any(what.startswith("robot at ") for _who, what in rows)
    assert not any(what.startswith("step entered through a table link") for _w, what in rows)


def test_a_robot_playing_an_entrants_move_names_him() -> None:
    # Against robots, a move whose time ran out is played by the robot of the entrant's own
    # seat: the line says whose move it was, not only "robot at S".
    from datetime import timedelta

    from django.utils import timezone

    from games.models import EntryDraft

    event, _td, (ann,) = online_event(entrants=1, boards=1, move_seconds=30)
    table = play.online_board_start(event=event, user=ann, number=1)
    seat = play.board_seat(event, 1)
    EntryDraft.objects.filter(table=table).update(updated_at=timezone.now() - timedelta(seconds=31))
    assert play.timeout_check(table=table, board=table.round.boards.get())
    step = (
        AuditEntry.objects.filter(event=event, action="entry.step", changes__seat=seat)
        .exclude(changes__has_key="via")
        .order_by("pk")
        .first()
    )
    assert step is not None
    who, what = _line(event, step)
    assert who == "the system"
    assert what.startswith(f"robot for Entrant 1 at {seat}"), what
