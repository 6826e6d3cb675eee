"""A round closes only when every game of it is settled, and a game counts
in the standings exactly when it may be confirmed (one rule, games.counting.counts).

Settled: the table's current game of the board is verified, or accepted by a chief referee's
ruling (confirmed or not), or every seat of the table has an adjusted score for the board.
Pending, illegal, incomplete, flagged (an unruled mismatch or claim) and rejected games keep
the round open, and so does a game that is not entered; the refusal names each table and
board with the reason, in the referee's language.
"""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation

from ddz_site.kernel.errors import DomainError
from games.counting import counted_q, counts
from games.models import Board, Game, Resolution, Status
from tests.factories import bot_record, duplicate_round
from tournaments.events import round_states
from tournaments.models import (
    AuditEntry,
    EventRole,
    Role,
    Round,
    RoundState,
    Table,
    TableAssignment,
)
from tournaments.standings.rulings import adjustment_set
from tournaments.tables.review import StateConflict, game_confirm, may_confirm
from tournaments.tables.selectors import entry_state
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

SCORE = {"S": 2, "E": -1, "W": -1}


def _user(event, name, role):
    user = get_user_model().objects.create_user(f"{name}-{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=user, role=role)
    return user


def _game(table, board, status, resolution="", **extra):
    return Game.objects.create(
        table=table,
        board=board,
        record={},
        status=status,
        resolution=resolution,
        score=SCORE if status in (Status.VERIFIED, Status.MISMATCH) else None,
        **extra,
    )


@pytest.fixture
def unsettled_round():
    """Four tables, three boards. Settled: T1B1 verified, T3B2 an accepted mismatch, T2B3 an
    illegal game replaced by adjusted scores at every seat, T4B3 verified and confirmed. The
    eight others are not settled."""
    event, round_, tables, boards = duplicate_round(tables=4, boards=3, seed="settled")
    td = _user(event, "td", Role.ORGANIZER)
    t1, t2, t3, t4 = tables
    b1, b2, b3 = boards
    _game(t1, b1, Status.VERIFIED)
    _game(t2, b1, Status.PENDING)
    _game(t3, b1, Status.ILLEGAL)
    _game(t4, b1, Status.MISMATCH)
    _game(t1, b2, Status.VERIFIED, Resolution.REJECT)
    _game(t2, b2, Status.FLAGGED)
    _game(t3, b2, Status.MISMATCH, Resolution.ACCEPT)
    # T4B2: nothing entered.
    # T1B3: accepted as a mismatch, then found illegal when verified again.
    _game(t1, b3, Status.ILLEGAL, Resolution.ACCEPT)
    _game(t2, b3, Status.ILLEGAL)
    for seat in "SEW":
        adjustment_set(table=t2, board=b3, seat=seat, kind="avg", actor=td)
    # T3B3: nothing entered, an adjusted score for one seat only.
    adjustment_set(table=t3, board=b3, seat="S", kind="avg+", actor=td)
    _game(t4, b3, Status.VERIFIED, confirmed_at=timezone.now())
    return event, round_, tables, boards, td


UNSETTLED = [
    "table 1 board 2 (ruled to be entered again)",
    "table 1 board 3 (illegal or incomplete)",
    "table 2 board 1 (not verified yet)",
    "table 2 board 2 (flagged, waiting for a chief referee's ruling)",
    "table 3 board 1 (illegal or incomplete)",
    "table 3 board 3 (adjusted scores for some seats only)",
    "table 4 board 1 (flagged, waiting for a chief referee's ruling)",
    "table 4 board 2 (not entered)",
]


def test_a_round_with_unsettled_games_stays_open_and_the_refusal_names_them(
    client, unsettled_round
) -> None:
    event, round_, tables, boards, td = unsettled_round
    with pytest.raises(DomainError) as refused:
        round_states.round_close(round_=round_, actor=td)
    message = refused.value.message
    assert "Round 1 cannot be closed: 8 games are not settled" in message
    for named in UNSETTLED:
        assert named in message
    for settled in ("table 1 board 1", "table 3 board 2", "table 2 board 3", "table 4 board 3"):
        assert settled not in message
    assert Round.objects.get(pk=round_.pk).state == RoundState.IN_PLAY
    assert not AuditEntry.objects.filter(action="round.close").exists()

    # The referee reads it in his language.
    with translation.override("zh-hans"), pytest.raises(DomainError) as refused_zh:
        round_states.round_close(round_=round_, actor=td)
    zh = refused_zh.value.message
    assert "第 1 轮无法结束" in zh and "第 2 桌第 1 副（尚未校验）" in zh
    assert "第 4 桌第 2 副（未录入）" in zh and "not settled" not in zh

    # The dashboard says the same before the button.
    client.force_login(td)
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert 'id="missing-1"' in dash
    for named in UNSETTLED:
        assert named.replace("'", "&#x27;") in dash


def test_the_round_closes_once_each_game_is_settled(unsettled_round) -> None:
    event, round_, tables, boards, td = unsettled_round
    t1, t2, t3, t4 = tables
    b1, b2, b3 = boards
    # Settle them one by one; the round stays open until the last.
    steps = [
        lambda: Game.objects.filter(table=t2, board=b1).update(status=Status.VERIFIED, score=SCORE),
        lambda: Game.objects.filter(table=t4, board=b1).update(resolution=Resolution.ACCEPT),
        lambda: Game.objects.filter(table=t2, board=b2).update(resolution=Resolution.ACCEPT),
    ]
    for table, board in ((t3, b1), (t1, b2), (t4, b2), (t1, b3), (t3, b3)):
        steps.append(
            lambda table=table, board=board: [
                adjustment_set(table=table, board=board, seat=s, kind="avg", actor=td)
                for s in "SEW"
            ]
        )
    for i, step in enumerate(steps):
        with pytest.raises(DomainError, match=f"{len(steps) - i} games? (is|are) not settled"):
            round_states.round_close(round_=round_, actor=td)
        step()
    round_states.round_close(round_=round_, actor=td)
    assert Round.objects.get(pk=round_.pk).state == RoundState.CLOSED


def test_counts_and_may_confirm_are_one_rule() -> None:
    """For every status and ruling, a current unconfirmed game may be confirmed exactly when it
    counts, and the SQL filter of the standings agrees with the Python rule."""
    event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="one-rule")
    table, board = tables[0], boards[0]
    for status, resolution in itertools.product(Status.values, ["", *Resolution.values]):
        Game.objects.all().delete()
        game = _game(table, board, status, resolution)
        assert may_confirm(game) == counts(game), (status, resolution)
        assert Game.objects.filter(counted_q(), pk=game.pk).exists() == counts(game)
        assert counts(game) == (
            (status == Status.VERIFIED and resolution != Resolution.REJECT)
            or (status in (Status.MISMATCH, Status.FLAGGED) and resolution == Resolution.ACCEPT)
        ), (status, resolution)


