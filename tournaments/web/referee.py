"""Referee pages: an event's tables, the live entry of a game, the quick result, the JSON
record, a game's versions with confirmation and ruling, the chief referee's table status board
and the organizers' queue of flagged games.

Who sees what is decided by tournaments.core.access: a referee his assigned tables, chief referees
and organizers every table (rulings, the status board, the queue); anyone else gets the login
page or a 403. Every write calls a service (tournaments.tables.submission.game_submit,
tournaments.tables.review); a refused request is shown as an error and nothing is stored. The
live entry page is plain JavaScript over the API's entry endpoint (games/static/games/entry.js).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games import messages as entry_messages
from games import quick_result, views
from games import steps as entry_steps
from games.forms import GameRecordForm, QuickResultForm, ResolveForm
from games.models import Board, Game
from tournaments.core.access import (
    Actor,
    can_enter_table,
    is_chief_referee,
    is_official,
    may_rule_on_own_entry,
)
from tournaments.core.lineups import table_players
from tournaments.core.zones import zone_of
from tournaments.events.clock import current_round
from tournaments.links.checks import open_signals
from tournaments.models import Event, Table
from tournaments.results import pages as results_pages
from tournaments.tables import review, selectors
from tournaments.tables.submission import GameConflict, entry_refusal, game_submit
from tournaments.tables.versions import VERSION_MAX, version_seen
from tournaments.web import substitutions
from tournaments.web.screen import clock_context, round_choice, table_clock_context


def _refuse(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(_("Your roles in this event do not allow this page."))


def _table_and_board(slug: str, table_id: int, number: int) -> tuple[Table, Board]:
    table, board = selectors.table_and_board(slug=slug, table_id=table_id, number=number)
    if not board.is_played_at(table):
        raise PermissionDenied(_("This board is not played at this table."))
    return table, board


def referee_event(request: HttpRequest, slug: str) -> HttpResponse:
    """The tables the user enters in `event`, each board with its entry state, and the
    current round's clock (its buttons for organizers and chief referees)."""
    event = get_object_or_404(Event, slug=slug)
    if not is_official(request.user, event):
        return _refuse(request)
    rows = selectors.status_board(event=event, tables=selectors.tables_of(request.user, event))
    return render(
        request,
        "games/referee_event.html",
        {
            "event": event,
            "rows": rows,
            "chief": is_chief_referee(request.user, event),
            # The same clock as the big screen, with its buttons for those who run it.
            **clock_context(event, current_round(event), request.user, tables=True),
            **substitutions.referee_context(event, request),
        },
    )


def status_board(request: HttpRequest, slug: str) -> HttpResponse:
    """The chief referee's table status board, of the round the room plays unless
    ``?round=N`` or ``?round=all`` (tournaments.web.screen.round_choice); ``?fragment=1`` is
    the table alone, which the page fetches every few seconds to refresh itself."""
    event = get_object_or_404(Event, slug=slug)
    if not is_chief_referee(request.user, event):
        return _refuse(request)
    round_, choice = round_choice(request, event)
    tables = selectors.tables_of(request.user, event)
    if round_ is not None:
        tables = tables.filter(round=round_)
    rows = selectors.status_board(event=event, tables=tables)
    counts: dict[str, int] = {state: 0 for state in selectors.ENTRY_STATES}
    for row in rows:
        for cell in row.cells:
            counts[cell.state] += 1
    context = {
        "event": event,
        "rows": rows,
        "counts": counts,
        "states": selectors.ENTRY_STATES,
        "as_of": timezone.now(),
        **choice,
    }
    if request.GET.get("fragment"):
        return render(request, "referee/status_table.html", context)
    return render(request, "referee/status_board.html", context)


def flagged_queue(request: HttpRequest, slug: str) -> HttpResponse:
    """The games the engine flagged that await a chief referee's ruling, then the results far
    from the field on the same hand (a warning to check the entry), and the problems players
    signalled through their private links (tournaments.links)."""
    event = get_object_or_404(Event, slug=slug)
    if not is_chief_referee(request.user, event):
        return _refuse(request)
    games = selectors.flagged_queue(event=event)
    warnings = selectors.field_warnings(event=event)
    signals = open_signals(event=event)
    return render(
        request,
        "referee/flagged.html",
        {
            "event": event,
            "games": games,
            "warnings": warnings,
            "signals": signals,
            "zone": zone_of(event),
        },
    )


