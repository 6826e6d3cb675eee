"""Standings that read again only the boards that changed (issue 11, item 1) give the rows of a
recomputation from nothing, whatever changed in between: a score, a game no longer counted, a
new game, a replacement, an adjusted score, a substitution, a seat. On real PostgreSQL (the
boards' versions are its row versions)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import timezone

from games.models import Game, Status
from tests.factories import duplicate_round
from tournaments import standings
from tournaments.models import Adjustment, Entry, Player, Seat, Substitution

pytestmark = pytest.mark.django_db

SCORES = [{"S": 4, "E": -2, "W": -2}, {"S": -4, "E": 2, "W": 2}, {"S": 2, "E": -1, "W": -1}]


def _forget() -> None:
    standings.kept_forget()


def _from_nothing(event) -> dict:
    _forget()
    return standings.computed_rows(event=event)


@pytest.fixture
def played():
    event, round_, tables, boards = duplicate_round(tables=4, boards=3, seed="kept")
    games = {}
    for b in boards:
        for i, t in enumerate(tables):
            games[(t.number, b.number)] = Game.objects.create(
                table=t,
                board=b,
                record={},
                status=Status.VERIFIED,
                score=SCORES[(i + b.number) % 3],
            )
    return event, round_, tables, boards, games


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many boards each event_results found kept (spied)."""
    counts: list[int] = []
    kept = standings._kept_results

    def spy(*args, **kwargs):
        found = kept(*args, **kwargs)
        counts.append(len(found))
        return found

    monkeypatch.setattr(standings, "_kept_results", spy)
    return counts


def test_a_new_score_on_one_board_reads_that_board_again_only(played, monkeypatch) -> None:
    event, _round, tables, boards, games = played
    _forget()
    standings.computed_rows(event=event)  # every board read and kept
    counts = _reads(monkeypatch)
    Game.objects.filter(pk=games[(1, 1)].pk).update(score={"S": -8, "E": 4, "W": 4})
    rows = standings.computed_rows(event=event)
    assert counts == [len(boards) - 1]  # the two other boards kept
    assert rows == _from_nothing(event)
    # and the new score counts: the first table's S player of board 1 is now last of it
    assert rows != {}


CHANGES: dict[str, Callable] = {}


def change(fn):
    CHANGES[fn.__name__] = fn
    return fn


@change
def score(event, tables, boards, games):
    Game.objects.filter(pk=games[(2, 2)].pk).update(score={"S": -10, "E": 5, "W": 5})


@change
def flagged(event, tables, boards, games):
    Game.objects.filter(pk=games[(3, 1)].pk).update(status=Status.FLAGGED)


@change
def deleted(event, tables, boards, games):
    Game.objects.filter(pk=games[(4, 3)].pk).delete()


@change
def replaced(event, tables, boards, games):
    old = games[(1, 2)]
    Game.objects.filter(pk=old.pk).update(replaced_at=timezone.now())
    Game.objects.create(
        table=old.table,
        board=old.board,
        record={},
        status=Status.VERIFIED,
        version=2,
        score={"S": -2, "E": 1, "W": 1},
    )


@change
def adjusted(event, tables, boards, games):
    Adjustment.objects.create(table=tables[1], board=boards[0], seat="E", kind="avg+")


@change
def substituted(event, tables, boards, games):
    zoe = Player.objects.create(name="Zoe Kept")
    Entry.objects.create(event=event, player=zoe)
    seated = Seat.objects.get(table=tables[0], seat="W")
    Substitution.objects.create(
        round=tables[0].round,
        table=tables[0],
        seat="W",
        player=seated.player,
        substitute=zoe,
        first_board=boards[1].number,
        last_board=boards[2].number,
    )


@change
def reseated(event, tables, boards, games):
    a = Seat.objects.get(table=tables[0], seat="S")
    b = Seat.objects.get(table=tables[1], seat="S")
    pa, pb = a.player, b.player
    Seat.objects.filter(pk=a.pk).update(player=pb)
    Seat.objects.filter(pk=b.pk).update(player=pa)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_whatever_changed_the_rows_are_a_recomputation_from_nothing(played, name) -> None:
    event, _round, tables, boards, games = played
    _forget()
    before = standings.computed_rows(event=event)  # kept
    CHANGES[name](event, tables, boards, games)
    after = standings.computed_rows(event=event)
    assert after == _from_nothing(event)
    assert after != before  # the change moved the standings


def test_every_change_in_turn(played) -> None:
    event, _round, tables, boards, games = played
    _forget()
    standings.computed_rows(event=event)
    for name in sorted(CHANGES):
        CHANGES[name](event, tables, boards, games)
        kept = standings.computed_rows(event=event)
        assert kept == _from_nothing(event), name


def test_a_process_keeps_at_most_its_bound_and_still_computes_right(played, monkeypatch) -> None:
    event, _round, tables, boards, games = played
    _forget()
    monkeypatch.setattr(standings, "RESULTS_KEPT", 20)  # fewer than two boards of 12 seat results
    first = standings.computed_rows(event=event)
    assert standings._KEPT["results"] <= 20
    assert len(standings._BOARD_RESULTS) <= 1
    Game.objects.filter(pk=games[(1, 3)].pk).update(score={"S": -6, "E": 3, "W": 3})
    assert standings.computed_rows(event=event) == _from_nothing(event) != first


@pytest.mark.parametrize("tamper", ["delete", "update", "delete all"])
def test_stored_rows_kept_by_the_recompute_are_read_again_once_someone_else_wrote_them(
    played, monkeypatch, tamper: str
) -> None:
    """A recompute compares with the rows it stored last (kept per process) instead of reading
    them all again, only while no one else wrote them: a row deleted (the admin may) or changed
    behind its back is put right by the next recompute, as by one from nothing."""
    event, _round, _tables, _boards, _games = played
    _forget()
    standings.standings_recompute(event_id=event.pk)
    reads: list[int] = []
    stored_rows = standings.stored_rows
    monkeypatch.setattr(standings, "stored_rows", lambda **kw: reads.append(1) or stored_rows(**kw))
    standings.standings_recompute(event_id=event.pk)  # nothing changed: the kept rows
    assert reads == []
    rows = event.standings.filter(stage__isnull=True).order_by("position")
    first = rows.first()
    if tamper == "delete":
        first.delete()
    elif tamper == "update":
        rows.filter(pk=first.pk).update(total="999")
    else:
        event.standings.all().delete()
    assert standings.standings_recompute(event_id=event.pk) is True
    assert reads == [1]
    assert standings.stored_rows(event=event) == _from_nothing(event)
