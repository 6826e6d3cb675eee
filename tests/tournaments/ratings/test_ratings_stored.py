"""The duplicate-aware rating stored per event (tournaments.ratings.service): the published
rounds of finished events only, groups by (board, seat) of raw scores, adjusted results left
out, a late correction to an old event recomputing what follows it, the history selector, the
API and the CSV."""

from __future__ import annotations

import csv
import io
import json
import random
from unittest.mock import patch

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from games.engine import RuleSet, deal_random
from games.models import Game
from tests.factories import EventFactory, PlayerFactory, event_finish, round_fill
from tournaments.core import rating_requests
from tournaments.events import round_states
from tournaments.events.boards import board_create
from tournaments.events.setup import round_seat
from tournaments.models import (
    EventRole,
    RatedEvent,
    RatingEntry,
    RatingState,
    Role,
    Round,
    RoundState,
)
from tournaments.ratings import model as rating
from tournaments.ratings import service as ratings
from tournaments.standings.rulings import adjustment_set
from tournaments.standings.store import standings_recompute
from tournaments.tables.verification import verification_sweep

pytestmark = pytest.mark.django_db


def _event(players, *, seed: str, boards: int = 2, publish: bool = True):
    """An event of one round: `players` (a multiple of three) seated in order, `boards`
    boards played by the bot at every table, closed and (with `publish`) published and the
    event finished (only a finished event is rated, tournaments.people.life)."""
    event = EventFactory()
    td = get_user_model().objects.create_user(f"td-{event.slug}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    round_ = round_seat(
        event=event,
        number=1,
        tables=[players[i : i + 3] for i in range(0, len(players), 3)],
    )
    rng = random.Random(seed)
    for b in range(boards):
        deal = deal_random(RuleSet.from_spec("classic"), rng, first_bidder="SEW"[b % 3])
        board_create(
            event=event,
            round=round_,
            hands=deal.hands,
            bottom=deal.bottom,
            first_bidder="SEW"[b % 3],
        )
    round_fill(round_, seed=seed)
    round_states.round_close(round_=round_, actor=td)
    if publish:
        round_states.round_publish(round_=round_, actor=td)
        event_finish(event, td)
    return event, round_, td


def _groups_by_hand(event) -> list[rating.Group[int]]:
    """The (board, seat) groups of an event read straight from its games and seats (the
    grouping and the tablemates: rating.duplicate_groups, tested in
    tests/tournaments/ratings/test_rating_model.py)."""
    results = []
    for game in Game.objects.filter(board__event=event, replaced_at__isnull=True):
        adjusted = {a.seat for a in game.table.adjustments.filter(board=game.board)}
        for seat in game.table.seats.all():
            results.append(
                rating.RatedSeat(
                    board=game.board.number,
                    table=game.table_id,
                    seat="SEW".index(seat.seat),
                    player=seat.player_id,
                    score=game.score[seat.seat],
                    adjusted=seat.seat in adjusted,
                )
            )
    return rating.duplicate_groups(results)


def _stored(event) -> dict[int, tuple[float, float, float]]:
    return {
        e.player_id: (e.mu, e.sigma, e.ordinal) for e in RatingEntry.objects.filter(event=event)
    }


def test_finishing_the_event_rates_its_boards_by_hand_held(
    django_capture_on_commit_callbacks,
) -> None:
    players = [PlayerFactory() for _ in range(9)]
    with django_capture_on_commit_callbacks() as callbacks:
        event, _round, _td = _event(players, seed="one")
    assert RatingState.objects.get().requested >= 1  # finishing asked for a rating
    assert callbacks
    assert ratings.ratings_recompute() == 9
    (expected,) = rating.rate_events([_groups_by_hand(event)])
    assert _stored(event) == {p: (r.mu, r.sigma, r.ordinal) for p, r in expected.items()}
    assert set(RatingEntry.objects.values_list("position", flat=True)) == {1}
    # Run again: nothing to write (idempotent, deterministic).
    assert ratings.ratings_recompute() == 0


def test_a_round_not_yet_published_is_not_rated() -> None:
    players = [PlayerFactory() for _ in range(6)]
    event, round_, _td = _event(players, seed="closed", publish=False)
    assert Round.objects.get(pk=round_.pk).state == RoundState.CLOSED
    assert ratings.ratings_recompute() == 0
    assert not RatingEntry.objects.exists()


def test_adjusted_results_are_left_out() -> None:
    players = [PlayerFactory() for _ in range(9)]
    event, round_, td = _event(players, seed="adjusted")
    table = round_.tables.get(number=1)
    for board in event.boards.all():
        adjustment_set(table=table, board=board, seat="S", kind="avg+", actor=td)
    ratings.ratings_recompute()
    stored = _stored(event)
    assert players[0].pk not in stored  # his only results were replaced by rulings
    (expected,) = rating.rate_events([_groups_by_hand(event)])
    assert stored == {p: (r.mu, r.sigma, r.ordinal) for p, r in expected.items()}


