"""The live table (tournaments.tables.live): each seat records its own steps, the server judges.

A step is taken only from the seat whose turn it is (or the referee device), only on the
position the device saw, and only if the engine accepts it; the finishing step stores the game
once through the one write path; an undo needs the seat that played and the next seat, or the
referee.
"""

from __future__ import annotations

import pytest

from games.models import EntryDraft, Game
from games.records import GameRejected
from tests.conftest import race
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.core.access import NotAllowed
from tournaments.links import tokens
from tournaments.links.devices import seat_device
from tournaments.models import AuditEntry
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


def _seats(record: dict) -> list[str]:
    return [s for s, _c in record["bidding"]] + [s for s, _c in record["plays"]]


def _table():
    world = build_world(seed="live-table")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    table, board = world.tables[0], world.boards[0]
    bearers = {}
    for seat, url in made[0].seats:
        device = seat_device(url.strip("/").split("/")[1], board.number, device="phone")
        bearers[seat] = device.bearer
    return world, table, board, bearers


def _play(table, board, bearers, record: dict, n: int) -> None:
    """The first `n` steps of `record`, each from the device of the seat that made it."""
    for at, (seat, step) in enumerate(zip(_seats(record)[:n], _steps(record)[:n], strict=True)):
        live.live_step(table=table, board=board, seat=seat, step=step, at=at, actor=bearers[seat])


def test_every_seat_plays_its_own_steps_and_the_last_one_stores_the_game_once() -> None:
    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    for at, (seat, step) in enumerate(zip(_seats(record), _steps(record), strict=True)):
        state, error = live.live_step(
            table=table, board=board, seat=seat, step=step, at=at, actor=bearers[seat]
        )
        assert error is None, (at, seat, step, error)
    games = Game.objects.filter(table=table, board=board)
    assert games.count() == 1
    game = games.get()
    assert game.source == "seat" and game.record["plays"] == [list(p) for p in record["plays"]]
    assert state.game == game and state.position.finished
    assert not EntryDraft.objects.filter(table=table, board=board).exists()
    # Audited as the seat links that played each step ("table 1, seat S link").
    whos = {e.who for e in AuditEntry.objects.filter(action="entry.step")}
    assert whos == {f"table {table.number}, seat {s} link" for s in set(_seats(record))}
    # The finishing step sent again (a retry) stores nothing more.
    with pytest.raises(live.LiveConflict):
        live.live_step(
            table=table,
            board=board,
            seat=_seats(record)[-1],
            step=_steps(record)[-1],
            at=len(_steps(record)) - 1,
            actor=bearers[_seats(record)[-1]],
        )
    assert Game.objects.filter(table=table, board=board).count() == 1


def test_only_the_seat_to_move_acts_and_only_on_the_position_it_saw() -> None:
    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    first_seat, first_step = _seats(record)[0], _steps(record)[0]
    other = next(s for s in bearers if s != first_seat)
    with pytest.raises(live.LiveConflict) as turn:
        live.live_step(
            table=table, board=board, seat=other, step=first_step, at=0, actor=bearers[other]
        )
    assert first_seat in turn.value.message and turn.value.view["at"] == 0
    live.live_step(
        table=table, board=board, seat=first_seat, step=first_step, at=0, actor=bearers[first_seat]
    )
    second_seat, second_step = _seats(record)[1], _steps(record)[1]
    # A device that still shows the start acts on a position that moved on: refused, and
    # shown the table now.
    with pytest.raises(live.LiveConflict) as stale:
        live.live_step(
            table=table,
            board=board,
            seat=second_seat,
            step=second_step,
            at=0,
            actor=bearers[second_seat],
        )
    assert stale.value.view["at"] == 1
    assert EntryDraft.objects.get(table=table, board=board).steps == [first_step]


def test_a_step_the_engine_refuses_stores_nothing_and_says_why() -> None:
    _world, table, board, bearers = _table()
    seat = board.first_bidder or "S"
    state, error = live.live_step(
        table=table, board=board, seat=seat, step="double", at=0, actor=bearers[seat]
    )
    assert error is not None and error["rule"].startswith("R-") and error["seat"] == seat
    assert state.position.steps == ()
    assert not EntryDraft.objects.filter(table=table, board=board, steps__len__gt=0).exists()


