"""factory_boy factories for the models, and builders of small duplicate events."""

from __future__ import annotations

import random
from typing import Any

import factory
from django.test import Client
from django.urls import reverse
from django.utils.text import slugify

from games.bot import play_record
from games.engine import RuleSet, deal_random
from games.models import Board
from tournaments.events.boards import board_create
from tournaments.events.setup import round_seat
from tournaments.models import Entry, Event, Player, Round, Seat, Standing, Table


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    rules = "classic"
    scoring_method = "matchpoints"


def event_entered_with_standing(
    player: Player, name: str, *, total: str, top: str, percentage: str
) -> Event:
    """A plain event named `name` (slug from it) that `player` entered, with his one stored
    matchpoints standing of 2 boards, first (what a profile reads of his past events)."""
    event = Event.objects.create(name=name, slug=slugify(name))
    Entry.objects.create(event=event, player=player)
    Standing.objects.create(
        event=event,
        player=player,
        method="matchpoints",
        position=1,
        rank="1",
        total=total,
        top=top,
        percentage=percentage,
        boards=2,
    )
    return event


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    seat = "S"
    player = factory.SubFactory(PlayerFactory)


def duplicate_round(
    *,
    tables: int = 3,
    boards: int = 1,
    seed: str = "test",
    event: Event | None = None,
    scoring_method: str = "matchpoints",
) -> tuple[Event, Round, list[Table], list[Board]]:
    """An event (classic rules) with one round of `tables` tables of three new players each and
    `boards` seeded boards with suits."""
    event = event or EventFactory(scoring_method=scoring_method)
    players = [PlayerFactory() for _ in range(3 * tables)]
    round_ = round_seat(
        event=event,
        number=event.rounds.count() + 1,
        tables=[players[3 * t : 3 * t + 3] for t in range(tables)],
    )
    rng = random.Random(seed)
    rules = RuleSet.from_spec("classic")
    made = []
    for b in range(boards):
        first = "SEW"[b % 3]
        deal = deal_random(rules, rng, first_bidder=first)
        made.append(
            board_create(
                event=event,
                round=round_,
                hands=deal.hands,
                bottom=deal.bottom,
                first_bidder=first,
            )
        )
    return event, round_, list(round_.tables.order_by("number")), made


def bot_record(board: Board, table: Table, *, seed: str = "test") -> dict[str, Any]:
    """A full legal record of `board` at `table`, bid and played by the demo bot (with the
    board's cards set aside, R-2P, and its marked card, R-5P, whose hidden landlord needs the
    suited hands)."""
    from games.notation import rank_cards

    return play_record(
        rules=RuleSet.from_spec(board.event.rules or "classic"),
        hands=dict(board.hands)
        if board.marked
        else {s: rank_cards(c) for s, c in board.hands.items()},
        bottom=rank_cards(board.bottom),
        first_bidder=board.first_bidder or "S",
        seed=f"{seed}:{board.number}:{table.number}",
        record_id=f"B{board.number}-T{table.number}",
        aside=board.aside or None,
        marked=board.marked or None,
    )


def verified(game_id: int) -> None:
    """Verify game `game_id` now, whoever does: this process, or a test's worker process that
    took it with its batch (a verification skips a game another holds, so the game may still be
    pending when game_verify returns; its row lock is waited for, then it is verified here if
    the worker did not)."""
    from django.db import transaction

    from games.models import Game
    from tournaments.tables.verification import game_verify

    if not game_verify(game_id=game_id):
        with transaction.atomic():
            Game.objects.select_for_update().filter(pk=game_id).values_list("pk").first()
        game_verify(game_id=game_id)


def round_fill(round_: Round, *, seed: str = "test") -> None:
    """A bot game of every board of `round_` at each of its tables, verified (so that the
    round can be closed: every game settled)."""
    from tournaments.tables.submission import game_submit

    for board in round_.boards.order_by("number"):
        for table in round_.tables.order_by("number"):
            game = game_submit(table=table, board=board, record=bot_record(board, table, seed=seed))
            verified(game.pk)


def event_finish(event: Event, actor: Any = None) -> Event:
    """Finish ``event`` as its organizer does (tournaments.people.life.event_finish: refused
    while a round is not published); only then do its results move the ratings and the series.
    ``actor``: an organizer of the event, else the tests' superuser."""
    from django.contrib.auth import get_user_model

    from tournaments.people.life import event_finish as finish

    if actor is None:
        actor = get_user_model().objects.filter(username="test-finisher").first()
        actor = actor or get_user_model().objects.create_superuser("test-finisher", password="x")
    return finish(event=event, actor=actor)


ONLINE_SEED = "5eed" * 16


