"""The big screen shows what the room needs during a round: the boards in play (how many tables
finished each), the late tables (fewer boards finished than the round's clock calls for at an
even pace, or, before the clock starts, than the middle table of the room), the next round's
seating once it is seated, and, with ``?cycle=S``, the standings and the travellers of the
boards everyone may see, one page every S seconds. Nothing under embargo, whoever asks.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.entry_personas import build_world
from tests.factories import bot_record, duplicate_round
from tournaments.events import clock
from tournaments.models import Round, RoundState
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _play(world, pairs: list[tuple[int, int]]) -> None:
    """A verified bot game at each (table number, board number) of the world's round."""
    tables = {t.number: t for t in world.tables}
    boards = {b.number: b for b in world.boards}
    for t, b in pairs:
        table, board = tables[t], boards[b]
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        game_verify(game_id=game.pk)


def _screen(world, query: str = "", client: Client | None = None) -> str:
    answer = (client or Client()).get(reverse("public:screen", args=[world.event.slug]) + query)
    assert answer.status_code == 200
    return answer.content.decode()


def _late(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-late-table="(\d+)"', page)]


def _boards_in_play(page: str) -> dict[int, tuple[int, int]]:
    return {
        int(b): (int(f), int(t))
        for b, f, t in re.findall(
            r'data-board="(\d+)" data-finished="(\d+)" data-tables="(\d+)"', page
        )
    }


@pytest.fixture
def in_play():
    """A round of three tables and three boards in play: table 1 finished every board,
    table 2 board 1, table 3 none."""
    world = build_world(seed="room-screen", tables=3, boards=3)
    _play(world, [(1, 1), (1, 2), (1, 3), (2, 1)])
    return world


def test_the_screen_shows_each_board_in_play_with_the_tables_that_finished_it(in_play) -> None:
    page = _screen(in_play)
    assert _boards_in_play(page) == {1: (2, 3), 2: (1, 3), 3: (1, 3)}


def test_late_tables_by_the_round_clock(in_play) -> None:
    round_, chief = in_play.tables[0].round, in_play.users["chief"]
    # 20 minutes of a 30-minute round of 3 boards: 2 boards are due at an even pace.
    clock.clock_start(
        round_=round_, minutes=30, actor=chief, at=timezone.now() - timedelta(minutes=20)
    )
    page = _screen(in_play)
    assert _late(page) == [2, 3]
    # Table 3: 0 of 3 boards finished, 2 due.
    item = re.search(r'<li[^>]*data-late-table="3"[^>]*>(.*?)</li>', page, re.S)
    assert item and re.findall(r"\d+", re.sub(r"<[^>]+>", " ", item.group(1))) == [
        "3",
        "0",
        "3",
        "2",
    ]
    # Table 2's 30 extra minutes make a 60-minute round for it: 1 board due, 1 finished.
    clock.clock_extra_time(table=in_play.tables[1], minutes=30, actor=chief)
    assert _late(_screen(in_play)) == [3]


def test_late_tables_before_the_clock_starts_are_those_behind_the_middle_table(in_play) -> None:
    # Finished 3, 1 and 0 boards: the middle table finished 1; table 3 is behind it.
    assert _late(_screen(in_play)) == [3]


def test_a_room_at_one_pace_has_no_late_table() -> None:
    world = build_world(seed="room-even", tables=3, boards=2)
    _play(world, [(1, 1), (2, 1), (3, 1)])
    page = _screen(world)
    assert _late(page) == []
    assert _boards_in_play(page) == {1: (3, 3), 2: (0, 3)}


def test_the_next_rounds_seating_is_shown_once_it_is_seated(in_play) -> None:
    _event, second, tables, _boards = duplicate_round(
        tables=2, boards=1, event=in_play.event, seed="room-next"
    )
    names = [s.player.name for t in tables for s in t.seats.select_related("player")]
    Round.objects.filter(pk=second.pk).update(state=RoundState.DRAFT)
    page = _screen(in_play)
    assert 'id="screen-next"' not in page
    Round.objects.filter(pk=second.pk).update(state=RoundState.SEATED)
    page = _screen(in_play)
    next_part = page[page.index('id="screen-next"') :]
    assert re.search(r"\bround 2\b", next_part[:400], re.IGNORECASE)
    for name in names:
        assert name in next_part
    # Its tables are not the round clock's: no extra time shown against them.
    assert "data-table=" not in next_part.split("</section>", 1)[0]
    # A cycling screen gives it a page of its own.
    cycling = _screen(in_play, "?cycle=20")
    assert cycling.count('id="screen-next"') == 1
    assert re.search(r'<section id="screen-next" class="cycle-panel" hidden>', cycling)


def test_the_room_part_alone_for_the_screens_refresh(in_play) -> None:
    part = _screen(in_play, "?fragment=room")
    assert "<html" not in part
    assert _late(part) == [3]
    assert _boards_in_play(part) == {1: (2, 3), 2: (1, 3), 3: (1, 3)}


@pytest.fixture
def one_board_open():
    """Three tables, two boards: board 1 finished everywhere (open), board 2 at two tables
    (under embargo); the standings stored."""
    world = build_world(seed="room-cycle", tables=3, boards=2)
    _play(world, [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)])
    standings_recompute(event_id=world.event.pk)
    return world