def confirm_queue(request: HttpRequest, slug: str) -> HttpResponse:
    """The verified games a chief referee may confirm, with their results, of the round the
    room plays unless ``?round=N`` or ``?round=all`` (tournaments.web.screen.round_choice),
    and how many more wait in other rounds; he ticks several and confirms them at once
    (tournaments.tables.review.games_confirm), then comes back to the same round. Each
    refusal is named by its table and board; the others are confirmed."""
    event = get_object_or_404(Event, slug=slug)
    if not is_chief_referee(request.user, event):
        return _refuse(request)
    round_, choice = round_choice(request, event)
    if request.method == "POST":
        ids, odd = review.game_numbers(request.POST.getlist("game"))
        if not ids and not odd:
            messages.info(request, _("Tick the games to confirm first."))
        if odd:
            messages.error(
                request,
                ngettext(
                    "%(n)s value sent is no game number: it was passed over.",
                    "%(n)s values sent are no game numbers: they were passed over.",
                    len(odd),
                )
                % {"n": len(odd)},
            )
        confirmed, refused = review.games_confirm(event=event, game_ids=ids, actor=request.user)
        if confirmed:
            messages.success(
                request,
                ngettext("%(count)d game confirmed.", "%(count)d games confirmed.", len(confirmed))
                % {"count": len(confirmed)},
            )
        names = {  # by table and board when of this event; another's by its number only
            g.pk: g
            for g in Game.objects.filter(
                pk__in=[i for i, _r in refused], board__event=event
            ).select_related("table", "board")
        }
        for game_id, reason in refused:
            game = names.get(game_id)
            where = (
                _("Table %(table)s, board %(board)s")
                % {"table": game.table.number, "board": game.board.number}
                if game
                else _("Game %(id)s") % {"id": game_id}
            )
            messages.error(request, _("%(field)s: %(error)s") % {"field": where, "error": reason})
        back = reverse("referee:confirm", kwargs={"slug": slug})
        query = choice["choice"]["query"]
        return redirect(f"{back}?{query}" if query else back)
    games = list(selectors.confirm_queue(event=event, actor=request.user, round_=round_))
    others = (
        selectors.confirm_queue(event=event, actor=request.user).count() - len(games)
        if round_ is not None
        else 0
    )
    return render(
        request,
        "referee/confirm_queue.html",
        {
            "event": event,
            "games": games,
            "others": others,
            "required": event.confirmation_required,
            **choice,
        },
    )


def live_entry(request: HttpRequest, slug: str, table_id: int, number: int) -> HttpResponse:
    """The live entry page: the deal, the calls and the plays checked as they are entered."""
    table, board = _table_and_board(slug, table_id, number)
    if not can_enter_table(request.user, table):
        return _refuse(request)
    kwargs = {"slug": slug, "table_id": table.pk, "number": board.number}
    context = live_entry_context(
        table,
        board,
        api={
            "entry": reverse("api:entry", kwargs=kwargs),
            "games": reverse("api:games", kwargs=kwargs),
        },
        review=reverse("referee:game", kwargs={"slug": slug, "pk": 0}),
        actor=request.user,
    )
    return render(request, "referee/live_entry.html", context)