def online_event(
    *,
    entrants: int = 3,
    boards: int = 2,
    strength: str = "basic",
    move_seconds: int = 60,
    scoring_method: str = "matchpoints",
    tables: bool = False,
    seat_wait_seconds: int = 60,
    rules: str = "classic",
) -> tuple[Event, Any, list[Any]]:
    """An online robot duplicate (tournaments.online) whose window is open now (from an hour
    ago to an hour on), its seed committed (ONLINE_SEED) and `boards` boards dealt one round
    each, with `entrants` accounts entered (user names ``entrant1``…, players ``Entrant 1``…);
    with `tables`, its entrants play together at online tables (tournaments.online.tables),
    robots filling a table's free seats after `seat_wait_seconds`; `rules` its rules preset.
    Returns the event, its organizer and the entrants' users."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tournaments.events import rounds
    from tournaments.models import Entry, EventRole, Role
    from tournaments.online.window import online_boards_deal

    users = get_user_model().objects
    now = timezone.now()
    event = EventFactory(
        rules=rules,
        scoring_method=scoring_method,
        online=True,
        online_robots=True,
        robot_strength=strength,
        move_seconds=move_seconds,
        online_tables=tables,
        seat_wait_seconds=seat_wait_seconds,
        starts_at=now - timedelta(hours=1),
        ends_at=now + timedelta(hours=1),
        status="registration_open",
    )
    organizer = users.create_user(f"td-{event.slug}", password="pw")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    rounds.event_seed_commit(event=event, actor=organizer, seed=ONLINE_SEED)
    online_boards_deal(event=event, boards=boards, actor=organizer)
    made = []
    for i in range(1, entrants + 1):
        user = users.create_user(f"entrant{i}-{event.slug}", password="pw")
        player = Player.objects.create(name=f"Entrant {i}", user=user)
        Entry.objects.create(event=event, player=player)
        made.append(user)
    event.refresh_from_db()
    return event, organizer, made


def online_board_play(event: Event, user: Any, number: int, *, seed: str = "me") -> Any:
    """`user` starts board `number` of the online `event` and plays it to its end, each of
    his moves chosen by a basic robot of `seed` (the same seed, the same moves), through his
    device's service (tournaments.online.play.step_and_robots). Returns the stored game."""
    from tournaments.demo.online import demo_online_play

    game = demo_online_play(event=event, user=user, number=number, seed=seed)
    assert game is not None, "the robots answer until the entrant's turn, to the game's end"
    return game


def online_table_seated(event: Event, users: list[Any], number: int) -> dict[str, Any]:
    """The entrants `users` of the online-tables `event` start board `number` in that order
    (seated as they arrive: tournaments.online.tables); seat → (his device, the basic robot
    seeded by his user name that chooses his moves)."""
    from games.robots import Robot
    from tournaments.online import play

    for user in users:
        play.online_board_start(event=event, user=user, number=number)
    devices = {}
    for user in users:
        device = play.entrant_device(user, event.slug, number)
        devices[device.seat] = (device, Robot("basic", user.username))
    return devices


def online_table_step(devices: dict[str, Any], state: Any) -> Any:
    """The entrant to move in `state` takes his robot's step through his device's service
    (tournaments.online.play.step_and_robots); the board after it and the robots' answer."""
    from tournaments.online import play
    from tournaments.online.robots import robot_step

    device, robot = devices[state.position.to_move]
    state, error = play.step_and_robots(
        table=device.table,
        board=device.board,
        seat=device.seat,
        step=robot_step(state.position, robot),
        at=len(state.position.steps),
        actor=device.bearer,
    )
    assert error is None, error
    return state


def online_table_play(event: Event, users: list[Any], number: int) -> Any:
    """The entrants `users` of the online-tables `event` start board `number` in that order
    (online_table_seated) and play it to its end (online_table_step). The table must be full
    once they started (as many entrants as seats, or robots filled it). Returns the stored
    game."""
    from tournaments.tables import live

    devices = online_table_seated(event, users, number)
    any_device = next(iter(devices.values()))[0]
    state = live.live_state(table=any_device.table, board=any_device.board)
    for _turn in range(200):
        if state.game is not None:
            return state.game
        state = online_table_step(devices, state)
    raise AssertionError("the board did not end")


def signed_in_client(user: Any, language: str = "en") -> Client:
    """A test client signed in as `user`, asking for pages in `language`."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def dashboard_page(event: Event, user: Any) -> str:
    """The organizer's dashboard of `event` as `user` sees it (English; it must answer 200)."""
    answer = signed_in_client(user).get(reverse("organizer:dashboard", args=[event.slug]))
    assert answer.status_code == 200
    return answer.content.decode()
