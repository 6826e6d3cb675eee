"""Public pages: events, standings (live), seating per round, travellers, scorecards with the
running-score chart, hand records, the replay viewer, and the CSV and JSON exports.

Thin: fetch through selectors and tournaments.results, render. The embargo
(tournaments.core.embargo) is asked once per page: a board's results and hands are shown to
officials, and to everyone else once every table of its round has finished it. While an online
event's window is open (embargo.results_sealed) who played which board is kept back too: an
entrant's scorecard and the rounds' seating show nothing to anyone but him (his own scorecard)
and the event's organizers and chief referees. A robot (Player.robot) has no scorecard.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ddz_site.web.visitors import visitor_name
from games.messages import stored_error_message
from games.models import Board, Game
from tournaments.archive import event_archive
from tournaments.core import embargo, lineups
from tournaments.core.access import is_chief_referee
from tournaments.events import selectors
from tournaments.league.profiles import home_clubs
from tournaments.models import Entry, Event, Player, Round, RoundState, Stage
from tournaments.people import life
from tournaments.results import exports, prizes
from tournaments.results import pages as results_pages
from tournaments.scoring.ranking import TIEBREAKS
from tournaments.standings import teams
from tournaments.standings.results import lot_seed
from tournaments.templatetags.ddz_public import call_word, play

# What get_object_or_404 says of an id no game has: a game hidden from the viewer says the same.
NOT_FOUND_GAME = f"No {Game._meta.object_name} matches the given query."

# How often an open standings page asks whether the standings changed (seconds).
REFRESH_SECONDS = 15
# Around the only part of a page that depends on who asks (templates/_account.html).
ACCOUNT_START, ACCOUNT_END = "<!--account-->", "<!--/account-->"
# How long a process trusts its copy of an event's standings version (seconds).
STAMP_SECONDS = 1


def event_list(request: HttpRequest) -> HttpResponse:
    """The home page: the clubs with their current series (tournaments.league.profiles), then every
    event."""

    return render(
        request,
        "tournaments/event_list.html",
        # Newest first by date (tournaments.people.life), each with its date, place, status.
        {"events": life.newest_first(selectors.event_list()), "clubs": home_clubs()},
    )


def _stage(event: Event, request: HttpRequest) -> Stage | None:
    number = request.GET.get("stage", "")
    if not number:
        return None
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    if not re.fullmatch(r"[0-9]{1,9}", number):
        raise Http404("no such stage")
    return get_object_or_404(Stage, event=event, number=int(number))


def _standings_key(event: Event, stage: Stage | None) -> str:
    stamp = event.standings_updated_at.timestamp() if event.standings_updated_at else 0
    # A sealed event's table (totals only) is another page than the one after its close.
    sealed = "sealed" if embargo.results_sealed(event) else "open"
    return f"{event.pk}-{stage.number if stage else 0}-{stamp}-{sealed}-{get_language()}"


def _standings_html(request: HttpRequest, event: Event, stage: Stage | None) -> str:
    """The standings table, rendered once per change of the standings and language.

    Every viewer sees the same rows (they count open boards only), so one cached copy serves
    all; the key holds standings_updated_at, which every recompute that changes a row moves.
    """
    key = "standings-html:" + _standings_key(event, stage)
    html = cache.get(key)
    if html is None:
        rows = list(selectors.event_standings(event=event, stage=stage))
        # Once its cut is made, a stage's page names who went through (the next stage's
        # entries), whatever their place after later corrections.
        through = set(selectors.cut_through(stage=stage)) if stage is not None else set()
        # Nothing to rank: either no board is open yet, or the event seats nobody (an archive
        # of imported games). Seating does not move the standings version, so an empty table
        # is kept only for a refresh period.
        seated = bool(rows) or selectors.event_seats_anyone(event=event)
        html = render_to_string(
            "tournaments/_standings.html",
            {
                "event": event,
                "stage": stage,
                "standings": rows,
                "through": through,
                "seated": seated,
                # Rounds and no board yet (an event before its day): it will have standings;
                # an archive of imported games has boards and seats nobody.
                "planned": not seated and selectors.event_is_planned(event=event),
                # An online event in its window: totals only (tournaments.core.embargo).
                "sealed": embargo.results_sealed(event),
            },
            request=None,
        )
        cache.set(key, html, 3600 if rows else REFRESH_SECONDS)
    return html


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    official = is_chief_referee(request.user, event)  # sees every board early (embargo)
    boards = selectors.event_boards(event)
    board_rows = [(b, official or b.is_open) for b in boards]
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "stages": list(event.stages.all()),
            "rounds": list(event.rounds.order_by("number")),
            "standings_html": _standings_html(request, event, None),
            "live_url": _live_url(event, None),
            "refresh": REFRESH_SECONDS,
            "board_rows": board_rows,
            "tiebreaks": [t for t in event.tiebreaks or [] if t in TIEBREAKS],
            "lot_seed": lot_seed(event),
            "team_rows": teams.team_standings(event=event),
            "final_results": prizes.results_public(event),
        },
    )


def _live_url(event: Event, stage: Stage | None) -> str:
    url = reverse("public:standings_live", kwargs={"slug": event.slug})
    return f"{url}?stage={stage.number}" if stage else url


def _standings_stamp(slug: str) -> tuple[int, float, float] | None:
    """(event id, standings_updated_at, online_closed_at: an online event's seal lifted) of
    the event `slug`, read at most once a STAMP_SECONDS per process: the busiest page then
    answers without touching the database, and shows a change at most that much later (its
    own refresh is slower anyway)."""
    key = "standings-stamp:" + hashlib.sha256(slug.encode()).hexdigest()
    stamp = cache.get(key)
    if stamp is None:
        row = (
            Event.objects.filter(slug=slug)
            .values_list("pk", "standings_updated_at", "online_closed_at")
            .first()
        )
        if row is None:
            return None
        stamp = (
            row[0],
            row[1].timestamp() if row[1] else 0.0,
            row[2].timestamp() if row[2] else 0.0,
        )
        cache.set(key, stamp, STAMP_SECONDS)
    return stamp


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings of the event or of one stage (?stage=N), refreshing by themselves.

    A stranger's page is the same for every stranger (stored standings count open boards
    only, and it carries no CSRF token), so it is cached whole per path, language and version
    of the standings, and served as it is. A signed-in visitor's header carries his name and a
    CSRF token (the sign-out form): he gets the same cached page with that header rendered for
    him in place of the stranger's (templates/_account.html), and his copy is never stored.
    Who he is comes from his session and the shared cache, not his user row
    (ddz_site.web.visitors): the page grants nothing.
    """
    stamp = _standings_stamp(slug)
    if stamp is None:
        raise Http404("no such event")
    path = request.get_full_path()
    key = "standings-page:" + hashlib.sha256(f"{path}|{get_language()}".encode()).hexdigest()
    cached = cache.get(key)
    if cached is None or cached[0] != stamp:
        event = get_object_or_404(Event, slug=slug)
        stage = _stage(event, request)
        # The stranger's page, whoever asks: with no one signed in, it carries no CSRF token.
        cached = (
            stamp,
            render_to_string(
                "tournaments/standings.html",
                {
                    "event": event,
                    "stage": stage,
                    "stages": list(event.stages.all()),
                    "standings_html": _standings_html(request, event, stage),
                    "live_url": _live_url(event, stage),
                    "refresh": REFRESH_SECONDS,
                    "user": AnonymousUser(),
                },
                request=request,
            ),
        )
        cache.set(key, cached, 3600)
    name = visitor_name(request)
    if name is None:
        return HttpResponse(cached[1])
    return HttpResponse(_with_account(request, cached[1], name))


def _with_account(request: HttpRequest, page: str, name: str) -> str:
    """`page` with its account header (base.html's account markers) rendered for the visitor
    signed in as `name` (ddz_site.web.visitors: found without his user row)."""
    head, rest = page.split(ACCOUNT_START, 1)
    tail = rest.split(ACCOUNT_END, 1)[1]
    account = _account_header(name, get_language(), get_script_prefix())
    # The token masked afresh for each page, as Django's own tag would (BREACH).
    account = account.replace(CSRF_MARKER, get_token(request))
    return f"{head}{ACCOUNT_START}{account}{ACCOUNT_END}{tail}"


# Stands for the visitor's CSRF token in a header rendered once (_account_header).
CSRF_MARKER = "csrf-token-of-this-page"


@functools.lru_cache(maxsize=4096)
def _account_header(name: str, language: str, prefix: str) -> str:
    """The account header of the visitor `name` in the active `language` under the site's
    script `prefix` (both in the key: the header's words and links), with CSRF_MARKER in
    place of his CSRF token. Rendered once per process: its three links' reversals were
    most of a signed-in page's own cost. Its context given, not the context processors'
    (the messages, the permissions: nothing the header shows)."""
    return render_to_string("_account.html", {"visitor": name, "csrf_token": CSRF_MARKER})


def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table alone, for the page's refresh; 304 when unchanged (ETag)."""
    event = get_object_or_404(
        Event.objects.only(
            "pk", "slug", "standings_updated_at", "online", "online_robots", "online_closed_at"
        ),
        slug=slug,
    )
    stage = _stage(event, request)
    etag = '"' + hashlib.sha256(_standings_key(event, stage).encode()).hexdigest()[:32] + '"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        event = Event.objects.get(pk=event.pk)
        response = HttpResponse(_standings_html(request, event, stage))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating of a round (who sits where) and its boards with their embargo state."""
    round_ = get_object_or_404(
        Round.objects.select_related("event"), event__slug=slug, number=number
    )
    event = round_.event
    visible = embargo.visible_board_ids(request.user, event)
    boards = list(round_.boards.select_related("event").order_by("number"))
    # In an online window each table is one entrant's play of the round's board: its seating
    # would say who started which board.
    sealed = visible is not None and embargo.results_sealed(event)
    return render(
        request,
        "tournaments/round.html",
        {
            "event": event,
            "round": round_,
            "seats": results_pages.seats_of(event),
            "sealed": sealed,
            "tables": []
            if sealed
            else results_pages.round_seating(round_=round_, seats=results_pages.seats_of(event)),
            "board_rows": [(b, visible is None or b.pk in visible) for b in boards],
            "substitutions": lineups.round_substitutions(round_),
            "sitting_out": [] if sealed else selectors.round_sitting_out(round_=round_),
        },
    )


def hand_records(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The deals of a round with suits, for players after play and dealers (print-friendly);
    a board under embargo shows only that it is."""
    round_ = get_object_or_404(
        Round.objects.select_related("event"), event__slug=slug, number=number
    )
    event = round_.event
    visible = embargo.visible_board_ids(request.user, event)
    records = []
    for board in round_.boards.select_related("event").order_by("number"):
        shown = visible is None or board.pk in visible
        seats = results_pages.seats_of(event, board)
        records.append(
            {
                "board": board,
                "shown": shown,
                "hands": [(s, board.hands.get(s, "")) for s in seats] if shown else [],
            }
        )
    return render(
        request,
        "tournaments/hand_records.html",
        {
            "event": event,
            "round": round_,
            "records": records,
            "round_not_started": round_.state in (RoundState.DRAFT, RoundState.SEATED),
        },
    )


def traveller(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    board = get_object_or_404(
        Board.objects.select_related("event", "round"), event__slug=slug, number=number
    )
    public = embargo.visible_to(request.user, board)
    seats = results_pages.seats_of(board.event, board)
    rows = results_pages.board_traveller(board=board) if public else []
    return render(
        request,
        "tournaments/traveller.html",
        {
            "event": board.event,
            "board": board,
            "seats": seats,
            "hands": [(seat, board.hands.get(seat, "")) for seat in seats] if public else [],
            "public": public,
            "rows": rows,
            "top": next((r.top for r in rows if r.top is not None), None),
        },
    )


def _scorecard_player(event: Event, player_id: int) -> Player:
    """The player of `event` whose scorecard is `player_id`: one seated at a table of it or
    substituting in it; while its online window is open, any entrant too (one who started no
    board answers as one who did). Never a robot.

    Raises:
        Http404: no such player of the event, or a robot.
    """
    players = selectors.event_players(event=event)
    if embargo.results_sealed(event):
        entrants = Entry.objects.filter(event=event).values("player_id")
        players = Player.objects.filter(Q(pk__in=players.values("pk")) | Q(pk__in=entrants))
    return get_object_or_404(players.filter(robot=False), pk=player_id)


def scorecard(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's scorecard: his standing, his running score and the boards he played (their
    results as the embargo lets the viewer see them); while sealed from the viewer
    (embargo.scorecard_sealed), his standing only.

    Raises:
        Http404: no such event, or no scorecard of this player in it (`_scorecard_player`).
    """
    event = get_object_or_404(Event, slug=slug)
    player = _scorecard_player(event, player_id)
    sealed = embargo.scorecard_sealed(request.user, event, player)
    rows: list[results_pages.ScorecardRow] = []
    if not sealed:
        visible = embargo.visible_board_ids(request.user, event)
        rows = results_pages.player_scorecard(event=event, player=player, visible=visible)
    series = results_pages.running_score(event, rows)
    return render(
        request,
        "tournaments/scorecard.html",
        {
            "event": event,
            "player": player,
            "rows": rows,
            "sealed": sealed,
            "standing": selectors.player_standing(event=event, player=player),
            "final": prizes.final_place(event, player.pk),
            "series": series,
            "chart": results_pages.chart(series),
        },
    )


def _not_found_unless_visible(request: HttpRequest, game: Game) -> None:
    """Refuse `game` to whoever may not see it (tournaments.core.embargo.game_visible_to) as a
    game that does not exist: the same 404, so that its page tells nothing, not even that it
    exists (another entrant's board during an online window), nor its board and table.

    Raises:
        Http404: `request.user` may not see `game`.
    """
    if not embargo.game_visible_to(request.user, game):
        raise Http404(NOT_FOUND_GAME)


def game(request: HttpRequest, pk: int) -> HttpResponse:
    """One game: its record, verification status and the engine's error.

    Raises:
        Http404: no such game, or one the viewer may not see (`_not_found_unless_visible`).
    """
    game = get_object_or_404(
        Game.objects.select_related("board__event", "table__round").prefetch_related(
            "table__seats__player"
        ),
        pk=pk,
    )
    _not_found_unless_visible(request, game)
    context = results_pages.game_record(game)
    context["error_text"] = _error_text(game, context["record"])
    return render(request, "public/game.html", context)


def _error_text(game: Game, record: dict[str, object]) -> str:
    """The stored engine error in the reader's language (games.steps's sentences)."""
    if not isinstance(game.error, dict) or not game.error:
        return ""
    return stored_error_message(
        game.error,
        status=game.status,
        record=record,
        landlord=game.landlord,
        winner=game.winner,
        declared=game.declared,
        score=game.score,
    )


def _replay_panel(game: Game, seats: tuple[str, ...], suffix: str = "") -> dict[str, object]:
    """One replay of the page (templates/tournaments/_replay_panel.html): its steps as the
    JSON the page steps through, the players and the summary; `suffix` tells its element ids
    from another panel's."""
    players = {s.seat: s.player for s in game.table.seats.select_related("player")}
    steps = results_pages.replay_steps(game, seats)
    return {
        "game": game,
        "suffix": suffix,
        "seats": [(s, players.get(s)) for s in seats],
        "steps": steps,
        "summary": results_pages.replay_summary(game, seats, players),
        "steps_json": json.dumps(
            [
                {
                    "kind": s.kind,
                    "seat": s.seat,
                    "action": call_word(s.action) if s.kind == "call" else play(s.action),
                    "hands": s.hands,
                    "trick": [[seat, play(cards)] for seat, cards in s.trick],
                }
                for s in steps
            ]
        ),
    }


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a recorded game: every call and play, with the hands as they shrink, the
    trick on the table, the landlord, the bid and the result. ``?with=ID`` puts another
    table's game of the same board beside it; any other (another board's, one the viewer may not
    see, not a number) leaves the replay alone, with a message saying it is not compared.

    Raises:
        Http404: no such game, or one the viewer may not see (`_not_found_unless_visible`).
    """
    game = get_object_or_404(
        Game.objects.select_related("board__event", "board__round", "table__round"), pk=pk
    )
    board, event = game.board, game.board.event
    # Seeing the whole board (every table's game) implies seeing this one.
    whole = embargo.visible_to(request.user, board)
    if not whole:
        _not_found_unless_visible(request, game)
    seats = results_pages.seats_of(event, board)
    panels = [_replay_panel(game, seats)]
    other_id = request.GET.get("with", "")
    not_compared = ""
    if other_id:
        other = None
        if re.fullmatch(r"[0-9]{1,18}", other_id):  # ASCII digits, within a bigint
            other = (
                Game.objects.select_related("table__round")
                .filter(pk=int(other_id), board=board)
                .exclude(pk=game.pk)
                .first()
            )
        if other is not None and (whole or embargo.game_visible_to(request.user, other)):
            panels.append(_replay_panel(other, seats, "-2"))
        elif other is None and not re.fullmatch(r"[0-9]{1,18}", other_id):
            not_compared = _("There is no game to compare with: the replay is shown alone.")
        else:
            # The same words for a game of another board, none at all, this one and one the
            # viewer may not see yet: nothing tells which.
            not_compared = _(
                "Game %(game)s is not a game of board %(board)s that can be shown beside this "
                "one: the replay is shown alone."
            ) % {"game": int(other_id), "board": board.number}
    others = (
        list(
            Game.objects.filter(board=board, replaced_at__isnull=True)
            .exclude(pk=game.pk)
            .select_related("table")
            .order_by("table__number")
        )
        if whole
        else []
    )
    return render(
        request,
        "tournaments/replay.html",
        {
            "event": event,
            "board": board,
            "game": game,
            "panels": panels,
            "others": others,
            "compared": panels[1]["game"] if len(panels) > 1 else None,
            "not_compared": not_compared,
        },
    )


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    stage = _stage(event, request)
    response = HttpResponse(
        exports.standings_csv(event=event, stage=stage), content_type="text/csv; charset=utf-8"
    )
    suffix = f"-stage-{stage.number}" if stage else ""
    response["Content-Disposition"] = content_disposition_header(
        True, f"{event.slug}{suffix}-standings.csv"
    )
    return response


def scorecard_csv(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's scorecard as CSV: the page's boards (its header alone while sealed from the
    viewer, embargo.scorecard_sealed).

    Raises:
        Http404: as `scorecard`.
    """
    event = get_object_or_404(Event, slug=slug)
    player = _scorecard_player(event, player_id)
    visible = embargo.visible_board_ids(request.user, event)
    response = HttpResponse(
        exports.scorecard_csv(
            event=event,
            player=player,
            visible=visible,
            sealed=embargo.scorecard_sealed(request.user, event, player),
        ),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"{event.slug}-scorecard-{player.pk}.csv"
    )
    return response


def archive_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole event as a JSON archive: organizers and chief referees only, since it holds
    every hand and game, embargoed ones included (a referee sees only his tables')."""
    event = get_object_or_404(Event, slug=slug)
    if not is_chief_referee(request.user, event):
        raise Http404("no such archive")
    response = HttpResponse(
        json.dumps(event_archive.event_export(event=event), ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(True, f"{event.slug}.json")
    return response
