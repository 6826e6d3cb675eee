"""live.live_steps_by: several steps chosen for the seats to move taken as one write (the
robots of an online table answering, or finishing a board at the close): each judged by the
engine and audited as a step from a device is, the draft saved once, and the finishing step
storing the game once; a step the engine refuses stores nothing of the batch."""

from __future__ import annotations

import pytest

from games.models import EntryDraft, Game
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.models import AuditEntry
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


def _seats(record: dict) -> list[str]:
    return [s for s, _c in record["bidding"]] + [s for s, _c in record["plays"]]


def _world():
    world = build_world(seed="live-steps-by")
    return world.tables[0], world.boards[0]


def test_a_batch_up_to_a_stop_is_saved_once_and_audited_step_by_step() -> None:
    table, board = _world()
    record = bot_record(board, table)
    steps = _steps(record)
    # Stop before the sixth step: as robots stop at an entrant's turn.
    state, seats = live.live_steps_by(
        table=table,
        board=board,
        choose=lambda p: steps[len(p.steps)] if len(p.steps) < 5 else None,
    )
    assert seats == _seats(record)[:5]
    assert list(EntryDraft.objects.get(table=table, board=board).steps) == steps[:5]
    assert state.game is None and len(state.position.steps) == 5
    audited = AuditEntry.objects.filter(action="entry.step").order_by("pk")
    assert [a.changes["at"] for a in audited] == [0, 1, 2, 3, 4]
    assert [a.changes["seat"] for a in audited] == _seats(record)[:5]


def test_a_batch_to_the_end_stores_the_game_once_as_the_record() -> None:
    table, board = _world()
    record = bot_record(board, table)
    steps = _steps(record)
    state, seats = live.live_steps_by(
        table=table, board=board, choose=lambda p: steps[len(p.steps)]
    )
    assert len(seats) == len(steps)
    game = Game.objects.get(table=table, board=board)
    assert state.game == game and game.source == "seat"
    assert game.record["plays"] == record["plays"]
    # Again on a recorded board: nothing taken, the stored game answered.
    again, none = live.live_steps_by(table=table, board=board, choose=lambda p: "pass")
    assert none == [] and again.game == game
    assert Game.objects.filter(table=table, board=board).count() == 1


def test_a_refused_step_stores_nothing_of_the_batch() -> None:
    table, board = _world()
    record = bot_record(board, table)
    steps = _steps(record)

    def choose(position):
        # Three good steps, then a card no seat holds twice (R-HAND: a play from the hand).
        return steps[len(position.steps)] if len(position.steps) < 3 else "3333 3"

    with pytest.raises(ValueError, match="step 3"):
        live.live_steps_by(table=table, board=board, choose=choose)
    draft = EntryDraft.objects.filter(table=table, board=board).first()
    assert draft is None or list(draft.steps) == []
    assert not AuditEntry.objects.filter(action="entry.step").exists()
