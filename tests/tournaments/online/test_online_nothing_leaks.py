"""Nothing leaks from an online event during its window: a client that records every page and
JSON answer an entrant gets while he plays a board against the robots, and while he visits
every public page and API door of the event, never receives another seat's unplayed cards nor
another entrant's result; after the close the traveller shows every result.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.notation import rank_cards
from games.robots import Robot
from tests.factories import online_board_play, online_event
from tournaments.models import Event
from tournaments.online import play
from tournaments.online.close import CLOSED, online_window_close
from tournaments.online.robots import robot_step
from tournaments.tables import live

pytestmark = pytest.mark.django_db


class Recorder:
    """A signed-in client keeping every answer's text (pages, JSON)."""

    def __init__(self, user: Any) -> None:
        self.client = Client()
        self.client.force_login(user)
        self.seen: list[tuple[str, str]] = []

    def get(self, url: str) -> Any:
        answer = self.client.get(url)
        self.seen.append((url, answer.content.decode()))
        return answer

    def post(self, url: str, body: dict[str, Any] | None = None) -> Any:
        if body is None:
            answer = self.client.post(url)
        else:
            answer = self.client.post(url, json.dumps(body), content_type="application/json")
        self.seen.append((url, answer.content.decode()))
        return answer


def _pages(event: Event, recorder: Recorder, other_game: int, own_game: int | None) -> None:
    """Every public page and API door of `event` a hostile entrant could read."""
    slug = event.slug
    players = {e.player.name: e.player_id for e in event.entries.select_related("player")}
    urls = [
        reverse("public:event", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:standings_live", args=[slug]),
        reverse("public:standings_csv", args=[slug]),
        reverse("public:round", args=[slug, 1]),
        reverse("public:hands", args=[slug, 1]),
        reverse("public:traveller", args=[slug, 1]),
        reverse("public:game", args=[other_game]),
        reverse("public:replay", args=[other_game]),
        reverse("online:home", args=[slug]),
        f"/api/events/{slug}/",
        f"/api/events/{slug}/boards/1/games/",
        f"/api/games/{other_game}/",
        *(reverse("public:scorecard", args=[slug, pk]) for pk in players.values()),
    ]
    if own_game is not None:
        urls += [
            reverse("public:game", args=[own_game]),
            reverse("public:replay", args=[own_game]) + f"?with={other_game}",
        ]
    for url in urls:
        recorder.get(url)


def _hidden_cards(event: Event, seats: tuple[str, ...]) -> list[str]:
    """The texts of board 1's hands of `seats` as a page could carry them: suited as dealt,
    in ranks."""
    board = event.boards.get(number=1)
    return [text for s in seats for text in (board.hands[s], rank_cards(board.hands[s]))]


def test_an_entrant_receives_no_unplayed_card_of_another_seat_and_no_other_result() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=2)
    bobs = online_board_play(event, bob, 1, seed="bob")  # bob played board 1 first
    me = Recorder(ann)
    assert me.post(reverse("online:start", args=[event.slug, 1])).status_code == 302
    page = me.get(reverse("online:device_board", args=[event.slug, 1]))
    assert page.status_code == 200 and 'data-seat="S"' in page.content.decode()
    device = play.entrant_device(ann, event.slug, 1)
    position_url = reverse("online:device_position", args=[event.slug, 1])
    steps_url = reverse("online:device_steps", args=[event.slug, 1])
    mine = Robot("basic", "ann")
    halfway = False
    while True:
        state = live.live_state(table=device.table, board=device.board)
        if state.game is not None:
            break
        hands = state.position.game.hands if state.position.game else device.board.hands
        # Every other seat's unplayed cards now, as ranks (the bidding: as dealt).
        secret = [rank_cards(hands[s]) for s in ("E", "W") if len(rank_cards(hands[s])) >= 4]
        view = me.get(position_url).json()["view"]
        assert view["hand"]["seat"] == "S" and view["seat"] == "S"
        answer = me.post(
            steps_url, {"step": robot_step(state.position, mine), "at": view["at"]}
        ).json()
        assert answer["ok"], answer
        for _url, text in me.seen[-2:]:
            assert not any(f'"{s}"' in text for s in secret)
        if not halfway and len(state.position.steps) > 10:
            halfway = True  # mid-board: every page of the event, as a hostile entrant would
            _pages(event, me, bobs.pk, None)
    own = state.game
    _pages(event, me, bobs.pk, own.pk)
    # While the board was in play: not one page nor answer held a robot's hand.
    for url, text in me.seen[: me.seen.index(next(x for x in me.seen if "replay" in x[0])) + 1]:
        assert not any(h in text for h in _hidden_cards(event, ("E", "W"))), url
    # Nothing of bob's game anywhere: no link to it, no hand, no player at the traveller.
    for url, text in me.seen:
        # A page of bob's game names its own address (the language form): no other does.
        assert f"/games/{bobs.pk}/" not in text or f"/games/{bobs.pk}/" in url, url
    other_pages = [t for u, t in me.seen if f"/games/{bobs.pk}/" in u]
    for text in other_pages:
        assert not any(h in text for h in _hidden_cards(event, ("S", "E", "W")))
    traveller = [t for u, t in me.seen if u == reverse("public:traveller", args=[event.slug, 1])]
    assert traveller and all("Entrant 2" not in t and "Entrant 1" not in t for t in traveller)
    assert me.client.get(f"/api/games/{bobs.pk}/").status_code in (403, 404)
    assert me.client.get(f"/api/games/{own.pk}/").status_code == 200  # his own, once played
    standings = me.client.get(reverse("public:standings_live", args=[event.slug])).content
    assert b"/players/" not in standings  # totals only: no scorecard link
    # After the close: the traveller shows everyone.
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    after = me.client.get(reverse("public:traveller", args=[event.slug, 1])).content.decode()
    assert "Entrant 1" in after and "Entrant 2" in after
    assert re.search(rf"/games/{bobs.pk}/", after)


def test_another_entrants_table_and_the_referee_door_are_closed_to_an_entrant() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=1)
    table = play.online_board_start(event=event, user=bob, number=1)
    me = Recorder(ann)
    # Ann has not started board 1: her device opens nothing (not bob's table).
    assert me.get(reverse("online:device_position", args=[event.slug, 1])).status_code == 404
    referee = reverse("referee:device_position", args=[event.slug, table.pk, 1])
    assert me.get(referee).status_code == 403
    # An entrant's own table does not make him a referee: the API's entry door refuses him.
    play.online_board_start(event=event, user=ann, number=1)
    mine = play.entrant_device(ann, event.slug, 1).table
    entry = f"/api/events/{event.slug}/tables/{mine.pk}/boards/1/games/"
    assert me.client.get(entry).status_code in (403, 404)
    undo = reverse("online:device_undo", args=[event.slug, 1])
    assert me.post(undo, {"at": 1}).status_code == 400