def live_entry_context(
    table: Table, board: Board, *, api: dict[str, str], review: str, actor: Actor
) -> dict[str, Any]:
    """The live entry page's context for any door (a referee's, a table's private link):
    `api` the URLs of its ``entry`` (check a step) and ``games`` (submit) endpoints, `review`
    where a submitted game is shown (its id replacing the final ``0/``); ``closed`` says why
    `actor` enters nothing here (the round not in play, a confirmed game he may not
    replace: tournaments.tables.submission.replace_refusal), None when he may. The script
    submits without replacing: a board the table has a game of is refused (409) naming that
    version, and only then does its "Replace version N" button send it again naming it."""
    current = selectors.current_game(table=table, board=board)
    deal = entry_steps.EntryDeal.from_board(board)
    config = {
        "api": api,
        "review": review,
        "seats": list(deal.rules.seats),
        "key": uuid.uuid4().hex,
        # Who plays this board at each seat: a substitute on her boards.
        "players": {s: p.name for s, p in table_players(table, board.number).items()},
        "messages": {
            "submitted": _("Submitted: the engine verifies it now."),
            "not_finished": _("The game is not finished yet."),
            "network": _("The server did not answer; your steps are kept, try again."),
            "your_turn": _("to move"),
            "low": _("two or fewer cards"),
            "nothing_to_undo": _("Nothing to undo."),
            "busy": _("Wait: your last tap is still being checked."),
            "landlord": _("landlord"),
            "farmers": _("farmers"),
            "call_for": _("Call for %(seat)s"),
            "cards_for": _("Cards for %(seat)s"),
            "done": _("The game is over: check the result and submit it."),
            "bidding": _("Bidding"),
            "play": _("Play"),
            "passed_out": _("Passed out: every seat scores 0."),
            "winner": _("Winner"),
            "engine": _("Engine"),
            "pass": _("pass"),
            "claim": _("claim"),
            "concede": _("concede"),
            "to_move_is": _("%(seat)s to move"),
            "to_beat": _("to beat: %(cards)s (%(seat)s)"),
            "leads": _("leads: any play"),
            "replace_version": _("Replace version %(version)s"),
        },
        # The engine's English words under a refusal, for English readers only: in another
        # language the refusal is wholly in that language (games.messages.error_message).
        "engine_words": (get_language() or "en").split("-")[0] == "en",
        "offline": views.page_config(),
    }
    return {
        "event": board.event,
        "board": board,
        "table": table,
        "current": current,
        # Where the stored game is shown (`review` ends in the id 0/).
        "current_url": f"{review[:-2]}{current.pk}/" if current else None,
        "config": config,
        "seats": deal.rules.seats,
        "closed": entry_refusal(table, current, actor=actor, event=board.event),
        **_version_context(table, board, current, None),
        # The same clock as the big screen, with this table's extra time.
        **table_clock_context(table, board.event),
    }


def quick_entry(request: HttpRequest, slug: str, table_id: int, number: int) -> HttpResponse:
    """The quick result: landlord, bid, doubles, bombs and rockets, spring, winner."""
    table, board = _table_and_board(slug, table_id, number)
    if not can_enter_table(request.user, table):
        return _refuse(request)
    return quick_entry_page(
        request,
        table,
        board,
        actor=request.user,
        source="quick",
        template="referee/quick_entry.html",
        done=lambda game: reverse("referee:game", kwargs={"slug": slug, "pk": game.pk}),
    )


def _replaces_posted(request: HttpRequest) -> int | None:
    """The version a page's "Replace version N" button names (field ``replaces``), None for
    none or a value that is no version number: the write path then refuses naming the
    current version, so a damaged value replaces nothing."""
    field = forms.IntegerField(min_value=1, max_value=VERSION_MAX)
    try:
        return cast(int, field.clean(request.POST.get("replaces")))
    except forms.ValidationError:
        return None


def _version_context(
    table: Table, board: Board, current: Game | None, conflict: GameConflict | None, keep: str = ""
) -> dict[str, Any]:
    """What an entry page shows of the table's current game of the board
    (templates/referee/_version_seen.html): ``seen``, that version (its number, who entered
    it, when, its result) before anything is submitted; ``conflict``, a submission refused for
    not naming it as the version it replaces (its message, and under ``current`` the version
    the page's "Replace version N" button names); ``keep``, the address of that game;
    ``adjusted_everywhere``: every seat has an adjusted score (a result counts for none)."""
    seen = version_seen(current) if current is not None and conflict is None else None
    return {
        "seen": seen,
        "conflict": conflict,
        "keep": keep,
        "adjusted_everywhere": selectors.adjusted_everywhere(table, board),
    }


