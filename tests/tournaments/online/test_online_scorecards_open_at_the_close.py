"""While an online event's window is open, an entrant's scorecard (page and CSV) shows nothing
of his boards to the public nor to another entrant (not which boards he started, at which
table): it says the scorecards open when the window closes. The entrant himself and the
event's organizers see it as before. A robot has no scorecard (404) and its name is never a
link to a profile or a scorecard.

Found by a new-user trial: ``/events/<slug>/players/<id>/`` listed, for any id, the boards
that entrant had started, at which table, "being played"; and a robot's scorecard read "Every
event of this player: Robot E".
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.models import Player, Seat
from tournaments.online.close import CLOSED, online_window_close
from tournaments.templatetags.ddz_league import person_link

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

SEALED_NOTE = "The scorecards open when the online window closes."


def _client(user: object | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def _scorecard(client: Client, slug: str, player: Player) -> str:
    answer = client.get(reverse("public:scorecard", args=[slug, player.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def _scorecard_csv(client: Client, slug: str, player: Player) -> list[str]:
    answer = client.get(reverse("public:scorecard_csv", args=[slug, player.pk]))
    assert answer.status_code == 200
    return answer.content.decode().splitlines()


def test_another_entrant_and_the_public_see_nothing_of_a_scorecard_while_sealed() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=2)
    online_board_play(event, bob, 1)
    bob_player = Player.objects.get(user=bob)
    table = Seat.objects.get(player=bob_player).table
    for viewer in (None, ann):
        page = _scorecard(_client(viewer), event.slug, bob_player)
        assert SEALED_NOTE in page
        assert 'id="scorecard"' not in page and "being played" not in page
        assert "/boards/1/" not in page and "Robot E" not in page
        assert f">{table.number}<" not in page.split('id="profile-link"', 1)[1]
        # The CSV: its header, no row.
        assert _scorecard_csv(_client(viewer), event.slug, bob_player)[1:] == []
    # An entrant who started nothing answers the same as one who did: nothing tells which.
    ann_player = Player.objects.get(user=ann)
    assert SEALED_NOTE in _scorecard(_client(), event.slug, ann_player)


def test_the_entrant_and_the_organizers_still_see_his_scorecard_while_sealed() -> None:
    event, td, (ann, bob) = online_event(entrants=2, boards=2)
    game = online_board_play(event, bob, 1)
    bob_player = Player.objects.get(user=bob)
    for viewer in (bob, td):
        page = _scorecard(_client(viewer), event.slug, bob_player)
        assert SEALED_NOTE not in page and 'id="scorecard"' in page
        assert len(_scorecard_csv(_client(viewer), event.slug, bob_player)) == 2
    assert f"/games/{game.pk}/" in _scorecard(_client(td), event.slug, bob_player)


def test_after_the_close_every_scorecard_is_open() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=1)
    online_board_play(event, bob, 1)
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    bob_player = Player.objects.get(user=bob)
    page = _scorecard(_client(ann), event.slug, bob_player)
    assert SEALED_NOTE not in page and 'id="scorecard"' in page


def test_a_robot_has_no_scorecard_and_its_name_links_nowhere() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    robot = Player.objects.filter(robot=True, seats__table__round__event=event).first()
    assert robot is not None
    for name in ("public:scorecard", "public:scorecard_csv"):
        assert _client().get(reverse(name, args=[event.slug, robot.pk])).status_code == 404
    assert person_link(robot) == robot.shown_name and "<a" not in person_link(robot)
    # Where a robot is named on the public pages, its name is no link to a scorecard.
    ann_player = Player.objects.get(user=ann)
    pages = [
        _scorecard(_client(), event.slug, ann_player),
        _client().get(reverse("public:traveller", args=[event.slug, 1])).content.decode(),
        _client().get(reverse("public:round", args=[event.slug, 1])).content.decode(),
    ]
    for page in pages:
        assert robot.shown_name in page
        assert reverse("public:scorecard", args=[event.slug, robot.pk]) not in page


def test_the_rounds_seating_says_nothing_of_who_started_a_board_while_sealed() -> None:
    event, td, (ann, bob) = online_event(entrants=2, boards=1)
    online_board_play(event, bob, 1)
    url = reverse("public:round", args=[event.slug, 1])
    for viewer in (None, ann):
        page = _client(viewer).get(url).content.decode()
        assert "Entrant 2" not in page and 'id="seating-sealed"' in page
    assert "Entrant 2" in _client(td).get(url).content.decode()
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    assert "Entrant 2" in _client(ann).get(url).content.decode()
