"""A large scope's standings are published first, in one row (PublishedStandings), and its
Standing rows written behind in a second transaction (tournaments.standings.store): the live
pages read the published row at once; the rows follow; a worker lost between the two leaves
the generation wanted and the next recomputation writes the rows; an older generation never
publishes over a newer one, and rows behind are never written over a publication made since.
The test settings publish every scope (DDZ_STANDINGS_PUBLISH_FROM = 0). On real PostgreSQL."""

from __future__ import annotations

import zlib
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from games.models import Game
from tests.tournaments.standings.test_standings_follow_the_change_log import (
    _from_nothing,
    _stored,
)
from tournaments.events.selectors import event_standings, player_standing
from tournaments.models import Event, Player, PublishedStandings, StandingsState
from tournaments.results.prizes import overall_rows
from tournaments.standings import cache, store
from tournaments.standings.requests import (
    standings_overdue,
    standings_refresh,
    standings_request,
)

pytestmark = pytest.mark.django_db

FIELDS = PublishedStandings.FIELDS


def _published(event) -> dict:
    return {p.stage_id: p.rows() for p in PublishedStandings.objects.filter(event=event)}


def _live(event) -> list[dict]:
    """The whole event's standings as the live pages read them (the event read afresh, as
    each page does)."""
    fresh = Event.objects.get(pk=event.pk)
    return [{name: getattr(row, name) for name in FIELDS} for row in event_standings(event=fresh)]


def _change(event, table, board, score) -> None:
    """A new score for the game of `board` at `table`, requested as a verification names it."""
    with transaction.atomic():
        Game.objects.filter(table=table, board=board).update(score=score)
        standings_request(event_id=event.pk, games=[(board.pk, table.pk)])


def _state(event) -> StandingsState:
    return StandingsState.objects.get(pk=event.pk)


def test_the_published_rows_are_the_stored_rows_once_both_are_written(played) -> None:
    event, _round, tables, boards = played
    _change(event, tables[1], boards[0], {"S": -10, "E": 5, "W": 5})
    standings_refresh(event_id=event.pk)
    expected = _from_nothing(event)
    assert _published(event) == expected
    assert _stored(event) == expected
    assert _live(event) == expected[None]
    state = _state(event)
    assert state.done == state.published == state.requested


def test_a_worker_lost_after_publishing_leaves_the_rows_wanted_and_the_pages_new(
    played, client, monkeypatch
) -> None:
    event, _round, tables, boards = played
    before = _stored(event)
    _change(event, tables[2], boards[1], {"S": 16, "E": -8, "W": -8})

    def lost(*args, **kwargs):
        raise RuntimeError("the worker died between the publication and its rows")

    monkeypatch.setattr(store, "_store_behind", lost)
    with pytest.raises(RuntimeError):
        standings_refresh(event_id=event.pk)
    cache.kept_forget()
    expected = _from_nothing(event)
    assert expected != before  # the change moved the standings
    # Published and read by the live pages; the Standing rows are still the old ones.
    assert _published(event) == expected
    assert _live(event) == expected[None]
    assert _stored(event) == before
    page = client.get(reverse("public:standings_live", kwargs={"slug": event.slug}))
    names = [row.player.shown_name for row in event_standings(event=Event.objects.get(pk=event.pk))]
    text = page.content.decode()
    assert [text.index(name) for name in names] == sorted(text.index(name) for name in names)
    # A player's own pages and the final results follow the published rows too.
    fresh = Event.objects.get(pk=event.pk)
    for row in expected[None]:
        mine = player_standing(event=fresh, player=Player.objects.get(pk=row["player_id"]))
        assert {name: getattr(mine, name) for name in FIELDS} == row
    assert [r.player_id for r, _part in overall_rows(fresh)] == [
        row["player_id"] for row in expected[None]
    ]
    # The generation is still wanted: the sweep sends it again once overdue.
    state = _state(event)
    assert state.published == state.requested > state.done
    assert event.pk in standings_overdue(now=timezone.now() + timedelta(hours=1))
    # A new worker (nothing kept) writes the rows behind.
    monkeypatch.undo()
    cache.kept_forget()
    with transaction.atomic():
        StandingsState.objects.filter(pk=event.pk).update(queued=True)
    standings_refresh(event_id=event.pk)
    assert _stored(event) == _published(event) == _from_nothing(event)
    state = _state(event)
    assert state.done == state.requested


