"""Public pages: what a person sees, in English and in Chinese, with the embargo."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Status
from tests.factories import bot_record, duplicate_round
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """One round of three tables; board 1 played everywhere, board 2 at table 1 only."""
    event, _round, tables, boards = duplicate_round(tables=3, boards=2, seed="views")
    games = []
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
        games.append(game)
    late = game_submit(table=tables[0], board=boards[1], record=bot_record(boards[1], tables[0]))
    standings_recompute(event_id=event.pk)
    return event, tables, boards, games, late


def test_event_list_and_event_page_show_the_standings(client, played) -> None:
    event, tables, *_ = played
    html = client.get(reverse("public:events")).content.decode()
    assert event.name in html and event.get_absolute_url() in html
    html = client.get(event.get_absolute_url()).content.decode()
    assert 'id="standings"' in html
    for seat in tables[0].seats.all():
        assert seat.player.name in html
    assert 'name="viewport"' in html


def test_standings_page_query_budget(client, played, django_assert_max_num_queries) -> None:
    event = played[0]
    with django_assert_max_num_queries(8):
        assert client.get(event.get_absolute_url()).status_code == 200


def test_traveller_shows_every_table_side_by_side(client, played) -> None:
    event, tables, boards, games, _late = played
    html = client.get(boards[0].get_absolute_url()).content.decode()
    assert 'id="traveller"' in html
    for game in games:
        game.refresh_from_db()
        assert game.get_absolute_url() in html
        assert f">{game.score['S']}<" in html
    assert "♠" in html or "♥" in html  # the deal is shown with suits


def test_traveller_is_embargoed_until_every_table_has_played(client, played, admin_client) -> None:
    _event, _tables, boards, _games, late = played
    html = client.get(boards[1].get_absolute_url()).content.decode()
    assert "still being played" in html and 'id="traveller"' not in html
    # The late table's game itself is not found, as a game that does not exist: its page
    # would tell that it exists (test_hidden_game_answers_as_missing).
    assert client.get(late.get_absolute_url()).status_code == 404
    assert 'id="traveller"' in admin_client.get(boards[1].get_absolute_url()).content.decode()


def test_scorecard_lists_the_players_boards(client, played) -> None:
    event, tables, boards, _games, _late = played
    seat = tables[1].seats.get(seat="E")
    url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": seat.player_id})
    html = client.get(url).content.decode()
    assert seat.player.name in html and 'id="scorecard"' in html
    assert boards[0].get_absolute_url() in html


def test_game_page_shows_record_status_and_error(client, played) -> None:
    event, tables, boards, games, _late = played
    html = client.get(games[0].get_absolute_url()).content.decode()
    assert 'id="status"' in html and "verified" in html and 'id="engine-error"' not in html
    record = bot_record(boards[0], tables[1])
    record["declared"] = {"S": 1, "E": 1, "W": -2}
    bad = game_submit(table=tables[1], board=boards[0], record=record, replaces=1)
    game_verify(game_id=bad.pk)
    bad.refresh_from_db()
    assert bad.status == Status.MISMATCH
    html = client.get(bad.get_absolute_url()).content.decode()
    assert 'id="engine-error"' in html and "mismatch" in html


def test_pages_in_chinese(client, played) -> None:
    event, _tables, boards, games, _late = played
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    html = client.get(event.get_absolute_url(), **zh).content.decode()
    assert "排名" in html and "复式" in html
    for game in games:
        game.refresh_from_db()
    game = next(g for g in games if g.landlord)
    html = client.get(game.get_absolute_url(), **zh).content.decode()
    assert "地主" in html and "农民" in html and "底牌" in html and "叫分" in html
    assert "积分" in html and "炸弹" in html and "火箭" in html
    assert "已校验" in html


def test_unknown_pages_are_404(client) -> None:
    assert client.get("/events/nope/").status_code == 404
    assert client.get("/games/999999/").status_code == 404


def test_query_budgets_of_the_other_pages(client, played, django_assert_max_num_queries) -> None:
    event, tables, boards, games, _late = played
    seat = tables[0].seats.get(seat="S")
    scorecard = reverse(
        "public:scorecard", kwargs={"slug": event.slug, "player_id": seat.player_id}
    )
    for url, budget in [
        (reverse("public:events"), 4),
        (boards[0].get_absolute_url(), 14),
        (scorecard, 17),  # one more for the substitutions (tournaments.events.substitutions)
        (games[0].get_absolute_url(), 10),
    ]:
        with django_assert_max_num_queries(budget):
            assert client.get(url).status_code == 200


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _suited(text: str) -> str:
    """'S3 H3 BJ' → '♠3 ♥3 BJ', written out here rather than through the template filter."""
    return " ".join(
        SUIT_SYMBOLS.get(t[0], t[0]) + t[1:] if t[0] in "SHDC" else t for t in text.split()
    )


def test_game_page_shows_the_boards_suited_hands_and_bottom(client, played) -> None:
    _event, _tables, boards, games, late = played
    html = client.get(games[0].get_absolute_url()).content.decode()
    for seat in ("S", "E", "W"):
        assert f'<td class="cards">{_suited(boards[0].hands[seat])}</td>' in html
    assert f'<td class="cards">{_suited(boards[0].bottom)}</td>' in html
    # The record holds ranks only: that text is not what the page shows.
    assert games[0].record["hands"]["S"] not in html
    # Under the embargo, no card of board 2 is shown at all.
    html = client.get(late.get_absolute_url()).content.decode()
    assert not any(symbol in html for symbol in SUIT_SYMBOLS.values())
    assert _suited(boards[1].hands["S"]) not in html


def test_the_event_page_says_which_boards_are_played_now_and_which_later(client) -> None:
    """The event page called every board not open yet "being played", those of the draft rounds
    to come too (the third trial's finding). A board whose round is in play is being played; one
    of a round not started yet is to be played."""
    from tests.factories import EventFactory, duplicate_round
    from tournaments.models import Round, RoundState

    event = EventFactory()
    duplicate_round(tables=2, boards=1, event=event, seed="now")
    duplicate_round(tables=2, boards=1, event=event, seed="later")
    Round.objects.filter(event=event, number=1).update(state=RoundState.IN_PLAY)
    Round.objects.filter(event=event, number=2).update(state=RoundState.DRAFT)
    html = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = {
        number: html.split(f"Board {number}</a>", 1)[1].split("</td>", 1)[0] for number in (1, 2)
    }
    assert "being played" in rows[1]
    assert "being played" not in rows[2] and "to be played" in rows[2]
