"""An event's JSON archive and its restore: event_export writes the whole event,
event_import restores it exactly into a new event, or refuses it (ArchiveRejected) and stores
nothing.

Vocabulary: an *archive* is one JSON object, `{"format": "ddz-event-archive", "version": 1,
"event": {…}, "club": {…} or null, "series": {…} or null, "players": […], "stages": […],
"teams": […], "entries": […], "rounds": […] (each table with its seats and, if any, its
substitutions), "boards": […], "games": […], "adjustments": […], "penalties": […],
"standings": […]}`, where
objects refer to each other by natural keys (a player by name, a round, table, board or stage
by number, a user by username), never by database id, so an archive loads into any database.
Every stored field of each object is kept (timestamps, the engine's verification of each game,
replaced versions of corrected games), so exporting a restored event gives the same archive.
The *people* of an archive are the users its objects name (who entered, confirmed or ruled on
a game, who set an adjustment, a penalty or a substitution): restored, each names the account
of that username here, else a new account made for him *inactive and without a usable
password*, so that the games still name who entered them and the database still holds the
second-person rule of confirmation, while nobody can sign in as him until an administrator
sets a password and activates the account; an archive carries no password, role or staff
status. A name that cannot be a username here refuses the archive.
Roles, table assignments, entries in progress and the audit log belong to the people of one
installation and are not archived. The event's secret deal seed is archived only once it is
revealed (``Event.seed_revealed``): before that, whoever exports, the archive carries the
public commitment alone, since the seed and the published dealing method give every board.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.dateparse import parse_datetime
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.models import Board, Game
from tournaments.league import clubs
from tournaments.models import (
    Adjustment,
    Entry,
    Event,
    Penalty,
    Player,
    Round,
    Seat,
    Stage,
    StageEntry,
    Standing,
    Substitution,
    Table,
    Team,
)
from tournaments.standings.rulings import RulingRejected, possible_results_check

FORMAT = "ddz-event-archive"
VERSION = 1


class ArchiveRejected(DomainError):
    """An archive that cannot be restored; nothing of it was stored."""


_M = TypeVar("_M", bound=models.Model)


# --- the JSON archive ---------------------------------------------------------------------

_USERS: dict[int, str] = {}


def _plain(obj: models.Model, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every stored field of `obj` except its id, `skip` and relations to other archived
    objects (the caller writes those as natural keys); users by username."""
    user_model = get_user_model()
    out: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        if f.primary_key or f.name in skip:
            continue
        value = getattr(obj, f.attname)
        if f.is_relation:
            if f.related_model is not user_model:
                continue
            if value is not None:
                if value not in _USERS:
                    _USERS[value] = (
                        user_model.objects.filter(pk=value)
                        .values_list("username", flat=True)
                        .first()
                        or ""
                    )
                value = _USERS[value] or None
        elif isinstance(value, datetime):
            value = value.isoformat()
        elif isinstance(value, Decimal):
            value = str(value)
        out[f.name] = value
    return out


def event_export(*, event: Event) -> dict[str, Any]:
    """The whole event as an archive (see the module docstring)."""
    _USERS.clear()
    stages = {s.pk: s.number for s in event.stages.all()}
    rounds = list(event.rounds.order_by("number"))
    round_number = {r.pk: r.number for r in rounds}
    tables = list(Table.objects.filter(round__event=event).order_by("round__number", "number"))
    table_key = {t.pk: (round_number[t.round_id], t.number) for t in tables}
    seats = _seats_by_table(event)
    boards = list(Board.objects.filter(event=event).order_by("number"))
    board_number = {b.pk: b.number for b in boards}
    subs = _substitutions_by_table(event)
    standings = list(
        Standing.objects.filter(event=event).select_related("player").order_by("stage", "position")
    )
    penalties = list(Penalty.objects.filter(event=event).select_related("player"))
    teams = list(event.teams.prefetch_related("members"))
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    stage_entries = list(
        StageEntry.objects.filter(stage__event=event).select_related("player", "stage")
    )
    player_ids = {s.player_id for rows in seats.values() for s in rows}
    player_ids |= {
        p for rows in subs.values() for s in rows for p in (s.player_id, s.substitute_id)
    }
    player_ids |= {s.player_id for s in standings} | {p.player_id for p in penalties}
    player_ids |= {m.pk for t in teams for m in t.members.all()}
    player_ids |= {e.player_id for e in entries} | {e.player_id for e in stage_entries}
    players = list(Player.objects.filter(pk__in=player_ids).order_by("name"))
    name = {p.pk: p.name for p in players}
    games = (
        Game.objects.filter(board__event=event)
        .order_by("board__number", "table__round__number", "table__number", "version", "id")
        .iterator(chunk_size=2000)
    )
    adjustments = Adjustment.objects.filter(board__event=event).order_by(
        "board__number", "table__number", "seat"
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": _plain(event, skip=() if event.seed_revealed else ("deal_seed",)),
        # The club that ran it and the series it counts in, by natural key
        # (tournaments.league.clubs).
        **clubs.event_club_archive(event),
        "players": [_plain(p) for p in players],
        "stages": [_plain(s, skip=("event",)) for s in event.stages.order_by("number")],
        "teams": [{**_plain(t), "members": sorted(m.name for m in t.members.all())} for t in teams],
        "entries": [{**_plain(e), "player": name[e.player_id]} for e in entries],
        "stage_entries": [
            {**_plain(e), "stage": e.stage.number, "player": name[e.player_id]}
            for e in sorted(stage_entries, key=lambda e: (e.stage.number, e.position))
        ],
        "rounds": [
            {
                **_plain(r),
                "stage": stages.get(r.stage_id) if r.stage_id else None,
                "tables": [
                    _table_item(t, seats.get(t.pk, []), subs.get(t.pk), name)
                    for t in tables
                    if t.round_id == r.pk
                ],
            }
            for r in rounds
        ],
        "boards": [
            {**_plain(b), "round": round_number.get(b.round_id) if b.round_id else None}
            for b in boards
        ],
        "games": [_at_table_item(g, board_number, table_key) for g in games],
        "adjustments": [_at_table_item(a, board_number, table_key) for a in adjustments],
        "penalties": [
            _player_item(p, name, stages)
            for p in sorted(penalties, key=lambda p: (p.created_at, p.pk))
        ],
        "standings": [_player_item(s, name, stages) for s in standings],
    }


