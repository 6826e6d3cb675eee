"""The seat devices' HTTP doors (tournaments.web.devices): a whole game played by each seat on
its own link, what every answer holds (never another seat's unplayed cards), and the refusals
(unknown link, revoked link, wrong method, bad body) in the API's error shape."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.notation import rank_cards
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import tokens
from tournaments.models import PlayerLink, Seat, SeatLink

pytestmark = pytest.mark.django_db


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


def _world():
    world = build_world(seed="seat-doors")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return world, {seat: _token(url) for seat, url in made[0].seats}, _token(made[0].url)


def _post(client: Client, url: str, body: dict) -> tuple[int, dict]:
    response = client.post(url, json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def _others_cards(board, seat: str, view: dict) -> list[str]:
    """Another seat's cards not yet played that the answer shows (must be none): its dealt hand
    or what is left of it, written anywhere in the answer."""
    text = json.dumps(view)
    found = []
    for other, cards in board.hands.items():
        if other != seat and (cards in text or f'"{rank_cards(cards)}"' in text):
            found.append(other)
    return found


def test_each_seat_plays_its_own_steps_and_never_sees_another_hand() -> None:
    world, seats, _referee = _world()
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    steps = [(s, c) for s, c in record["bidding"]] + [(s, c) for s, c in record["plays"]]
    clients = {seat: Client() for seat in seats}
    for at, (seat, step) in enumerate(steps):
        url = reverse("links:seat_steps", args=[seats[seat], board.number])
        status, answer = _post(clients[seat], url, {"step": step, "at": at})
        assert status == 200 and answer["ok"], answer
        assert answer["view"]["seat"] == seat and not _others_cards(board, seat, answer["view"])
        for other, token in seats.items():
            seen = clients[other].get(reverse("links:seat_position", args=[token, board.number]))
            view = seen.json()["view"]
            assert view["at"] == at + 1
            assert not _others_cards(board, other, view), (other, at)
            # Only the seat to move gets buttons.
            assert (view["menu"] is not None) == (view["to_move"] == other)
    game = Game.objects.get(table=table, board=board)
    assert game.source == "seat"
    view = clients["S"].get(reverse("links:seat_position", args=[seats["S"], 1])).json()["view"]
    assert view["game"]["id"] == game.pk and view["result"]["score"]
    assert view["next"] == 2  # the table's next board


def test_the_referee_device_sees_the_hand_of_the_seat_to_act_only() -> None:
    world, _seats, referee = _world()
    board = world.boards[0]
    view = Client().get(reverse("links:table_position", args=[referee, 1])).json()["view"]
    first = view["to_move"]
    assert view["seat"] is None and view["hand"]["seat"] == first
    assert view["menu"]["primary"] and not _others_cards(board, first, view)


def test_the_refusals_speak_the_api_error_shape() -> None:
    world, seats, _referee = _world()
    client = Client()
    unknown = client.get(reverse("links:seat_position", args=["x" * 43, 1]))
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    url = reverse("links:seat_steps", args=[seats["S"], 1])
    wrong = client.get(url)
    assert wrong.status_code == 405 and wrong["Allow"] == "POST"
    status, answer = _post(client, url, {"step": "p"})
    assert status == 400 and "at" in answer["error"]["message"]
    status, answer = _post(client, url, {"step": "", "at": 0})
    assert status == 400
    bad = client.post(url, b"[1", content_type="application/json")
    assert bad.status_code == 400
    link = SeatLink.objects.get(token_hash=tokens.token_hash(seats["S"]))
    tokens.link_revoke(link=link, actor=world.users["organizer"])
    revoked = client.get(reverse("links:seat_position", args=[seats["S"], 1]))
    assert revoked.status_code == 403 and "revoked" in revoked.json()["error"]["message"]
    # The other seats' links still work.
    assert client.get(reverse("links:seat_position", args=[seats["E"], 1])).status_code == 200


def test_a_seat_link_opens_its_board_page_and_a_players_link_opens_her_seat() -> None:
    world, seats, _referee = _world()
    client = Client()
    home = client.get(reverse("links:seat", args=[seats["E"]]))
    assert home.status_code == 302 and home["Location"].endswith("/boards/1/")
    page = client.get(home["Location"])
    assert page.status_code == 200 and b"device.js" in page.content
    assert page["Cache-Control"] == "no-store, private"
    seat = Seat.objects.filter(table=world.tables[0]).select_related("player").first()
    made = tokens.player_links_make(
        event=world.event, actor=world.users["organizer"], players=[seat.player]
    )
    token = _token(made[0].url)
    round_number = world.tables[0].round.number
    view = client.get(reverse("links:player_position", args=[token, round_number, 1])).json()[
        "view"
    ]
    assert view["seat"] == seat.seat and view["hand"]["seat"] == seat.seat
    assert PlayerLink.objects.filter(player=seat.player).exists()


def test_the_players_own_link_leads_to_her_seat_device_in_the_round_in_play() -> None:
    world, _seats, _referee = _world()
    seat = Seat.objects.filter(table=world.tables[0]).select_related("player").first()
    made = tokens.player_links_make(
        event=world.event, actor=world.users["organizer"], players=[seat.player]
    )
    token = _token(made[0].url)
    page = Client().get(reverse("links:player", args=[token])).content.decode()
    round_number = world.tables[0].round.number
    device = reverse("links:player_board", args=[token, round_number, 1])
    assert f'href="{device}"' in page and "<svg" in page
    opened = Client().get(device)
    assert opened.status_code == 200 and b'id="device-view"' in opened.content


def test_the_signed_in_referee_device_opens_for_the_tables_referee_and_the_chief_only() -> None:
    world, _seats, _referee = _world()
    table, board = world.tables[0], world.boards[0]
    args = [world.event.slug, table.pk, board.number]
    page = reverse("referee:device_board", args=args)
    anonymous = Client().get(page)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    for persona in ("referee1", "chief", "organizer"):
        client = Client()
        client.force_login(world.users[persona])
        view = client.get(reverse("referee:device_position", args=args)).json()["view"]
        assert view["seat"] is None and view["hand"]["seat"] == view["to_move"]
    other = Client()
    other.force_login(world.users["referee2"])  # the referee of table 2
    refused = other.get(reverse("referee:device_position", args=args))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    # The table's referee records the step of the seat to move for it.
    client = Client()
    client.force_login(world.users["referee1"])
    first = bot_record(board, table)["bidding"][0][1]
    status, answer = _post(
        client, reverse("referee:device_steps", args=args), {"step": first, "at": 0}
    )
    assert status == 200 and answer["ok"] and answer["view"]["at"] == 1


def test_an_undecided_claim_goes_to_the_other_seats_and_a_dispute_to_the_chief(
    monkeypatch,
) -> None:
    from games.live import seat as seat_views
    from tournaments.links.checks import open_signals

    # The live search gets no time at all: every claim is undecided on the devices (the
    # workers' verification decides it with the full budget).
    monkeypatch.setattr(seat_views, "LIVE_CLAIM_SECONDS", 0.0)
    world, seats, _referee = _world()
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    bids = [(s, c) for s, c in record["bidding"]]
    landlord = record["plays"][0][0]
    clients = {seat: Client() for seat in seats}
    for at, (seat, step) in enumerate(bids):
        url = reverse("links:seat_steps", args=[seats[seat], board.number])
        assert _post(clients[seat], url, {"step": step, "at": at})[1]["ok"]
    url = reverse("links:seat_steps", args=[seats[landlord], board.number])
    status, answer = _post(clients[landlord], url, {"step": "claim", "at": len(bids)})
    assert status == 200 and answer["view"]["game"] is not None
    assert answer["view"]["result"]["undecided"] is True
    farmers = [s for s in seats if s != landlord]
    waiting = dict.fromkeys(farmers)
    assert answer["view"]["claim"] == {
        "by": landlord,
        "open": False,
        "answer": None,
        "answers": waiting,
    }
    farmer = farmers[0]
    view = (
        clients[farmer]
        .get(reverse("links:seat_position", args=[seats[farmer], board.number]))
        .json()["view"]
    )
    assert view["claim"] == {"by": landlord, "open": True, "answer": None, "answers": waiting}
    claim_url = reverse("links:seat_claim", args=[seats[farmer], board.number])
    status, answer = _post(clients[farmer], claim_url, {"answer": "dispute"})
    assert status == 200 and answer["view"]["claim"]["answer"] == "dispute"
    # The claimant reads each other seat's answer (a trial's claimant saw none of them).
    own_view = (
        clients[landlord]
        .get(reverse("links:seat_position", args=[seats[landlord], board.number]))
        .json()["view"]
    )
    assert own_view["claim"]["answers"] == {farmer: "dispute", farmers[1]: None}
    (signal,) = open_signals(event=world.event)
    assert signal.seat == farmer and signal.kind == "problem" and landlord in signal.note
    # The claimant does not answer his own claim; a word that is no answer is refused.
    own = reverse("links:seat_claim", args=[seats[landlord], board.number])
    assert _post(clients[landlord], own, {"answer": "accept"})[0] == 403
    assert _post(clients[farmer], claim_url, {"answer": "maybe"})[0] == 400


def test_the_landlords_hand_holds_the_bottom_he_took() -> None:
    world, seats, _referee = _world()
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    client = Client()
    for at, (seat, step) in enumerate(record["bidding"]):
        url = reverse("links:seat_steps", args=[seats[seat], board.number])
        assert _post(client, url, {"step": step, "at": at})[1]["ok"]
    landlord = record["plays"][0][0]
    view = client.get(reverse("links:seat_position", args=[seats[landlord], board.number])).json()[
        "view"
    ]
    # R-BID: 17 dealt and the 3 of the bottom, each as the board holds it (with its suit).
    assert view["counts"][landlord] == 20
    assert rank_cards(view["hand"]["dealt"]) == rank_cards(
        board.hands[landlord] + " " + board.bottom
    )
    assert view["hand"]["dealt"].split()[-3:] == board.bottom.split()
    farmer = next(s for s in seats if s != landlord)
    other = client.get(reverse("links:seat_position", args=[seats[farmer], 1])).json()["view"]
    assert rank_cards(other["hand"]["dealt"]) == rank_cards(board.hands[farmer])


def test_a_step_with_a_control_character_or_too_long_is_refused_by_the_sites_text_rule() -> None:
    _built, seats, _referee = _world()
    url = reverse("links:seat_steps", args=[seats["S"], 1])
    status, answer = _post(Client(), url, {"step": "33\u0000", "at": 0})
    assert status == 400 and "NUL" in answer["error"]["message"]
    status, answer = _post(Client(), url, {"step": "3" * 61, "at": 0})
    assert status == 400 and "61" in answer["error"]["message"]
    wrong_board = Client().get(reverse("links:seat_board", args=[seats["S"], 99]))
    assert wrong_board.status_code == 404 and b"No such link" not in wrong_board.content


def test_every_seat_reads_one_verdict_of_a_stored_claim() -> None:
    """A claim's live search is bounded in time, so two reads could decide it differently and
    the seats showed different verdicts (a trial's finding): once stored, the claim is
    undecided on every device until the workers verify the game, then every device shows
    the stored verdict, read after read."""
    from tests.factories import verified

    world, seats, _referee = _world()
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    bids = list(record["bidding"])
    landlord = record["plays"][0][0]
    client = Client()
    for at, (seat, step) in enumerate(bids):
        url = reverse("links:seat_steps", args=[seats[seat], board.number])
        assert _post(client, url, {"step": step, "at": at})[1]["ok"]
    url = reverse("links:seat_steps", args=[seats[landlord], board.number])
    status, answer = _post(client, url, {"step": "claim", "at": len(bids)})
    assert status == 200 and answer["view"]["game"]["status"] == "pending"

    def results() -> list[dict]:
        return [
            client.get(reverse("links:seat_position", args=[seats[s], board.number])).json()[
                "view"
            ]["result"]
            for s in seats
            for _read in range(2)
        ]

    assert all(r["undecided"] is True and r["text"] == "" for r in results())
    game = Game.objects.get(table=table, board=board, replaced_at__isnull=True)
    verified(game.pk)
    game.refresh_from_db()
    read = results()
    assert all(r["undecided"] is False and r["status"] == game.status for r in read)
    assert len({r["text"] for r in read}) == 1
    assert bool(read[0]["text"]) == bool(game.error)


@pytest.mark.parametrize(
    ("at", "why"), [(99999, "from 0 to 1000"), ("3", "from 0 to 1000"), (-1, "from 0 to 1000")]
)
def test_a_step_count_out_of_range_is_told_its_range(at, why) -> None:
    # A trial sent at: 99999 and read "at: a whole number": it was one, only out of range.
    _built, seats, _referee = _world()
    url = reverse("links:seat_steps", args=[seats["S"], 1])
    status, answer = _post(Client(), url, {"step": "pass", "at": at})
    assert status == 400 and why in answer["error"]["message"]
