"""The embargo (tournaments.core.embargo): a board's results, traveller and hands stay hidden from
players and the public until every table of its round has finished it; officials see them.
Leaks are tried through every page and endpoint a visitor can reach or guess."""

from __future__ import annotations

import contextlib
import re
from collections import deque

import pytest
from django.contrib.auth import get_user_model
from django.urls import NoReverseMatch, reverse

from tests.factories import bot_record, duplicate_round
from tournaments.core import embargo
from tournaments.models import EventRole, Role
from tournaments.standings.rulings import adjustment_set
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify
from tournaments.templatetags.ddz import cards

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def event_with_secret():
    """One round at three tables: board 1 finished everywhere, board 2 only at table 1."""
    event, _round, tables, boards = duplicate_round(tables=3, boards=2, seed="embargo")
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    secret = game_submit(table=tables[0], board=boards[1], record=bot_record(boards[1], tables[0]))
    game_verify(game_id=secret.pk)
    standings_recompute(event_id=event.pk)
    return event, tables, boards, secret


def _user(name, event=None, role=None, **extra):
    user = get_user_model().objects.create_user(name, password="pw", **extra)
    if role:
        EventRole.objects.create(event=event, user=user, role=role)
    return user


def _secrets(board, secret):
    # What must not leak: every hand of the board (as the pages print cards) and the record.
    return [cards(hand) for hand in board.hands.values()] + [secret.record_id]


def test_board_is_open_once_every_table_has_finished_it(event_with_secret) -> None:
    event, tables, boards, _secret = event_with_secret
    assert embargo.board_is_open(boards[0]) and not embargo.board_is_open(boards[1])
    assert embargo.open_board_ids(event) == {boards[0].pk}
    # Table 2 plays it; table 3 could not and gets adjusted scores at every seat: the board
    # opens (some seats only would not: test_partly_adjusted_table_has_not_finished).
    game = game_submit(table=tables[1], board=boards[1], record=bot_record(boards[1], tables[1]))
    assert not embargo.board_is_open(boards[1])
    for seat in "SEW":
        adjustment_set(table=tables[2], board=boards[1], seat=seat, kind="avg")
    assert embargo.board_is_open(boards[1]) and embargo.open_board_ids(event) == {
        boards[0].pk,
        boards[1].pk,
    }
    assert game.status == "pending"  # finished means a current game, verified or not


def test_visible_to_officials_only_while_embargoed(event_with_secret) -> None:
    event, _tables, boards, _secret = event_with_secret
    organizer = _user("org", event, Role.ORGANIZER)
    referee = _user("ref", event, Role.REFEREE)
    chief = _user("chief", event, Role.CHIEF_REFEREE)
    player = _user("player", event, Role.PLAYER)
    stranger = _user("stranger")
    for user in (organizer, chief):
        assert embargo.visible_to(user, boards[1])
    # A referee sees a board's results at every table only once it is open (his own tables'
    # games through game_visible_to: tests/tournaments/core/test_visibility.py).
    for user in (referee, player, stranger, None):
        assert not embargo.visible_to(user, boards[1])
        assert embargo.visible_to(user, boards[0])


def test_standings_count_open_boards_only(event_with_secret) -> None:
    event, tables, _boards, _secret = event_with_secret
    rows = {r.player_id: r.boards for r in event.standings.filter(stage__isnull=True)}
    assert len(rows) == 9 and set(rows.values()) == {1}
    assert all(rows[s.player_id] == 1 for s in tables[0].seats.all())


def _crawl(client, start_urls):
    """Every page reachable from `start_urls` by the site's own links (no admin, no logout)."""
    seen, pages = set(), {}
    queue = deque(start_urls)
    while queue and len(seen) < 200:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        body = response.content.decode(errors="replace")
        pages[url] = (response.status_code, body)
        if "html" not in response.get("Content-Type", ""):
            continue
        for link in re.findall(r'href="(/[^"#]*)"', body):
            link = link.replace("&amp;", "&")
            if not link.startswith(("/admin", "/i18n", "/static", "/referee")):
                queue.append(link)
    return pages


def _guessed_urls(event, boards, secret):
    urls = [
        secret.get_absolute_url(),
        reverse("public:replay", kwargs={"pk": secret.pk}),
        reverse("public:traveller", kwargs={"slug": event.slug, "number": boards[1].number}),
        reverse("public:hands", kwargs={"slug": event.slug, "number": 1}),
        reverse("public:archive", kwargs={"slug": event.slug}),
        reverse("public:standings_live", kwargs={"slug": event.slug}),
    ]
    for name, kwargs in [
        ("api:board-games", {"slug": event.slug, "number": boards[1].number}),
        ("api:game", {"pk": secret.pk}),
    ]:
        with contextlib.suppress(NoReverseMatch):  # the API may not be mounted
            urls.append(reverse(name, kwargs=kwargs))
    return urls


def test_no_page_or_endpoint_leaks_an_embargoed_board(client, event_with_secret) -> None:
    event, tables, boards, secret = event_with_secret
    player = _user("player", event, Role.PLAYER)
    seated = tables[0].seats.get(seat="S").player
    EventRole.objects.filter(user=player).update(player=seated)
    open_hands = [cards(h) for h in boards[0].hands.values()]
    for who in (None, player):
        if who is not None:
            client.force_login(who)
        pages = _crawl(client, ["/", *_guessed_urls(event, boards, secret)])
        assert len(pages) > 15
        # The crawl did reach the open board's hands, so the check below can see hands.
        assert any(all(h in body for h in open_hands) for _s, body in pages.values())
        for url, (status, body) in pages.items():
            assert status in (200, 302, 304, 401, 403, 404), url
            for leak in _secrets(boards[1], secret):
                assert leak not in body, f"{url} shows {leak!r} under embargo"
        # The scorecard of a player at table 1 keeps board 2's place, without its result.
        csv_url = reverse(
            "public:scorecard_csv", kwargs={"slug": event.slug, "player_id": seated.pk}
        )
        lines = client.get(csv_url).content.decode().splitlines()
        board2 = [line for line in lines[1:] if line.split(",")[1] == str(boards[1].number)]
        assert board2 == [f"1,{boards[1].number},1,S,,,,,"]


def test_officials_see_the_embargoed_board(client, event_with_secret) -> None:
    event, _tables, boards, secret = event_with_secret
    for role in (Role.ORGANIZER, Role.CHIEF_REFEREE):
        client.force_login(_user(f"u-{role}", event, role))
        traveller = client.get(boards[1].get_absolute_url()).content.decode()
        assert 'id="traveller"' in traveller
        assert all(cards(h) in traveller for h in boards[1].hands.values())
        replay = client.get(reverse("public:replay", kwargs={"pk": secret.pk})).content.decode()
        assert 'id="replay"' in replay
        archive = client.get(reverse("public:archive", kwargs={"slug": event.slug}))
        assert archive.status_code == 200 and secret.record_id in archive.content.decode()
