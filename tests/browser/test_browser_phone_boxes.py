"""Every page people use, on a phone (375 px) in English and in Simplified Chinese: the public
pages (events, an event, standings, a round, a scorecard, a traveller, a game, hand records,
deals), a player's link, a table's link with its quick result and live entry, a seat's
device, the referee's tables, status board, confirmations, game versions and quick result,
the organizer's dashboard. The event is realistic: eighteen players with long, hyphenated
and Chinese names, three-digit scores and datum differences with signs, 52 results of one
round waiting for confirmation, an airplane with wings entered with the network cut (each
play marked "?"). Each page is measured box by box in headless Chromium: (a) no text (a
list's numbers included) lies over another element's text or spills out of its box, (b) no
table cell breaks a word over two lines (a number, a card run, a Latin word; each Chinese
character is a word of its own), (c) no table row is taller than its cells' content needs
plus one line, a cell's line taking as many lines as half the screen's width needs to hold
it. Set DDZ_SHOTS_DIR to keep the screenshots."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page

from games.engine import RuleSet, deal_random
from games.models import Board, Game, Status
from tests.browser.chromium import (
    CHROMIUM,
    chromium,
    enter_all,
    fits,
    phone_context,
    session_of,
)
from tests.conftest import wait_for
from tests.factories import EventFactory, bot_record, duplicate_round
from tournaments.events import round_states, rounds
from tournaments.events.boards import board_create
from tournaments.events.setup import round_seat
from tournaments.links import tokens
from tournaments.models import Event, EventRole, Player, Role, Round, Table
from tournaments.standings.store import standings_recompute
from tournaments.tables.live import live_step
from tournaments.tables.submission import game_submit, steps_record
from tournaments.tables.verification import game_verify

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

EVENT_NAME = "Shanghai Open Duplicate Championship 2025 · 上海公开赛"
NAMES = [
    "Anastasia Konstantinopoulou",
    "王小明",
    "Jean-Baptiste Lefebvre",
    "欧阳娜娜",
    "Maximilian Oberhauser",
    "Siddharth Ramakrishnan",
    "李雪",
    "Guðmundur Sigurðsson",
    "Oluwaseun Adebayo-Williams",
    "司马相如",
    "Margarethe von Hohenberg",
    "Nguyễn Thị Minh Khai",
    "Bartholomew Fairweather",
    "诸葛亮",
    "Zhang Wei",
    "Catalina Echeverría",
    "Przemysław Wojciechowski",
    "慕容复",
]
# Board of the live entry: the landlord's 20 cards make an airplane with four wings
# (333444555666 + 789T, 16 cards, R-AIRPLANE) and the farmers hold no bomb and no rocket, so
# that after the auction (S bids 3) the airplane is led and both farmers pass.
AIRPLANE = {
    "hands": {
        "S": "3 3 3 4 4 4 5 5 5 6 6 6 7 8 9 T J",
        "E": "3 5 7 7 8 8 9 9 T T J Q K A 2 2 B",
        "W": "4 6 7 8 9 T J J Q Q K K A A 2 2 R",
    },
    "bottom": "Q K A",
}
# Its steps: the auction, the airplane, and on to a straight of eight (21 plays).
AIRPLANE_STEPS = [
    *("3", "333444555666789T", "p", "p"),
    *("J", "Q", "K", "A", "2", "p", "p"),
    *("3", "4", "Q", "K", "A", "p", "p"),
    *("789TJQKA", "p", "p", "22"),
]
# A board of bombs: where the landlord bids 3 and plays his four bombs and the rocket before
# the farmers play a card, each farmer pays 3 × 2⁵ (R-SC-MULT): three-digit scores.
BOMBS = {
    "hands": {
        "S": "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 B",
        "E": "7 7 7 8 8 9 9 T T J J Q Q K K A 2",
        "W": "8 9 9 T T J J Q Q K K A A A 2 2 2",
    },
    "bottom": "R 7 8",
}
BOMBS_STEPS = [
    *("3", "3333", "p", "p", "4444", "p", "p", "5555", "p", "p", "6666", "p", "p"),
    *("BR", "p", "p", "7", "p", "p", "8"),
]
LANGUAGES = ["en", "zh-hans"]

# What is wrong with the page's boxes (module docstring): lists of sentences, empty when none.
BOXES = r"""() => {
  // A word no line may break: a run of anything but spaces and CJK characters (each of those
  // is a word of its own), cut after a hyphen that a letter follows ("Jean-Baptiste").
  const WORD = /[^\s\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u3000-\u303f]+/g;
  const BLOCK = /^(block|list-item|flex|grid|table|flow-root)$/;
  const ATOMIC = /^(inline-block|inline-flex|inline-grid|inline-table)$/;
  const REPLACED = /^(INPUT|BUTTON|SELECT|TEXTAREA|IMG|SVG|CANVAS)$/i;
  const MOST = 8; // faults of a kind reported per page
  const shown = (el) => el.checkVisibility({visibilityProperty: true});
  const label = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\s+/).join(".") : "");
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      parts.unshift(label(e));
      if (e.id) break;
    }
    return parts.join(" > ");
  };
  const said = (el) => `"${el.textContent.trim().replace(/\s+/g, " ").slice(0, 50)}"`;
  const rects = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
  };
  const texts = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.nodeValue.trim() || el.closest("script, style, noscript, template, select")) continue;
    if (shown(el)) texts.add(n);
  }
  const out = {overlaps: [], spills: [], broken: [], tall: []};

  // (a) Text over text: the boxes of two elements' text intersect...
  const boxes = [];
  for (const n of texts) {
    for (const r of rects(n, 0, n.nodeValue.length)) boxes.push({el: n.parentElement, r: r});
  }
  // A numbered list's numbers stand outside its items (in the columns' gap): each is a box
  // of text ending where its item begins, as wide as "12. " in the item's font.
  const pen = document.createElement("canvas").getContext("2d");
  for (const ol of document.querySelectorAll("ol")) {
    const items = [...ol.children].filter((li) => li.tagName === "LI" && shown(li));
    items.forEach((li, i) => {
      const s = getComputedStyle(li);
      if (s.listStylePosition !== "outside" || s.listStyleType !== "decimal") return;
      pen.font = getComputedStyle(li, "::marker").font || s.font;
      const first = li.getClientRects()[0];
      const width = pen.measureText(`${(ol.start || 1) + i}. `).width;
      const size = parseFloat(s.fontSize);
      const r = new DOMRect(first.left - width, first.top, width, size * 1.2);
      boxes.push({el: li, r: r, marker: true});
    });
  }
  boxes.sort((a, b) => a.r.top - b.r.top);
  for (let i = 0; i < boxes.length && out.overlaps.length < MOST; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j].r.top < a.r.bottom - 2; j++) {
      const b = boxes[j];
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (a.el !== b.el && w > 2 && h > 2) {
        const [x, y] = [a, b].map((t) => where(t.el) + (t.marker ? "::marker " : " ") + said(t.el));
        out.overlaps.push(`${x} over ${y}`);
      }
    }
  }
  // ... or text spills out of the box that holds it (a block, a cell, a button)...
  const holders = new Map();
  for (const b of boxes.filter((b) => !b.marker)) {
    let box = b.el;
    while (box.parentElement && getComputedStyle(box).display.startsWith("inline")
           && !ATOMIC.test(getComputedStyle(box).display) && !REPLACED.test(box.tagName)) {
      box = box.parentElement;
    }
    if (!holders.has(box)) holders.set(box, box.getBoundingClientRect());
    const edge = holders.get(box);
    if ((b.r.right > edge.right + 1 || b.r.left < edge.left - 1) && out.spills.length < MOST) {
      out.spills.push(`${where(box)} ${said(b.el)}: text from ${Math.round(b.r.left)} to `
        + `${Math.round(b.r.right)} px in a box from ${Math.round(edge.left)} to `
        + `${Math.round(edge.right)}`);
    }
  }
  // ... (a generated marker, "?" or "…", included) or out of the block that holds it.
  for (const el of document.body.querySelectorAll("*")) {
    if (out.spills.length >= MOST) break;
    const s = getComputedStyle(el);
    if (!BLOCK.test(s.display) && s.display !== "table-cell") continue;
    if (s.overflowX !== "visible") continue;
    const own = [...el.childNodes].some((c) => texts.has(c))
      || getComputedStyle(el, "::after").content !== "none"
      || getComputedStyle(el, "::before").content !== "none";
    if (own && shown(el) && el.scrollWidth > el.clientWidth + 1) {
      out.spills.push(`${where(el)} ${said(el)}: ${el.scrollWidth} px wide in ${el.clientWidth}`);
    }
  }

  // (b) A table cell never breaks a word over two lines.
  for (const n of texts) {
    if (out.broken.length >= MOST) break;
    const cell = n.parentElement.closest("td, th");
    if (!cell) continue;
    for (const m of n.nodeValue.matchAll(WORD)) {
      let at = m.index;
      for (const part of m[0].split(/(?<=-)(?=\p{L})/u)) {
        const tops = new Set(rects(n, at, at + part.length).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.broken.push(`${where(cell)}: "${part}" over ${tops.size} lines`);
        at += part.length;
      }
    }
  }

  // (c) A row is no taller than its cells' content needs, plus one line: a cell's line (cut by
  // <br> and blocks) takes as many lines as half the screen's width needs to hold it.
  const half = window.innerWidth / 2;
  const fresh = () => ({width: 0, atom: 0});
  for (const row of document.querySelectorAll("tr")) {
    if (out.tall.length >= MOST) break;
    if (!shown(row)) continue;
    const needs = new Map(); // by the top of the cells: side by side, or stacked (a reflow)
    let lineHeight = 0;
    for (const cell of row.cells) {
      const s = getComputedStyle(cell);
      const lh = parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize);
      const lines = [fresh()];
      const walk = (node) => {
        for (const c of node.childNodes) {
          const line = lines[lines.length - 1];
          if (texts.has(c)) {
            for (const r of rects(c, 0, c.nodeValue.length)) line.width += r.width;
          } else if (c.nodeType !== 1 || !shown(c)) {
            continue;
          } else if (c.tagName === "BR") {
            lines.push(fresh());
          } else if (REPLACED.test(c.tagName) || ATOMIC.test(getComputedStyle(c).display)) {
            const r = c.getBoundingClientRect();
            line.width += r.width;
            line.atom = Math.max(line.atom, r.height);
          } else if (BLOCK.test(getComputedStyle(c).display)) {
            lines.push(fresh());
            walk(c);
            lines.push(fresh());
          } else {
            walk(c);
          }
        }
      };
      walk(cell);
      let height = parseFloat(s.paddingTop) + parseFloat(s.paddingBottom)
        + parseFloat(s.borderTopWidth) + parseFloat(s.borderBottomWidth);
      for (const l of lines) {
        if (l.width > 0) height += Math.max(l.atom, lh * Math.ceil(l.width / half));
      }
      const top = Math.round(cell.getBoundingClientRect().top);
      needs.set(top, Math.max(needs.get(top) || 0, height));
      lineHeight = Math.max(lineHeight, lh);
    }
    const need = [...needs.values()].reduce((a, b) => a + b, 0);
    const tall = row.getBoundingClientRect().height;
    if (tall > need + lineHeight + 4) {
      out.tall.push(`${where(row)} ${said(row)}: ${Math.round(tall)} px, needs ${Math.round(need)}`
        + " and a line");
    }
  }
  return out;
}"""


@dataclass
class Scene:
    """Where the pages of the event are and who may open them."""

    sessions: dict[str, str]
    pages: list[tuple[str | None, str]]  # (who: a sessions key or None, path)
    live: str  # the live entry through the table link, board AIRPLANE
    device: str


def _name_players(event: Event) -> list[Player]:
    """The players seated in `event`, renamed with NAMES, long, hyphenated and Chinese."""
    players = list(
        Player.objects.filter(seats__table__round__event=event).distinct().order_by("pk")
    )
    for player, name in zip(players, NAMES, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    return players


def _official(event: Event, username: str, role: str) -> User:
    """A new user with `role` in `event`."""
    user = User.objects.create_user(username, password="x")
    EventRole.objects.create(event=event, user=user, role=role)
    return user


def _deal(event: Event, round_: Round, seed: str, count: int) -> list[Board]:
    """`count` new boards of `round_`, dealt at random from `seed`."""
    rng = random.Random(seed)
    rules = RuleSet.from_spec("classic")
    made = []
    for b in range(count):
        deal = deal_random(rules, rng, first_bidder="SEW"[b % 3])
        made.append(
            board_create(
                event=event,
                round=round_,
                hands=deal.hands,
                bottom=deal.bottom,
                first_bidder="SEW"[b % 3],
            )
        )
    return made


def _verified(game: Game) -> Game:
    """`game` verified: here, or by the suite's worker, which takes the task sent at commit
    and holds the game's row meanwhile (game_verify then leaves it to the worker)."""
    game_verify(game_id=game.pk)
    wait_for(
        lambda: not Game.objects.filter(pk=game.pk, status=Status.PENDING).exists(),
        what=f"game {game.pk} verified",
    )
    game.refresh_from_db()
    return game