def _seats_by_table(event: Event) -> dict[int, list[Seat]]:
    """Table id → the seats of `event` at it, with their players."""
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__round__event=event).select_related("player"):
        seats.setdefault(seat.table_id, []).append(seat)
    return seats


def _substitutions_by_table(event: Event) -> dict[int, list[Substitution]]:
    """Table id → who replaced whom at it (tournaments.events.substitutions), in the order
    they were made."""
    subs: dict[int, list[Substitution]] = {}
    for sub in Substitution.objects.filter(round__event=event).order_by("pk"):
        subs.setdefault(sub.table_id, []).append(sub)
    return subs


def _table_item(
    table: Table, seats: list[Seat], subs: list[Substitution] | None, name: dict[int, str]
) -> dict[str, Any]:
    """A table as archived: its seats by player name, and its substitutions when it has any."""
    return {
        **_plain(table),
        "seats": {s.seat: name[s.player_id] for s in sorted(seats, key=lambda s: s.seat)},
        **(
            {
                "substitutions": [
                    {
                        **_plain(sub),
                        "player": name[sub.player_id],
                        "substitute": name[sub.substitute_id],
                    }
                    for sub in subs
                ]
            }
            if subs is not None
            else {}
        ),
    }


def _at_table_item(
    obj: Game | Adjustment, board_number: dict[int, int], table_key: dict[int, tuple[int, int]]
) -> dict[str, Any]:
    """A game or adjustment as archived: its board by number, its table by round and number."""
    return {
        **_plain(obj),
        "board": board_number[obj.board_id],
        "round": table_key[obj.table_id][0],
        "table": table_key[obj.table_id][1],
    }


def _player_item(
    obj: Penalty | Standing, name: dict[int, str], stages: dict[int, int]
) -> dict[str, Any]:
    """A penalty or standing row as archived: its player by name, its stage by number."""
    return {
        **_plain(obj),
        "player": name[obj.player_id],
        "stage": stages.get(obj.stage_id) if obj.stage_id else None,
    }


