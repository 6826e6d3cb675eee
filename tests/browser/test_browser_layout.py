"""No page scrolls sideways on a phone (375 px), in English and in Simplified Chinese, whatever
people typed: a 2,000-character note without a space, a reserve's 120-character name without
a space, and the deals page's seed box once the seed is revealed. Measured in headless Chromium."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game, Status
from tests.browser.chromium import CHROMIUM, chromium, fits, on_server, phone_context, session_of
from tests.entry_personas import build_world
from tests.factories import EventFactory, bot_record
from tournaments.events import rounds, substitutions
from tournaments.links import checks, tokens
from tournaments.models import EventRole, Role

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

LANGUAGES = ["en", "zh-hans"]
NOTE = "Thesheetsaysbombofeights" * 83  # 1,992 characters without a space (at most 2,000)
RESERVE = "Reservewithaverylongname" * 5  # 120 characters without a space


# The innermost elements that reach past the phone's right edge (what makes the page wide).
WIDE = """() => [...document.querySelectorAll("body *")].filter((e) =>
  e.getBoundingClientRect().right > window.innerWidth
  && ![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth)
).slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
  + (e.className ? "." + String(e.className).replace(/ /g, ".") : ""))"""


def _pages_fit(browser, live_server, session, language, paths) -> None:
    context = phone_context(browser, live_server, session, language=language)
    page = context.new_page()
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        try:
            fits(page)
        except AssertionError as exc:
            raise AssertionError(f"{path}: {exc}; {page.evaluate(WIDE)}") from None
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_deals_page_fits_once_the_seed_is_revealed(language, live_server) -> None:
    event = EventFactory()
    td = get_user_model().objects.create_user("deals-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    rounds.event_seed_commit(event=event, actor=td)
    seed = rounds.event_seed_reveal(event=event, actor=td)
    deals = reverse("deals:event", args=[event.slug])
    with chromium() as browser:
        _pages_fit(browser, live_server, None, language, [deals, f"{deals}?seed={seed}"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_long_note_without_spaces_wraps(language, live_server) -> None:
    world = build_world(seed=f"note-{language}", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    game = Game.objects.create(
        table=table, board=board, record=bot_record(board, table), status=Status.VERIFIED
    )
    ann = table.seats.get(seat="W").player
    made = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    mine = next(m for m in made if m.player == ann)
    checks.result_check_record(link=mine.link, game=game, kind="problem", note=NOTE)
    chief = session_of(world.users["chief"])
    flagged = reverse("referee:flagged", args=[world.event.slug])
    with chromium() as browser:
        _pages_fit(browser, live_server, chief, language, [flagged])
        _pages_fit(browser, live_server, None, language, [mine.url])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reserves_long_name_without_spaces_wraps(language, live_server) -> None:
    world = build_world(seed=f"reserve-{language}", tables=1, boards=1)
    event, table = world.event, world.tables[0]
    sub = substitutions.substitution_add(
        table=table, seat="S", actor=world.users["organizer"], reserve_name=RESERVE
    )
    organizer = session_of(world.users["organizer"])
    paths = [
        reverse("organizer:dashboard", args=[event.slug]),
        reverse("public:round", args=[event.slug, table.round.number]),
        reverse("referee:event", args=[event.slug]),
    ]
    with chromium() as browser:
        _pages_fit(browser, live_server, organizer, language, paths)
        # Removed, the reserve stays among the event's players who may substitute.
        on_server(
            lambda: substitutions.substitution_remove(
                substitution_id=sub.pk, actor=world.users["organizer"]
            )
        )
        _pages_fit(browser, live_server, organizer, language, paths[:1])
