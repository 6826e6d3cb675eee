"""The demo's online robot duplicates (manage.py ddz_demo), built through the services like real
ones (tournaments.online): "Demo Online Cup", its window open from an hour ago for a week, six
boards against strong robots, registration open, and a field of demo entrants who played the
first boards already, so that a new account that registers and plays meets a field to be
compared with; and "Demo Online Sprint", every board played by its entrants, its window
ended by the organizer and closed (the games verified, the seed revealed) and the event
finished, so its standings, travellers and replays show what an entrant sees after a window.

A demo entrant's moves are chosen by a basic robot seeded by his name (the same demo gives the
same games), sent through his device's service (tournaments.online.play.step_and_robots) as a
browser's are.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.robots import Robot
from tournaments.demo.accounts import demo_organizer_ensure
from tournaments.events import rounds
from tournaments.events.setup import event_create
from tournaments.models import Entry, Event, Player
from tournaments.online import play
from tournaments.online.close import online_window_end_now
from tournaments.online.robots import robot_step
from tournaments.online.window import online_boards_deal, online_play_set
from tournaments.people import life
from tournaments.tables import live

ONLINE_CUP = "Demo Online Cup"
ONLINE_SPRINT = "Demo Online Sprint"
ZONE = "Asia/Shanghai"
# The cup's field: (name, boards played before the demo opens).
CUP_ENTRANTS = [("Wen", 3), ("Xia", 3), ("Yue", 2), ("Zhi", 1)]
CUP_BOARDS = 6
SPRINT_ENTRANTS = ["Wen", "Xia", "Yue", "Zhi", "Ann"]
SPRINT_BOARDS = 3
# The demo's online events, cleared by a run of the demo before it builds them again.
EVENTS = [ONLINE_CUP, ONLINE_SPRINT]


def _entrant(event: Event, name: str) -> Any:
    """The demo account `online-NAME` (no usable password: a demo entrant never signs in) and
    its player, entered in `event`."""
    users = get_user_model().objects
    user, made = users.get_or_create(username=f"online-{name.lower()}")
    if made:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    player, _made = Player.objects.get_or_create(user=user, defaults={"name": f"{name} (online)"})
    Entry.objects.get_or_create(event=event, player=player)
    return user


def demo_online_play(*, event: Event, user: Any, number: int, seed: str) -> Any:
    """`user` starts board `number` of `event` and plays it to its end, each of his moves a
    basic robot's of `seed`, through his device's service; the stored game."""
    play.online_board_start(event=event, user=user, number=number)
    device = play.entrant_device(user, event.slug, number)
    me = Robot("basic", seed)
    state = live.live_state(table=device.table, board=device.board)
    while state.game is None and state.position.to_move == device.seat:
        position = state.position
        state, error = play.step_and_robots(
            table=device.table,
            board=device.board,
            seat=device.seat,
            step=robot_step(position, me),
            at=len(position.steps),
            actor=device.bearer,
        )
        if error is not None:
            raise ValueError(f"demo entrant {user}: {error}")
    return state.game


def _online_event(
    name: str, *, opens: datetime, closes: datetime, boards: int, seed: str
) -> tuple[Event, Any]:
    event = event_create(name=name, rules="classic")
    actor = demo_organizer_ensure(event=event)
    life.event_place_set(
        event=event,
        actor=actor,
        starts_at=opens,
        ends_at=closes,
        time_zone=ZONE,
        online=True,
        venue_name="",
        venue_address="",
    )
    online_play_set(event=event, actor=actor, robots=True, strength="strong", move_seconds=90)
    # A deal seed is 256 bits: the demo's, hashed with the event's part.
    rounds.event_seed_commit(
        event=event, actor=actor, seed=hashlib.sha256(seed.encode()).hexdigest()
    )
    online_boards_deal(event=event, boards=boards, actor=actor)
    event.refresh_from_db()
    return event, actor


def demo_online_build(*, seed: str, now: datetime | None = None) -> tuple[Event, Event]:
    """The two online events of the module docstring; (cup, sprint)."""
    now = now or timezone.now()
    # The sprint's window is open for its entrants to play, then ended (below).
    closes = now + timedelta(hours=1)
    sprint, organizer = _online_event(
        ONLINE_SPRINT,
        opens=now - timedelta(hours=1),
        closes=closes,
        boards=SPRINT_BOARDS,
        seed=f"{seed}:sprint",
    )
    for name in SPRINT_ENTRANTS:
        user = _entrant(sprint, name)
        for number in range(1, SPRINT_BOARDS + 1):
            demo_online_play(event=sprint, user=user, number=number, seed=f"{seed}:{name}")
    # Everyone played: the organizer ends the window now and it is closed (the robots have
    # nothing left to play): the games verified, the seed revealed, the event finished.
    online_window_end_now(event=sprint, actor=organizer)
    sprint.refresh_from_db()
    cup, _actor = _online_event(
        ONLINE_CUP,
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=7),
        boards=CUP_BOARDS,
        seed=f"{seed}:cup",
    )
    for name, played in CUP_ENTRANTS:
        user = _entrant(cup, name)
        for number in range(1, played + 1):
            demo_online_play(event=cup, user=user, number=number, seed=f"{seed}:{name}")
    cup.refresh_from_db()
    sprint.refresh_from_db()
    return cup, sprint