def _adjustment_values(item: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """An archived adjustment's field values (_values), its possible results checked: a
    weighted score the standings could not score refuses the archive.

    Raises:
        ArchiveRejected: as _values, or possible results that could not be scored.
    """
    values = _values(Adjustment, item, keys=keys)
    try:
        possible_results_check(kind=values.get("kind"), weighted=values.get("weighted", []))
    except RulingRejected as exc:
        raise ArchiveRejected(
            _("The archive is damaged: %(error)s") % {"error": exc.message}
        ) from None
    return values


def _values(model: type[models.Model], data: Any, *, keys: tuple[str, ...] = ()) -> dict[str, Any]:
    """Model field values from an archived object: timestamps parsed, users by username.

    Raises:
        ArchiveRejected: not an object, or a field this installation does not have.
    """
    if not isinstance(data, dict):
        raise ArchiveRejected(
            _("The archive is damaged: %(what)s is not an object.")
            % {"what": model._meta.model_name}
        )
    user_model = get_user_model()
    fields = {f.name: f for f in model._meta.concrete_fields}
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in keys:
            continue
        f = fields.get(key)
        if f is None or f.primary_key:
            raise ArchiveRejected(
                _("The archive has a field %(field)s that %(model)s does not have.")
                % {"field": key, "model": model._meta.model_name}
            )
        if f.is_relation:
            if f.related_model is not user_model:
                raise ArchiveRejected(
                    _("The archive has a field %(field)s that %(model)s does not have.")
                    % {"field": key, "model": model._meta.model_name}
                )
            out[f.name] = _account(value)
            continue
        if isinstance(f, models.DateTimeField) and value is not None:
            parsed = parse_datetime(str(value))
            if parsed is None:
                raise ArchiveRejected(_("The archive has a bad date %(value)s.") % {"value": value})
            value = parsed
        if isinstance(f, models.DecimalField) and value is not None:
            value = Decimal(str(value))
        out[f.name] = value
    return out


# The accounts of the people of the archive being restored, by username: one query a person,
# not one a field (set by event_import for the length of its restore).
_ACCOUNTS: ContextVar[dict[str, AbstractBaseUser]] = ContextVar("archive_accounts")


def _account(name: Any) -> AbstractBaseUser | None:
    """The account of a person the archive names by username (None for none): the account of
    that username here, else one made for him, inactive and without a usable password (see
    the module docstring).

    Raises:
        ArchiveRejected: a name that cannot be a username here (not text, too long, a
            character the username validator refuses, or not in Unicode's NFKC form, which
            every stored username is in).
    """
    if name is None or name == "":
        return None
    accounts = _ACCOUNTS.get()
    if isinstance(name, str) and name in accounts:
        return accounts[name]
    user_model = get_user_model()
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    assert isinstance(field, models.Field)  # a user model's username is a column
    try:
        if not isinstance(name, str) or user_model.normalize_username(name) != name:
            raise ValidationError("not a stored username")
        field.clean(name, None)
    except ValidationError:
        raise ArchiveRejected(
            _("The archive names a person %(name)s: that cannot be a user name here.")
            % {"name": Truncator(str(name)).chars(40)}
        ) from None
    user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: name}).first()
    if user is None:
        # No password: create_user stores an unusable one.
        user = user_model._default_manager.create_user(name, is_active=False)
    accounts[name] = user
    return user


def _stamped(model: type[models.Model]) -> list[str]:
    return [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
    ]


def _create_all(model: type[_M], objs: list[_M]) -> list[_M]:
    """bulk_create, then put back the archived timestamps that auto_now_add replaced."""
    stamps = _stamped(model)
    kept = [{f: getattr(o, f) for f in stamps} for o in objs]
    made = model._default_manager.bulk_create(objs, batch_size=1000)
    if stamps and made:
        for o, values in zip(made, kept, strict=True):
            for f, v in values.items():
                setattr(o, f, v)
        model._default_manager.bulk_update(made, stamps, batch_size=1000)
    return made


