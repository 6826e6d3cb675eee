"""The round clock (tournaments.events.clock): its services, who may run it, its views, and the
big-screen page (tournaments.web.screen) that shows it with the seating and the standings.

Times are derived by hand from the clock's definition: a round of M minutes started at t0 has
run (now − t0 − the pauses) and has M minutes minus that left; a table given x extra minutes
has x more.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import race
from tests.entry_personas import PERSONAS, build_world
from tests.factories import bot_record, duplicate_round
from tournaments.events import clock
from tournaments.models import AuditEntry, RoundClock, RoundState
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


@pytest.fixture
def world():
    return build_world(seed="clock", tables=3, boards=2)


def _round(world):
    return world.tables[0].round


# --- Services ------------------------------------------------------------------------------


def test_start_pause_resume_and_extra_time_give_the_hand_derived_times(world) -> None:
    round_, chief = _round(world), world.users["chief"]
    clock.clock_start(round_=round_, minutes=60, actor=chief, at=T0)
    view = clock.round_clock(round_)
    assert view.state == "running"
    # Ten minutes in: 50 left.
    assert view.remaining(T0 + minutes(10)) == minutes(50)

    clock.clock_pause(round_=round_, actor=chief, at=T0 + minutes(10))
    clock.clock_resume(round_=round_, actor=chief, at=T0 + minutes(15))
    clock.clock_extra_time(table=world.tables[1], minutes=5, actor=chief)
    view = clock.round_clock(round_)
    # Run 10, paused 5, run 5: 15 minutes of play at T0+20, so 45 left; table 2 has 5 more.
    now = T0 + minutes(20)
    assert view.state == "running"
    assert view.elapsed(now) == minutes(15)
    assert view.remaining(now) == minutes(45)
    assert view.remaining(now, table=2) == minutes(50)
    assert view.remaining(now, table=1) == minutes(45)

    clock.clock_pause(round_=round_, actor=chief, at=T0 + minutes(30))
    view = clock.round_clock(round_)
    # Paused at T0+30 after 25 minutes of play: the time left stays 35 while paused.
    assert view.state == "paused"
    assert view.remaining(T0 + minutes(30)) == minutes(35)
    assert view.remaining(T0 + minutes(50)) == minutes(35)

    data = view.to_json(T0 + minutes(50))
    assert data["round"] == round_.number and data["state"] == "paused"
    assert data["minutes"] == 60 and data["tables"] == {"2": 5}
    assert data["started_at"] == int(T0.timestamp() * 1000)
    assert data["paused_at"] == int((T0 + minutes(30)).timestamp() * 1000)
    assert data["paused_ms"] == 5 * 60_000
    assert data["now"] == int((T0 + minutes(50)).timestamp() * 1000)


def test_a_clock_not_started_and_one_past_its_time(world) -> None:
    round_, chief = _round(world), world.users["chief"]
    view = clock.round_clock(round_)
    assert view.state == "stopped" and view.remaining(T0) == minutes(0)
    assert view.to_json(T0)["started_at"] is None
    clock.clock_start(round_=round_, minutes=30, actor=chief, at=T0)
    # Past the end the time left is negative: the clock shows how far over the round is.
    assert clock.round_clock(round_).remaining(T0 + minutes(40)) == minutes(-10)


def test_reset_stops_the_clock_and_clears_the_extra_time(world) -> None:
    round_, chief = _round(world), world.users["chief"]
    clock.clock_start(round_=round_, minutes=30, actor=chief, at=T0)
    clock.clock_extra_time(table=world.tables[0], minutes=3, actor=chief)
    clock.clock_reset(round_=round_, actor=chief)
    view = clock.round_clock(round_)
    assert view.state == "stopped" and view.extra == {}
    clock.clock_start(round_=round_, minutes=20, actor=chief, at=T0 + minutes(5))
    assert clock.round_clock(round_).remaining(T0 + minutes(5)) == minutes(20)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_organizers_and_chief_referees_run_the_clock(world, persona) -> None:
    round_, user = _round(world), world.users[persona]
    allowed = persona in ("organizer", "chief")
    before = AuditEntry.objects.count()
    calls = [
        lambda: clock.clock_start(round_=round_, minutes=45, actor=user, at=T0),
        lambda: clock.clock_pause(round_=round_, actor=user, at=T0 + minutes(1)),
        lambda: clock.clock_resume(round_=round_, actor=user, at=T0 + minutes(2)),
        lambda: clock.clock_extra_time(table=world.tables[0], minutes=4, actor=user),
        lambda: clock.clock_reset(round_=round_, actor=user),
    ]
    for call in calls:
        if allowed:
            call()
        else:
            with pytest.raises(clock.ClockRefused):
                call()
    if allowed:
        actions = list(
            AuditEntry.objects.filter(action__startswith="clock.")
            .order_by("id")
            .values_list("action", flat=True)
        )
        assert actions == [
            "clock.start",
            "clock.pause",
            "clock.resume",
            "clock.extra_time",
            "clock.reset",
        ]
    else:
        assert AuditEntry.objects.count() == before
        assert not RoundClock.objects.filter(started_at__isnull=False).exists()


def test_refusals_change_nothing(world) -> None:
    round_, chief = _round(world), world.users["chief"]
    with pytest.raises(clock.ClockRefused):
        clock.clock_pause(round_=round_, actor=chief, at=T0)  # not started
    with pytest.raises(clock.ClockRefused):
        clock.clock_resume(round_=round_, actor=chief, at=T0)  # not paused
    for bad in (0, -5, clock.MAX_MINUTES + 1):
        with pytest.raises(clock.ClockRefused):
            clock.clock_start(round_=round_, minutes=bad, actor=chief, at=T0)
    clock.clock_start(round_=round_, minutes=30, actor=chief, at=T0)
    with pytest.raises(clock.ClockRefused):
        clock.clock_start(round_=round_, minutes=30, actor=chief, at=T0)  # already running
    with pytest.raises(clock.ClockRefused):
        clock.clock_resume(round_=round_, actor=chief, at=T0)  # running, not paused
    for bad in (-1, clock.MAX_EXTRA_MINUTES + 1):
        with pytest.raises(clock.ClockRefused):
            clock.clock_extra_time(table=world.tables[0], minutes=bad, actor=chief)
    assert clock.round_clock(round_).extra == {}
    assert AuditEntry.objects.filter(action__startswith="clock.").count() == 1


def test_a_finished_round_has_no_clock_to_run(world) -> None:
    round_, chief = _round(world), world.users["chief"]
    type(round_).objects.filter(pk=round_.pk).update(state=RoundState.CLOSED)
    round_.refresh_from_db()
    with pytest.raises(clock.ClockRefused):
        clock.clock_start(round_=round_, minutes=30, actor=chief, at=T0)
    assert not RoundClock.objects.filter(started_at__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_of_two_concurrent_pauses_exactly_one_wins() -> None:
    world = build_world(seed="clock-race", tables=2, boards=1)
    round_, chief = _round(world), world.users["chief"]
    clock.clock_start(round_=round_, minutes=30, actor=chief, at=T0)
    outcomes = race(4, lambda: clock.clock_pause(round_=round_, actor=chief))
    assert sum(not isinstance(o, clock.ClockRefused) for o in outcomes) == 1
    assert AuditEntry.objects.filter(action="clock.pause").count() == 1


def test_current_round_is_the_round_in_play() -> None:
    event, first, _tables, _boards = duplicate_round(tables=2, boards=1, seed="cur1")
    _e, second, _t, _b = duplicate_round(tables=2, boards=1, seed="cur2", event=event)
    type(first).objects.filter(pk=first.pk).update(state=RoundState.CLOSED)
    type(second).objects.filter(pk=second.pk).update(state=RoundState.IN_PLAY)
    assert clock.current_round(event).pk == second.pk
    type(second).objects.filter(pk=second.pk).update(state=RoundState.SEATED)
    assert clock.current_round(event).pk == second.pk
    type(second).objects.filter(pk=second.pk).update(state=RoundState.PUBLISHED)
    # Nothing in play or seated: the last round played.
    assert clock.current_round(event).pk == second.pk


# --- Views ---------------------------------------------------------------------------------


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _clock_url(world, round_, action: str) -> str:
    return reverse(
        "referee:clock",
        kwargs={"slug": world.event.slug, "number": round_.number, "action": action},
    )


CLOCK_POST = {"organizer": 302, "chief": 302, "referee1": 403, "referee2": 403, "player": 403}


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_clock_buttons_answer_by_role(world, persona) -> None:
    round_ = _round(world)
    url = _clock_url(world, round_, "start")
    response = _client(world.users[persona]).post(url, {"minutes": "40"})
    if persona == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == CLOCK_POST[persona]
    started = RoundClock.objects.filter(round=round_, started_at__isnull=False).exists()
    assert started == (persona in ("organizer", "chief"))
    if started:
        assert clock.round_clock(round_).minutes == 40


def test_a_refused_clock_button_says_why(world) -> None:
    round_ = _round(world)
    url = _clock_url(world, round_, "pause")
    client = _client(world.users["chief"])
    response = client.post(url, follow=True)
    assert "The clock of round 1 is not running" in response.content.decode()
    assert client.get(url).status_code == 405
    bad = _clock_url(world, round_, "x")
    assert client.post(bad).status_code == 404


def test_extra_time_for_a_table_through_its_button(world) -> None:
    round_ = _round(world)
    url = _clock_url(world, round_, "extra")
    client = _client(world.users["organizer"])
    assert client.post(url, {"table": "3", "minutes": "7"}).status_code == 302
    assert clock.round_clock(round_).extra == {3: 7}
    response = client.post(url, {"table": "9", "minutes": "7"}, follow=True)
    assert "no table 9" in response.content.decode()


def test_the_referee_page_shows_the_clock_and_only_chiefs_its_buttons(world) -> None:
    round_ = _round(world)
    clock.clock_start(round_=round_, minutes=50, actor=world.users["chief"], at=T0)
    url = reverse("referee:event", kwargs={"slug": world.event.slug})
    action = _clock_url(world, round_, "pause")
    for persona, buttons in (("chief", True), ("organizer", True), ("referee1", False)):
        html = _client(world.users[persona]).get(url).content.decode()
        assert 'class="round-clock"' in html, persona
        data = json.loads(unescape(re.search(r'data-clock="([^"]*)"', html).group(1)))
        assert data["started_at"] == int(T0.timestamp() * 1000) and data["minutes"] == 50
        assert (action in html) == buttons, persona


def test_the_clock_endpoint_is_small_public_and_uncached(world) -> None:
    round_ = _round(world)
    clock.clock_start(round_=round_, minutes=25, actor=world.users["chief"], at=T0)
    response = Client().get(reverse("public:screen_clock", kwargs={"slug": world.event.slug}))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]
    data = response.json()
    assert set(data) == {
        "round",
        "state",
        "now",
        "minutes",
        "started_at",
        "paused_at",
        "paused_ms",
        "tables",
    }
    assert data["state"] == "running" and data["minutes"] == 25
    missing = reverse("public:screen_clock", kwargs={"slug": "no-such-event"})
    assert Client().get(missing).status_code == 404


# --- The big-screen page -------------------------------------------------------------------


def test_the_big_screen_shows_the_seating_the_clock_and_the_standings(world) -> None:
    round_ = _round(world)
    clock.clock_start(round_=round_, minutes=35, actor=world.users["chief"], at=T0)
    clock.clock_extra_time(table=world.tables[2], minutes=4, actor=world.users["chief"])
    url = reverse("public:screen", kwargs={"slug": world.event.slug})
    response = Client().get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert world.event.name in html and "Round 1" in html
    for table in world.tables:
        assert f'data-table="{table.number}"' in html
        for seat in table.seats.all():
            assert seat.player.name in html
    assert 'class="round-clock"' in html and "+4" in html
    assert reverse("public:standings_live", kwargs={"slug": world.event.slug}) in html
    assert 'id="standings-live"' in html
    assert Client().get(reverse("public:screen", kwargs={"slug": "nope"})).status_code == 404


def _without_now(html: str) -> str:
    return re.sub(r"&quot;now&quot;: \d+", "", html)


def test_the_big_screen_is_the_same_for_everyone_and_keeps_the_embargo() -> None:
    world = build_world(seed="screen-embargo", tables=3, boards=2)
    hidden, shown = world.boards
    games = []
    for table in world.tables:
        for board in (shown, hidden) if table.number < 3 else (shown,):
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)
            games.append(game)
    standings_recompute(event_id=world.event.pk)
    url = reverse("public:screen", kwargs={"slug": world.event.slug})
    pages = {p: _client(world.users[p]).get(url) for p in ("anonymous", "organizer", "chief")}
    anonymous = _without_now(pages["anonymous"].content.decode())
    # An organizer's projector shows exactly what the public sees: nothing embargoed, no
    # name of the signed-in person, no form token.
    for persona in ("organizer", "chief"):
        assert _without_now(pages[persona].content.decode()) == anonymous, persona
    assert "csrfmiddlewaretoken" not in anonymous
    assert world.users["organizer"].username not in anonymous
    # Board 1 is still being played at table 3: no game of it is shown or linked, and the
    # standings count board 2 only (one board per player).
    for game in games:
        assert reverse("public:replay", kwargs={"pk": game.pk}) not in anonymous
        assert f"/games/{game.pk}/" not in anonymous
    assert hidden.get_absolute_url() not in anonymous
    boards_column = re.findall(
        r'<td class="num">(\d+)</td><td class="minor">[^<]*</td></tr>', anonymous
    )
    assert boards_column and set(boards_column) == {"1"}
