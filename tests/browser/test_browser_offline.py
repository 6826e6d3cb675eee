"""Offline-tolerant live entry in headless Chromium at a phone's width (375 px): a
whole game entered through a table's private link with the network cut half-way (Playwright's
set_offline), the rest entered and submitted offline, the page reloaded while offline (the
service worker serves it, the steps come back from IndexedDB), the network restored, and the
exact game stored once on the server and verified by the real worker; and a step entered
offline that the phone could not check and the server refuses on sync, shown with the server's
message; and the phone's checker against the engine on whole games of every preset."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games import steps as entry_steps
from games import views as views_offline
from games.bot import play_record
from games.engine import RuleSet, deal_random
from games.models import EntryDraft, Game, Status
from games.notation import rank_cards
from tests.browser.chromium import (
    CHROMIUM,
    SHOWN,
    chromium,
    enter_all,
    fits,
    on_server,
    phone_context,
)
from tests.conftest import Worker, wait_for
from tests.entry_personas import build_world
from tests.factories import bot_record
from tests.paths import ROOT_DIR
from tournaments.links import tokens
from tournaments.models import AuditEntry

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

OFFLINE_JS = ROOT_DIR / "games" / "static" / "games" / "offline.js"


def _not_held(hand: str) -> str:
    """A rank the seat does not hold (R-VERIFY), from its cards as the page shows them."""
    return next(r for r in "3456789TJQKA2BR" if r not in hand)


def test_a_game_entered_with_the_network_cut_half_way_is_stored_once(
    celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-offline", tables=2, boards=1)
    table, board = world.tables[0], world.boards[0]
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    url = live_server.url + next(m.url for m in made if m.table == 1)
    record = bot_record(board, table)
    steps = [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]
    half = len(steps) // 2
    assert half > len(record["bidding"])  # the network drops in the play

    with chromium() as browser:
        context = phone_context(browser, live_server)
        page = context.new_page()
        page.goto(url)
        page.get_by_role("link", name="Live entry").first.click()
        page.wait_for_selector("#seats tr.to-move")
        # The service worker keeps the page and its files: it will open offline.
        page.wait_for_function("document.documentElement.dataset.offlineReady === 'yes'")
        # Installable as a web app: Chromium finds nothing missing (manifest, icons, worker)
        # but the incognito profile of every Playwright context.
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
        enter_all(page, steps[:half], start=1)
        assert page.locator("#offline-status").is_hidden()

        context.set_offline(True)
        # A typo is caught on the phone: the seat to move does not hold that card.
        seat = page.locator("#seats tr.to-move").get_attribute("data-seat")
        hand = page.locator(f"#seats tr[data-seat={seat}] .hand").inner_text()
        page.keyboard.type(_not_held(hand))
        page.keyboard.press("Enter")
        page.locator("#entry-error").wait_for(state="visible")
        assert "does not hold" in page.inner_text("#entry-error")
        assert "R-VERIFY" in page.inner_text("#entry-error")
        page.fill("#step", "")
        # Undo offline: a step the server checked, then a step saved on the phone; each
        # entered again.
        page.click("#undo")
        page.wait_for_function(SHOWN % (half - 1))
        enter_all(page, steps[half - 1 : -1], start=half)
        waiting = len(steps) - half
        status = page.locator("#offline-status")
        assert f"Saved on this phone, {waiting} steps waiting" in status.inner_text()
        page.click("#undo")
        page.wait_for_function(SHOWN % (len(steps) - 2))
        assert f"{waiting - 1} steps waiting" in status.inner_text()
        enter_all(page, steps[-2:], start=len(steps) - 1)
        assert f"Saved on this phone, {waiting + 1} steps waiting" in status.inner_text()
        assert page.locator("#plays li.queued").count() == waiting + 1
        page.locator("#result").wait_for(state="visible")
        page.keyboard.press("Enter")  # the submit button has the focus
        page.wait_for_function(
            "document.getElementById('offline-status').textContent.indexOf('submitted') >= 0"
        )
        fits(page)
        page.screenshot(path=str(tmp_path / "offline-queued.png"), full_page=True)
        # Nothing reached the server since the network dropped.
        stored = Game.objects.filter(table=table, board=board)
        assert not on_server(stored.exists)
        draft = on_server(lambda: EntryDraft.objects.get(table=table, board=board).steps)
        assert draft == steps[:half]

        # Reloaded while offline: the service worker serves the page, IndexedDB the steps.
        page.reload()
        page.wait_for_function(SHOWN % len(steps))
        assert f"{waiting + 1} steps waiting" in page.inner_text("#offline-status")
        assert "submitted" in page.inner_text("#offline-status")
        assert not on_server(stored.exists)
        fits(page)

        context.set_offline(False)  # the steps go in order, then the game, once
        page.wait_for_url("**/games/*/", timeout=30_000)
        assert "Round 1, table 1, board 1" in page.inner_text("h1")

    game = Game.objects.get(table=table, board=board)  # exactly one
    assert game.source == "link"
    assert game.record["bidding"] == record["bidding"]
    assert game.record["plays"] == record["plays"]
    assert AuditEntry.objects.filter(action="game.submit").count() == 1
    # The server's engine checked each step as it was sent: half live, the rest on sync (the
    # step undone offline and entered again is sent again; the undos send nothing). A step the
    # server took longer than offline.js's TIMEOUT_MS to answer (a loaded machine) was queued
    # on the phone and is checked once more on sync: checking a step changes nothing.
    assert AuditEntry.objects.filter(action="entry.step").count() >= len(steps) + 1
    wait_for(
        lambda: Game.objects.filter(pk=game.pk, status=Status.VERIFIED).exists(),
        what="the worker to verify the game entered offline",
    )
    assert Game.objects.get(pk=game.pk).score == record["declared"]


def _refused_follow(board, steps: list[str], after: int) -> tuple[int, str]:
    """The first turn past `after` steps where the seat to move follows and holds a single that
    does not beat the play open (R-CMP, found by the server's engine): its index and card."""
    deal = entry_steps.EntryDeal.from_board(board)
    for k in range(after, len(steps)):
        position = entry_steps.rebuild(deal, steps[:k])
        game = position.game
        if game is None or game.leading or position.finished:
            continue
        for rank in dict.fromkeys(game.hands[game.to_move or ""]):
            try:
                entry_steps.apply_step(position, rank)
            except entry_steps.EntryError as exc:
                if exc.rule == "R-CMP":
                    return k, rank
    raise AssertionError("no follow to refuse in this game")


def test_a_step_entered_offline_that_the_server_refuses_is_shown_on_sync(
    celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-offline-refused", tables=2, boards=1)
    table, board = world.tables[1], world.boards[0]
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    url = live_server.url + next(m.url for m in made if m.table == 2)
    record = bot_record(board, table)
    steps = [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]
    k, bad = _refused_follow(board, steps, len(record["bidding"]) + 2)

    with chromium() as browser:
        context = phone_context(browser, live_server)
        page = context.new_page()
        page.goto(url)
        page.get_by_role("link", name="Live entry").first.click()
        page.wait_for_selector("#seats tr.to-move")
        context.set_offline(True)  # before the first call: the bidding is entered offline
        # A call the auction does not allow is caught on the phone (R-BID-AUCTION).
        page.keyboard.type("rob")
        page.keyboard.press("Enter")
        page.locator("#entry-error").wait_for(state="visible")
        assert "may not rob the landlord" in page.inner_text("#entry-error")
        page.fill("#step", "")
        enter_all(page, steps[:k], start=1)
        # A single that does not beat the play open: the phone cannot tell, it queues it
        # marked unchecked.
        page.keyboard.type(bad)
        page.keyboard.press("Enter")
        page.wait_for_function(SHOWN % (k + 1))
        assert "unverified" in (page.locator("#plays li").last.get_attribute("class") or "")
        assert f"{k + 1} steps waiting" in page.inner_text("#offline-status")

        context.set_offline(False)
        page.wait_for_function(
            "document.getElementById('entry-error').textContent.indexOf('refused') >= 0"
        )
        error = page.inner_text("#entry-error")
        assert f"refused saved step {k + 1} ({bad})" in error and "R-CMP" in error
        assert page.input_value("#step") == bad
        fits(page)
        page.screenshot(path=str(tmp_path / "offline-refused.png"), full_page=True)
        draft = on_server(lambda: EntryDraft.objects.get(table=table, board=board).steps)
        assert draft == steps[:k]
        # Online again: the right card and the rest of the game, then one submission.
        page.fill("#step", "")
        enter_all(page, steps[k:], start=k + 1)
        page.locator("#result").wait_for(state="visible")
        page.keyboard.press("Enter")
        page.wait_for_url("**/games/*/", timeout=30_000)

    game = Game.objects.get(table=table, board=board)
    assert game.record["plays"] == record["plays"]
    assert AuditEntry.objects.filter(action="game.submit").count() == 1


PRESETS = [
    "classic",
    "classic_once",
    "rob",
    "competition",
    "cn2016",
    "two_player",
    "four_player",
    "five_player",
]
CALL_PROBES = ["pass", "p", "1", "2", "3", "call", "rob", "double", "redouble", "叫地主", "不叫"]
PLAY_PROBES = ["pass", "p", "claim", "show", "surrender", "reveal", "Z", "34567", "10", "xd"]
COMPARED = ("steps", "phase", "to_move", "landlord", "calls", "plays", "hands", "counts", "low")

CHECK_GAMES = """({cfg, games, keys}) => {
  const checker = window.DDZOffline.Checker(cfg);
  return games.map((g) => g.starts.map((start) => {
    const inherited = start.leadsFrom ? checker.fromServer(start.leadsFrom).leads : null;
    let model = checker.fromServer(start.view, inherited);
    const out = [];
    for (let i = start.from; i <= g.steps.length; i++) {
      const probes = (g.probes[i] || []).map((p) => {
        const r = checker.step(model, p);
        return r.error ? "refused" : r.checked ? "checked" : "unchecked";
      });
      const v = checker.view(model);
      const seen = {allowed: v.allowed.map((a) => a.call), open: v.open, end: v.end};
      for (const key of keys) { seen[key] = v[key]; }
      out.push({i: i, view: seen, probes: probes});
      if (i === g.steps.length) { break; }
      const r = checker.step(model, g.steps[i]);
      if (r.error) { out.push({i: i + 1, error: r.error}); break; }
      model = r.model;
    }
    return out;
  }));
}"""


def _game(preset: str, seed: int) -> tuple[entry_steps.EntryDeal, list[str], int]:
    """A deal of `preset` dealt and played by the demo bot: the entry deal, the steps, and how
    many of them are calls."""
    rules = RuleSet.from_spec(preset)
    dealt = deal_random(rules, random.Random(seed), rules.seats[0])
    record = play_record(
        rules=rules,
        hands=dealt.hands,
        bottom=dealt.bottom,
        first_bidder=dealt.first_bidder,
        seed=seed,
        aside=dealt.aside,
        marked=dealt.marked,
    )
    deal = entry_steps.EntryDeal(
        rules=rules,
        hands={s: rank_cards(h) for s, h in dealt.hands.items()},
        bottom=rank_cards(dealt.bottom),
        first_bidder=dealt.first_bidder,
        suited_hands=dict(dealt.hands),
        marked=dealt.marked or "",
        aside=rank_cards(dealt.aside or ""),
    )
    calls = entry_steps.rebuild(deal, [c for _s, c in record["bidding"]]).steps
    return deal, [*calls, *(c for _s, c in record["plays"])], len(calls)


def _probes(position: entry_steps.Position, truth: str | None) -> list[str]:
    """Steps to try at `position`: calls, pass words, end words, typos, each rank the seat to
    move holds as a single and a pair, one it does not hold, and the game's own step last."""
    if position.finished:
        return ["p", "3", "claim"]
    if position.phase == "bidding":
        return CALL_PROBES + ([truth] if truth else [])
    hand = (position.game.hands if position.game else {}).get(position.to_move or "", "")
    ranks = list(dict.fromkeys(hand))
    missing = [r for r in "3456789TJQKA2BR" if r not in hand][:1]
    pairs = [r + r for r in ranks if hand.count(r) >= 2]
    return PLAY_PROBES + ranks + pairs + missing + ([truth] if truth else [])


def _accepts(position: entry_steps.Position, step: str) -> bool:
    try:
        entry_steps.apply_step(position, step)
    except entry_steps.EntryError:
        return False
    return True


def test_the_phones_checker_agrees_with_the_engine_on_whole_games_of_every_preset() -> None:
    """offline.js's checker, run in Chromium from the server's position at a cut (before the
    first call; at the first lead; half-way through the play, with the combinations kept from
    the first lead; three quarters through, on a page opened then), against the engine on every
    later step of bot games of each preset: the same position after each step (hands, counts,
    turn, calls, plays, phase); a step it refuses the engine refuses; a step it marks checked
    the engine accepts."""
    games, truth = [], []
    for preset in PRESETS:
        for seed in (1, 2):
            deal, steps, calls = _game(preset, seed)
            positions = [entry_steps.start(deal)]
            for s in steps:
                positions.append(entry_steps.apply_step(positions[-1], s))
            views = [entry_steps.view(p) for p in positions]
            probes = [
                _probes(p, steps[i] if i < len(steps) else None) for i, p in enumerate(positions)
            ]
            half, late = calls + (len(steps) - calls) // 2, calls + 3 * (len(steps) - calls) // 4
            starts = [
                {"from": 0, "view": views[0]},  # no combinations: the play is entered unchecked
                {"from": calls, "view": views[calls]},  # the first lead brings them
                {"from": half, "view": views[half], "leadsFrom": views[calls]},  # kept since
                {
                    "from": late,
                    "view": entry_steps.view(positions[late], leads=True),
                },  # page opened
            ]
            games.append({"steps": steps, "probes": probes, "starts": starts})
            truth.append((preset, seed, positions, views, probes))

    with chromium() as browser:
        page = browser.new_page()
        page.add_script_tag(path=str(OFFLINE_JS))
        answers = page.evaluate(
            CHECK_GAMES,
            {"cfg": views_offline.page_config(), "games": games, "keys": list(COMPARED)},
        )

    verdicts = {"refused": 0, "checked": 0, "unchecked": 0}
    for (preset, seed, positions, views, probes), runs in zip(truth, answers, strict=True):
        for run in runs:
            for row in run:
                i = row["i"]
                where = f"{preset} seed {seed} after {i} steps"
                assert "error" not in row, f"{where}: the phone refused the game's step: {row}"
                server = views[i]
                for key in COMPARED:
                    assert row["view"][key] == server[key], f"{where}: {key}"
                assert set(row["view"]["allowed"]) == {a["call"] for a in server["allowed"]}
                if server["phase"] != "done":
                    assert row["view"]["open"] == server["open"], where
                assert row["view"]["end"] == server["end"], where
                for step, verdict in zip(probes[i], row["probes"], strict=True):
                    verdicts[verdict] += 1
                    accepted = _accepts(positions[i], step)
                    if verdict == "refused":
                        assert not accepted, f"{where}: the phone refused {step!r}"
                    elif verdict == "checked":
                        assert accepted, f"{where}: the phone passed {step!r}"
    assert verdicts["refused"] and verdicts["checked"]