def test_a_seat_of_another_table_may_not_act_here() -> None:
    world, _table1, board, bearers = _table()
    other_table = world.tables[1]
    with pytest.raises(NotAllowed):
        live.live_step(table=other_table, board=board, seat="S", step="p", at=0, actor=bearers["S"])


def test_undo_needs_the_seat_that_played_and_the_next_one_or_the_referee() -> None:
    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    seats, steps = _seats(record), _steps(record)
    _play(table, board, bearers, record, 2)
    played, next_seat = seats[1], seats[2]
    third = next(s for s in bearers if s not in (played, next_seat))
    # The third seat may neither ask nor agree.
    with pytest.raises(live.LiveConflict):
        live.live_undo(table=table, board=board, seat=third, at=2, actor=bearers[third])
    asked = live.live_undo(table=table, board=board, seat=played, at=2, actor=bearers[played])
    assert asked.undo == {"at": 1, "by": played} and len(asked.position.steps) == 2
    agreed = live.live_undo(
        table=table, board=board, seat=next_seat, at=2, actor=bearers[next_seat]
    )
    assert list(agreed.position.steps) == steps[:1] and not agreed.undo
    # The referee device takes back at once.
    referee = tokens.LinkBearer.of(_referee_link(table), device="sheet")
    done = live.live_undo(table=table, board=board, seat=None, at=1, actor=referee)
    assert done.position.steps == ()


def _referee_link(table):
    from tournaments.models import TableLink

    return TableLink.objects.get(round=table.round, table_number=table.number, revoked_at=None)


def test_two_devices_acting_at_once_one_wins_the_other_sees_the_new_position(
    transactional_db,
) -> None:
    _world, table, board, bearers = _table()
    seat = board.first_bidder or "S"
    referee = tokens.LinkBearer.of(_referee_link(table), device="sheet")
    # The seat's phone and the referee device record two different first calls at the same
    # moment (the same call twice is one step, recorded once: the next test).
    devices = iter([(seat, bearers[seat], "p"), (None, referee, "1")])

    def act():
        who, actor, step = next(devices)
        return live.live_step(table=table, board=board, seat=who, step=step, at=0, actor=actor)

    outcomes = race(2, act)
    won = [o for o in outcomes if isinstance(o, tuple)]
    lost = [o for o in outcomes if isinstance(o, live.LiveConflict)]
    assert len(won) == 1 and len(lost) == 1
    assert lost[0].view["at"] == 1
    assert EntryDraft.objects.get(table=table, board=board).steps in (["p"], ["1"])


def test_a_step_sent_twice_is_recorded_once_and_answered_as_the_first_time() -> None:
    """A double tap, or a retry after a lost answer, was told "Another device moved first"
    though no other device moved (a trial's finding): the same step from the same seat is
    one step, answered with the table as it is; once the table moved on, the device is told
    its step is recorded."""
    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    seats, steps = _seats(record), _steps(record)
    first, second = seats[0], seats[1]
    once, error = live.live_step(
        table=table, board=board, seat=first, step=steps[0], at=0, actor=bearers[first]
    )
    again, error_again = live.live_step(
        table=table, board=board, seat=first, step=steps[0], at=0, actor=bearers[first]
    )
    assert error is None and error_again is None
    assert again.position.steps == once.position.steps and len(again.position.steps) == 1
    assert EntryDraft.objects.get(table=table, board=board).steps == list(once.position.steps)
    assert AuditEntry.objects.filter(action="entry.step").count() == 1
    live.live_step(
        table=table, board=board, seat=second, step=steps[1], at=1, actor=bearers[second]
    )
    with pytest.raises(live.LiveConflict, match="Your step is recorded already"):
        live.live_step(
            table=table, board=board, seat=first, step=steps[0], at=0, actor=bearers[first]
        )
    # Another seat sending that step is no repeat: it was not its turn.
    with pytest.raises(live.LiveConflict) as other:
        live.live_step(
            table=table, board=board, seat=second, step=steps[0], at=0, actor=bearers[second]
        )
    assert "recorded already" not in other.value.message


