"""Pages people keep: scorecards with the opponents and each board's percentage, the replay
viewer's landlord, bid, current trick and result (and two tables side by side), hand records
with suits drawn in colour several boards to a page, and standings whose key columns come
first on a phone."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Board, Game, Status
from tests.factories import bot_record, duplicate_round
from tournaments.events.boards import board_create
from tournaments.models import EventRole, Role
from tournaments.results.pages import player_scorecard, replay_steps
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


# --- Scorecards ----------------------------------------------------------------------------


@pytest.fixture
def four_tables():
    """DESIGN.md's worked example: one board at four tables, hand S scores +12, −4, −4, +15
    (so MP 4, 1, 1, 6 of a top of 2(n−1) = 6)."""
    event, round_, tables, _boards = duplicate_round(tables=4, boards=0, seed="worked")
    board = Board.objects.create(event=event, round=round_, number=1, hands={}, bottom="")
    scores = {1: (12, -6, -6), 2: (-4, 2, 2), 3: (-4, 2, 2), 4: (15, -8, -7)}
    for table in tables:
        s, e, w = scores[table.number]
        Game.objects.create(
            table=table,
            board=board,
            record={},
            status=Status.VERIFIED,
            landlord="S",
            score={"S": s, "E": e, "W": w},
        )
    standings_recompute(event_id=event.pk)
    return event, tables, board


@pytest.mark.parametrize(
    ("table", "mp", "percentage", "shown"),
    [(1, 4, Fraction(200, 3), "66.67"), (2, 1, Fraction(50, 3), "16.67"), (4, 6, 100, "100")],
)
def test_scorecard_shows_each_boards_percentage_from_the_matchpoint_rule(
    client, four_tables, table, mp, percentage, shown
) -> None:
    event, tables, board = four_tables
    seat = tables[table - 1].seats.get(seat="S")
    rows = player_scorecard(event=event, player=seat.player, visible=None)
    assert [(r.points, r.top, r.percentage) for r in rows] == [(mp, 6, percentage)]
    url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": seat.player_id})
    html = client.get(url).content.decode()
    body = html.split('id="scorecard"')[1].split("</table>")[0]
    assert f'<td class="num pct">{shown}</td>' in body


def test_scorecard_names_the_opponents_of_each_board(client, four_tables) -> None:
    event, tables, _board = four_tables
    seat = tables[1].seats.get(seat="E")
    others = {s.seat: s.player for s in tables[1].seats.exclude(seat="E")}
    rows = player_scorecard(event=event, player=seat.player, visible=None)
    assert [(s, p.pk) for s, p in rows[0].opponents] == [
        ("S", others["S"].pk),
        ("W", others["W"].pk),
    ]
    url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": seat.player_id})
    body = client.get(url).content.decode().split('id="scorecard"')[1].split("</table>")[0]
    assert "Opponents" in client.get(url).content.decode()
    for player in others.values():
        link = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk})
        assert f'<a href="{link}">{player.name}</a>' in body


def test_scorecard_hides_the_percentage_of_a_board_under_embargo(client) -> None:
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="sc-embargo")
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    seat = tables[0].seats.get(seat="S")
    rows = player_scorecard(event=event, player=seat.player, visible=set())
    assert rows[0].hidden and rows[0].percentage is None
    # Opponents are seating, which is public: they are shown even while the board is played.
    assert len(rows[0].opponents) == 2


# --- The replay viewer ---------------------------------------------------------------------

# README's example game: W is landlord at a bid of 3 and the farmers win (S +3, E +3, W −6).
EXAMPLE = {
    "id": "R1-B1-T1",
    "rules": "classic",
    "hands": {
        "S": "D3 C3 H4 S5 H5 D5 C5 C6 D7 C7 D8 C8 D9 HQ DQ CQ D2",
        "E": "S6 D6 S8 H8 H9 HT SJ HJ DJ CJ SK DK SA HA H2 BJ RJ",
        "W": "S3 H3 S4 D4 C4 H6 S7 H7 S9 C9 ST DT CT HK CK DA CA",
    },
    "bottom": "SQ S2 C2",
    "first_bidder": "S",
    "bidding": [["S", "pass"], ["E", "2"], ["W", "3"]],
    "plays": [
        *[["W", "444KK"], ["S", "555QQ"], ["E", "JJJKK"], ["W", "pass"], ["S", "pass"]],
        *[["E", "R"], ["W", "pass"], ["S", "pass"], ["E", "B"], ["W", "pass"], ["S", "pass"]],
        *[["E", "2"], ["W", "pass"], ["S", "pass"], ["E", "AA"], ["W", "pass"], ["S", "pass"]],
        *[["E", "T"], ["W", "Q"], ["S", "2"], ["E", "pass"], ["W", "pass"]],
        *[["S", "456789"], ["E", "pass"], ["W", "pass"], ["S", "3"], ["E", "9"], ["W", "pass"]],
        *[["S", "Q"], ["E", "pass"], ["W", "pass"], ["S", "3"], ["E", "6"], ["W", "9"]],
        *[["S", "pass"], ["E", "pass"], ["W", "9TTT"], ["S", "pass"], ["E", "pass"]],
        *[["W", "AA"], ["S", "pass"], ["E", "pass"], ["W", "2"], ["S", "pass"], ["E", "pass"]],
        *[["W", "2"], ["S", "pass"], ["E", "pass"], ["W", "7"], ["S", "8"], ["E", "pass"]],
        *[["W", "pass"], ["S", "7"]],
    ],
    "end": None,
    "declared": {"S": 3, "E": 3, "W": -6},
}


@pytest.fixture
def example_game():
    """The example game at table 1 and a bot's game of the same deal at table 2 (both
    verified, so the board is open)."""
    event, _round, tables, _boards = duplicate_round(tables=2, boards=0, seed="replay")
    board = board_create(
        event=event,
        round=tables[0].round,
        hands=EXAMPLE["hands"],
        bottom=EXAMPLE["bottom"],
        first_bidder="S",
    )
    game = game_submit(table=tables[0], board=board, record=dict(EXAMPLE))
    game_verify(game_id=game.pk)
    other = game_submit(table=tables[1], board=board, record=bot_record(board, tables[1]))
    game_verify(game_id=other.pk)
    return Game.objects.get(pk=game.pk), Game.objects.get(pk=other.pk), tables


def test_replay_steps_carry_the_current_trick(example_game) -> None:
    game, _other, _tables = example_game
    assert game.status == Status.VERIFIED
    steps = replay_steps(game, ("S", "E", "W"))
    # 0 the deal, 1-3 the calls, 4 the bottom cards to W, then one step per play.
    assert [s.kind for s in steps[:6]] == ["deal", "call", "call", "call", "bottom", "play"]
    assert steps[3].trick == [] and steps[4].trick == []
    assert steps[5].trick == [("W", "444KK")]
    # R-TRICK: the first trick runs until E's JJJKK is passed by W and S ...
    assert steps[9].trick == [
        ("W", "444KK"),
        ("S", "555QQ"),
        ("E", "JJJKK"),
        ("W", "pass"),
        ("S", "pass"),
    ]
    # ... then E leads the next one.
    assert steps[10].trick == [("E", "R")]
    # The last trick: W 7, S 8, E and W pass; S leads 7 and is out.
    assert steps[-1].trick == [("S", "7")]


def test_replay_page_shows_landlord_bid_trick_and_result(client, example_game) -> None:
    game, _other, tables = example_game
    landlord = tables[0].seats.get(seat="W").player
    html = client.get(reverse("public:replay", kwargs={"pk": game.pk})).content.decode()
    summary = html.split('id="replay-summary"')[1].split("</dl>")[0]
    assert "Landlord" in summary and f"W · {landlord.name}" in summary
    assert re.search(r"Bid</dt>\s*<dd>3</dd>", summary)
    assert "The farmers win" in summary
    for seat, score in (("S", "+3"), ("E", "+3"), ("W", "−6")):
        assert f"{seat} {score}" in summary
    assert 'id="replay-trick"' in html
    data = json.loads(unescape(re.search(r'data-steps="([^"]*)"', html).group(1)))
    assert data[9]["trick"] == [
        ["W", "444KK"],
        ["S", "555QQ"],
        ["E", "JJJKK"],
        ["W", "pass"],
        ["S", "pass"],
    ]
    url = reverse("public:replay", kwargs={"pk": game.pk})
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "地主" in text and "农民胜" in text and "本墩出牌" in text


def test_two_tables_that_held_the_same_hand_side_by_side(client, example_game) -> None:
    game, other, _tables = example_game
    url = reverse("public:replay", kwargs={"pk": game.pk})
    html = client.get(url).content.decode()
    # The page offers the other tables of the board to compare with.
    assert f'<option value="{other.pk}">' in html
    html = client.get(f"{url}?with={other.pk}").content.decode()
    assert html.count('class="replay-panel"') == 2
    assert 'id="replay-2"' in html
    assert "Table 1" in html and "Table 2" in html
    # Only a game of the same board, which the viewer may see.
    _event, _round, far_tables, far_boards = duplicate_round(tables=1, boards=1, seed="far")
    foreign = game_submit(
        table=far_tables[0], board=far_boards[0], record=bot_record(far_boards[0], far_tables[0])
    )
    # Any other is not compared: the replay alone, saying so (not a 404).
    for other_id in (foreign.pk, "x"):
        response = client.get(f"{url}?with={other_id}")
        assert response.status_code == 200
        html = response.content.decode()
        assert html.count('class="replay-panel"') == 1 and 'id="not-compared"' in html


def test_compare_keeps_the_embargo(client) -> None:
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="cmp-embargo")
    board = boards[0]
    games = []
    for table in tables[:2]:
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        game_verify(game_id=game.pk)
        games.append(game)
    referee = User.objects.create_user("cmp-referee", password="x")
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    tables[0].assignments.create(user=referee)
    client.force_login(referee)
    url = reverse("public:replay", kwargs={"pk": games[0].pk})
    # His own table's game under embargo, yes; the other table's, no.
    html = client.get(url).content.decode()
    assert f'<option value="{games[1].pk}">' not in html
    html = client.get(f"{url}?with={games[1].pk}").content.decode()
    assert html.count('class="replay-panel"') == 1 and 'id="not-compared"' in html
    # The same words as for a game that does not exist: nothing tells which.
    missing = client.get(f"{url}?with=999999999").content.decode()
    said = re.compile(r'<p class="error" id="not-compared" role="alert">Game \d+ (.*?)</p>')
    assert said.search(html).group(1) == said.search(missing).group(1)


# --- Hand records --------------------------------------------------------------------------


def test_print_hand_records_draw_suits_in_colour_several_boards_a_page(client) -> None:
    event, round_, _tables, _boards = duplicate_round(tables=2, boards=6, seed="print")
    organizer = User.objects.create_user("print-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client.force_login(organizer)
    url = reverse(
        "organizer:print",
        kwargs={"slug": event.slug, "number": round_.number, "what": "hand-records"},
    )
    html = client.get(url).content.decode()
    assert "size: A4" in html
    # No page break after each board: the boards flow several to a page.
    assert 'class="sheet' not in html
    assert html.count('class="hand-record"') == 6
    # Each hand by suit, hearts and diamonds in red, every card once.
    hearts = re.findall(r'<span class="suit suit-h">♥</span>', html)
    assert hearts and ".suit-h, .suit-d { color:" in html
    first = html.split('class="hand-record"')[1].split('class="hand-record"')[0]
    ranks = re.findall(r'<span class="ranks">([^<]*)</span>', first)
    cards = sum(len([t for t in r.split() if t != "—"]) for r in ranks)
    assert cards == 3 * 17 + 3  # the three hands and the bottom cards


def test_hand_records_write_the_ten_as_the_site_writes_it(client) -> None:
    # R-NOTE writes the ten T (plays "TJQKA", hands "33445TJ"); a hand record that wrote 10
    # would be the only page where a dealer reads a different card name.
    event, round_, _tables, _boards = duplicate_round(tables=1, boards=2, seed="tens")
    organizer = User.objects.create_user("tens-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client.force_login(organizer)
    html = client.get(
        reverse(
            "organizer:print",
            kwargs={"slug": event.slug, "number": round_.number, "what": "hand-records"},
        )
    ).content.decode()
    for record in html.split('class="hand-record"')[1:]:
        tokens = [
            t
            for ranks in re.findall(r'<span class="ranks">([^<]*)</span>', record)
            for t in ranks.split()
        ]
        # One deck holds four tens, one a suit, in the hands or the bottom.
        assert tokens.count("T") == 4 and "10" not in tokens


def test_public_hand_records_use_the_same_coloured_suits(client) -> None:
    event, round_, tables, boards = duplicate_round(tables=1, boards=2, seed="public-print")
    for board in boards:
        game = game_submit(table=tables[0], board=board, record=bot_record(board, tables[0]))
        game_verify(game_id=game.pk)
    html = client.get(
        reverse("public:hands", kwargs={"slug": event.slug, "number": round_.number})
    ).content.decode()
    assert html.count('class="hand-record"') == 2 and 'class="suit suit-h"' in html


# --- Phone tables --------------------------------------------------------------------------


def test_standings_put_rank_name_and_percentage_first(client) -> None:
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="phone")
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    html = client.get(reverse("public:standings", kwargs={"slug": event.slug})).content.decode()
    head = html.split('id="standings"')[1].split("</thead>")[0]
    columns = re.findall(r"<th[^>]*>([^<]*)</th>", head)
    assert columns[:3] == ["Rank", "Player", "%"]