def test_a_late_correction_to_an_old_event_recomputes_the_events_after_it() -> None:
    players = [PlayerFactory() for _ in range(9)]
    old, old_round, td = _event(players, seed="old")
    new, _r, _td = _event(players[::-1], seed="new")
    ratings.ratings_recompute()
    before_old, before_new = _stored(old), _stored(new)
    assert dict(RatingEntry.objects.values_list("event_id", "position").distinct()) == {
        old.pk: 1,
        new.pk: 2,
    }
    # A ruling in the old event replaces one seat's result: its rating and every later one move.
    table = old_round.tables.get(number=2)
    adjustment_set(table=table, board=old.boards.get(number=1), seat="E", kind="avg", actor=td)
    assert ratings.ratings_recompute() == 0  # not asked yet
    standings_recompute(event_id=old.pk)  # what the ruling's task runs: it asks for the rating
    assert ratings.ratings_recompute() > 0
    assert _stored(old) != before_old and _stored(new) != before_new
    expected = rating.rate_events([_groups_by_hand(old), _groups_by_hand(new)])
    assert [_stored(old), _stored(new)] == [
        {p: (r.mu, r.sigma, r.ordinal) for p, r in after.items()} for after in expected
    ]
    assert ratings.ratings_recompute(full=True) == 0  # the same as from nothing
    out = io.StringIO()
    call_command("ddz_ratings", "--full", stdout=out)
    assert json.loads(out.getvalue()) == {"rows_written": 0, "events": 2}


def test_a_change_to_the_last_event_rates_it_alone_and_an_unrated_change_nothing() -> None:
    players = [PlayerFactory() for _ in range(9)]
    first, _r1, _td = _event(players, seed="a")
    second, _r2, _td = _event(players[::-1], seed="b")
    last, last_round, td = _event(players, seed="c")
    ratings.ratings_recompute()
    before = {e: _stored(e) for e in (first, second)}
    read = []
    real = ratings.event_groups

    def spy(event):
        read.append(event.pk)
        return real(event)

    adjustment_set(
        table=last_round.tables.get(number=3),
        board=last.boards.get(number=1),
        seat="S",
        kind="avg",
        actor=td,
    )
    standings_recompute(event_id=last.pk)
    with patch.object(ratings, "event_groups", spy):
        assert ratings.ratings_recompute() > 0
    assert read == [last.pk]  # the events before it were neither read nor rated again
    assert {e: _stored(e) for e in (first, second)} == before
    assert ratings.ratings_recompute(full=True) == 0

    # A request that moves nothing rated (the same input): the event is read, nothing written.
    rating_requests.ratings_request(second.pk)
    read.clear()
    with patch.object(ratings, "event_groups", spy):
        assert ratings.ratings_recompute() == 0
    assert read == [second.pk]
    state = RatedEvent.objects.get(pk=second.pk)
    assert state.done == state.requested and state.position == 2


def test_history_api_and_csv() -> None:
    players = [PlayerFactory() for _ in range(6)]
    players[1].name = "=HYPERLINK(1)"
    players[1].save()
    first, _r, _td = _event(players, seed="h1")
    second, _r, _td = _event(players, seed="h2")
    ratings.ratings_recompute()
    points = ratings.history(players[0])
    assert [p.event for p in points] == [first, second]
    last = RatingEntry.objects.get(player=players[0], event=second)
    assert (points[1].mu, points[1].sigma, points[1].ordinal) == (last.mu, last.sigma, last.ordinal)
    assert points[1].ordinal == pytest.approx(points[1].mu - 3 * points[1].sigma)

    from django.test import Client

    client = Client()
    listed = client.get(reverse("ratings:api_list")).json()
    assert len(listed) == 6 and [r["rank"] for r in listed] == list(range(1, 7))
    assert listed == sorted(listed, key=lambda r: -r["rating"])
    assert {r["events"] for r in listed} == {2} and {r["last_event"] for r in listed} == {
        second.slug
    }
    one = client.get(reverse("ratings:api_history", args=[players[0].pk])).json()
    assert [h["event"] for h in one["history"]] == [first.slug, second.slug]
    assert client.get(reverse("ratings:api_history", args=[10**9])).status_code == 404

    response = client.get(reverse("ratings:csv"))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [int(r["player_id"]) for r in rows] == [r["player_id"] for r in listed]
    assert float(rows[0]["rating"]) == pytest.approx(listed[0]["rating"], abs=1e-3)
    # A name a spreadsheet would run as a formula is written as text.
    assert {r["name"] for r in rows if int(r["player_id"]) == players[1].pk} == {"'=HYPERLINK(1)"}


def test_the_sweep_sends_the_rating_wanted_and_not_stored() -> None:
    players = [PlayerFactory() for _ in range(3)]
    event, _round, _td = _event(players, seed="sweep", boards=1)
    # Tasks are sent by name (ddz_site.kernel.dispatch).
    with patch("tournaments.core.rating_requests.enqueue", return_value=True) as sent:
        verification_sweep(older_than=0)
    assert [c.args[0] for c in sent.call_args_list].count(
        "tournaments.tasks.ratings_recompute"
    ) == 1
    ratings.ratings_refresh()
    with patch("tournaments.core.rating_requests.enqueue", return_value=True) as sent:
        verification_sweep(older_than=0)
    assert "tournaments.tasks.ratings_recompute" not in [c.args[0] for c in sent.call_args_list]
