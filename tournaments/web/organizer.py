"""Organizer pages (namespace "organizer", under /organizer/): an event's dashboard (each
round's state, its seating's repeat meetings and club clashes, and each table's entry
progress, the transitions as buttons, the deal
commitment, stages and the cut, the last changes; the whole change log is
tournaments.web.audit_log), players with the CSV import and export, and
the print pages of a round (table cards, hand records, seating list). The public deals page
(namespace "deals") shows the commitment and, once revealed, the seed and the recomputation.

Thin: each POST calls one service of tournaments.events.rounds or tournaments.events.players_csv,
which checks
that the user is an organizer of the event; a refusal is shown as a message and changed
nothing. An online robot duplicate has no stages: their actions are refused here
(`_no_stages`), as its rounds' transitions are by their service while its window is open. GET
pages are for organizers only too (403 for anyone else, the login page for the
anonymous).
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required as _login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from games import dealing
from games.engine import RuleSet
from games.engine.rules import PRESETS
from games.models import Board
from tournaments.core import access, labels, lineups
from tournaments.core.access import (
    Actor,
    AdministrationRefused,
    NotAllowed,
    NotOrganizer,
    is_organizer,
    organizer_check,
)
from tournaments.core.embargo import results_sealed
from tournaments.core.rules import option_help
from tournaments.core.zones import zone_of
from tournaments.events import (
    audit_lines,
    fields,
    overview,
    round_states,
    rounds,
    selectors,
    stages,
)
from tournaments.events.clock import current_round
from tournaments.league import clubs
from tournaments.models import (
    Event,
    EventFormat,
    EventRole,
    Registration,
    Role,
    Round,
    ScoringMethod,
    Stage,
    StageKind,
)
from tournaments.online.entry import online_events_entered
from tournaments.online.window import is_online_duplicate
from tournaments.people import accounts as people_accounts
from tournaments.people import life
from tournaments.tables import selectors as table_selectors
from tournaments.web import substitutions as views_substitutions
from tournaments.web.officials import dashboard_context

# The dashboard shows the last changes; the change log's page has them all.
DASHBOARD_CHANGES = 25

# Organizers need not be staff: they sign in on the site's page, not through the admin's.
login_required = partial(_login_required, login_url="account_login")


def event_for_organizer(request: HttpRequest, slug: str) -> Event:
    """The event ``slug`` if the signed-in user organizes it: 404 / 403 (PermissionDenied)
    otherwise. The one check of every organizer's page."""
    event = get_object_or_404(Event, slug=slug)
    if not is_organizer(request.user, event):
        raise PermissionDenied(_("Only the organizers of this event may see this page."))
    return event


