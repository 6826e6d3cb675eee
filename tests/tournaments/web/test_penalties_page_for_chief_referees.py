"""The penalties page (tournaments.web.penalties): a chief referee gives and withdraws a
penalty without the admin (a trial's chief referee, not staff, had no way to), to a player
of the event only; a referee may not open it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory, duplicate_round
from tournaments.models import AuditEntry, EventRole, Penalty, Role

pytestmark = pytest.mark.django_db


def _client(event, name: str, role: str) -> Client:
    user = get_user_model().objects.create_user(name, password="x")
    EventRole.objects.create(event=event, user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


def test_a_chief_referee_gives_and_withdraws_a_penalty() -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-page")
    chief = _client(event, "pen-chief", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    assert chief.get(url).status_code == 200
    player = tables[0].seats.first().player
    given = chief.post(
        url, {"player": player.pk, "points": "1.5", "stage": "", "reason": "slow play"}, follow=True
    )
    assert given.status_code == 200
    penalty = Penalty.objects.get()
    assert (penalty.player, penalty.points, penalty.stage) == (player, Decimal("1.5"), None)
    assert f"{player.name} is penalised 1.5." in given.content.decode()
    # Listed as typed, not "1.5000" (a trial's list read 2.5000 and 0.0010).
    assert '<td class="num">1.5</td>' in given.content.decode()
    assert AuditEntry.objects.filter(action="penalty.add").count() == 1
    withdraw = reverse("referee:penalty_withdraw", args=[event.slug, penalty.pk])
    assert chief.post(withdraw).status_code == 302
    assert not Penalty.objects.exists()


def test_bad_input_is_refused_in_the_form_and_nothing_is_stored() -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-bad")
    chief = _client(event, "pen-chief-2", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    player = tables[0].seats.first().player
    stranger = PlayerFactory(name="Not Here")
    for data in (
        {"player": stranger.pk, "points": "1", "reason": "x"},  # not a player of the event
        {"player": player.pk, "points": "-1", "reason": "x"},
        {"player": player.pk, "points": "abc", "reason": "x"},
        {"player": player.pk, "points": "1", "reason": ""},
        {"player": player.pk, "points": "1", "reason": "a\x00b"},
    ):
        assert chief.post(url, data).status_code == 400, data
    assert not Penalty.objects.exists()


def test_a_referee_may_not_open_it() -> None:
    event, _round, _tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-ref")
    referee = _client(event, "pen-ref", Role.REFEREE)
    assert referee.get(reverse("referee:penalties", args=[event.slug])).status_code == 403
    anonymous = Client().get(reverse("referee:penalties", args=[event.slug]))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]


def test_points_read_as_typed_and_no_robot_or_foreign_stage_is_penalised() -> None:
    """A trial's chief referee read "penalised 1E+1" for 10 points, gave a robot a penalty,
    a stage penalty to a player cut before that stage, and 99999999 points."""
    from tournaments.models import Stage
    from tournaments.standings.penalties import penalty_refusal

    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-text")
    chief = _client(event, "pen-chief-3", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    player = tables[0].seats.first().player
    said = chief.post(
        url, {"player": player.pk, "points": "10", "reason": "slow"}, follow=True
    ).content.decode()
    assert f"{player.name} is penalised 10." in said and "1E+1" not in said
    huge = chief.post(url, {"player": player.pk, "points": "99999999", "reason": "x"})
    assert huge.status_code == 400 and "at most 10000 points" in huge.content.decode()
    negative = chief.post(url, {"player": player.pk, "points": "-3", "reason": "x"})
    assert "A penalty is a positive number of points." in negative.content.decode()
    # A trial's 0.00001 was told it is no positive number: it has too many decimals.
    fine = chief.post(url, {"player": player.pk, "points": "0.00001", "reason": "x"})
    assert "A penalty has at most 4 decimals." in fine.content.decode()
    robot = PlayerFactory(name="Robot E", robot=True)
    assert "robot" in (penalty_refusal(event=event, player=robot, stage=None) or "")
    final = Stage.objects.create(event=event, number=2, name="Final")
    assert "does not play" in (penalty_refusal(event=event, player=player, stage=final) or "")
    assert Penalty.objects.count() == 1


def test_the_withdraw_button_of_a_penalty_is_no_withdrawal_from_the_event() -> None:
    # The page shared "Withdraw" with registration, 退赛 (leaving the event), in Chinese.
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-zh")
    chief = _client(event, "pen-chief-zh", Role.CHIEF_REFEREE)
    Penalty.objects.create(event=event, player=tables[0].seats.first().player, points=1, reason="x")
    url = reverse("referee:penalties", args=[event.slug])
    page = chief.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "撤销</button>" in page and "退赛" not in page


def test_withdrawing_a_penalty_twice_says_it_is_withdrawn_already() -> None:
    # A trial's chief referee pressed Withdraw in a second tab (or after going back): a 404
    # page, as if the event were gone. The page says the penalty is withdrawn already.
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-twice")
    chief = _client(event, "pen-twice-chief", Role.CHIEF_REFEREE)
    player = tables[0].seats.first().player
    penalty = Penalty.objects.create(event=event, player=player, points=2, reason="late")
    withdraw = reverse("referee:penalty_withdraw", args=[event.slug, penalty.pk])
    assert chief.post(withdraw).status_code == 302
    again = chief.post(withdraw, follow=True)
    assert again.status_code == 200
    assert again.redirect_chain[-1][0] == reverse("referee:penalties", args=[event.slug])
    assert "This penalty was withdrawn already." in again.content.decode()
    assert AuditEntry.objects.filter(action="penalty.remove").count() == 1
    # Another event's penalty number is still no page of this one.
    other, _r, other_tables, _b = duplicate_round(tables=1, boards=1, seed="pen-other")
    foreign = Penalty.objects.create(
        event=other, player=other_tables[0].seats.first().player, points=1, reason="x"
    )
    foreign_url = reverse("referee:penalty_withdraw", args=[event.slug, foreign.pk])
    assert chief.post(foreign_url).status_code == 404
    assert Penalty.objects.filter(pk=foreign.pk).exists()
    # A number no penalty ever had is no page either (a trial read "withdrawn already").
    never = reverse("referee:penalty_withdraw", args=[event.slug, foreign.pk + 1000])
    assert chief.post(never).status_code == 404


@pytest.mark.parametrize("typed", ["1e27", "1E400", "9" * 40, "-1e400", "1e-400"])
def test_points_in_any_notation_are_refused_in_the_form_not_a_server_error(typed) -> None:
    # A trial's 1e27 reached Decimal.quantize past its precision: a 500 page.
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-exp")
    chief = _client(event, f"pen-exp-{len(typed)}-{typed[:2]}", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    player = tables[0].seats.first().player
    answer = chief.post(url, {"player": player.pk, "points": typed, "reason": "x"})
    assert answer.status_code == 400
    page = answer.content.decode()
    said = (
        "at most 10000 points",
        "A penalty is a positive number of points.",
        "at most 20",
        "A penalty has at most 4 decimals.",
    )
    assert any(words in page for words in said)
    assert not Penalty.objects.exists()


def test_the_page_says_what_a_penalty_moves_once_the_cut_is_made_or_the_event_finished() -> None:
    # A trial penalised a qualifier after the cut: the stage's standings moved him below the
    # line while the cut kept him through, with no word; another, after the finish, reordered
    # the prizes in silence; and read "the whole event" as counting in the final's ranking.
    from tournaments.models import EventStatus, Stage, StageEntry

    event, round_, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-after")
    chief = _client(event, "pen-after-chief", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    page = chief.get(url).content.decode()
    assert "only in the standings of the whole event" in page
    assert 'id="penalty-cut-made"' not in page and 'id="penalty-finished"' not in page
    qualifying = Stage.objects.create(event=event, number=1, name="Qualifying", cut=1)
    Stage.objects.create(event=event, number=2, name="Final")
    round_.stage = qualifying
    round_.save()
    player = tables[0].seats.first().player
    StageEntry.objects.create(
        stage=Stage.objects.get(number=2, event=event), player=player, position=1
    )
    page = chief.get(url).content.decode()
    assert 'id="penalty-cut-made"' in page and "Qualifying" in page
    given = chief.post(
        url,
        {"player": player.pk, "points": "2", "stage": qualifying.pk, "reason": "late"},
        follow=True,
    ).content.decode()
    assert "The cut of Qualifying is made" in given and "bound method" not in given
    type(event).objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    page = chief.get(url).content.decode()
    assert 'id="penalty-finished"' in page


def test_a_penalty_form_sent_twice_gives_one_penalty() -> None:
    # A trial's double click (or back and send again) gave Bo two penalties of 7: -14.
    import re

    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-double")
    chief = _client(event, "pen-double-chief", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    page = chief.get(url).content.decode()
    key = re.search(r'name="form_key" value="([^"]+)"', page)
    assert key, "the form carries its key"
    player = tables[0].seats.first().player
    form = {"player": player.pk, "points": "7", "reason": "double", "form_key": key.group(1)}
    first = chief.post(url, form, follow=True).content.decode()
    again = chief.post(url, form, follow=True).content.decode()
    assert f"{player.name} is penalised 7." in first
    assert "This penalty was given already: the form was sent twice." in again
    assert Penalty.objects.filter(event=event).count() == 1
    # A new form (a new key) gives a second penalty on purpose.
    fresh = re.search(r'name="form_key" value="([^"]+)"', chief.get(url).content.decode())
    assert fresh and fresh.group(1) != key.group(1)
    chief.post(url, {**form, "form_key": fresh.group(1)})
    assert Penalty.objects.filter(event=event).count() == 2
