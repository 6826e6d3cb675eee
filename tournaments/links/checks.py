"""A player's check of a result through her link: she confirms it or reports a problem with a
note (ResultCheck), within the event's correction window; the referees' queue of reports
(open_signals) and their handling.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.broadcast import table_changed
from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from games.models import Game
from tournaments.core import access
from tournaments.core.access import Actor
from tournaments.core.audit import audit_record
from tournaments.core.lineups import seat_played, table_players
from tournaments.links.tokens import LinkBearer, LinkRefused
from tournaments.models import (
    CheckKind,
    Event,
    PlayerLink,
    ResultCheck,
)

NOTE_MAX_CHARS = 2000  # a player's note on her game


class CheckRefused(DomainError):
    """A player's confirmation or signal that cannot be taken now; nothing was written."""

    code = "forbidden"


class AnswerInvalid(CheckRefused):
    """A confirmation or signal whose kind or note is bad input (ddz_site.kernel.text's rule, a
    problem without a note, another kind): nothing written. `field` names the field at fault
    (``kind`` or ``note``)."""

    code = "invalid"

    def __init__(self, message: str, *, field: str = "note") -> None:
        super().__init__(message)
        self.field = field


# --- Players' checks -----------------------------------------------------------------------


def result_check_record(
    *, link: PlayerLink, game: Game, kind: str, note: str = "", device: str = ""
) -> ResultCheck:
    """The player of `link` confirms `game` (``confirm``) or signals a problem with it
    (``problem``, with her `note`); a second answer on the same game replaces the first (a
    new signal waits to be handled again). Audited as her link with the device
    (``game.check``).

    Raises:
        AnswerInvalid: another kind, a note that is not readable text, holds control
            characters or is longer than NOTE_MAX_CHARS (ddz_site.kernel.text), or a problem without
            a note.
        CheckRefused: see tournaments.core.access.player_check_refusal (link revoked or expired,
            not her game, a replaced version, outside the correction window).
    """
    refusal = access.player_check_refusal(link, game)
    if refusal is not None:
        raise CheckRefused(refusal)
    if kind not in CheckKind.values:
        raise AnswerInvalid(_("Confirm the result or signal a problem."), field="kind")
    note = (note or "").strip()
    # Readable UTF-8 without control characters, never cut (ddz_site.kernel.text: the one rule).
    unfit = text_refusal(note, lines=True, max_length=NOTE_MAX_CHARS)
    if unfit is not None:
        raise AnswerInvalid(unfit[1])
    if kind == CheckKind.PROBLEM and not note:
        raise AnswerInvalid(_("A problem needs a note: say what is wrong with the result."))
    seat = seat_played(
        table_id=game.table_id, board_number=game.board.number, player_id=link.player_id
    )
    bearer = LinkBearer.of(link, device=device)
    for _attempt in range(2):
        try:
            with transaction.atomic():
                check, _created = ResultCheck.objects.update_or_create(
                    game=game,
                    player_id=link.player_id,
                    defaults={
                        "seat": seat or "",
                        "kind": kind,
                        "note": note,
                        "link": link,
                        "device": bearer.device,
                        "at": timezone.now(),
                        "handled_at": None,
                        "handled_by": None,
                        "handled_note": "",
                    },
                )
                audit_record(
                    event=link.event,
                    actor=bearer,
                    action="game.check",
                    obj=game,
                    changes={"kind": kind, "note": note, "seat": seat},
                )
                return check
        except IntegrityError:
            # Two answers created it at once: the second now finds the row and updates it.
            continue
    raise CheckRefused(_("The answer could not be saved; try again."))


CLAIM_ANSWERS = {"accept": CheckKind.CONFIRM, "dispute": CheckKind.PROBLEM}


def claim_answers(*, game: Game) -> dict[str, str]:
    """Seat → the answer (``accept`` or ``dispute``) each seat gave to `game`'s claim so far.
    One query."""
    answer_of: dict[str, str] = {str(k): a for a, k in CLAIM_ANSWERS.items()}
    return {
        seat: answer_of[kind]
        for seat, kind in ResultCheck.objects.filter(game=game, kind__in=answer_of)
        .order_by()
        .values_list("seat", "kind")
        if seat
    }


def claim_view(
    *, game: Game | None, seat: str | None, seats: Iterable[str]
) -> dict[str, Any] | None:
    """A stored game's claim as `seat`'s device shows it (R-CLAIM): ``{"by", "open",
    "answer", "answers"}`` (``open``: the seat may accept or dispute it; ``answer``: its
    answer so far, or null; ``answers``: each other seat of `seats` with its answer so far,
    or null, which every seat reads, the claimant too); null when the game did not end with
    a claim. One query."""
    claimant = (game.record.get("end") or {}).get("claim") if game is not None else None
    if game is None or not claimant:
        return None
    given = claim_answers(game=game)
    others = {s: given.get(s) for s in seats if s != claimant}
    mine = others.get(seat or "")
    return {"by": claimant, "open": seat in others, "answer": mine, "answers": others}


