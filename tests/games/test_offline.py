"""Offline-tolerant live entry, without a browser: what the entry door answers for
the page to check steps while the network is down (games.offline), a queue of steps replayed
in order and submitted twice with one key stored once, and the web app's service worker and
manifest. The browser test is tests/browser/test_browser_offline.py."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import tokens

pytestmark = pytest.mark.django_db

# A classic deal (R-DEAL: 17 cards each and 3 in the bottom, one deck, R-DECK) whose legal
# turns can be counted by hand from the rules.
HANDS = {
    "S": "33334444555566667",
    "E": "7778888999TTTTJJ9",
    "W": "JJQQQQKKKKAAAA222",
}
BOTTOM = "2BR"


@pytest.fixture
def door():
    """Board 1 of a table link's table, dealt HANDS with S the first bidder (classic rules)."""
    world = build_world(seed="offline")
    table, board = world.tables[0], world.boards[0]
    board.hands, board.bottom, board.first_bidder = HANDS, BOTTOM, "S"
    board.save()
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    token = next(m.url for m in made if m.table == table.number).strip("/").split("/")[1]
    return world, table, board, token


def _check(client: Client, token: str, steps: list[str], step: str | None = None) -> dict:
    body = {"steps": steps} if step is None else {"steps": steps, "step": step}
    answer = client.post(
        reverse("links:entry", args=[token, 1]), body, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_the_bidding_tree_sent_with_a_position_follows_the_auction_rules(door) -> None:
    _w, _t, _b, token = door
    position = Client().get(reverse("links:entry", args=[token, 1])).json()
    tree = position["offline"]["bidding"]
    # R-BID-AUCTION: S speaks first and may pass or bid 1, 2 or 3.
    assert tree["seat"] == "S" and set(tree["next"]) == {"pass", "1", "2", "3"}
    # A bid of 3 ends the auction at once: S is the landlord at 3.
    three = tree["next"]["3"]
    assert (three["landlord"], three["bid"], three["over"]) == ("S", 3, False)
    # After a bid, all other players pass in a row: the bidder is the landlord at his bid.
    one = tree["next"]["1"]
    assert one["seat"] == "E" and set(one["next"]) == {"pass", "2", "3"}
    after = one["next"]["pass"]["next"]["pass"]
    assert (after["landlord"], after["bid"], after["over"]) == ("S", 1, False)
    # R-PASSOUT: all three decline; no landlord, no card is played.
    out = tree["next"]["pass"]["next"]["pass"]["next"]["pass"]
    assert out["over"] is True and out["landlord"] is None
    # No card is played in the bidding: no legal plays, no leads.
    assert position["offline"]["legal"] is None and position["offline"]["leads"] is None


def test_the_legal_turns_and_leads_sent_with_a_position_follow_the_rules(door) -> None:
    _w, _t, _b, token = door
    client = Client()
    # S bids 3 and is the landlord: he holds the bottom (R-BOTTOM) and leads (R-LEAD).
    answer = _check(client, token, [], "3")
    hints = answer["position"]["offline"]
    legal = set(hints["legal"])
    assert "pass" not in legal  # R-LEAD: the leader may not pass
    # R-T1, R-T2, R-T3, R-T5, R-T6, R-T8, R-T11, R-T12
    assert {"3", "33", "333", "33344", "34567", "333444", "3333", "BR", "2"} <= legal
    assert "3456" not in legal  # R-T6: a straight has at least five cards
    assert "2BR" not in legal  # no combination
    assert set(hints["leads"]["S"]) == legal and hints["open"] is None
    # Each combination with its readings [type, length, value (3 is 0), bomb power]: R-T5,
    # R-T11 (a bomb has a power, compared among bombs), R-T12.
    assert hints["leads"]["S"]["33344"] == [["trio_with_pair", 1, 0, 0]]
    assert [r[:3] for r in hints["leads"]["S"]["3333"]] == [["bomb", 1, 0]]
    assert hints["leads"]["S"]["3333"][0][3] < hints["leads"]["S"]["4444"][0][3]
    assert [r[0] for r in hints["leads"]["S"]["BR"]] == ["rocket"]
    assert {"7", "JJ", "8888", "TTTT", "789TJ"} <= set(hints["leads"]["E"])
    assert "pass" not in hints["leads"]["W"] and "QKAAAA" in hints["leads"]["W"]  # R-T13a
    # S leads a single 3: E may beat it with a higher single he holds, a bomb, or pass last.
    answer = _check(client, token, ["3"], "3")
    assert answer["ok"] and answer["position"]["to_move"] == "E"
    # The single 3 is open (R-T1, value 0); the combinations were sent once, at the lead.
    assert answer["position"]["offline"]["open"] == [["solo", 1, 0, 0]]
    assert answer["position"]["offline"]["leads"] is None
    legal = answer["position"]["offline"]["legal"]
    assert legal[-1] == "pass"
    assert set(legal) == {"7", "8", "9", "T", "J", "8888", "9999", "TTTT", "pass"}
    # A page opening mid-game asks for them: the hands as they are now.
    again = Client().get(reverse("links:entry", args=[token, 1])).json()["offline"]
    assert "3333" not in again["leads"]["S"] and {"333", "4444"} <= set(again["leads"]["S"])
    # The end of the play by a claim leaves nothing to check.
    answer = _check(client, token, ["3", "3"], "claim")
    assert answer["position"]["phase"] == "done"
    assert answer["position"]["offline"] == {
        "legal": None,
        "open": None,
        "leads": None,
        "bidding": None,
    }


def test_the_page_carries_what_its_offline_checker_reads_and_speaks_chinese(door) -> None:
    _w, _t, _b, token = door
    page = Client().get(reverse("links:live", args=[token, 1])).content.decode()
    config = json.loads(page.split('id="entry-config" type="application/json">')[1].split("<")[0])
    offline = config["offline"]
    assert offline["sw"] == "/sw.js"
    # The referee's words as the server reads them (games.steps, R-NOTE's pass words).
    assert offline["words"]["calls"]["不叫"] == "pass" and offline["words"]["calls"]["3分"] == "3"
    assert offline["words"]["end"]["认负"] == "concede"
    assert "p" in offline["words"]["play_pass"]
    assert offline["messages"]["waiting"] == [
        "Saved on this phone, %(n)s step waiting",
        "Saved on this phone, %(n)s steps waiting",
    ]
    assert 'rel="manifest"' in page and "games/offline.js" in page
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(reverse("links:live", args=[token, 1]))
    config = json.loads(
        zh.content.decode().split('id="entry-config" type="application/json">')[1].split("<")[0]
    )
    assert config["offline"]["messages"]["waiting"][1] == "已存在本机，%(n)s 步待发送"


def test_steps_replayed_in_order_then_submitted_twice_with_one_key_are_stored_once(door) -> None:
    world, table, board, token = door
    board.refresh_from_db()
    record = bot_record(board, table)
    steps = [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]
    client = Client()
    half = len(steps) // 2
    # Online up to half-way; the rest queued on the phone and replayed in order on sync.
    for i in range(len(steps)):
        answer = _check(client, token, steps[:i], steps[i])
        assert answer["ok"], answer["error"]
    assert answer["position"]["phase"] == "done" and half > 0
    url = reverse("links:games", args=[token, 1])
    body = {"steps": steps, "replace": False}
    first = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="q-1")
    # The answer was lost on the way back: the phone sends it again with the same key.
    again = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="q-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    game = Game.objects.get(table=table, board=board)
    assert game.record["plays"] == record["plays"]


def test_the_service_worker_and_the_manifest_are_served_from_the_site_root() -> None:
    client = Client()
    sw = client.get("/sw.js")
    assert sw.status_code == 200
    assert sw["Content-Type"].startswith("text/javascript")
    assert sw["Service-Worker-Allowed"] == "/"
    assert "no-cache" in sw["Cache-Control"]
    assert "addEventListener" in sw.content.decode()
    manifest = client.get("/manifest.webmanifest?start=/t/abc/boards/1/")
    assert manifest["Content-Type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["start_url"] == "/t/abc/boards/1/" and data["scope"] == "/"
    assert data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200
        assert b"".join(got.streaming_content if got.streaming else [got.content])[:8] == (
            b"\x89PNG\r\n\x1a\n"
        )
    # Another site is never a start: the manifest falls back to the site's root.
    for bad in ("https://example.org/", "//example.org/x", "javascript:alert(1)"):
        assert client.get("/manifest.webmanifest", {"start": bad}).json()["start_url"] == "/"