def quick_entry_page(
    request: HttpRequest,
    table: Table,
    board: Board,
    *,
    actor: Actor,
    source: str,
    template: str,
    done: Callable[[Game], str],
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """The quick result form for any door (a referee's, a table's private link): a POST calls
    tournaments.tables.submission.game_submit as `actor` through door `source`, then redirects to
    ``done(game)``; a refusal is shown under its field and nothing is stored. A result for a
    board the table has a game of is refused (409) with that version shown and a "Replace
    version N" button (`_version_context`)."""
    deal = entry_steps.EntryDeal.from_board(board)
    current = selectors.current_game(table=table, board=board)
    status = 200
    conflict = None
    if request.method == "POST":
        form = QuickResultForm(
            request.POST,
            seats=deal.rules.seats,
            has_doubles="double" in quick_result.bidding_calls(deal.rules),
            deal=deal,  # the claims are checked with the form: every field at fault at once
        )
        if form.is_valid():
            try:
                record = quick_result.quick_record(
                    deal,
                    form.quick(),
                    record_id=entry_steps.table_record_id(table, board),
                )
                game = game_submit(
                    table=table,
                    board=board,
                    record=record,
                    replaces=_replaces_posted(request),
                    actor=actor,
                    idempotency_key=form.cleaned_data["idempotency_key"] or None,
                    source=source,
                )
            except GameConflict as exc:
                conflict = exc
                current = selectors.current_game(table=table, board=board)
            except DomainError as exc:
                # A quick-result claim names its field (games.steps.EntryError.field); every
                # refused claim is shown, each under its field (EntryError.others).
                for error in [exc, *getattr(exc, "others", [])]:
                    where = getattr(error, "field", None)
                    form.add_error(where if where in form.fields else None, error.message)
            else:
                return redirect(done(game))
        status = 409 if conflict is not None else 400
    else:
        form = QuickResultForm(
            seats=deal.rules.seats,
            has_doubles="double" in quick_result.bidding_calls(deal.rules),
            initial={"idempotency_key": uuid.uuid4().hex},
        )
    return render(
        request,
        template,
        {
            "event": board.event,
            "board": board,
            "table": table,
            "form": form,
            "current": current,
            "closed": entry_refusal(table, current, actor=actor, event=board.event),
            **_version_context(
                table, board, current, conflict, keep=done(current) if current else ""
            ),
            "players": table_players(table, board.number),
            **table_clock_context(table, board.event),
            **(context or {}),
        },
        status=status,
    )


def game_enter(request: HttpRequest, slug: str, table_id: int, number: int) -> HttpResponse:
    """The JSON record door (a whole RECORDS.md §1 record pasted). A record for a board the
    table has a game of is refused (409) with that version shown and a "Replace version N"
    button (`_version_context`)."""
    table, board = _table_and_board(slug, table_id, number)
    if not can_enter_table(request.user, table):
        return _refuse(request)
    conflict = None
    if request.method == "POST":
        form = GameRecordForm(request.POST)
        if form.is_valid():
            try:
                game = game_submit(
                    table=table,
                    board=board,
                    record=form.cleaned_data["record"],
                    replaces=_replaces_posted(request),
                    actor=request.user,
                    source="page",
                )
            except GameConflict as exc:
                conflict = exc
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("referee:game", slug=slug, pk=game.pk)
        status = 409 if conflict is not None else 400
    else:
        position = entry_steps.start(entry_steps.EntryDeal.from_board(board))
        skeleton = entry_steps.to_record(position)
        skeleton.update(declared=None)
        form = GameRecordForm(
            initial={"record": json.dumps(skeleton, ensure_ascii=False, indent=1)}
        )
        status = 200
    current = selectors.current_game(table=table, board=board)
    keep = reverse("referee:game", kwargs={"slug": slug, "pk": current.pk}) if current else ""
    return render(
        request,
        "games/game_enter.html",
        {
            "event": board.event,
            "board": board,
            "table": table,
            "form": form,
            **_version_context(table, board, current, conflict, keep=keep),
        },
        status=status,
    )


def _game_action(request: HttpRequest, game: Game) -> tuple[ResolveForm, str | None]:
    """Carry out the POSTed action (``confirm`` or ``resolve``) on `game`: (the ruling form,
    bound to the POST for a ruling so that a refused one is shown again as filled in; None, or
    the message of the refusal)."""
    resolve_form = ResolveForm()
    try:
        if request.POST.get("action") == "confirm":
            review.game_confirm(game_id=game.pk, actor=request.user)
        elif request.POST.get("action") == "resolve":
            resolve_form = ResolveForm(request.POST)
            if not resolve_form.is_valid():
                raise DomainError(_ruling_refusal(resolve_form))
            review.game_resolve(
                game_id=game.pk,
                actor=request.user,
                decision=resolve_form.cleaned_data["decision"],
                note=resolve_form.cleaned_data["note"],
            )
        else:
            raise DomainError(_("Unknown action."))
    except DomainError as exc:
        return resolve_form, exc.message
    return resolve_form, None


def _ruling_refusal(form: ResolveForm) -> str:
    """Why the ruling `form` is refused: a ruling and a reason to choose and give, or what the
    site's rule for typed text finds in the reason (ddz_site.kernel.text), after its name."""
    if form.has_error("decision") or form.has_error("note", "required"):
        return _("Choose a ruling and give its reason.")
    return _("%(field)s: %(error)s") % {
        "field": form.fields["note"].label,
        "error": " ".join(map(str, form.errors["note"])),
    }


def _error_text(current: Game | None) -> str:
    """The engine's error on the current version in the reader's language (games.steps's
    sentences), "" when it has none."""
    if current is None or not isinstance(current.error, dict) or not current.error:
        return ""
    return entry_messages.stored_error_message(
        current.error,
        status=current.status,
        record=current.record or {},
        landlord=current.landlord,
        winner=current.winner,
        declared=current.declared,
        score=current.score,
    )


def _next_board(game: Game) -> Board | None:
    """The round's board after the game's, None after the last."""
    return (
        Board.objects.filter(round_id=game.table.round_id, number__gt=game.board.number)
        .order_by("number")
        .first()
    )


def game_versions(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One table's game of one board: every version, confirmation and ruling, its audit, the
    engine's error in the reader's language, and the way to the next board of the round."""
    game = get_object_or_404(
        Game.objects.select_related("table__round__event", "board"),
        pk=pk,
        board__event__slug=slug,
    )
    event = game.table.round.event
    chief = is_chief_referee(request.user, event)
    if not can_enter_table(request.user, game.table):
        return _refuse(request)
    error = None
    status = 200
    if request.method == "POST":
        resolve_form, error = _game_action(request, game)
        if error is None:
            return redirect("referee:game", slug=slug, pk=game.pk)
        status = 400
    else:
        resolve_form = ResolveForm()
    versions = list(selectors.game_versions(table=game.table, board=game.board))
    current = next((v for v in versions if v.replaced_at is None), None)
    # The record above the confirm button: the chief sees what he confirms.
    shown = results_pages.game_record(current) if current is not None else {}
    audit = selectors.audit_log(event=event, games=versions)
    error_text = _error_text(current)
    following = _next_board(game)
    rulable = chief and current is not None and review.takes_ruling(current)
    # Where the event asks a second person, the one who entered the version is told that
    # someone else confirms it, and rules on it.
    own_entry = current is not None and not may_rule_on_own_entry(request.user, current)
    context: dict[str, Any] = {
        "event": event,
        "zone": zone_of(event),  # the versions' and the audit's times, named
        "game": game,
        "table": game.table,
        "board": game.board,
        "versions": versions,
        "current": current,
        "adjusted": selectors.seat_adjustments(game.table, game.board),
        "audit": audit,
        "chief": chief,
        "error": error,
        "resolve_form": resolve_form,
        "error_text": error_text,
        "next_board": following,
        "can_confirm": current is not None
        and event.confirmation_required
        and review.may_confirm(current)
        and current.entered_by_id != request.user.pk,
        "can_resolve": rulable and not own_entry,
        "own_entry": own_entry,
        "rules_elsewhere": rulable and own_entry,
        "can_accept": current is not None and review.may_accept(current),
        "state": selectors.entry_state(current, drafting=False) if current else "not_started",
        **{k: shown[k] for k in ("seats", "record", "bottom", "bidding", "tricks") if k in shown},
    }
    if not context["can_accept"]:
        # Illegal, incomplete or confirmed: the only ruling left is to enter it again.
        decision = cast(forms.ChoiceField, resolve_form.fields["decision"])
        decision.choices = [("reject", _("to be entered again"))]
    return render(request, "referee/game_versions.html", context, status=status)
