"""Who may write (tournaments.core.access, the one place roles are read), walked through every
ruling service with every role: an adjusted score, its removal, a penalty, its withdrawal are
a chief referee's or an organizer's rulings (DESIGN.md: "Adjustment: a referee's ruling";
Role: chief referees settle what happened at the tables); no other role, and no anonymous
visitor, may make them, whatever the door that calls the service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from tests.factories import duplicate_round
from tests.paths import ROOT_DIR
from tournaments.core.access import NotAllowed
from tournaments.core.access import NotAllowed as GameNotAllowed
from tournaments.models import Adjustment, EventRole, Penalty, Role, TableAssignment
from tournaments.standings.penalties import penalty_add, penalty_remove
from tournaments.standings.rulings import (
    adjusted_scores_set,
    adjustment_remove,
    adjustment_set,
    weighted_score_set,
)

pytestmark = pytest.mark.django_db

# Role → whether it may make rulings (DESIGN.md; tournaments.core.access.may_rule).
ROLES = {
    "organizer": True,
    "chief_referee": True,
    "superuser": True,
    "referee": False,  # even at his assigned table
    "player": False,
    "signed_in_without_role": False,
    "anonymous": False,
}


def _actor(role: str, event: Any, table: Any) -> Any:
    if role == "anonymous":
        return AnonymousUser()
    if role == "superuser":
        return User.objects.create_superuser(role, f"{role}@example.org", "pw")
    user = User.objects.create_user(role, password="pw")
    if role in ("organizer", "chief_referee", "referee", "player"):
        EventRole.objects.create(event=event, user=user, role=role)
    if role == "referee":
        TableAssignment.objects.create(table=table, user=user)
    return user


def _adjust(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    return lambda: adjustment_set(table=table, board=board, seat="S", kind="avg", actor=actor)


def _adjust_sides(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    scores = {"S": "61.8%", "E": "38.2%", "W": "38.2%"}
    return lambda: adjusted_scores_set(
        table=table, board=board, scores=scores, reason="misinformation", actor=actor
    )


def _weigh(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    results = [("1/2", {"S": 6, "E": -3, "W": -3}), ("1/2", {"S": -3, "E": 6, "W": -3})]
    return lambda: weighted_score_set(
        table=table, board=board, results=results, reason="a revoke", actor=actor
    )


def _unadjust(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    made = Adjustment.objects.create(table=table, board=board, seat="E", kind="avg")
    return lambda: adjustment_remove(adjustment_id=made.pk, actor=actor)


def _penalise(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    player = table.seats.first().player
    return lambda: penalty_add(event=event, player=player, points="1", reason="late", actor=actor)


def _unpenalise(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    player = table.seats.first().player
    made = Penalty.objects.create(event=event, player=player, points="1", reason="late")
    return lambda: penalty_remove(penalty_id=made.pk, actor=actor)


SERVICES = {
    "adjustment_set": (_adjust, lambda: Adjustment.objects.filter(seat="S").count()),
    "adjusted_scores_set": (_adjust_sides, lambda: Adjustment.objects.count()),
    "weighted_score_set": (_weigh, lambda: Adjustment.objects.count()),
    "adjustment_remove": (_unadjust, lambda: Adjustment.objects.count()),
    "penalty_add": (_penalise, lambda: Penalty.objects.count()),
    "penalty_remove": (_unpenalise, lambda: Penalty.objects.count()),
}


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize("service", list(SERVICES))
def test_every_ruling_service_asks_access_with_every_role(service: str, role: str) -> None:
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="rulings")
    actor = _actor(role, event, tables[0])
    prepare, rows = SERVICES[service]
    call = prepare(event, tables[0], boards[0], actor)
    before = rows()
    if ROLES[role]:
        call()
        assert rows() != before
    else:
        with pytest.raises(NotAllowed):
            call()
        assert rows() == before


def test_a_plain_player_may_not_penalise() -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="player")
    player = User.objects.create_user("pl", password="pw")
    EventRole.objects.create(event=event, user=player, role=Role.PLAYER)
    victim = tables[0].seats.first().player
    with pytest.raises(NotAllowed):
        penalty_add(event=event, player=victim, points="5", reason="spite", actor=player)
    assert not Penalty.objects.exists()


def test_one_refusal_for_games_and_rulings() -> None:
    """tournaments.tables.review refuses with the same error as the rulings (one place: access)."""
    assert GameNotAllowed is NotAllowed


# Every other service that writes, with who may call it (DESIGN.md "Who uses it"): organizers
# run the event (superusers count as organizers of every event); chief referees also run the
# round clock and rule on flagged games. A refusal writes nothing, not even an audit entry.
ORGANIZERS = {"organizer", "superuser"}
CHIEFS = ORGANIZERS | {"chief_referee"}


def _walk_services() -> dict[str, tuple[set[str], Callable[..., Callable[[], Any]]]]:
    from games.models import Game, Status
    from tournaments import links as links
    from tournaments.events import clock, officials, rounds, stages
    from tournaments.links import tokens
    from tournaments.models import Player, RoundState
    from tournaments.tables.review import game_resolve

    def in_play(round_: Any) -> Any:
        type(round_).objects.filter(pk=round_.pk).update(state=RoundState.IN_PLAY)
        round_.refresh_from_db()
        return round_

    def flagged(table: Any, board: Any) -> int:
        return Game.objects.create(table=table, board=board, record={}, status=Status.MISMATCH).pk

    return {
        "round_create": (
            ORGANIZERS,
            lambda e, r, t, b, a: lambda: rounds.round_create(event=e, actor=a),
        ),
        "stage_create": (
            ORGANIZERS,
            lambda e, r, t, b, a: lambda: stages.stage_create(event=e, actor=a),
        ),
        "entry_add": (
            ORGANIZERS,
            lambda e, r, t, b, a: (lambda p: lambda: rounds.entry_add(event=e, player=p, actor=a))(
                Player.objects.create(name="Newcomer")
            ),
        ),
        "official_add": (
            ORGANIZERS,
            lambda e, r, t, b, a: (
                lambda: officials.official_add(
                    event=e, actor=a, username="new-referee", role="referee", password="pw-new-1234"
                )
            ),
        ),
        "table_links_make": (
            ORGANIZERS,
            lambda e, r, t, b, a: lambda: tokens.table_links_make(event=e, actor=a, round_=r),
        ),
        "clock_start": (
            CHIEFS,
            lambda e, r, t, b, a: (
                lambda rr: lambda: clock.clock_start(round_=rr, minutes=30, actor=a)
            )(in_play(r)),
        ),
        "game_resolve": (
            CHIEFS,
            lambda e, r, t, b, a: (
                lambda pk: (
                    lambda: game_resolve(
                        game_id=pk, actor=a, decision="accept", note="the engine's score stands"
                    )
                )
            )(flagged(t, b)),
        ),
    }


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize(
    "service",
    [
        "round_create",
        "stage_create",
        "entry_add",
        "official_add",
        "table_links_make",
        "clock_start",
        "game_resolve",
    ],
)
def test_every_other_writing_service_asks_access_with_every_role(service: str, role: str) -> None:
    from ddz_site.kernel.errors import DomainError
    from tournaments.models import AuditEntry

    event, round_, tables, boards = duplicate_round(tables=2, boards=1, seed="walk")
    actor = _actor(role, event, tables[0])
    allowed, prepare = _walk_services()[service]
    call = prepare(event, round_, tables[0], boards[0], actor)
    before = AuditEntry.objects.count()
    if role in allowed:
        call()
        assert AuditEntry.objects.count() > before
    else:
        with pytest.raises(DomainError):
            call()
        assert AuditEntry.objects.count() == before


# The services that take an actor and do not ask tournaments.core.access themselves, each with why.
# A new service that writes on behalf of an actor must ask access, or be named here.
NOT_ASKING = {
    "tournaments.tables.selectors.confirm_queue": "a selector: reads only",
    "tournaments.core.audit.audit_record": "the audit itself: records whoever acted",
    "tournaments.core.audit.audit_records": "the audit itself, several rows at once",
    "tournaments.core.audit.admin_record": "the audit of the admin, whose pages ask first",
    "tournaments.online.close.online_window_close": (
        "asks through the round services it calls (organizer_lock: an organizer or the sweep)"
    ),
    "tournaments.online.close.online_boards_finish": (
        "a worker's chunk of the window's close (the task online_finish, sent only by "
        "online_window_close), which asks through the round services"
    ),
    "tournaments.online.close.online_window_end_now": (
        "asks through tournaments.people.life.event_place_set (an organizer of the event), "
        "the first thing it does"
    ),
    "tournaments.online.play.step_and_robots": (
        "asks through tournaments.tables.live.live_step (entry_open_check, may_enter)"
    ),
    "tournaments.online.tables.table_join": (
        "an entrant's own seat: its caller (tournaments.online.play.online_board_start) takes "
        "only an entrant of the event (entrant_of), at his own table"
    ),
    "tournaments.online.tables.table_leave": (
        "an entrant's own seat: its caller (tournaments.online.play.online_board_leave) takes "
        "only an entrant of the event (entrant_of), at his own table"
    ),
    "tournaments.online.tables.tables_finish": (
        "the window's close (online_window_close), which asks through the round services"
    ),
}
SERVICE_MODULES = [
    "tournaments/tables/submission.py",
    "tournaments/tables/verification.py",
    "tournaments/tables/review.py",
    "tournaments/tables/selectors.py",
    "tournaments/core/audit.py",
    "tournaments/events/clock.py",
    "tournaments/events/players_csv.py",
    "tournaments/links/tokens.py",
    "tournaments/links/entry.py",
    "tournaments/links/checks.py",
    "tournaments/links/player.py",
    "tournaments/events/officials.py",
    "tournaments/events/round_states.py",
    "tournaments/events/rounds.py",
    "tournaments/events/stages.py",
    "tournaments/standings/rulings.py",
    "tournaments/standings/penalties.py",
    "tournaments/standings/store.py",
    "tournaments/standings/requests.py",
    "tournaments/online/window.py",
    "tournaments/online/play.py",
    "tournaments/online/close.py",
    "tournaments/online/tables.py",
]


def test_every_service_taking_an_actor_asks_access() -> None:
    import ast

    import tournaments.core.access as access

    root = ROOT_DIR
    # The predicates (and the checks that raise), not the helpers (signed_in) nor the types.
    asks = {
        name
        for name in dir(access)
        if name.startswith(("may_", "is_", "can_", "require_", "organizer_"))
        or name in ("roles_of", "table_refusal", "player_check_refusal", "table_link_opens")
    }
    missing = []
    for rel in SERVICE_MODULES:
        tree = ast.parse((root / rel).read_text())
        functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

        def called(fn: ast.FunctionDef) -> set[str]:
            return {
                c.func.id if isinstance(c.func, ast.Name) else c.func.attr
                for c in ast.walk(fn)
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Name | ast.Attribute)
            }

        def asks_access(name: str, seen: set[str], functions: dict[str, ast.FunctionDef]) -> bool:
            if name in seen or name not in functions:
                return False
            seen.add(name)
            calls = called(functions[name])
            return bool(calls & asks) or any(asks_access(c, seen, functions) for c in calls)

        module = rel[:-3].replace("/", ".")
        for name, fn in functions.items():
            params = [a.arg for a in fn.args.args + fn.args.kwonlyargs]
            if name.startswith("_") or "actor" not in params:
                continue
            if not asks_access(name, set(), functions):
                missing.append(f"{module}.{name}")
    assert sorted(missing) == sorted(NOT_ASKING)


# Entering a game or a live entry's draft at a table: its referee (assigned), the chief
# referees and organizers, or the bearer of the table's link (tournaments.links); the system
# (no actor: an import, the demo) too. Not a player, not a user without a role, not anonymous.
ENTERERS = CHIEFS | {"referee"}


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize("service", ["game_submit", "draft_save"])
def test_entering_at_a_table_asks_access_with_every_role(service: str, role: str) -> None:
    from games.models import EntryDraft, Game
    from tests.factories import bot_record
    from tournaments.tables.review import draft_save
    from tournaments.tables.submission import game_submit

    _event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="enter")
    table, board = tables[0], boards[0]
    actor = _actor(role, _event, table)
    if service == "game_submit":
        record = bot_record(board, table)

        def call() -> Any:
            return game_submit(table=table, board=board, record=record, actor=actor)

        def rows() -> int:
            return Game.objects.count()
    else:

        def call() -> Any:
            return draft_save(table=table, board=board, steps=["1"], actor=actor)

        def rows() -> int:
            return EntryDraft.objects.count()

    before = rows()
    if role in ENTERERS:
        call()
        assert rows() == before + 1
    else:
        with pytest.raises(NotAllowed):
            call()
        assert rows() == before


def test_a_referee_of_another_table_and_another_tables_link_may_not_enter() -> None:
    from tests.factories import bot_record
    from tournaments.links.tokens import COMMAND_LINE, LinkBearer, table_links_make
    from tournaments.tables.submission import game_submit

    event, round_, tables, boards = duplicate_round(tables=2, boards=1, seed="other")
    referee = _actor("referee", event, tables[1])
    with pytest.raises(NotAllowed):
        game_submit(
            table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]), actor=referee
        )
    made = table_links_make(event=event, actor=COMMAND_LINE, round_=round_)
    link_of_two = next(m for m in made if m.table == 2).link
    bearer = LinkBearer.of(link_of_two, device="test")
    with pytest.raises(NotAllowed):
        game_submit(
            table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]), actor=bearer
        )
    one = game_submit(
        table=tables[1], board=boards[0], record=bot_record(boards[0], tables[1]), actor=bearer
    )
    assert one.pk is not None