def _play(table: Table, board: Board, seed: str) -> Game:
    """The bot's game of `board` at `table`, stored and verified."""
    game = game_submit(table=table, board=board, record=bot_record(board, table, seed=seed))
    return _verified(game)


def _second_round(event: Event, players: list[Player], language: str) -> dict[str, Any]:
    """Round 2, in play: the players moved on; nine boards, every table but the first has
    played them all, the first all but the airplane and the device's board. On the first,
    the bombs, half the tables make the landlord's spring. Its tables, and those three
    boards by name."""
    shuffled = players[:]
    random.Random(language).shuffle(shuffled)
    second = round_seat(
        event=event, number=2, tables=[shuffled[3 * t : 3 * t + 3] for t in range(6)]
    )
    tables = list(second.tables.order_by("number"))
    bombs = board_create(event=event, round=second, first_bidder="S", **BOMBS)
    for table in tables[::2]:
        record = steps_record(table=table, board=bombs, steps=BOMBS_STEPS)
        game = _verified(game_submit(table=table, board=bombs, record=record))
        assert game.score == {"S": 192, "E": -96, "W": -96}
    for table in tables[1::2]:
        _play(table, bombs, f"r2-{language}")
    airplane = board_create(event=event, round=second, first_bidder="S", **AIRPLANE)
    # The device's board: the same cards turned one seat on (E holds the airplane).
    hands = AIRPLANE["hands"]
    device = board_create(
        event=event,
        round=second,
        hands={"E": hands["S"], "W": hands["E"], "S": hands["W"]},
        bottom=AIRPLANE["bottom"],
        first_bidder="E",
    )
    for board in [*_deal(event, second, f"r2-{language}", 6), airplane, device]:
        for table in tables:
            if table.number != 1 or board not in (airplane, device):
                _play(table, board, f"r2-{language}")
    return {
        "round": second,
        "tables": tables,
        "bombs": bombs,
        "airplane": airplane,
        "device": device,
    }