def test_an_older_generation_never_publishes_over_a_newer_one(played) -> None:
    event, _round, tables, boards = played
    _change(event, tables[0], boards[2], {"S": -4, "E": 2, "W": 2})
    wanted = _state(event).requested
    published = {p.pk: (p.generation, p.stored_at) for p in PublishedStandings.objects.all()}
    # A newer generation is published, its rows being written behind by another worker.
    StandingsState.objects.filter(pk=event.pk).update(published=wanted + 1)
    stored = store.standings_store_generation(event_id=event.pk, generation=wanted)
    assert stored == store.Stored(False, False)
    assert {
        p.pk: (p.generation, p.stored_at) for p in PublishedStandings.objects.all()
    } == published
    assert _state(event).done < wanted


def test_rows_behind_are_not_written_over_a_publication_made_since(played, monkeypatch) -> None:
    event, _round, tables, boards = played
    _change(event, tables[3], boards[0], {"S": 8, "E": -4, "W": -4})
    behind = store._store_behind
    skipped: list[bool] = []

    def overtaken(event_id, generation, *args, **kwargs):
        # Between the two transactions another change is stored whole (as the cut stores
        # the rows it needs at once).
        _change(event, tables[0], boards[1], {"S": -16, "E": 8, "W": 8})
        store.standings_recompute(event_id=event_id)
        released = behind(event_id, generation, *args, **kwargs)
        skipped.append(_state(event).done >= generation)
        return released

    monkeypatch.setattr(store, "_store_behind", overtaken)
    standings_refresh(event_id=event.pk)
    assert skipped == [True]
    cache.kept_forget()
    expected = _from_nothing(event)
    assert _stored(event) == _published(event) == expected
    assert _live(event) == expected[None]


def test_a_scope_below_the_threshold_is_stored_in_one_transaction(played) -> None:
    event, _round, tables, boards = played
    assert PublishedStandings.objects.filter(event=event).exists()
    with override_settings(DDZ_STANDINGS_PUBLISH_FROM=1000):
        _change(event, tables[1], boards[2], {"S": 24, "E": -12, "W": -12})
        standings_refresh(event_id=event.pk)
        # Its published row is gone with the change; the pages read the rows.
        assert not PublishedStandings.objects.filter(event=event).exists()
        assert not Event.objects.get(pk=event.pk).standings_published
        assert _stored(event) == _from_nothing(event)
        live = event_standings(event=event)
        assert all(row.pk is not None for row in live)
        assert _live(event) == _from_nothing(event)[None]
        state = _state(event)
        assert state.done == state.requested


_ROWS = st.lists(
    st.fixed_dictionaries(
        {
            "player_id": st.integers(1, 2**40),
            "method": st.sampled_from(["matchpoints", "datum"]),
            "position": st.integers(1, 10**6),
            "rank": st.text(max_size=12),
            "total": st.text(max_size=64),
            "top": st.text(max_size=64),
            "percentage": st.text(max_size=64),
            "boards": st.integers(0, 10**4),
            "penalty": st.text(max_size=64),
            "decided_by": st.text(max_size=20),
        }
    ),
    max_size=40,
)


@hyp_settings(max_examples=60, deadline=None)
@given(rows=_ROWS)
def test_the_columns_give_back_the_rows_they_were_made_of(rows) -> None:
    published = PublishedStandings(
        event_id=1, generation=1, count=len(rows), columns=PublishedStandings.encoded(rows)
    )
    assert published.rows() == rows


@pytest.mark.parametrize(
    "columns", [b"not zlib", zlib.compress(b"[1, 2]"), zlib.compress(b"\xff\xfe")]
)
def test_unreadable_columns_are_told_as_such(columns) -> None:
    published = PublishedStandings(event_id=7, generation=3, count=2, columns=columns)
    with pytest.raises(ValueError, match="published standings 7/-@3"):
        published.rows()


def test_unreadable_published_rows_leave_the_pages_on_the_stored_rows(played, caplog) -> None:
    event, _round, _tables, _boards = played
    PublishedStandings.objects.filter(event=event).update(columns=b"not zlib")
    assert _live(event) == _stored(event)[None] == _from_nothing(event)[None]
    assert "unreadable" in caplog.text