def test_a_finished_game_refused_by_the_write_path_leaves_the_draft_as_it_was(monkeypatch) -> None:
    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    seats, steps = _seats(record), _steps(record)
    _play(table, board, bearers, record, len(steps) - 1)

    def refuse(**_kwargs):
        raise GameRejected("refused for the test")

    monkeypatch.setattr(live, "game_submit", refuse)
    with pytest.raises(GameRejected):
        live.live_step(
            table=table,
            board=board,
            seat=seats[-1],
            step=steps[-1],
            at=len(steps) - 1,
            actor=bearers[seats[-1]],
        )
    assert EntryDraft.objects.get(table=table, board=board).steps == steps[:-1]
    assert not Game.objects.filter(table=table, board=board).exists()


def test_the_typed_entry_cannot_erase_steps_the_seat_devices_recorded() -> None:
    from tournaments.tables.review import StateConflict, step_check

    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    steps = _steps(record)
    _play(table, board, bearers, record, 3)
    referee = tokens.LinkBearer.of(_referee_link(table), device="old page")
    # The referee's typed entry still shows the start and types the first call again.
    with pytest.raises(StateConflict):
        step_check(table=table, board=board, steps=[], step=steps[0], actor=referee)
    assert EntryDraft.objects.get(table=table, board=board).steps == steps[:3]
    # On the table's position it goes on as before.
    _position, error = step_check(
        table=table, board=board, steps=steps[:3], step=steps[3], actor=referee
    )
    assert error is None
    assert EntryDraft.objects.get(table=table, board=board).steps == steps[:4]


def test_an_undo_after_the_game_is_stored_shows_the_stored_game() -> None:
    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    seats, steps = _seats(record), _steps(record)
    _play(table, board, bearers, record, len(steps))
    with pytest.raises(live.LiveConflict) as stored:
        live.live_undo(
            table=table, board=board, seat=seats[-1], at=len(steps), actor=bearers[seats[-1]]
        )
    assert stored.value.view["game"] is not None and stored.value.view["at"] == len(steps)


def test_a_device_ahead_of_the_table_is_told_so() -> None:
    _world, table, board, bearers = _table()
    seat = board.first_bidder or "S"
    with pytest.raises(live.LiveConflict) as ahead:
        live.live_step(table=table, board=board, seat=seat, step="pass", at=5, actor=bearers[seat])
    assert "does not have" in ahead.value.message and ahead.value.view["at"] == 0


def test_a_result_recorded_by_the_referee_ends_the_board_on_the_seat_devices() -> None:
    """Seats mid-bidding; the referee records the board's quick result (no steps): the seats'
    position was the deal again, with the bidding menu offered and a seat to move beside
    "Recorded: game N" (the third trial's finding). The board is over: nobody is to move and no
    seat is offered a call."""
    from games.models import Status

    _world, table, board, bearers = _table()
    record = bot_record(board, table)
    _play(table, board, bearers, record, 2)
    Game.objects.create(
        table=table,
        board=board,
        record={},
        status=Status.VERIFIED,
        score={"S": 2, "E": -1, "W": -1},
    )
    EntryDraft.objects.filter(table=table, board=board).delete()
    state = live.live_state(table=table, board=board)
    for seat in ("S", "E", "W", None):
        view = state.view(seat)
        assert view["game"] is not None
        assert view["menu"] is None and view["to_move"] is None, seat


def test_a_bid_that_ends_the_auction_is_taken_back_with_another_seats_agreement() -> None:
    """The seat that bid 3 ends the auction and leads (R-BID): it played the last step and is
    to move, so no seat could agree to its undo and the players were stuck (a trial's finding).
    It asks; any other seat agrees; it cannot agree to its own."""
    _world, table, board, bearers = _table()
    first = board.first_bidder or "S"
    state, error = live.live_step(
        table=table, board=board, seat=first, step="3", at=0, actor=bearers[first]
    )
    assert error is None and state.position.to_move == first
    asked = live.live_undo(table=table, board=board, seat=first, at=1, actor=bearers[first])
    assert asked.undo == {"at": 0, "by": first} and len(asked.position.steps) == 1
    again = live.live_undo(table=table, board=board, seat=first, at=1, actor=bearers[first])
    assert len(again.position.steps) == 1  # asking again is no agreement
    other = next(s for s in bearers if s != first)
    agreed = live.live_undo(table=table, board=board, seat=other, at=1, actor=bearers[other])
    assert agreed.position.steps == () and not agreed.undo
