"""The change log of an event (its audit entries, tournaments.core.audit) read as lines, in the
reader's language: the organizer's dashboard shows the last ones, tournaments.web.audit_log
every one (selectors, reads only).

A line is (entry, *who*, *what*). *Who* is the entry's own (AuditEntry.who: a user, a private
link, the system), or, for an entrant's own device at an online event (a link ``online``), the
name of the player who holds that seat. *What* is the action's label
(tournaments.core.labels) and its object's *label* ("Round 5", "Board 12", a player's name,
rather than a database id) or, for an action whose one change says it better, its old → new
value. At an online robot duplicate (tournaments.online) a step reads as a sentence ("Ann
played 33 at S", "Ann passed at S", "Ann at S: bid 2", "robot at E played 44"), a robot's
take-over names the seat, whose it was and why, and a table the robots completed says so.

Entries are read as stored, the old ones too: a field missing or of another shape (a step
stored before its ``phase`` was kept) reads with what is there, else with the plain label.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.apps import apps
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine.bidding import normalize_call
from games.engine.cards import is_pass_text
from games.messages import call_label
from games.models import Board, Game
from games.steps import CALL_ALIASES, END_WORDS
from tournaments.core.labels import action_label
from tournaments.models import (
    AuditEntry,
    Event,
    Player,
    Round,
    Seat,
    Stage,
    Substitution,
    Table,
    stage_label,
)

# The actions whose label is their one change, old → new, by the field of their changes that
# holds [old, new]: a player's public name names him better than "player" would.
OLD_TO_NEW = {"player.name": "name"}

# The words of a step that are calls whatever the phase: the landlord's calls before the first
# lead, and a claim or a concession (games.steps).
CALL_WORDS = frozenset({"call", "rob", "double", "redouble", "show", "surrender", "reveal"})

# The actions that hand an online seat to its robot (tournaments.online.tables._take_over).
TAKE_OVERS = ("online.robot_takeover", "online.table_leave")

Line = tuple[AuditEntry, str, str]


def change_log(*, event: Event, steps: bool = False) -> QuerySet[AuditEntry]:
    """The audit entries of `event`, newest first, their actors selected; without `steps` but
    the steps typed at the tables, one entry each (``entry.step``: the log lists the changes,
    not the typing)."""
    entries = AuditEntry.objects.filter(event=event)
    if not steps:
        entries = entries.exclude(action="entry.step")
    return entries.select_related("actor").order_by("-at", "-id")


def change_log_lines(entries: Iterable[AuditEntry], *, event: Event) -> list[Line]:
    """`entries` (a page of `event`'s change log), each as (entry, who, what): module
    docstring. One query per kind of object, and one for the seats of an online event's
    tables."""
    entries = list(entries)
    ids: dict[str, set[int]] = {}
    for e in entries:
        if e.object_id.isdigit():
            ids.setdefault(e.object_type, set()).add(int(e.object_id))
    labels = _object_labels(ids)
    online = bool(event.online and event.online_robots)
    holders, entrants = _seat_holders(entries) if online else ({}, set())
    lines = []
    for e in entries:
        key = (e.object_type, int(e.object_id)) if e.object_id.isdigit() else ("", 0)
        label = _old_to_new(e) or labels.get(key, _gone_label(e))
        told = _online_what(e, holders, entrants) if online else None
        what = told or str(action_label(e.action))
        lines.append((e, _who(e, holders), _joined(what, label)))
    return lines


def _changes(entry: AuditEntry) -> Mapping[str, Any]:
    return entry.changes if isinstance(entry.changes, dict) else {}


def _joined(what: str, label: str) -> str:
    return f"{what} · {label}" if label else what


def _table_id(entry: AuditEntry) -> int | None:
    if entry.object_type == "table" and entry.object_id.isdigit():
        return int(entry.object_id)
    return None


def _online_via(entry: AuditEntry) -> Mapping[str, Any] | None:
    """The link of an entrant's own device (tournaments.online.play.entrant_device), if the
    entry came through one."""
    via = _changes(entry).get("via")
    return via if isinstance(via, dict) and via.get("link") == "online" else None


def _seat_holders(
    entries: list[AuditEntry],
) -> tuple[dict[tuple[int, str], str], set[tuple[int, str]]]:
    """(table id, seat) → the name of its player (a robot's in the reader's language), for the
    tables the entries are about or came through, and which of those seats an entrant holds
    (not a robot). One query."""
    tables = {t for t in map(_table_id, entries) if t is not None}
    for e in entries:
        via = _online_via(e)
        if via is not None and isinstance(via.get("table_id"), int):
            tables.add(via["table_id"])
    seats = list(Seat.objects.filter(table_id__in=tables).select_related("player"))
    return (
        {(s.table_id, s.seat): s.player.shown_name for s in seats},
        {(s.table_id, s.seat) for s in seats if not s.player.robot},
    )


def _who(entry: AuditEntry, holders: Mapping[tuple[int, str], str]) -> str:
    via = _online_via(entry)
    if via is not None:
        name = holders.get((via.get("table_id"), via.get("seat")))  # type: ignore[arg-type]
        if name:
            return name
    return str(entry.who)


def _online_what(
    entry: AuditEntry, holders: Mapping[tuple[int, str], str], entrants: set[tuple[int, str]]
) -> str | None:
    """What an entry of an online robot duplicate says better than its action's label, or
    None (the plain label)."""
    changes = _changes(entry)
    table = _table_id(entry)
    if entry.action == "entry.step":
        return _step_sentence(entry, table, holders, entrants)
    if entry.action in TAKE_OVERS and isinstance(changes.get("robot_from"), int):
        seat = str(changes.get("seat") or "")
        player = holders.get((table, seat), "—") if table is not None else "—"
        return _joined(str(action_label(entry.action)), _take_over(changes, seat, player))
    robots = changes.get("robots")
    if entry.action == "online.table_full" and isinstance(robots, list) and robots:
        # The wait was over (or the window closed) before entrants filled it.
        return pgettext(
            "audit action", "online table completed by robots at %(seats)s, its board started"
        ) % {"seats": ", ".join(map(str, robots))}
    return None


def _take_over(changes: Mapping[str, Any], seat: str, player: str) -> str:
    why = str(changes.get("why") or "")
    reasons = {
        "timeout": _("ran out of time"),
        "left": _("left the table"),
        "close": _("the window closed"),
    }
    # The first move the robot made for him: robot_from counts the steps before it.
    return _("seat %(seat)s of %(player)s, from move %(move)s: %(why)s") % {
        "seat": seat,
        "player": player,
        "move": changes["robot_from"] + 1,
        "why": reasons.get(why, why),
    }


def _step_sentence(
    entry: AuditEntry,
    table: int | None,
    holders: Mapping[tuple[int, str], str],
    entrants: set[tuple[int, str]],
) -> str | None:
    """An online step as a sentence: the entrant's (through his device's link) or a robot's
    (the system's, no link: at an entrant's seat, his move the robot played, its time run out
    or the window closed, named so); None for anyone else's or a step stored in another
    shape."""
    changes = _changes(entry)
    step, seat = changes.get("step"), changes.get("seat")
    if not isinstance(step, str) or not isinstance(seat, str):
        return None
    kind, shown = _step_kind(step, changes.get("phase"))
    params = {"seat": seat, "cards": shown, "call": shown}
    if _online_via(entry) is not None:
        player = holders.get((table, seat)) if table is not None else None
        if not player:
            return None
        params["player"] = player
        sentences = {
            "pass": _("%(player)s passed at %(seat)s"),
            "call": _("%(player)s at %(seat)s: %(call)s"),
            "play": _("%(player)s played %(cards)s at %(seat)s"),
        }
    elif entry.actor_id is None and "via" not in changes and (table, seat) in entrants:
        params["player"] = holders[(table, seat)]  # type: ignore[index]
        sentences = {
            "pass": _("robot for %(player)s at %(seat)s passed"),
            "call": _("robot for %(player)s at %(seat)s: %(call)s"),
            "play": _("robot for %(player)s at %(seat)s played %(cards)s"),
        }
    elif entry.actor_id is None and "via" not in changes:
        sentences = {
            "pass": _("robot at %(seat)s passed"),
            "call": _("robot at %(seat)s: %(call)s"),
            "play": _("robot at %(seat)s played %(cards)s"),
        }
    else:
        return None
    return sentences[kind] % params


def _step_kind(step: str, phase: object) -> tuple[str, str]:
    """("pass" | "call" | "play", what to show) of a step typed in `phase` ("bidding",
    "play", or None for a step stored before the phase was kept: a lone digit is then a bid
    or a card, shown as it is)."""
    word = CALL_ALIASES.get(step.strip(), step.strip())
    if is_pass_text(word) or normalize_call(word) == "pass":
        return "pass", ""
    if phase == "bidding" or word.lower() in CALL_WORDS or word in END_WORDS:
        return "call", call_label(normalize_call(word))
    if phase is None and len(word) == 1 and word.isdigit():
        return "call", word
    return "play", word


def _object_labels(ids: dict[str, set[int]]) -> dict[tuple[str, int], str]:
    """(object type, id) → its label, for the objects of `ids` (object type → ids) that are
    still there."""
    labels: dict[tuple[str, int], str] = {}
    for pk, number in Round.objects.filter(pk__in=ids.get("round", ())).values_list("pk", "number"):
        labels["round", pk] = _("Round %(n)s") % {"n": number}
    for pk, r, t in Table.objects.filter(pk__in=ids.get("table", ())).values_list(
        "pk", "round__number", "number"
    ):
        labels["table", pk] = _("Round %(r)s, table %(t)s") % {"r": r, "t": t}
    for pk, r, t in Substitution.objects.filter(pk__in=ids.get("substitution", ())).values_list(
        "pk", "round__number", "table__number"
    ):
        labels["substitution", pk] = _("Round %(r)s, table %(t)s") % {"r": r, "t": t}
    for pk, number in Board.objects.filter(pk__in=ids.get("board", ())).values_list("pk", "number"):
        labels["board", pk] = _("Board %(n)s") % {"n": number}
    for pk, number, name, kind in Stage.objects.filter(pk__in=ids.get("stage", ())).values_list(
        "pk", "number", "name", "kind"
    ):
        labels["stage", pk] = stage_label(number, name, kind)
    for pk, b, r, t in Game.objects.filter(pk__in=ids.get("game", ())).values_list(
        "pk", "board__number", "table__round__number", "table__number"
    ):
        labels["game", pk] = _("Board %(b)s at round %(r)s, table %(t)s") % {"b": b, "r": r, "t": t}
    for pk, name in Event.objects.filter(pk__in=ids.get("event", ())).values_list("pk", "name"):
        labels["event", pk] = name
    # A player (an invitation, an account tied, an online entry) by name, a robot's read.
    for player in Player.objects.filter(pk__in=ids.get("player", ())):
        labels["player", player.pk] = player.shown_name
    return labels


def _old_to_new(entry: AuditEntry) -> str:
    """The old → new label of `entry` ("Ann → Annie") for an action of OLD_TO_NEW whose
    changes hold [old, new]; else ""."""
    pair = _changes(entry).get(OLD_TO_NEW.get(entry.action, ""))
    if isinstance(pair, list) and len(pair) == 2:
        return _("%(old)s → %(new)s") % {"old": pair[0], "new": pair[1]}
    return ""


def _gone_label(entry: AuditEntry) -> str:
    """The label of an entry's object that has no label of its own or is gone (a substitution
    removed, a penalty taken back, an adjusted score): its board, round, table and seat, or its
    round and table, or its player, as the entry's changes name them; else the kind of object
    (its model's name in the reader's language)."""
    changes = _changes(entry)
    round_, table = changes.get("round"), changes.get("table")
    board = changes.get("board")
    if isinstance(board, int) and isinstance(table, int):
        # An adjusted score, given or taken back: its board, table and seat (a weighted score
        # is the whole table's, no seat).
        if isinstance(round_, int):
            where = _("Board %(b)s at round %(r)s, table %(t)s") % {
                "b": board,
                "r": round_,
                "t": table,
            }
        else:
            where = _("Board %(b)s at table %(t)s") % {"b": board, "t": table}
        seat = changes.get("seat")
        return _("%(where)s, seat %(seat)s") % {"where": where, "seat": seat} if seat else where
    if isinstance(round_, int) and isinstance(table, int):
        return _("Round %(r)s, table %(t)s") % {"r": round_, "t": table}
    if isinstance(changes.get("player"), str):
        return str(changes["player"])
    for model in apps.get_models():
        if model._meta.model_name == entry.object_type:
            return str(model._meta.verbose_name)
    return ""