def test_an_accepted_game_found_illegal_again_is_neither_counted_nor_confirmed() -> None:
    event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="found-illegal")
    table, board = tables[0], boards[0]
    referee = _user(event, "ref", Role.REFEREE)
    TableAssignment.objects.create(table=table, user=referee)
    game = _game(table, board, Status.ILLEGAL, Resolution.ACCEPT)
    assert not counts(game) and not may_confirm(game)
    assert entry_state(game, drafting=False) == "flagged"  # the status board says so too
    with pytest.raises(StateConflict):
        game_confirm(game_id=game.pk, actor=referee)
    assert Game.objects.get(pk=game.pk).confirmed_at is None


def test_a_round_closes_only_when_every_table_finished_every_board(client, event_in_play) -> None:
    event, round_, users = event_in_play
    td = users["td"]
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    boards = list(Board.objects.filter(round=round_).order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3] and [b.number for b in boards] == [1, 2, 3]
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    # 3 tables × 3 boards, one entered and not verified yet: the eight other pairs are missing.
    expected = [(t, b, "missing") for t in (1, 2, 3) for b in (1, 2, 3) if (t, b) != (1, 1)]
    assert round_states.round_unsettled(round_=round_) == [(1, 1, "pending"), *expected]
    game_verify(game_id=game.pk)
    assert round_states.round_unsettled(round_=round_) == expected
    with pytest.raises(DomainError) as refused:
        round_states.round_close(round_=round_, actor=td)
    message = refused.value.message
    assert "8 games are not settled" in message
    assert "table 1 board 2 (not entered)" in message
    assert "table 3 board 3 (not entered)" in message
    assert "table 1 board 1 " not in message
    assert Round.objects.get(pk=round_.pk).state == RoundState.IN_PLAY
    assert not AuditEntry.objects.filter(action="round.close").exists()

    # The dashboard lists them before the button; the button's refusal says the same.
    client.force_login(td)
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert 'id="missing-1"' in dash and "table 2 board 3" in dash
    assert dash.index('id="missing-1"') < dash.index('data-action="close"')
    response = client.post(
        reverse("organizer:round_action", args=[event.slug, 1, "close"]), follow=True
    )
    assert "cannot be closed" in response.content.decode()
    assert Round.objects.get(pk=round_.pk).state == RoundState.IN_PLAY

    # Every pair but table 2 board 3 played; that one could not be: adjusted scores.
    for t in tables:
        for b in boards:
            if (t.number, b.number) not in ((1, 1), (2, 3)):
                entered = game_submit(table=t, board=b, record=bot_record(b, t))
                game_verify(game_id=entered.pk)
    assert round_states.round_unsettled(round_=round_) == [(2, 3, "missing")]
    for seat in ("S", "E", "W"):
        adjustment_set(table=tables[1], board=boards[2], seat=seat, kind="avg", actor=td)
    assert round_states.round_unsettled(round_=round_) == []
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert 'id="missing-1"' not in dash
    response = client.post(
        reverse("organizer:round_action", args=[event.slug, 1, "close"]), follow=True
    )
    assert "Round 1 closed" in response.content.decode()
    assert Round.objects.get(pk=round_.pk).state == RoundState.CLOSED
