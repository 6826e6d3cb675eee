"""The event archive carries an online robot duplicate as played: the event's online
settings (robots, their strength, the time a move, when the window closed), which players
are robots, and how many of each entrant's moves the robot played. Restored, the event is
the same online event and exports to the same archive."""

from __future__ import annotations

import json

import pytest
from django.db.models import F

from tests.factories import online_board_play, online_event
from tournaments.archive.event_archive import event_export, event_import
from tournaments.models import Event, Player, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def test_an_online_event_restores_as_the_online_event_it_was() -> None:
    event, _td, (ann, _bob) = online_event(entrants=2, boards=2)
    online_board_play(event, ann, 1)
    Event.objects.filter(pk=event.pk).update(robot_strength="medium", move_seconds=40)
    # One of Ann's moves ran out of time and was played for her.
    Table.objects.filter(round__event=event).update(robot_moves=F("robot_moves") + 1)
    text = json.dumps(event_export(event=Event.objects.get(pk=event.pk)))
    slug = event.slug
    Event.objects.filter(pk=event.pk).delete()
    restored = event_import(data=json.loads(text))
    assert restored.slug == slug
    assert restored.online and restored.online_robots
    assert (restored.robot_strength, restored.move_seconds) == ("medium", 40)
    robots = Player.objects.filter(entries__event=restored, robot=True)
    assert sorted(robots.values_list("name", flat=True)) == ["Robot E", "Robot S", "Robot W"]
    assert list(
        Table.objects.filter(round__event=restored).values_list("robot_moves", flat=True)
    ) == [1]
    assert json.loads(json.dumps(event_export(event=restored))) == json.loads(text)
