"""The public site (tournaments.web.public): event home, live standings, seating, hand records,
travellers, scorecards with the running-score chart, the replay viewer; query budgets on the
list pages; Chinese."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import parse_cards
from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.models import Stage
from tournaments.results.pages import replay_steps
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def two_rounds():
    """Two rounds of three tables and two boards, everything played and verified."""
    event, r1, tables1, boards1 = duplicate_round(tables=3, boards=2, seed="public")
    _e, r2, tables2, boards2 = duplicate_round(tables=3, boards=2, seed="public2", event=event)
    stage = Stage.objects.create(event=event, number=1, name="Qualifying", cut=4)
    r1.stage = stage
    r1.save()
    games = []
    for tables, boards in ((tables1, boards1), (tables2, boards2)):
        for board in boards:
            for table in tables:
                game = game_submit(table=table, board=board, record=bot_record(board, table))
                game_verify(game_id=game.pk)
                games.append(game)
    standings_recompute(event_id=event.pk)
    return event, stage, games


def test_event_home_links_rounds_standings_and_boards(client, two_rounds) -> None:
    event, stage, _games = two_rounds
    html = client.get(event.get_absolute_url()).content.decode()
    for url in (
        reverse("public:round", kwargs={"slug": event.slug, "number": 1}),
        reverse("public:round", kwargs={"slug": event.slug, "number": 2}),
        reverse("public:standings", kwargs={"slug": event.slug}) + "?stage=1",
        reverse("public:standings_csv", kwargs={"slug": event.slug}),
    ):
        assert url in html
    assert 'id="standings-live"' in html and html.count("<tr>") >= 18


def test_stage_standings_and_the_cut(client, two_rounds) -> None:
    event, stage, _games = two_rounds
    url = reverse("public:standings", kwargs={"slug": event.slug})
    html = client.get(url + "?stage=1").content.decode()
    # Round 1 seated 9 players, round 2 nine others: the stage ranks round 1's nine.
    assert html.count('href="/events/') >= 9 and "The first 4 go through" in html
    assert len(re.findall(r"<tr><td>\d+=?</td>", html)) == 9
    assert client.get(url + "?stage=7").status_code == 404
    assert client.get(url + "?stage=x").status_code == 404


def test_live_standings_answer_304_until_they_change(client, two_rounds) -> None:
    event, _stage, games = two_rounds
    url = reverse("public:standings_live", kwargs={"slug": event.slug})
    first = client.get(url)
    assert first.status_code == 200 and 'id="standings"' in first.content.decode()
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A correction that changes the scores moves the standings, and so the ETag.
    game = games[0]
    record = bot_record(game.board, game.table, seed="other")
    fixed = game_submit(table=game.table, board=game.board, record=record, replaces=1)
    game_verify(game_id=fixed.pk)
    changed = standings_recompute(event_id=event.pk)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == (200 if changed else 304)
    # Each language has its own copy.
    zh = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert zh["ETag"] != again["ETag"] and "排名" in zh.content.decode()


def test_round_seating_and_hand_records(client, two_rounds) -> None:
    event, _stage, games = two_rounds
    round1 = event.rounds.get(number=1)
    html = client.get(reverse("public:round", kwargs={"slug": event.slug, "number": 1})).content
    html = html.decode()
    for table in round1.tables.all():
        for seat in table.seats.all():
            assert seat.player.name in html
    hands = client.get(reverse("public:hands", kwargs={"slug": event.slug, "number": 1}))
    text = hands.content.decode()
    assert "@media print" in text
    for board in round1.boards.all():
        assert f'id="board-{board.number}"' in text
    assert (
        client.get(reverse("public:round", kwargs={"slug": event.slug, "number": 9})).status_code
        == 404
    )


def test_traveller_shows_bidding_scores_and_matchpoints(client, two_rounds) -> None:
    event, _stage, games = two_rounds
    board = games[0].board
    html = client.get(board.get_absolute_url()).content.decode()
    for game in Game.objects.filter(board=board):
        calls = " ".join(
            f"{seat}:{'no bid' if call == 'pass' else call}"
            for seat, call in game.record["bidding"]
        )
        assert calls in html
        assert reverse("public:replay", kwargs={"pk": game.pk}) in html
    # Three tables: each seat's matchpoints add up to n(n-1) = 6 (top 2(n-1) = 4 each).
    body = html.split('id="traveller"')[1].split("<tbody>")[1].split("</tbody>")[0]
    rows = body.split("<tr>")[1:]
    assert len(rows) == 3
    per_row = [re.findall(r'<td class="num">([\d.]*)</td>', row)[:3] for row in rows]
    for seat in range(3):
        assert sum(float(r[seat]) for r in per_row) == 6


def test_scorecard_chart_of_the_running_score(client, two_rounds) -> None:
    event, _stage, games = two_rounds
    seat = games[0].table.seats.get(seat="S")
    url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": seat.player_id})
    html = client.get(url).content.decode()
    assert 'id="running-score"' in html and "<polyline" in html
    # One round played by this player: one point on the chart, its value his percentage.
    standing = event.standings.get(player=seat.player, stage__isnull=True)
    assert html.count("<circle") == 1
    expected = f"{float(standing.percentage):.2f}".rstrip("0").rstrip(".")
    assert f": {expected}</title>" in html


def test_replay_steps_end_with_the_winner_out_of_cards(client, two_rounds) -> None:
    _event, _stage, games = two_rounds
    game = next(g for g in (Game.objects.get(pk=g.pk) for g in games) if g.landlord)
    steps = replay_steps(game, ("S", "E", "W"))
    assert steps[0].kind == "deal" and all(
        sum(parse_cards(h)) == 17 for h in steps[0].hands.values()
    )
    bottom = next(s for s in steps if s.kind == "bottom")
    assert sum(parse_cards(bottom.hands[game.landlord])) == 20
    plays = [s for s in steps if s.kind == "play"]
    assert len(plays) == len(game.record["plays"])
    last = steps[-1]
    if game.winner == "landlord":
        assert last.hands[game.landlord] == ""
    else:
        assert any(h == "" for s, h in last.hands.items() if s != game.landlord)
    html = client.get(reverse("public:replay", kwargs={"pk": game.pk})).content.decode()
    assert 'id="replay"' in html and "replay-next" in html
    assert client.get(reverse("public:replay", kwargs={"pk": 999999})).status_code == 404


@pytest.fixture(params=["rows", "published"])
def publishing(request, settings) -> str:
    """The standings stored as rows alone (an event below DDZ_STANDINGS_PUBLISH_FROM, the
    default's case) or published too (a large event's)."""
    settings.DDZ_STANDINGS_PUBLISH_FROM = 0 if request.param == "published" else 20_000
    return request.param


def test_query_budgets_of_the_list_pages(
    publishing, client, two_rounds, django_assert_max_num_queries
) -> None:
    event, _stage, games = two_rounds
    seat = games[0].table.seats.get(seat="S")
    # A published scope's rows are read with their players apart: one query more.
    more = 1 if publishing == "published" else 0
    for url, budget in [
        (reverse("public:events"), 4),
        (event.get_absolute_url(), 8 + more),
        (reverse("public:standings", kwargs={"slug": event.slug}) + "?stage=1", 6 + more),
        (reverse("public:standings_live", kwargs={"slug": event.slug}), 4 + more),
        # 12: four for who sits the round out (its field: tournaments.events.fields).
        (reverse("public:round", kwargs={"slug": event.slug, "number": 1}), 12),
        (reverse("public:hands", kwargs={"slug": event.slug, "number": 1}), 6),
        (games[0].board.get_absolute_url(), 14),
        # 17: one more for the substitutions (the boards she played as a substitute).
        (reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": seat.player_id}), 17),
        (reverse("public:replay", kwargs={"pk": games[0].pk}), 8),
        (reverse("public:standings_csv", kwargs={"slug": event.slug}), 4 + more),
    ]:
        with django_assert_max_num_queries(budget):
            assert client.get(url).status_code == 200, url


def test_public_pages_in_chinese(client, two_rounds) -> None:
    event, _stage, games = two_rounds
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    html = client.get(games[0].board.get_absolute_url(), **zh).content.decode()
    assert "叫分" in html and "地主" in html and "底牌" in html
    html = client.get(reverse("public:standings", kwargs={"slug": event.slug}), **zh).content
    assert "排名" in html.decode() and "比赛分" in html.decode()
    html = client.get(reverse("public:replay", kwargs={"pk": games[0].pk}), **zh).content.decode()
    assert "复盘" in html


def test_team_of_three_standings_sum_the_teams_hands(client) -> None:
    from games.models import Board, Status
    from tests.factories import EventFactory, PlayerFactory
    from tournaments.events.setup import round_seat
    from tournaments.models import Team

    event = EventFactory(format="team_of_three")
    teams = {name: Team.objects.create(event=event, name=name) for name in "XYZ"}
    seating = {1: "XYZ", 2: "YZX", 3: "ZXY"}  # each team holds each seat once
    players = {}
    for t, order in seating.items():
        for team in order:
            players[(t, team)] = PlayerFactory(name=f"{team}{t}")
            teams[team].members.add(players[(t, team)])
    round_ = round_seat(
        event=event,
        number=1,
        tables=[[players[(t, team)] for team in seating[t]] for t in (1, 2, 3)],
    )
    board = Board.objects.create(event=event, round=round_, number=1, hands={}, bottom="")
    scores = {1: (4, -2, -2), 2: (-6, 3, 3), 3: (2, -1, -1)}
    for table in round_.tables.all():
        score = dict(zip("SEW", scores[table.number], strict=True))
        Game.objects.create(
            table=table, board=board, record={}, status=Status.VERIFIED, score=score
        )
    html = client.get(event.get_absolute_url()).content.decode()
    body = html.split('id="team-standings"')[1].split("</tbody>")[0]
    rows = re.findall(r"<tr><td>(\d+=?)</td><td>(\w)</td><td class=\"num\">(-?\d+)</td>", body)
    # X: S at table 1 (+4), W at table 2 (+3), E at table 3 (-1) = 6; Z: -2 + 3 + 2 = 3;
    # Y: -2 - 6 - 1 = -9.
    assert rows == [("1", "X", "6"), ("2", "Z", "3"), ("3", "Y", "-9")]