def test_cycling_shows_the_standings_and_the_open_boards_travellers(one_board_open) -> None:
    page = _screen(one_board_open, "?cycle=20")
    assert 'data-cycle="20"' in page
    assert 'id="screen-standings"' in page
    assert 'id="screen-board-1"' in page
    # Board 2 is still being played: neither its traveller nor its scores.
    assert 'id="screen-board-2"' not in page
    assert 'id="cycle-timer"' in page


def test_the_screen_is_the_same_for_an_organizer(one_board_open) -> None:
    client = Client()
    client.force_login(one_board_open.users["organizer"])
    page = _screen(one_board_open, "?cycle=20", client)
    assert 'id="screen-board-1"' in page and 'id="screen-board-2"' not in page
    assert "csrfmiddlewaretoken" not in page


def test_without_cycle_no_traveller_is_on_the_screen(one_board_open) -> None:
    page = _screen(one_board_open)
    assert 'data-cycle="' not in page and 'id="screen-board-1"' not in page


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        # A page every 20 seconds unless told; from 5 seconds (readable) to 5 minutes.
        ("", 20),
        ("abc", 20),
        ("٣", 20),
        ("0", 5),
        ("99999999999999999999", 300),
        ("45", 45),
    ],
)
def test_the_cycles_seconds_are_kept_within_bounds(one_board_open, value, seconds) -> None:
    page = _screen(one_board_open, f"?cycle={value}")
    assert f'data-cycle="{seconds}"' in page


def test_before_any_board_of_the_round_is_open_the_last_rounds_travellers_cycle() -> None:
    world = build_world(seed="room-last", tables=2, boards=2)
    _play(world, [(1, 1), (2, 1), (1, 2), (2, 2)])
    _event, _second, tables, boards = duplicate_round(
        tables=2, boards=1, event=world.event, seed="room-last-2"
    )
    Round.objects.filter(pk=world.tables[0].round_id).update(state=RoundState.CLOSED)
    page = _screen(world, "?cycle=20")
    assert 'id="screen-board-1"' in page and 'id="screen-board-2"' in page
    assert 'id="screen-board-3"' not in page
    # Board 3 finished at one table of two: still last round's travellers.
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    page = _screen(world, "?cycle=20")
    assert 'id="screen-board-1"' in page and 'id="screen-board-3"' not in page
    game = game_submit(table=tables[1], board=boards[0], record=bot_record(boards[0], tables[1]))
    game_verify(game_id=game.pk)
    page = _screen(world, "?cycle=20")
    assert 'id="screen-board-3"' in page
    assert 'id="screen-board-1"' not in page and 'id="screen-board-2"' not in page
