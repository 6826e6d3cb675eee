"""Private links in headless Chromium at a phone's width (375 px), with no sign-in: a whole game
entered through a table's link and stored once (and verified by the real worker); a player's
link that signals a problem, which then shows in the chief referee's queue."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.models import Game, Status
from tests.browser.chromium import CHROMIUM, chromium, enter_all, fits, phone_context, session_of
from tests.conftest import Worker, wait_for
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import tokens
from tournaments.models import AuditEntry, ResultCheck
from tournaments.tables.submission import game_submit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_a_whole_game_entered_through_a_table_link_is_stored_once(
    celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-link", tables=2, boards=1)
    table, board = world.tables[1], world.boards[0]
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    url = live_server.url + next(m.url for m in made if m.table == 2)
    record = bot_record(board, table)
    steps = [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]

    with chromium() as browser:
        page = phone_context(browser, live_server).new_page()
        page.goto(url)
        fits(page)
        page.get_by_role("link", name="Live entry").first.click()
        page.wait_for_selector("#seats tr.to-move")
        enter_all(page, steps, start=1)
        page.locator("#result").wait_for(state="visible")
        fits(page)
        page.screenshot(path=str(tmp_path / "link-entry.png"), full_page=True)
        page.keyboard.press("Enter")  # the submit button has the focus
        page.wait_for_url("**/games/*/")
        assert "Round 1, table 2, board 1" in page.inner_text("h1")
        user_agent = page.evaluate("navigator.userAgent")

    game = Game.objects.get(table=table, board=board)  # exactly one
    assert game.source == "link" and game.entered_by is None
    assert game.record["plays"] == record["plays"]
    submit = AuditEntry.objects.get(action="game.submit", object_id=str(game.pk))
    assert submit.who == "table 2 link" and submit.changes["device"] == user_agent[:200]
    assert AuditEntry.objects.filter(action="entry.step").count() == len(steps)
    wait_for(
        lambda: Game.objects.filter(pk=game.pk, status=Status.VERIFIED).exists(),
        what="the worker to verify the game entered through the link",
    )
    assert Game.objects.get(pk=game.pk).score == record["declared"]


def test_a_player_signals_a_problem_through_her_link_and_the_chief_sees_it(
    celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-player", tables=2, boards=1)
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    ann = table.seats.get(seat="W").player
    made = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    url = live_server.url + next(m.url for m in made if m.player == ann)
    session = session_of(world.users["chief"])
    note = "We played a bomb of sevens; the sheet says eights."

    with chromium() as browser:
        page = phone_context(browser, live_server).new_page()
        page.goto(url)
        assert ann.name in page.inner_text("h1")
        fits(page)
        row = page.locator(f"#game-{game.pk}")
        row.get_by_role("button", name="Signal a problem").click()
        row.locator("textarea[name=note]").fill(note)
        row.get_by_role("button", name="Send").click()
        page.wait_for_selector(f"#game-{game.pk} .check-problem")
        fits(page)
        page.screenshot(path=str(tmp_path / "player-link.png"), full_page=True)

        officials = phone_context(browser, live_server, session)
        queue = officials.new_page()
        queue.goto(f"{live_server.url}/referee/events/{world.event.slug}/flagged/")
        signals = queue.locator("#signals")
        assert note in signals.inner_text() and ann.name in signals.inner_text()
        fits(queue)

    check = ResultCheck.objects.get()
    assert (check.game_id, check.player, check.kind, check.note) == (game.pk, ann, "problem", note)


def test_a_refused_note_is_shown_beside_her_form_and_the_link_still_works(
    live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-note", tables=2, boards=1)
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    ann = table.seats.get(seat="W").player
    made = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    url = live_server.url + next(m.url for m in made if m.player == ann)

    with chromium() as browser:
        page = phone_context(browser, live_server).new_page()
        page.goto(url)
        row = page.locator(f"#game-{game.pk}")
        row.get_by_role("button", name="Signal a problem").click()
        row.locator("textarea[name=note]").fill("   ")  # blank: passes `required`, not the rule
        row.get_by_role("button", name="Send").click()
        error = page.locator(f"#note-error-{game.pk}")
        error.wait_for()
        assert "A problem needs a note" in error.inner_text()
        assert row.locator("textarea[name=note]").is_visible()  # the form stays open
        fits(page)
        page.screenshot(path=str(tmp_path / "note-refused.png"), full_page=True)
        assert row.locator(".check-problem").count() == 0  # nothing stored
        row = page.locator(f"#game-{game.pk}")
        row.locator("textarea[name=note]").fill("The bomb was 7777.")
        row.get_by_role("button", name="Send").click()
        page.wait_for_selector(f"#game-{game.pk} .check-problem")
    assert ResultCheck.objects.get().note == "The bomb was 7777."