def claim_answer_record(*, game: Game, seat: str, answer: str, bearer: Actor) -> ResultCheck:
    """A seat device's answer to a claim its table's game ended with (R-CLAIM) that the live
    view could not decide: ``accept`` (the player's confirmation of the result) or ``dispute``
    (a problem signalled, which waits in the chief referee's queue with the others). The
    player is whoever played that board at that seat; a second answer replaces the first.
    Audited as the device (``game.check``).

    Raises:
        AnswerInvalid: `answer` neither ``accept`` nor ``dispute``.
        CheckRefused: the game did not end with a claim, `seat` is the claimant's, the game is
            a replaced version, or nobody is seated there.
    """
    if answer not in CLAIM_ANSWERS:
        raise AnswerInvalid(_("Accept the claim or dispute it."), field="answer")
    claimant = (game.record.get("end") or {}).get("claim")
    if not claimant or game.replaced_at is not None:
        raise CheckRefused(_("This game did not end with a claim to answer."))
    if seat == claimant:
        raise CheckRefused(_("The claim is yours: the other seats answer it."))
    player = table_players(game.table, game.board.number).get(seat)
    if player is None:
        raise CheckRefused(_("Nobody is seated there."))
    kind = CLAIM_ANSWERS[answer]
    note = (
        _("%(seat)s disputes the claim of %(claimant)s at the table.")
        % {"seat": seat, "claimant": claimant}
        if kind == CheckKind.PROBLEM
        else ""
    )
    with transaction.atomic():
        check, _created = ResultCheck.objects.update_or_create(
            game=game,
            player=player,
            defaults={
                "seat": seat,
                "kind": kind,
                "note": note,
                "link": None,
                "device": getattr(bearer, "device", ""),
                "at": timezone.now(),
                "handled_at": None,
                "handled_by": None,
                "handled_note": "",
            },
        )
        audit_record(
            event=game.board.event,
            actor=bearer,
            action="game.check",
            obj=game,
            changes={"kind": kind, "note": note, "seat": seat, "claim": claimant},
        )
        # Every device of the table reads the answers again: the claimant sees them.
        table_changed(table_id=game.table_id, board_number=game.board.number)
    return check


def result_check_handle(*, check_id: int, actor: Actor, note: str = "") -> ResultCheck:
    """A chief referee (or organizer) marks a signalled problem handled, with how (a
    conditional UPDATE: a signal is handled once). Audited (``game.check.handle``).

    Raises:
        LinkRefused: no such signal, `actor` not a chief referee or organizer of its event,
            the signal handled (or changed to a confirmation) already, or a note that is not
            readable text, holds control characters or is longer than NOTE_MAX_CHARS
            (ddz_site.kernel.text).
    """
    check = (
        ResultCheck.objects.select_related("game__board__event", "player")
        .filter(pk=check_id)
        .first()
    )
    if check is None:
        raise LinkRefused(_("No such signal."))
    event = check.game.board.event
    if not access.may_handle_checks(actor, event):
        raise LinkRefused(_("Only chief referees and organizers handle the players' signals."))
    note = (note or "").strip()
    unfit = text_refusal(note, lines=True, max_length=NOTE_MAX_CHARS)
    if unfit is not None:
        raise LinkRefused(unfit[1])
    with transaction.atomic():
        done = ResultCheck.objects.filter(
            pk=check_id, kind=CheckKind.PROBLEM, handled_at__isnull=True
        ).update(handled_at=timezone.now(), handled_by=actor, handled_note=note)
        if not done:
            raise LinkRefused(_("This signal was handled already."))
        audit_record(
            event=event,
            actor=actor,
            action="game.check.handle",
            obj=check.game,
            changes={"check": check_id, "player": check.player.name, "note": note},
        )
    check.refresh_from_db()
    return check


# --- Reading -------------------------------------------------------------------------------


def open_signals(*, event: Event) -> QuerySet[ResultCheck]:
    """The problems players signalled on games of `event` that no one handled yet, oldest
    first: the chief referee's queue."""
    return (
        ResultCheck.objects.filter(
            game__board__event=event, kind=CheckKind.PROBLEM, handled_at__isnull=True
        )
        .select_related("game__board", "game__table__round", "player")
        .order_by("at", "pk")
    )