def event_import(*, data: Any) -> Event:
    """Restore an archive made by event_export, in one transaction.

    Players are matched by external id, else by name among those without one (created when
    new); the people by username, each missing account made inactive and without a usable
    password (see the module docstring).

    Raises:
        ArchiveRejected: not an archive of this format and version, an event of this name or
            slug already stored, a damaged reference, a name that cannot be a username here;
            nothing is stored (no account either).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveRejected(_("This is not an event archive."))
    if data.get("version") != VERSION:
        raise ArchiveRejected(
            _("Archive version %(version)s is not supported.") % {"version": data.get("version")}
        )
    accounts = _ACCOUNTS.set({})
    try:
        with transaction.atomic():
            return _restore(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiveRejected(_("The archive is damaged: %(error)s") % {"error": exc}) from None
    except IntegrityError as exc:
        raise ArchiveRejected(
            _("The archive cannot be restored here: %(error)s") % {"error": exc}
        ) from None
    finally:
        _ACCOUNTS.reset(accounts)


def _restore(data: dict[str, Any]) -> Event:
    """Store the archive `data` (the caller holds the transaction), object kind by object kind,
    each after those it refers to."""
    event = _restore_event(data)
    players = _restore_players(data)
    stages = {}
    for item in data["stages"]:
        stage = Stage.objects.create(event=event, **_values(Stage, item))
        stages[stage.number] = stage
    for item in data["teams"]:
        team = Team.objects.create(event=event, **_values(Team, item, keys=("members",)))
        team.members.set([players[n] for n in item["members"]])
    _restore_entries(data, event, players, stages)
    rounds, tables = _restore_rounds(data, event, players, stages)
    made = _create_all(
        Board,
        [
            Board(
                event=event,
                round=rounds[i["round"]] if i.get("round") is not None else None,
                **_values(Board, i, keys=("round",)),
            )
            for i in data["boards"]
        ],
    )
    boards = {b.number: b for b in made}

    def at(item: dict[str, Any]) -> dict[str, Any]:
        return {"table": tables[(item["round"], item["table"])], "board": boards[item["board"]]}

    keys = ("board", "round", "table")
    _create_all(Game, [Game(**at(i), **_values(Game, i, keys=keys)) for i in data["games"]])
    _create_all(
        Adjustment,
        [Adjustment(**at(i), **_adjustment_values(i, keys)) for i in data["adjustments"]],
    )
    _restore_rulings(data, event, players, stages)
    return event


def _restore_event(data: dict[str, Any]) -> Event:
    """The archived event, stored with its club and series; refused when an event of its
    name or slug is stored already."""
    values = _values(Event, data["event"])
    if Event.objects.filter(
        models.Q(name=values.get("name")) | models.Q(slug=values.get("slug"))
    ).exists():
        raise ArchiveRejected(
            _("An event named %(name)s already exists.") % {"name": values.get("name")}
        )
    event = _create_all(Event, [Event(**values)])[0]
    assert isinstance(event, Event)
    clubs.event_club_restore(event, data)
    return event


def _restore_players(data: dict[str, Any]) -> dict[str, Player]:
    """Name → the player of each archived one: the stored one that is the same person, else a
    new one."""
    players: dict[str, Player] = {}
    for item in data["players"]:
        v = _values(Player, item)
        # The same person as a stored one: by external id when archived with one, else by
        # name among the players without one (names are not unique site-wide).
        if v.get("external_id"):
            player = Player.objects.filter(external_id=v["external_id"]).first()
        else:
            player = Player.objects.filter(name=v["name"], external_id="").order_by("pk").first()
        if player is None:
            player = _create_all(Player, [Player(**v)])[0]
        players[v["name"]] = player
    return players


def _restore_entries(
    data: dict[str, Any], event: Event, players: dict[str, Player], stages: dict[int, Stage]
) -> None:
    """The entries of the event and of its stages (archives without them have none)."""
    _create_all(
        Entry,
        [
            Entry(event=event, player=players[i["player"]], **_values(Entry, i, keys=("player",)))
            for i in data.get("entries", [])
        ],
    )
    _create_all(
        StageEntry,
        [
            StageEntry(
                stage=stages[i["stage"]],
                player=players[i["player"]],
                **_values(StageEntry, i, keys=("player", "stage")),
            )
            for i in data.get("stage_entries", [])
        ],
    )


def _restore_rounds(
    data: dict[str, Any], event: Event, players: dict[str, Player], stages: dict[int, Stage]
) -> tuple[dict[int, Round], dict[tuple[int, int], Table]]:
    """The rounds and their tables, one by one, then every seat and substitution at once;
    rounds by number, tables by (round number, table number)."""
    rounds: dict[int, Round] = {}
    tables: dict[tuple[int, int], Table] = {}
    seats = []
    substituted = []
    for item in data["rounds"]:
        round_stage = stages[item["stage"]] if item.get("stage") is not None else None
        round_ = Round.objects.create(
            event=event, stage=round_stage, **_values(Round, item, keys=("stage", "tables"))
        )
        rounds[round_.number] = round_
        for t in item["tables"]:
            table = Table.objects.create(
                round=round_, **_values(Table, t, keys=("seats", "substitutions"))
            )
            tables[(round_.number, table.number)] = table
            seats += [Seat(table=table, seat=s, player=players[n]) for s, n in t["seats"].items()]
            substituted += [
                Substitution(
                    round=round_,
                    table=table,
                    player=players[i["player"]],
                    substitute=players[i["substitute"]],
                    **_values(Substitution, i, keys=("player", "substitute")),
                )
                for i in t.get("substitutions", [])
            ]
    _create_all(Seat, seats)
    _create_all(Substitution, substituted)
    return rounds, tables


def _restore_rulings(
    data: dict[str, Any], event: Event, players: dict[str, Player], stages: dict[int, Stage]
) -> None:
    """The penalties, then the stored standings, of the event and its stages."""

    def stage_of(item: dict[str, Any]) -> Stage | None:
        return stages[item["stage"]] if item.get("stage") is not None else None

    _create_all(
        Penalty,
        [
            Penalty(
                event=event,
                stage=stage_of(i),
                player=players[i["player"]],
                **_values(Penalty, i, keys=("player", "stage")),
            )
            for i in data["penalties"]
        ],
    )
    _create_all(
        Standing,
        [
            Standing(
                event=event,
                stage=stage_of(i),
                player=players[i["player"]],
                **_values(Standing, i, keys=("player", "stage")),
            )
            for i in data["standings"]
        ],
    )