def _scene(language: str) -> Scene:
    """The event of the pages (module docstring): round 1 published, round 2 in play, its
    results waiting for the chief referee's confirmation, its table 1 entering the airplane
    and its seat E's device after it."""
    event = EventFactory(name=EVENT_NAME, scoring_method="datum")
    organizer, chief = (
        _official(event, f"{role}-{language}", role)
        for role in (Role.ORGANIZER, Role.CHIEF_REFEREE)
    )
    rounds.event_seed_commit(event=event, actor=organizer)
    event, first, first_tables, first_boards = duplicate_round(
        tables=6, boards=4, seed=f"boxes-{language}", event=event
    )
    players = _name_players(event)
    for board in first_boards:
        for table in first_tables:
            _play(table, board, f"r1-{language}")
    round_states.round_close(round_=first, actor=organizer)
    round_states.round_publish(round_=first, actor=organizer)
    second = _second_round(event, players, language)
    Event.objects.filter(pk=event.pk).update(confirmation_required=True)
    standings_recompute(event_id=event.pk)

    made = tokens.table_links_make(event=event, round_=second["round"], actor=organizer)
    link = next(m for m in made if m.table == 1)
    token = link.url.split("/")[2]
    seat_token = dict(link.seats)["E"].split("/")[2]
    player_link = tokens.player_links_make(event=event, actor=organizer, players=[players[0]])[0]
    table, airplane, device = second["tables"][0], second["airplane"], second["device"]
    # The device's board after the auction and the airplane: the longest play is the last.
    for i, step in enumerate(AIRPLANE_STEPS[:4]):
        live_step(table=table, board=device, seat=None, step=step, at=i, actor=chief)
    spring = Game.objects.filter(board=second["bombs"], score__S=192).first()
    assert spring is not None
    seed = Event.objects.values_list("deal_seed", flat=True).get(pk=event.pk)

    slug = event.slug
    pages: list[tuple[str | None, str]] = [
        (None, reverse("public:events")),
        (None, reverse("public:event", args=[slug])),
        (None, reverse("public:standings", args=[slug])),
        (None, reverse("public:round", args=[slug, 2])),
        (None, reverse("public:scorecard", args=[slug, players[0].pk])),
        (None, reverse("public:traveller", args=[slug, second["bombs"].number])),
        (None, reverse("public:game", args=[spring.pk])),
        (None, reverse("public:hands", args=[slug, 1])),
        (None, reverse("deals:event", args=[slug])),
        (None, reverse("deals:event", args=[slug]) + f"?seed={seed}"),
        (None, player_link.url),
        (None, link.url),
        (None, reverse("links:quick", args=[token, airplane.number])),
        ("chief", reverse("referee:event", args=[slug])),
        ("chief", reverse("referee:status", args=[slug])),
        ("chief", reverse("referee:confirm", args=[slug])),
        ("chief", reverse("referee:game", args=[slug, spring.pk])),
        ("chief", reverse("referee:quick", args=[slug, table.pk, airplane.number])),
        ("organizer", reverse("organizer:dashboard", args=[slug])),
    ]
    return Scene(
        sessions={"chief": session_of(chief), "organizer": session_of(organizer)},
        pages=pages,
        live=reverse("links:live", args=[token, airplane.number]),
        device=reverse("links:seat_board", args=[seat_token, device.number]),
    )