def _done(request: HttpRequest, event: Event, call: Any, success: str) -> HttpResponse:
    """Run one service call; show its refusal or ``success`` as a message; back to the
    dashboard. Someone who is not an organizer of `event` is answered 403 with the reason at
    once (the dashboard would only refuse him in turn)."""
    try:
        call()
    except (NotAllowed, NotOrganizer) as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect("organizer:dashboard", slug=event.slug)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The signed-in user's events, each with his roles and where they take him (the
    dashboard for an organizer, the referee pages for referees, the public page for
    players), his registrations and the online events he entered (each to its online page);
    where one signs in to without ?next=."""
    by_event: dict[int, set[str]] = {}
    for event_id, role in EventRole.objects.filter(
        user=cast(User, request.user)
    ).values_list(  # login_required
        "event_id", "role"
    ):
        by_event.setdefault(event_id, set()).add(role)
    events = (
        Event.objects.all()
        if request.user.is_superuser
        else Event.objects.filter(pk__in=list(by_event))
    )
    own_clubs = clubs.clubs_organized(request.user)
    rows = []
    for event in life.newest_first(events):
        roles = by_event.get(event.pk, set())
        if request.user.is_superuser:
            roles = roles | {Role.ORGANIZER}
        rows.append((event, [Role(r).label for r in Role.values if r in roles], roles))
    return render(
        request,
        "organizer/home.html",
        {
            "rows": rows,
            "can_create": access.may_create_events(request.user) or bool(own_clubs),
            "clubs": own_clubs,
            "organizer": Role.ORGANIZER,
            # A referee's tables in play, at their next board: where he goes first.
            "tables_now": table_selectors.tables_now(request.user),
            # A player's registrations, newest event first, each to his own registration page.
            "registrations": Registration.objects.filter(user=cast(User, request.user))
            .select_related("event")
            .order_by("-event__starts_at", "-created_at"),
            # The online events his account entered (no registration, no role: he pressed
            # Enter), each to its online page, where he plays his boards.
            "online_events": life.newest_first(online_events_entered(request.user)),
        },
    )


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """Open an event (staff users and superusers, or a club's organizers for their club; the
    creator becomes its organizer): name, rules preset (every preset of games.engine) and
    options, format, scoring method, and the club and series (tournaments.league.clubs)."""
    own_clubs = clubs.clubs_organized(request.user)
    staff = access.may_create_events(request.user)
    if not staff and not own_clubs:
        raise PermissionDenied(_("Only staff users and club organizers open events."))
    values = {
        "club": request.GET.get("club", "" if staff else str(own_clubs[0].pk)),
        "series": "",
        "name": "",
        "preset": "classic",
        "options": "",
        "format": EventFormat.INDIVIDUAL,
        "scoring_method": ScoringMethod.MATCHPOINTS,
    }
    error = ""
    status = 200
    if request.method == "POST":
        values = {k: request.POST.get(k, v).strip() for k, v in values.items()}
        try:
            settings: dict[str, Any] = {
                "actor": request.user,
                "name": values["name"],
                "preset": values["preset"],
                "options": rounds.rule_options_parse(values["options"]),
                "format": values["format"],
                "scoring_method": values["scoring_method"],
            }
            if values["series"] and not values["club"]:
                # A series belongs to a club: without one it would be dropped without a word.
                raise clubs.ClubRefused(_("Choose the club whose series this event counts in."))
            if values["club"] or not staff:
                club, series = clubs.club_and_series_chosen(
                    request.user, values["club"], values["series"]
                )
                event = clubs.club_event_open(club=club, series=series, **settings)
            else:
                event = rounds.event_open(**settings)
        except DomainError as exc:
            error, status = exc.message, 400
        else:
            messages.success(
                request, _("Event %(name)s opened; you are its organizer.") % {"name": event.name}
            )
            return redirect("organizer:dashboard", slug=event.slug)
    return render(
        request,
        "organizer/event_new.html",
        {
            "values": values,
            "error": error,
            "presets": [(name, _preset_label(name)) for name in PRESETS],
            "options": option_help(),
            "formats": EventFormat.choices,
            "methods": ScoringMethod.choices,
            "clubs": own_clubs,
            "staff": staff,
        },
        status=status,
    )


def _preset_label(name: str) -> str:
    rules = RuleSet.from_spec(name)
    return _("%(name)s (tables of %(n)s)") % {
        "name": labels.preset_label(name),
        "n": len(rules.seats),
    }


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's dashboard: the deals, the stages, the rounds by number (the past ones
    folded: overview.dashboard_order), the officials, the private links and the last changes
    (their times in the event's zone). An online robot duplicate has no stages and no private
    links, and its rounds offer no transition while its window is open (they close with it)."""
    event = event_for_organizer(request, slug)
    stages = list(event.stages.prefetch_related("entries__player").order_by("number"))
    # An online event's entrants are not seated by anyone (they meet the same robots, or
    # whoever arrives), and each starts a table of his own: its rounds' plays are counted.
    online = is_online_duplicate(event)
    checks = {} if online else selectors.round_seating_checks(event=event)
    rounds_ = overview.dashboard_order(
        overview.event_overview(event=event, online=online), current_round(event), online=online
    )
    return render(
        request,
        "organizer/dashboard.html",
        {
            "event": event,
            # Each round with its seating's repeats and club clashes (None before seating),
            # and whether it is folded.
            "overview": [(item, checks.get(item.round.pk), folded) for item, folded in rounds_],
            "online": online,
            # Only the window's close closes (and publishes) the rounds of a sealed event:
            # a button would only be refused (round_states._refuse_online_close).
            "transitions": not results_sealed(event),
            "stages": stages,
            # The "Add the stage" form's key: the form sent twice adds one stage.
            "stage_form_key": secrets.token_urlsafe(18),
            # The stages whose cut is made: the next stage has its entries (stage_cut).
            "cut_made": {
                stage.pk
                for stage, following in zip(stages, stages[1:], strict=False)
                if stage.cut and following.entries.all()
            },
            # Each stage's movements with the bounds proved when they were made.
            "movements": selectors.stage_movements(event=event),
            "stage_kinds": StageKind.choices,
            "entries": selectors.entry_counts(event=event),
            "audit": audit_lines.change_log_lines(
                audit_lines.change_log(event=event)[:DASHBOARD_CHANGES], event=event
            ),
            "zone": zone_of(event),
            # Accounts asking to be players of the event (tournaments.people.accounts).
            "claims": people_accounts.claims_pending(event=event),
            "max_boards": rounds.MAX_BOARDS_PER_ROUND,
            # Why "Reveal the seed" would be refused now: said beside it, disabled.
            "reveal_refusal": rounds.seed_reveal_refusal(event)
            if event.deal_commitment and not event.seed_revealed
            else None,
            **dashboard_context(event),
            **views_substitutions.context(event, request),
        },
    )


