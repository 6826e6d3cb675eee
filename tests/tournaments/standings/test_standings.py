"""Standings per event and per stage (tournaments.standings): the worked example of DESIGN.md
through the database, penalties, adjustments, tie-breaks, stages with carry-over, the stored
rows always equal to a full recompute, and the Celery worker keeping them so."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from games.models import Board, Game, Status
from tests.conftest import Worker, wait_for
from tests.factories import EventFactory, PlayerFactory, bot_record, duplicate_round
from tournaments.events.setup import round_seat
from tournaments.models import Stage, Standing
from tournaments.standings.cache import stored_rows
from tournaments.standings.penalties import penalty_add
from tournaments.standings.results import computed_rows
from tournaments.standings.rulings import RulingRejected, adjustment_set
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit

# DESIGN.md's board at four tables: S (hand A) +12, -4, -4, +15; E (hand B) -6, +2, +8, -3;
# W makes each table zero-sum: -6, +2, -4, -12.
SCORES = [
    {"S": 12, "E": -6, "W": -6},
    {"S": -4, "E": 2, "W": 2},
    {"S": -4, "E": 8, "W": -4},
    {"S": 15, "E": -3, "W": -12},
]
# Matchpoints, by hand: S 4 1 1 6; E 0 4 6 2; W 2 6 4 0 (top 6).
MP = [{"S": 4, "E": 0, "W": 2}, {"S": 1, "E": 4, "W": 6}, {"S": 1, "E": 6, "W": 4},
      {"S": 6, "E": 2, "W": 0}]  # fmt: skip


def _event(scoring_method="matchpoints", tables=4, rounds=1, stages=(), **settings):
    event = EventFactory(scoring_method=scoring_method, **settings)
    made = []
    for number in range(1, rounds + 1):
        players = [PlayerFactory(name=f"r{number}t{t}{s}") for t in range(tables) for s in "SEW"]
        round_ = round_seat(
            event=event,
            number=number,
            tables=[players[3 * t : 3 * t + 3] for t in range(tables)],
        )
        if stages:
            round_.stage = stages[number - 1]
            round_.save(update_fields=["stage"])
        made.append(round_)
    return event, made


def _board(event, round_, number):
    return Board.objects.create(
        event=event, round=round_, number=number, hands={}, bottom="", deal_key=f"k{number}"
    )


def _play(board, scores):
    for table, score in zip(board.round.tables.order_by("number"), scores, strict=False):
        if score is not None:
            Game.objects.create(
                table=table, board=board, record={}, status=Status.VERIFIED, score=score
            )


def _by_name(event, stage=None):
    return {
        r.player.name: r
        for r in Standing.objects.filter(event=event, stage=stage).select_related("player")
    }


@pytest.mark.django_db
def test_the_worked_example_through_the_database() -> None:
    event, (round_,) = _event()
    _play(_board(event, round_, 1), SCORES)
    assert standings_recompute(event_id=event.pk) is True
    rows = _by_name(event)
    for t, mp in enumerate(MP):
        for seat, value in mp.items():
            row = rows[f"r1t{t}{seat}"]
            assert (F(row.total), F(row.top)) == (value, 6)
            assert F(row.percentage) == F(100 * value, 6)
    # Competition ranking: three 6s share 1=, three 4s 4=, two 2s 7=, two 1s 9=, two 0s 11=.
    ranks = sorted((r.position, r.rank) for r in rows.values())
    assert [rank for _p, rank in ranks] == ["1="] * 3 + ["4="] * 3 + ["7="] * 2 + ["9="] * 2 + [
        "11="
    ] * 2
    assert standings_recompute(event_id=event.pk) is False  # idempotent


@pytest.mark.django_db
def test_penalty_kept_apart_and_lot_tiebreak() -> None:
    # The tie-breaks and the lot are set before play: they are frozen once a round starts.
    event, (round_,) = _event(tiebreaks=["lot"], lot_seed="published-seed")
    _play(_board(event, round_, 1), SCORES)
    from tournaments.models import Player

    penalised = Player.objects.get(name="r1t3S")
    penalty_add(event=event, player=penalised, points="1", reason="slow play")
    standings_recompute(event_id=event.pk)
    rows = _by_name(event)
    # 6 - 1 = 5 of 6: 250/3 %, below the two unpenalised 6s; his board total stays 6.
    row = rows["r1t3S"]
    assert (row.total, row.penalty, F(row.percentage), row.rank) == ("6", "1", F(250, 3), "3")
    first = sorted(rows.values(), key=lambda r: r.position)[:2]
    assert [r.rank for r in first] == ["1", "2"] and {r.decided_by for r in first} == {"lot"}
    for bad in ("0", "-2", "abc", "1.00001"):
        with pytest.raises(RulingRejected):
            penalty_add(event=event, player=penalised, points=bad, reason="x")
    with pytest.raises(RulingRejected):
        penalty_add(event=event, player=penalised, points="2", reason="  ")
    assert event.penalties.count() == 1


@pytest.mark.django_db
def test_neuberg_and_adjusted_seats_in_the_stored_standings() -> None:
    event, (round_,) = _event()
    board = _board(event, round_, 1)
    # Table 4 could not play the board: S gets average-plus, E average, W average-minus.
    _play(board, SCORES[:3])
    assert standings_recompute(event_id=event.pk) is False  # board still under embargo
    table4 = round_.tables.get(number=4)
    with pytest.raises(RulingRejected):
        adjustment_set(table=table4, board=board, seat="S", kind="avg++")
    for seat, kind in (("S", "avg+"), ("E", "avg"), ("W", "avg-")):
        adjustment_set(table=table4, board=board, seat=seat, kind=kind)
    standings_recompute(event_id=event.pk)
    rows = _by_name(event)
    # S at three tables: 12, -4, -4 -> raw 4, 1, 1; Neuberg to 4 tables: (MP+1)*4/3 - 1.
    assert F(rows["r1t0S"].total) == F(17, 3) and F(rows["r1t1S"].total) == F(5, 3)
    # Adjusted: 60 / 50 / 40 % of the top 6.
    assert [F(rows[f"r1t3{s}"].total) for s in "SEW"] == [F(18, 5), F(3), F(12, 5)]


@pytest.mark.django_db
def test_stages_and_carry_over_equal_a_full_recompute() -> None:
    event = EventFactory(scoring_method="datum")
    first = Stage.objects.create(event=event, number=1, name="Qualifying")
    second = Stage.objects.create(event=event, number=2, name="Second", carry_over=True)
    players = [PlayerFactory(name=f"p{i}") for i in range(6)]
    r1 = round_seat(event=event, number=1, tables=[players[:3], players[3:]])
    r2 = round_seat(event=event, number=2, tables=[players[:3], players[3:]])
    r1.stage, r2.stage = first, second
    r1.save(), r2.save()
    b1, b2 = _board(event, r1, 1), _board(event, r2, 2)
    _play(b1, [{"S": 6, "E": -3, "W": -3}, {"S": -2, "E": 1, "W": 1}])
    _play(b2, [{"S": -4, "E": 2, "W": 2}, {"S": 8, "E": -4, "W": -4}])
    standings_recompute(event_id=event.pk)
    stage1 = _by_name(event, first)
    stage2 = _by_name(event, second)
    whole = _by_name(event)
    # Datum of S on board 1 is 2: p0 +4, p3 -4; on board 2 it is 2: p0 -6, p3 +6.
    assert (stage1["p0"].total, stage1["p3"].total) == ("4", "-4")
    # Stage 2 carries stage 1 over: p0 4 - 6 = -2, p3 -4 + 6 = 2; the event counts both too.
    assert (stage2["p0"].total, stage2["p3"].total) == ("-2", "2")
    assert {n: r.total for n, r in whole.items()} == {n: r.total for n, r in stage2.items()}
    second.carry_over = False
    second.save()
    standings_recompute(event_id=event.pk)
    assert _by_name(event, second)["p0"].total == "-6"
    assert stored_rows(event=event) == computed_rows(event=event)
    # A full recompute from nothing stores the same rows.
    before = stored_rows(event=event)
    Standing.objects.filter(event=event).delete()
    assert standings_recompute(event_id=event.pk) is True
    assert stored_rows(event=event) == before


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_worker_keeps_the_stored_standings_equal_to_a_full_recompute(
    celery_worker: Worker,
) -> None:
    event, _round, tables, boards = duplicate_round(tables=3, boards=2, seed="standings")
    games = [game_submit(table=t, board=b, record=bot_record(b, t)) for b in boards for t in tables]

    def settled():
        done = Game.objects.filter(pk__in=[g.pk for g in games], status=Status.VERIFIED).count()
        return done == len(games) and stored_rows(event=event) == computed_rows(event=event)

    wait_for(settled, timeout=90, what="verification and standings")
    assert all(r.boards == 2 for r in Standing.objects.filter(event=event))
    # A correction: table 2's board 1 entered again (another record of the same deal).
    corrected = game_submit(
        table=tables[1],
        board=boards[0],
        record=bot_record(boards[0], tables[1], seed="corrected"),
        replaces=1,
    )
    wait_for(
        lambda: (
            Game.objects.get(pk=corrected.pk).status == Status.VERIFIED
            and stored_rows(event=event) == computed_rows(event=event)
        ),
        timeout=90,
        what="standings after the correction",
    )
    stored = stored_rows(event=event)
    Standing.objects.filter(event=event).delete()
    standings_recompute(event_id=event.pk)
    assert stored_rows(event=event) == stored


@pytest.mark.django_db
def test_admin_rulings_go_through_the_services(admin_client) -> None:
    from django.urls import reverse

    from tournaments.models import Adjustment, AuditEntry, Penalty

    event, (round_,) = _event(tables=2)
    board = _board(event, round_, 1)
    table = round_.tables.get(number=2)
    url = reverse("admin:tournaments_adjustment_add")
    data = {"table": table.pk, "board": board.pk, "seat": "N", "kind": "avg", "reason": ""}
    response = admin_client.post(url, data)
    assert response.status_code == 200 and "has no seat N" in response.content.decode()
    assert not Adjustment.objects.exists()
    admin_client.post(url, dict(data, seat="E"))
    assert Adjustment.objects.get().kind == "avg"
    player = table.seats.get(seat="E").player
    url = reverse("admin:tournaments_penalty_add")
    admin_client.post(url, {"event": event.pk, "player": player.pk, "points": "2", "reason": "x"})
    assert Penalty.objects.get().points == 2
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {
        "adjustment.set",
        "penalty.add",
    }
    for model in ("adjustment", "penalty"):
        assert admin_client.get(reverse(f"admin:tournaments_{model}_changelist")).status_code == 200