def _faults(page: Page, shots: Path, name: str) -> list[str]:
    """What is wrong with the boxes of the page open in `page`, each fault a line naming it;
    a screenshot of the page as `name`."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    faults = []
    try:
        fits(page)
    except AssertionError as exc:
        faults.append(str(exc))
    found = page.evaluate(BOXES)
    for kind, what in (
        ("overlaps", "text over text"),
        ("spills", "text out of its box"),
        ("broken", "a word broken"),
        ("tall", "a row too tall"),
    ):
        faults += [f"{what}: {fault}" for fault in found[kind]]
    return [f"{name}: {fault}" for fault in faults]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_at_375_px_keeps_its_boxes_apart(language, live_server, tmp_path) -> None:
    scene = _scene(language)
    shots = Path(os.environ.get("DDZ_SHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    tag = "en" if language == "en" else "zh"
    faults: list[str] = []
    with chromium() as browser:
        for who in (None, "chief", "organizer"):
            session = scene.sessions[who] if who else None
            context = phone_context(browser, live_server, session, language=language)
            page = context.new_page()
            for k, (needs, path) in enumerate(scene.pages):
                if needs != who:
                    continue
                response = page.goto(live_server.url + path)
                assert response is not None and response.status == 200, path
                faults += _faults(page, shots, f"{tag}-{k:02d}-{path.split('/')[1] or 'events'}")
            if who is None:
                # A seat's device after the airplane, the longest play shown last.
                page.goto(live_server.url + scene.device)
                page.wait_for_selector("#table-seats tr.to-move")
                faults += _faults(page, shots, f"{tag}-device")
                # The live entry of the table link, every step entered with the network cut
                # before the first call: the phone queues them, the plays unchecked ("?").
                page.goto(live_server.url + scene.live)
                page.wait_for_selector("#seats tr.to-move")
                page.wait_for_function("document.documentElement.dataset.offlineReady === 'yes'")
                context.set_offline(True)
                enter_all(page, AIRPLANE_STEPS[:1])  # the landlord holds his 20 cards
                faults += _faults(page, shots, f"{tag}-live-auction")
                enter_all(page, AIRPLANE_STEPS[1:], start=2)
                airplane = page.locator("#plays li").first
                assert "unverified" in (airplane.get_attribute("class") or "")
                faults += _faults(page, shots, f"{tag}-live")
                context.set_offline(False)
            context.close()
    assert not faults, "\n".join(faults)
