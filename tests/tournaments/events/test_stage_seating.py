"""Seating a stage (tournaments.events.stages.stage_seat) on PostgreSQL: the search
runs outside the event's row lock, and the store refuses when the stage changed meanwhile;
clubs kept apart where a movement allows; the dashboard shows each round's repeats and club
clashes."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.core import access
from tournaments.events import rounds, stages
from tournaments.events.setup import round_seat
from tournaments.models import AuditEntry, Entry, Event, EventRole, Role, Round, RoundState, Table
from tournaments.seating import movements, schedule
from tournaments.seating import search as seating_search


def _organizer(event: Event, name: str = "td") -> Any:
    user = get_user_model().objects.create_user(name, password="pw")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return user


def _stage(players: int, draft_rounds: int, clubs: str = "") -> tuple[Event, Any, Any]:
    """An event of the classic preset (tables of S E W) with ``players`` entries, their clubs
    given in turn from ``clubs``, and one stage of ``draft_rounds`` draft rounds."""
    event = EventFactory()
    td = _organizer(event)
    for i in range(players):
        player = PlayerFactory(club=clubs[i % len(clubs)] if clubs else "")
        Entry.objects.create(event=event, player=player)
    stage = stages.stage_create(event=event, actor=td)
    for _ in range(draft_rounds):
        rounds.round_create(event=event, stage=stage, actor=td)
    return event, td, stage


def _elsewhere(action: Callable[[], Any]) -> Any:
    """Run ``action`` in another thread on its own database connection, which waits at most
    two seconds for a lock; its result, or the exception it raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
            outcome.append(action())
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            outcome.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    return outcome[0]


def _during_search(monkeypatch: pytest.MonkeyPatch, action: Callable[[], Any]) -> list[Any]:
    """Make the next movement search run ``action`` elsewhere halfway; its outcomes."""
    real = movements.movement
    outcomes: list[Any] = []
    calls = [0]

    def movement(*args: Any, **kwargs: Any) -> schedule.Schedule:
        calls[0] += 1
        if calls[0] == 1:  # not again in the action's own search, if it seats
            outcomes.append(_elsewhere(action))
        return real(*args, **kwargs)

    monkeypatch.setattr(movements, "movement", movement)
    return outcomes


def _tables_with_club_mates(event: Event) -> int:
    return sum(
        1
        for table in Table.objects.filter(round__event=event).prefetch_related("seats__player")
        if any(
            a.player.club and a.player.club == b.player.club
            for a, b in combinations(table.seats.all(), 2)
        )
    )


@pytest.mark.django_db
def test_twelve_players_of_five_clubs_are_seated_without_club_mates() -> None:
    event, td, stage = _stage(12, 4, clubs="ABCDE")
    report = stages.stage_seat(stage=stage, actor=td)
    assert report["repeat_pairs"] == 0 and report["club_conflicts"] == 0
    assert Table.objects.filter(round__event=event).count() == 4 * 4
    assert _tables_with_club_mates(event) == 0


@pytest.mark.django_db(transaction=True)
def test_the_search_runs_outside_the_event_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    event, td, stage = _stage(12, 4, clubs="ABCDE")

    def lock_event() -> str:
        with transaction.atomic():
            Event.objects.select_for_update(nowait=True).get(pk=event.pk)
        return "locked"

    outcomes = _during_search(monkeypatch, lock_event)
    stages.stage_seat(stage=stage, actor=td)
    # Another organizer's change waits for no search: the event row was free meanwhile.
    assert outcomes == ["locked"]
    assert set(Round.objects.values_list("state", flat=True)) == {RoundState.SEATED}


