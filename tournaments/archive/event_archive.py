"""An event's JSON archive and its restore: event_export writes the whole event,
event_import restores it exactly into a new event, or refuses it (ArchiveRejected) and stores
nothing.

Vocabulary: an *archive* is one JSON object, `{"format": "ddz-event-archive", "version": 2,
"event": {…}, "club": {…} or null, "series": {…} or null, "players": […], "stages": […],
"teams": […], "entries": […], "rounds": […] (each table with its seats and, if any, its
substitutions), "boards": […], "games": […], "adjustments": […], "penalties": […],
"standings": […], "prizes": […], "registrations": […], "presences": […]}`, where
objects refer to each other by natural keys (a player by name, a round, table, board or stage
by number, a user by username), never by database id, so an archive loads into any database.
Every stored field of each object is kept (timestamps, the engine's verification of each game,
replaced versions of corrected games; the event's life: its dates and time zone, venue, status,
registration settings and categories, each entry's categories and rounds), so exporting a
restored event gives the same archive; the exceptions follow.
The *people* of an archive are the users its objects name (who entered, confirmed or ruled on
a game, who set an adjustment, a penalty or a substitution, who registered, who checked a
player in): restored, each names the account
of that username here, else a new account made for him *inactive and without a usable
password*, so that the games still name who entered them and the database still holds the
second-person rule of confirmation, while nobody can sign in as him until an administrator
sets a password and activates the account; an archive carries no password, role or staff
status. A name that cannot be a username here refuses the archive.
An archive is a file that travels (the chief referees download it): it carries no secret and
no contact data. A *player* is shared by the events of a site and restored as the stored player
of the same person when there is one: his tie to an account (made here by the organizer's
invitation or an approved claim, who the person is checked on this site), his e-mail address
and his choice of no e-mail belong to this site and are not archived (a username names another
person on another site: restoring the tie would hand him the profile). A *registration* goes
without its address and its check-in token (the secret a QR code carries, which also opens the
entrant's registration page): a restore gives each a new token, so the QR codes sent before
open nothing; the organizer checks players in on his list, and an entrant signed in finds the
new code on his registration page. Roles, table assignments, entries in progress, private
links, profile claims, the e-mail sent and the audit log belong to the people of one
installation and are not archived. The event's secret deal seed is archived only once it is
revealed (``Event.seed_revealed``): before that, whoever exports, the archive carries the
public commitment alone, since the seed and the published dealing method give every board.

*Versions*: event_import restores the versions of VERSIONS. Version 1 had no prizes,
registrations or presences, and neither the event's life nor the entries' categories and
rounds: it restores with their defaults (an event in play without dates or venue, entries
playing every round), and exports again as the current version.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from games.models import Board, Game
from tournaments.archive.fields import (
    ArchiveRejected,
    create_all,
    field_values,
    plain,
    restoring_people,
    usernames_forget,
)
from tournaments.league import clubs
from tournaments.models import (
    Adjustment,
    Entry,
    Event,
    Penalty,
    Player,
    Presence,
    Prize,
    Registration,
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
VERSION = 2
# The versions event_import restores: version 1, written before the event's life was archived,
# restores with its defaults (see the module docstring).
VERSIONS = (1, 2)
# What a player's record holds for this site alone, never archived (see the module docstring);
# an archive that has them (version 1 wrote them for a while) restores without them.
PLAYER_SITE_ONLY = ("user", "email", "mail_off")
# A registration's check-in secret and address, never archived either; a restore makes a new
# token.
REGISTRATION_SECRET = ("token", "email")


# --- the JSON archive ---------------------------------------------------------------------


def event_export(*, event: Event) -> dict[str, Any]:
    """The whole event as an archive (see the module docstring)."""
    usernames_forget()
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
    registrations, presences, life_player_ids = _life_rows(event)
    player_ids |= life_player_ids
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
        "event": plain(event, skip=() if event.seed_revealed else ("deal_seed",)),
        # The club that ran it and the series it counts in, by natural key
        # (tournaments.league.clubs).
        **clubs.event_club_archive(event),
        "players": [plain(p, skip=PLAYER_SITE_ONLY) for p in players],
        "stages": [plain(s, skip=("event",)) for s in event.stages.order_by("number")],
        "teams": [{**plain(t), "members": sorted(m.name for m in t.members.all())} for t in teams],
        "entries": [{**plain(e), "player": name[e.player_id]} for e in entries],
        "stage_entries": [
            {**plain(e), "stage": e.stage.number, "player": name[e.player_id]}
            for e in sorted(stage_entries, key=lambda e: (e.stage.number, e.position))
        ],
        "rounds": [
            {
                **plain(r),
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
            {**plain(b), "round": round_number.get(b.round_id) if b.round_id else None}
            for b in boards
        ],
        "games": [_at_table_item(g, board_number, table_key) for g in games],
        "adjustments": [_at_table_item(a, board_number, table_key) for a in adjustments],
        "penalties": [
            _player_item(p, name, stages)
            for p in sorted(penalties, key=lambda p: (p.created_at, p.pk))
        ],
        "standings": [_player_item(s, name, stages) for s in standings],
        **_life_items(event, registrations, presences, name, round_number),
    }


def _life_rows(event: Event) -> tuple[list[Registration], list[Presence], set[int]]:
    """The registrations and presences of `event`, and the ids of the players they name."""
    registrations = list(Registration.objects.filter(event=event).order_by("created_at", "pk"))
    presences = list(Presence.objects.filter(round__event=event))
    ids = {r.player_id for r in registrations if r.player_id is not None}
    return registrations, presences, ids | {p.player_id for p in presences}


def _life_items(
    event: Event,
    registrations: list[Registration],
    presences: list[Presence],
    name: dict[int, str],
    round_number: dict[int, int],
) -> dict[str, Any]:
    """The prizes, registrations and presences of an archive: a registration's player by name
    (None before it is accepted), its account by username, without its token and address; a
    presence by round number and player name."""
    return {
        "prizes": [plain(p) for p in event.prizes.order_by("category", "place")],
        "registrations": [
            {
                **plain(r, skip=REGISTRATION_SECRET),
                "player": name[r.player_id] if r.player_id is not None else None,
            }
            for r in registrations
        ],
        "presences": sorted(
            (
                {**plain(p), "round": round_number[p.round_id], "player": name[p.player_id]}
                for p in presences
            ),
            key=lambda item: (item["round"], item["player"]),
        ),
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
        **plain(table),
        "seats": {s.seat: name[s.player_id] for s in sorted(seats, key=lambda s: s.seat)},
        **(
            {
                "substitutions": [
                    {
                        **plain(sub),
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
        **plain(obj),
        "board": board_number[obj.board_id],
        "round": table_key[obj.table_id][0],
        "table": table_key[obj.table_id][1],
    }


def _player_item(
    obj: Penalty | Standing, name: dict[int, str], stages: dict[int, int]
) -> dict[str, Any]:
    """A penalty or standing row as archived: its player by name, its stage by number."""
    return {
        **plain(obj),
        "player": name[obj.player_id],
        "stage": stages.get(obj.stage_id) if obj.stage_id else None,
    }


def _adjustment_values(item: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """An archived adjustment's field values (_values), its possible results checked: a
    weighted score the standings could not score refuses the archive.

    Raises:
        ArchiveRejected: as _values, or possible results that could not be scored.
    """
    values = field_values(Adjustment, item, keys=keys)
    try:
        possible_results_check(kind=values.get("kind"), weighted=values.get("weighted", []))
    except RulingRejected as exc:
        raise ArchiveRejected(
            _("The archive is damaged: %(error)s") % {"error": exc.message}
        ) from None
    return values


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
    if data.get("version") not in VERSIONS:
        raise ArchiveRejected(
            _("Archive version %(version)s is not supported.") % {"version": data.get("version")}
        )
    try:
        with restoring_people(), transaction.atomic():
            return _restore(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiveRejected(_("The archive is damaged: %(error)s") % {"error": exc}) from None
    except IntegrityError as exc:
        raise ArchiveRejected(
            _("The archive cannot be restored here: %(error)s") % {"error": exc}
        ) from None


def _restore(data: dict[str, Any]) -> Event:
    """Store the archive `data` (the caller holds the transaction), object kind by object kind,
    each after those it refers to."""
    event = _restore_event(data)
    players = _restore_players(data)
    stages = {}
    for item in data["stages"]:
        stage = Stage.objects.create(event=event, **field_values(Stage, item))
        stages[stage.number] = stage
    for item in data["teams"]:
        team = Team.objects.create(event=event, **field_values(Team, item, keys=("members",)))
        team.members.set([players[n] for n in item["members"]])
    _restore_entries(data, event, players, stages)
    rounds, tables = _restore_rounds(data, event, players, stages)
    made = create_all(
        Board,
        [
            Board(
                event=event,
                round=rounds[i["round"]] if i.get("round") is not None else None,
                **field_values(Board, i, keys=("round",)),
            )
            for i in data["boards"]
        ],
    )
    boards = {b.number: b for b in made}

    def at(item: dict[str, Any]) -> dict[str, Any]:
        return {"table": tables[(item["round"], item["table"])], "board": boards[item["board"]]}

    keys = ("board", "round", "table")
    create_all(Game, [Game(**at(i), **field_values(Game, i, keys=keys)) for i in data["games"]])
    create_all(
        Adjustment,
        [Adjustment(**at(i), **_adjustment_values(i, keys)) for i in data["adjustments"]],
    )
    _restore_rulings(data, event, players, stages)
    _restore_life(data, event, players, rounds)
    return event


def _restore_event(data: dict[str, Any]) -> Event:
    """The archived event, stored with its club and series; refused when an event of its
    name or slug is stored already."""
    values = field_values(Event, data["event"])
    if Event.objects.filter(
        models.Q(name=values.get("name")) | models.Q(slug=values.get("slug"))
    ).exists():
        raise ArchiveRejected(
            _("An event named %(name)s already exists.") % {"name": values.get("name")}
        )
    event = create_all(Event, [Event(**values)])[0]
    assert isinstance(event, Event)
    clubs.event_club_restore(event, data)
    return event


def _restore_players(data: dict[str, Any]) -> dict[str, Player]:
    """Name → the player of each archived one: the stored one that is the same person, else a
    new one."""
    players: dict[str, Player] = {}
    for item in data["players"]:
        v = field_values(Player, item, keys=PLAYER_SITE_ONLY)
        # The same person as a stored one: by external id when archived with one, else by
        # name among the players without one (names are not unique site-wide).
        if v.get("external_id"):
            player = Player.objects.filter(external_id=v["external_id"]).first()
        else:
            player = Player.objects.filter(name=v["name"], external_id="").order_by("pk").first()
        if player is None:
            player = create_all(Player, [Player(**v)])[0]
        players[v["name"]] = player
    return players


def _restore_entries(
    data: dict[str, Any], event: Event, players: dict[str, Player], stages: dict[int, Stage]
) -> None:
    """The entries of the event and of its stages (archives without them have none)."""
    create_all(
        Entry,
        [
            Entry(
                event=event, player=players[i["player"]], **field_values(Entry, i, keys=("player",))
            )
            for i in data.get("entries", [])
        ],
    )
    create_all(
        StageEntry,
        [
            StageEntry(
                stage=stages[i["stage"]],
                player=players[i["player"]],
                **field_values(StageEntry, i, keys=("player", "stage")),
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
            event=event, stage=round_stage, **field_values(Round, item, keys=("stage", "tables"))
        )
        rounds[round_.number] = round_
        for t in item["tables"]:
            table = Table.objects.create(
                round=round_, **field_values(Table, t, keys=("seats", "substitutions"))
            )
            tables[(round_.number, table.number)] = table
            seats += [Seat(table=table, seat=s, player=players[n]) for s, n in t["seats"].items()]
            substituted += [
                Substitution(
                    round=round_,
                    table=table,
                    player=players[i["player"]],
                    substitute=players[i["substitute"]],
                    **field_values(Substitution, i, keys=("player", "substitute")),
                )
                for i in t.get("substitutions", [])
            ]
    create_all(Seat, seats)
    create_all(Substitution, substituted)
    return rounds, tables


def _restore_rulings(
    data: dict[str, Any], event: Event, players: dict[str, Player], stages: dict[int, Stage]
) -> None:
    """The penalties, then the stored standings, of the event and its stages."""

    def stage_of(item: dict[str, Any]) -> Stage | None:
        return stages[item["stage"]] if item.get("stage") is not None else None

    create_all(
        Penalty,
        [
            Penalty(
                event=event,
                stage=stage_of(i),
                player=players[i["player"]],
                **field_values(Penalty, i, keys=("player", "stage")),
            )
            for i in data["penalties"]
        ],
    )
    create_all(
        Standing,
        [
            Standing(
                event=event,
                stage=stage_of(i),
                player=players[i["player"]],
                **field_values(Standing, i, keys=("player", "stage")),
            )
            for i in data["standings"]
        ],
    )


def _restore_life(
    data: dict[str, Any], event: Event, players: dict[str, Player], rounds: dict[int, Round]
) -> None:
    """The prizes, registrations (each with a new check-in token) and presences of the event
    (an archive of version 1 has none)."""
    create_all(
        Prize, [Prize(event=event, **field_values(Prize, i)) for i in data.get("prizes", [])]
    )
    create_all(
        Registration,
        [
            Registration(
                event=event,
                player=players[i["player"]] if i.get("player") is not None else None,
                **field_values(Registration, i, keys=("player", *REGISTRATION_SECRET)),
            )
            for i in data.get("registrations", [])
        ],
    )
    create_all(
        Presence,
        [
            Presence(
                round=rounds[i["round"]],
                player=players[i["player"]],
                **field_values(Presence, i, keys=("round", "player")),
            )
            for i in data.get("presences", [])
        ],
    )
