"""Organizer pages (tournaments.web.organizer): who may see and change, each button's
service, the players import with preview, the print pages, the public deals page and the
management commands."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory, round_fill
from tournaments.events import round_states, rounds, stages
from tournaments.models import Entry, EventRole, Role, Round, RoundState

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    event = EventFactory(name="Spring Cup", slug="spring-cup")
    td = get_user_model().objects.create_user("td", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    referee = get_user_model().objects.create_user("ref", password="pw")
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    for _ in range(9):
        Entry.objects.create(event=event, player=PlayerFactory())
    return event, td, referee


def test_pages_are_for_organizers_only(client, setup) -> None:
    event, td, referee = setup
    url = reverse("organizer:dashboard", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(referee)
    assert client.get(url).status_code == 403
    # Refused at once with the reason (not sent to a dashboard that refuses him in turn).
    response = client.post(reverse("organizer:seed_commit", args=[event.slug]))
    assert response.status_code == 403
    assert "Only the organizers of Spring Cup may change it." in response.content.decode()
    event.refresh_from_db()
    assert event.deal_commitment == ""
    client.force_login(td)
    assert client.get(url).status_code == 200
    assert event.name in client.get(reverse("organizer:home")).content.decode()


def test_the_buttons_run_a_stage_to_published(client, setup) -> None:
    event, td, _referee = setup
    client.force_login(td)
    dash = reverse("organizer:dashboard", args=[event.slug])
    client.post(
        reverse("organizer:stage_create", args=[event.slug]), {"name": "Q", "kind": "qualifying"}
    )
    client.post(reverse("organizer:stage_action", args=[event.slug, 1, "round"]), {"count": "2"})
    client.post(reverse("organizer:stage_action", args=[event.slug, 1, "seat"]))
    assert set(Round.objects.values_list("state", flat=True)) == {RoundState.SEATED}
    client.post(reverse("organizer:seed_commit", args=[event.slug]))
    client.post(reverse("organizer:round_action", args=[event.slug, 1, "deal"]), {"boards": "3"})
    page = client.get(dash).content.decode()
    event.refresh_from_db()
    assert event.deal_commitment in page
    assert event.deal_seed not in page  # the secret stays secret until revealed
    assert 'data-action="start"' in page
    for action, state in (("start", "in_play"), ("close", "closed"), ("publish", "published")):
        if action == "close":
            round_fill(Round.objects.get(number=1))
        client.post(reverse("organizer:round_action", args=[event.slug, 1, action]))
        assert Round.objects.get(number=1).state == state
    # A second click on a button that already did its work is refused with a message.
    response = client.post(
        reverse("organizer:round_action", args=[event.slug, 1, "publish"]), follow=True
    )
    assert "nothing changed" in response.content.decode()
    # Bad input: a number of boards that is not a number.
    response = client.post(
        reverse("organizer:round_action", args=[event.slug, 2, "deal"]),
        {"boards": "x"},
        follow=True,
    )
    assert "1 to 60 boards" in response.content.decode()
    assert not Round.objects.get(number=2).boards.exists()


def test_print_pages(client, setup) -> None:
    event, td, _referee = setup
    stage = stages.stage_create(event=event, actor=td)
    round_ = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=round_, boards=2, actor=td)
    client.force_login(td)
    cards = client.get(reverse("organizer:print", args=[event.slug, 1, "table-cards"]))
    assert cards.content.decode().count('class="sheet table-card"') == 3
    hands = client.get(reverse("organizer:print", args=[event.slug, 1, "hand-records"]))
    text = hands.content.decode()
    assert text.count('class="hand-record"') == 2  # several boards to an A4 page
    assert "@media print" in text and "♠" in text and "♥" in text
    seating = client.get(reverse("organizer:print", args=[event.slug, 1, "seating"]))
    names = sorted(e.player.name for e in Entry.objects.filter(event=event))
    body = seating.content.decode()
    positions = [body.index(f"<td>{n}</td>") for n in names]
    assert positions == sorted(positions)  # by player name
    assert client.get(reverse("organizer:print", args=[event.slug, 1, "other"])).status_code == 404


def test_players_preview_then_import_then_export(client, setup) -> None:
    event, td, _referee = setup
    client.force_login(td)
    url = reverse("organizer:players", args=[event.slug])
    bad = "name,club\nZed,Lotus\n,Lotus\n"
    response = client.post(url, {"text": bad})
    assert response.status_code == 400
    assert "The name is empty." in response.content.decode()
    response = client.post(url, {"text": bad, "confirm": "1"})
    assert response.status_code == 400
    assert not Entry.objects.filter(player__name="Zed").exists()
    good = "name,club\nZed,Lotus\nYan,Pine\n"
    response = client.post(url, {"text": good})
    assert response.status_code == 200 and 'id="confirm-import"' in response.content.decode()
    done = client.post(url, {"text": good, "confirm": "1"}, follow=True).content.decode()
    assert "2 players imported: 2 new, 0 updated, 0 known already." in done
    assert Entry.objects.filter(event=event, player__name__in=["Zed", "Yan"]).count() == 2
    # The same file again changes nothing, and says so (a trial read "imported" twice).
    again = client.post(url, {"text": good, "confirm": "1"}, follow=True).content.decode()
    assert "2 players imported: 0 new, 0 updated, 2 known already." in again
    # A file saved in another encoding is told how to save it in UTF-8.
    upload = SimpleUploadedFile("players.csv", "name\n张三\n".encode("gbk"))
    gbk = client.post(url, {"file": upload}, follow=True).content.decode()
    assert "not UTF-8 text" in gbk and "CSV UTF-8" in gbk
    export = client.get(reverse("organizer:players_export", args=[event.slug]))
    assert export["Content-Type"].startswith("text/csv")
    assert "Zed,Lotus,," in export.content.decode()


def test_public_deals_page_and_verify_command(client, setup) -> None:
    event, td, _referee = setup
    stage = stages.stage_create(event=event, actor=td)
    round_ = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    commitment = rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=round_, boards=2, actor=td)
    url = reverse("deals:event", args=[event.slug])
    page = client.get(url).content.decode()
    assert commitment in page and 'id="seed"' not in page
    assert client.get(url, {"seed": "nothex"}).status_code == 400
    wrong = client.get(url, {"seed": "00" * 32}).content.decode()
    assert "does not match the commitment" in wrong
    round_states.round_start(round_=round_, actor=td)
    round_fill(round_)
    round_states.round_close(round_=round_, actor=td)
    seed = rounds.event_seed_reveal(event=event, actor=td)
    page = client.get(url).content.decode()
    assert seed in page and "all 2 boards were recomputed identically" in page

    out = io.StringIO()
    call_command("ddz_verify_deals", event.slug, "--seed", seed, stdout=out)
    assert json.loads(out.getvalue()) == {"boards": 2, "commitment": commitment, "match": True}
    out = io.StringIO()
    # A seed that does not match: its JSON still printed, and exit 1.
    with pytest.raises(CommandError) as mismatch:
        call_command("ddz_verify_deals", event.name, "--seed", "11" * 32, stdout=out)
    assert mismatch.value.returncode == 1 and json.loads(out.getvalue())["match"] is False
    with pytest.raises(CommandError) as caught:
        call_command("ddz_verify_deals", event.slug, "--seed", "xyz")
    assert caught.value.returncode == 2
    with pytest.raises(CommandError):
        call_command("ddz_verify_deals", "no-such-event", "--seed", seed)


def test_seating_command(tmp_path) -> None:
    out = io.StringIO()
    call_command("ddz_seating", "--players", "9", "--rounds", "4", stdout=out)
    data = json.loads(out.getvalue())
    assert data["repeat_pairs"] == 0 and data["lower_bound"] == 0
    assert data["seat_imbalance"] == 1 and data["sit_out"] == [[], [], [], []]
    assert len(data["rounds"]) == 4 and all(len(r) == 3 for r in data["rounds"])
    clubs = tmp_path / "clubs.csv"
    clubs.write_text("player,club\n1,A\n2,A\n3,A\n", encoding="utf-8")
    out = io.StringIO()
    call_command(
        "ddz_seating",
        "--players",
        "10",
        "--rounds",
        "3",
        "--clubs",
        str(clubs),
        "--time-limit",
        "1",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    assert [len(s) for s in data["sit_out"]] == [1, 1, 1] and data["club_conflicts"] == 0
    clubs.write_text("player,club\n11,A\n", encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("ddz_seating", "--players", "10", "--rounds", "3", "--clubs", str(clubs))
    assert caught.value.returncode == 2
    with pytest.raises(CommandError):
        call_command("ddz_seating", "--players", "2", "--rounds", "3")


@pytest.mark.parametrize("count", ["0", "-1", "31", "abc"])
def test_adding_a_number_of_rounds_outside_1_to_30_adds_none(client, setup, count) -> None:
    """Zero rounds is not one round (a trial found one added, and "Rounds added.")."""
    event, td, _referee = setup
    client.force_login(td)
    client.post(
        reverse("organizer:stage_create", args=[event.slug]), {"name": "Q", "kind": "qualifying"}
    )
    answer = client.post(
        reverse("organizer:stage_action", args=[event.slug, 1, "round"]),
        {"count": count},
        follow=True,
    )
    assert "Add 1 to 30 rounds at a time." in answer.content.decode()
    assert not Round.objects.filter(event=event).exists()