@login_required
@require_POST
def seed_commit(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    return _done(
        request,
        event,
        lambda: rounds.event_seed_commit(event=event, actor=request.user),
        _("The deal seed is drawn; its commitment is public."),
    )


@login_required
@require_POST
def seed_reveal(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    return _done(
        request,
        event,
        lambda: rounds.event_seed_reveal(event=event, actor=request.user),
        _("The deal seed is revealed."),
    )


def _no_stages(event: Event, actor: Actor) -> None:
    """Refuse a stage's action (adding one, its rounds, its seating, its cut) in an online
    robot duplicate: each of its boards is a round of its own, dealt on its online page, that
    no one seats (tournaments.online); a round added to a stage would be one no entrant plays.

    Raises:
        NotOrganizer: `actor` is not an organizer of `event`.
        AdministrationRefused: always, otherwise.
    """
    organizer_check(event, actor)
    raise AdministrationRefused(
        _(
            "%(event)s is played online against robots: it has no stages, and each of its "
            "boards is a round of its own, dealt on its online page."
        )
        % {"event": event.name}
    )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return -1


@login_required
@require_POST
def stage_create(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if is_online_duplicate(event):
        return _done(request, event, partial(_no_stages, event, request.user), "")
    typed = request.POST.get("cut", "").strip()
    if typed and not (typed.isascii() and typed.isdigit()):
        messages.error(request, _("The cut is a whole number of players (empty: no cut)."))
        return redirect("organizer:dashboard", slug=event.slug)
    cut = _int(typed)
    return _done(
        request,
        event,
        lambda: stages.stage_create(
            event=event,
            actor=request.user,
            name=request.POST.get("name", ""),
            kind=request.POST.get("kind", StageKind.QUALIFYING),
            cut=cut,
            carry_over=bool(request.POST.get("carry_over")),
            form_key=request.POST.get("form_key", ""),
        ),
        _("Stage added."),
    )


@login_required
@require_POST
def stage_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    stage = get_object_or_404(Stage, event=event, number=number)
    if is_online_duplicate(event):
        return _done(request, event, partial(_no_stages, event, request.user), "")
    if action == "round":
        count = _int(request.POST.get("count"))
        count = 1 if count is None else count  # empty: one round
        if not 1 <= count <= 30:
            messages.error(request, _("Add 1 to 30 rounds at a time."))
            return redirect("organizer:dashboard", slug=event.slug)

        def add() -> None:
            for _i in range(count):
                rounds.round_create(event=event, stage=stage, actor=request.user)

        return _done(request, event, add, _("Rounds added."))
    if action == "seat":
        seated: list[int] = []
        report: dict[str, Any] = {}

        def seat() -> None:
            report.update(stages.stage_seat(stage=stage, actor=request.user))
            seated.extend(report.get("rounds") or [])

        response = _done(request, event, seat, _("The draft rounds of the stage are seated."))
        _sit_out_said(request, seated, report.get("sit_out") or [])
        if seated and fields.seated_by_round(event):
            # Late entries or withdrawals: the rounds are seated one at a time (a trial read
            # "the draft rounds are seated" with round 1 only).
            messages.info(
                request,
                _(
                    "Seated now: round %(rounds)s. The players change from round to round (late "
                    "entries, withdrawals or check-in): each later round is seated when its "
                    "turn comes, from the check-in page."
                )
                % {"rounds": ", ".join(str(n) for n in seated)},
            )
        return response
    if action == "cut":
        return _done(
            request,
            event,
            lambda: stages.stage_cut(stage=stage, actor=request.user),
            _("The cut is made."),
        )
    raise Http404(_("Unknown action."))


def _sit_out_said(request: HttpRequest, numbers: list[int], sit_out: list[list[str]]) -> None:
    """Name who sits out each round a movement seated (a field that does not fill its
    tables), and apart anyone who sits out every one of them: he plays none of the stage."""
    if sit_out and isinstance(sit_out[0], str):
        sit_out = [cast(list[str], sit_out)]  # one round seated by its field: its names
    rounds_out = [(n, names) for n, names in zip(numbers, sit_out, strict=False) if names]
    if not rounds_out:
        return
    messages.info(
        request,
        _("These players sit out: %(rounds)s.")
        % {
            "rounds": "; ".join(
                _("Round %(number)s: %(names)s") % {"number": n, "names": ", ".join(names)}
                for n, names in rounds_out
            )
        },
    )
    always = set.intersection(*(set(names) for names in sit_out)) if sit_out else set()
    if len(rounds_out) == len(numbers):
        for name in sorted(always):
            messages.warning(
                request,
                _(
                    "%(name)s sits out every round of this stage: he plays none of it. Add a "
                    "round to the stage before seating it, so that the sit-outs rotate."
                )
                % {"name": name},
            )


@login_required
@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    round_ = (
        Round.objects.select_related("event", "stage").filter(event=event, number=number).first()
    )
    if round_ is None:
        if action != "delete" or not rounds.round_deleted(event=event, number=number):
            raise Http404(_("No such round."))
        # Pressed again (the back button): the round is gone already.
        messages.info(request, _("Round %(number)s is deleted already.") % {"number": number})
        return redirect("organizer:dashboard", slug=event.slug)
    if action == "deal":
        boards = _int(request.POST.get("boards")) or 0
        return _done(
            request,
            event,
            lambda: rounds.round_deal(round_=round_, boards=boards, actor=request.user),
            _("Boards dealt."),
        )
    if action == "delete":
        return _done(
            request,
            event,
            lambda: rounds.round_delete(round_=round_, actor=request.user),
            _("Round %(number)s is deleted.") % {"number": round_.number},
        )
    if action == "swiss":
        sit_out = request.POST.get("sit_out") == "1"
        out: list[str] = []

        def seat() -> None:
            out.extend(
                stages.round_seat_swiss(round_=round_, actor=request.user, sit_out=sit_out)[1]
            )

        response = _done(request, event, seat, _("Round seated by the standings (Swiss)."))
        if out:
            messages.info(request, _("Sitting out: %(names)s.") % {"names": ", ".join(out)})
        return response
    if action in round_states.TRANSITIONS:
        done = {
            "start": _("Round %(number)s started: referees can enter its games."),
            "close": _(
                "Round %(number)s closed: no game of it may be entered or replaced now; a "
                "chief referee corrects a result with an adjusted score."
            ),
            "publish": _("Round %(number)s published."),
        }[action]
        return _done(
            request,
            event,
            lambda: round_states.round_transition(round_=round_, action=action, actor=request.user),
            done % {"number": round_.number},
        )
    raise Http404(_("Unknown action."))


@login_required
def print_round(request: HttpRequest, slug: str, number: int, what: str) -> HttpResponse:
    """Print pages of a round: ``table-cards``, ``hand-records`` or ``seating``."""
    event = event_for_organizer(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    tables = overview.round_tables(round_)
    boards = list(Board.objects.filter(round=round_).order_by("number"))
    seats = rounds.rules_of(event).seats
    if what == "table-cards":
        template = "print/table_cards.html"
    elif what == "hand-records":
        template = "print/hand_records.html"
    elif what == "seating":
        template = "print/seating.html"
    else:
        raise Http404(_("Unknown print page."))
    by_name = sorted(
        ((player, table, seat) for table, seated in tables for seat, player in seated),
        key=lambda x: x[0].name.casefold(),
    )
    return render(
        request,
        template,
        {
            "event": event,
            "round": round_,
            "tables": tables,
            "boards": [(b, [(s, b.hands.get(s, "")) for s in seats]) for b in boards],
            "by_name": by_name,
            "substitutions": lineups.by_table(t.pk for t, _seated in tables),
            "next": overview.next_stops(round_),
            "board_numbers": ", ".join(str(b.number) for b in boards),
        },
    )


@login_required
def guide_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player's guide card: her table and seat in each round seated so far."""
    event = event_for_organizer(request, slug)
    return render(
        request, "print/guide_cards.html", {"event": event, "cards": overview.guide_cards(event)}
    )


def deals_public(request: HttpRequest, slug: str) -> HttpResponse:
    """The public deals page: the commitment; once the seed is revealed, the seed and the
    recomputation of every board. Anyone may also check a seed of his own (``?seed=``)."""
    event = get_object_or_404(Event, slug=slug)
    seed = request.GET.get("seed", "").strip()
    if not seed and event.seed_revealed:
        seed = event.deal_seed
    report = None
    error = ""
    if seed and event.deal_commitment:
        try:
            report = rounds.event_deals_verify(event=event, seed=seed)
        except dealing.SeedError:
            error = _("A deal seed is 64 hex digits (256 bits).")
    return render(
        request,
        "organizer/deals.html",
        {
            "event": event,
            "seed": seed if (event.seed_revealed or request.GET.get("seed")) else "",
            "report": report,
            "error": error,
        },
        status=400 if error else 200,
    )