@pytest.mark.django_db(transaction=True)
def test_a_player_entered_during_the_search_is_not_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event, td, stage = _stage(12, 4, clubs="ABCDE")
    newcomer = PlayerFactory(name="Late Li", club="F")
    outcomes = _during_search(
        monkeypatch, lambda: rounds.entry_add(event=event, player=newcomer, actor=td)
    )
    with pytest.raises(access.AdministrationRefused, match="changed while") as refused:
        stages.stage_seat(stage=stage, actor=td)
    assert isinstance(outcomes[0], Entry)
    assert "players" in refused.value.message and "Seat it again" in refused.value.message
    # Nothing stored: the rounds are still drafts without tables, no seating in the log.
    assert set(Round.objects.values_list("state", flat=True)) == {RoundState.DRAFT}
    assert not Table.objects.exists()
    assert not AuditEntry.objects.filter(action__in=["stage.seat", "round.seat"]).exists()
    # Seated again, the newcomer is in the movement (13 players: one sits out each round).
    report = stages.stage_seat(stage=stage, actor=td)
    assert [len(out) for out in report["sit_out"]] == [1, 1, 1, 1]
    assert Table.objects.filter(seats__player=newcomer).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_stage_seated_by_another_organizer_during_the_search_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event, td, stage = _stage(9, 2)
    other = _organizer(event, "td2")
    outcomes = _during_search(monkeypatch, lambda: stages.stage_seat(stage=stage, actor=other))
    with pytest.raises(access.AdministrationRefused, match="changed while"):
        stages.stage_seat(stage=stage, actor=td)
    assert isinstance(outcomes[0], dict)
    # The other organizer's seating stands, written once.
    assert Table.objects.count() == 2 * 3
    assert AuditEntry.objects.filter(action="stage.seat").get().actor == other


@pytest.mark.django_db
def test_the_dashboard_shows_each_rounds_repeats_and_club_clashes(client) -> None:
    event = EventFactory(slug="club-night")
    td = _organizer(event)
    names = ["An", "Bo", "Cai", "Du", "Er", "Fu"]
    club = {"An": "Red", "Du": "Red", "Cai": "Blue", "Fu": "Blue"}
    p = {n: PlayerFactory(name=n, club=club.get(n, "")) for n in names}
    # Round 1 nobody has met and no table holds club-mates; round 2 has two repeats (An and
    # Bo; Er and Fu) and two clashes (An and Du of Red; Cai and Fu of Blue).
    round_seat(
        event=event, number=1, tables=[[p["An"], p["Bo"], p["Cai"]], [p["Du"], p["Er"], p["Fu"]]]
    )
    round_seat(
        event=event, number=2, tables=[[p["An"], p["Bo"], p["Du"]], [p["Cai"], p["Er"], p["Fu"]]]
    )
    client.force_login(td)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    # Each round's block, wherever the dashboard puts it (the round in play comes first).
    first, second = (
        page[page.index(f'id="round-{n}"') :].split("</details>", 1)[0] for n in (1, 2)
    )
    assert "No repeat meeting, no club-mates at a table." in first
    assert "2 repeat meetings: An–Bo, Er–Fu" in second
    assert "2 club clashes: An–Du (Red), Cai–Fu (Blue)" in second


def test_the_seating_command_counts_steps(tmp_path) -> None:
    clubs = tmp_path / "clubs.csv"
    clubs.write_text(
        "player,club\n" + "".join(f"{p},{'ABCDE'[(p - 1) % 5]}\n" for p in range(1, 13)),
        encoding="utf-8",
    )

    def run(*extra: str) -> dict[str, Any]:
        out = io.StringIO()
        args = ["--players", "12", "--rounds", "4", "--clubs", str(clubs), "--seed", "7"]
        call_command("ddz_seating", *args, *extra, stdout=out)
        return json.loads(out.getvalue())

    default = run()
    assert default["repeat_pairs"] == 0 and default["club_conflicts"] == 0
    # The old --time-limit stands for a step budget: its former default is today's default.
    assert run("--time-limit", "5") == run("--steps", str(seating_search.SEARCH_STEPS)) == default
    for bad in (["--steps", "-1"], ["--time-limit", "nan"], ["--steps", "9", "--time-limit", "1"]):
        with pytest.raises(CommandError) as caught:
            run(*bad)
        assert caught.value.returncode == 2
