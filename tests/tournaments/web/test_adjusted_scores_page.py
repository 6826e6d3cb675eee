"""The chief referee's and organizer's page of a table's adjusted scores on a board
(/referee/events/SLUG/tables/ID/boards/N/adjust/): the landlord's side and the farmers' side
or each seat its own (average-plus, average, average-minus or an artificial percentage), or a
weighted score of the table's possible results; each with its reason; a refusal said on the
page with nothing stored; no other role may see it or post to it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.models import Adjustment, AuditEntry, Round
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

NUL = "\x00"


@pytest.fixture
def world():
    return build_world(seed="adjusted-page", tables=3, boards=1)


def _url(world, table: int = 0) -> str:
    return reverse(
        "referee:adjust",
        kwargs={
            "slug": world.event.slug,
            "table_id": world.tables[table].pk,
            "number": world.boards[0].number,
        },
    )


def _client(world, name: str) -> Client:
    client = Client()
    if world.users[name] is not None:
        client.force_login(world.users[name])
    return client


def _sides(**changes: str) -> dict[str, str]:
    data = {
        "action": "sides",
        "landlord": "S",
        "landlord_score_0": "pct",
        "landlord_score_1": "61.8",
        "farmers_score_0": "pct",
        "farmers_score_1": "38.2",
        "reason": "misinformation by the farmers",
    }
    return {**data, **changes}


def _weighted(*rows: tuple[str, int, int, int], reason: str = "a revoke") -> dict[str, str]:
    data = {
        "action": "weighted",
        "reason": reason,
        "result-TOTAL_FORMS": str(len(rows)),
        "result-INITIAL_FORMS": "0",
        "result-MIN_NUM_FORMS": "0",
        "result-MAX_NUM_FORMS": "6",
    }
    for i, (weight, s, e, w) in enumerate(rows):
        data.update(
            {
                f"result-{i}-weight": weight,
                f"result-{i}-S": str(s),
                f"result-{i}-E": str(e),
                f"result-{i}-W": str(w),
            }
        )
    return data


@pytest.mark.parametrize("name", ["chief", "organizer"])
def test_the_landlords_side_and_the_farmers_side(world, name: str) -> None:
    client = _client(world, name)
    page = client.get(_url(world))
    assert page.status_code == 200 and 'id="sides"' in page.content.decode()
    response = client.post(_url(world), _sides())
    assert response.status_code == 302 and response["Location"] == _url(world)
    stored = {a.seat: (a.kind, a.percentage, a.reason) for a in Adjustment.objects.all()}
    reason = "misinformation by the farmers"
    assert stored == {
        "S": ("pct", Decimal("61.80"), reason),
        "E": ("pct", Decimal("38.20"), reason),
        "W": ("pct", Decimal("38.20"), reason),
    }
    text = client.get(_url(world)).content.decode()
    assert "artificial 61.8%" in text and text.count("artificial 38.2%") == 2
    assert reason in text


def test_each_seat_its_own_and_a_seat_left_alone(world) -> None:
    client = _client(world, "chief")
    data = {
        "action": "seats",
        "S_0": "avg+",
        "S_1": "",
        "E_0": "pct",
        "E_1": "55.55",
        "W_0": "",
        "W_1": "",
        "reason": "a late arrival",
    }
    assert client.post(_url(world), data).status_code == 302
    stored = {a.seat: (a.kind, a.percentage) for a in Adjustment.objects.all()}
    assert stored == {"S": ("avg+", None), "E": ("pct", Decimal("55.55"))}


def test_a_weighted_score_of_the_tables_possible_results(world) -> None:
    client = _client(world, "chief")
    data = _weighted(("1/2", 6, -3, -3), ("1/2", -3, 6, -3), ("", 0, 0, 0))
    for key in ("result-2-S", "result-2-E", "result-2-W"):
        data[key] = ""  # an empty row is no possible result
    assert client.post(_url(world), data).status_code == 302
    stored = {a.seat: a.weighted for a in Adjustment.objects.filter(kind="weighted")}
    assert stored == {
        "S": [{"score": 6, "weight": "1/2"}, {"score": -3, "weight": "1/2"}],
        "E": [{"score": -3, "weight": "1/2"}, {"score": 6, "weight": "1/2"}],
        "W": [{"score": -3, "weight": "1/2"}, {"score": -3, "weight": "1/2"}],
    }
    text = client.get(_url(world)).content.decode()
    assert "weighted: 6 (1/2), -3 (1/2)" in text


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (_sides(landlord_score_1=""), "needs its percentage"),
        (_sides(landlord_score_0="avg+"), "Only an artificial percentage takes a percentage"),
        (_sides(landlord_score_1="100.5"), "100"),
        (_sides(landlord_score_1="61.825"), "2 decimal places"),
        (_sides(landlord_score_1="-1"), "0"),
        (_sides(landlord_score_0="avg++"), "Select a valid choice"),
        (_sides(landlord="N"), "Select a valid choice"),
        (_sides(reason=""), "reason"),
        (_sides(reason="  "), "reason"),
        (_sides(reason=f"late{NUL}"), "control characters"),
        ({"action": "seats", "reason": "x"}, "at least one seat"),
        (_weighted(("1/2", 6, -3, -3), ("1/3", -3, 6, -3)), "sum to 1 (these sum to 5/6)"),
        (_weighted(("1", 6, -3, -2)), "sum to 0"),
        (_weighted(("0", 6, -3, -3), ("1", -3, 6, -3)), "above 0"),
        (_weighted(("half", 6, -3, -3)), "above 0"),
        (_weighted(("1", 6, -3, -3), reason=""), "reason"),
        (_weighted(), "at least one possible result"),
        ({**_weighted(("1", 6, -3, -3)), "result-0-W": "-3.5"}, "whole number"),
        ({"action": "nothing"}, "Unknown action"),
    ],
)
def test_a_refusal_is_said_on_the_page_and_nothing_is_stored(world, data, says: str) -> None:
    response = _client(world, "chief").post(_url(world), data)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert (
        not Adjustment.objects.exists()
        and not AuditEntry.objects.filter(action="adjustment.set").exists()
    )


def test_removing_is_for_this_tables_board_only(world) -> None:
    client = _client(world, "chief")
    client.post(_url(world, 1), _sides())
    client.post(_url(world), _weighted(("1", 6, -3, -3)))
    other = Adjustment.objects.filter(table=world.tables[1]).first()
    # An adjustment of another table is not removed through this table's page.
    response = client.post(_url(world), {"action": "remove", "adjustment": str(other.pk)})
    assert response.status_code == 404
    for bad in ("", "x", "99999999999999999999"):
        assert client.post(_url(world), {"action": "remove", "adjustment": bad}).status_code == 404
    mine = Adjustment.objects.filter(table=world.tables[0], seat="E").get()
    response = client.post(_url(world), {"action": "remove", "adjustment": str(mine.pk)})
    assert response.status_code == 302
    # The weighted score was the whole table's: every seat's part goes.
    assert not Adjustment.objects.filter(table=world.tables[0]).exists()
    assert Adjustment.objects.filter(table=world.tables[1]).count() == 3
    # The button pressed twice says it is gone (it answered "Nothing is at this address").
    again = client.post(_url(world), {"action": "remove", "adjustment": str(mine.pk)}, follow=True)
    assert again.status_code == 200
    assert "This adjusted score was removed already." in again.content.decode()


@pytest.mark.parametrize(("name", "status"), [("referee1", 403), ("player", 403)])
def test_no_other_role_sees_or_posts(world, name: str, status: int) -> None:
    client = _client(world, name)
    assert client.get(_url(world)).status_code == status
    assert client.post(_url(world), _sides()).status_code == status
    assert not Adjustment.objects.exists()


def test_a_stranger_is_sent_to_sign_in_and_other_methods_are_refused(world) -> None:
    response = Client().post(_url(world), _sides())
    assert response.status_code == 302 and "/login/" in response["Location"]
    chief = _client(world, "chief")
    assert chief.put(_url(world)).status_code == 405
    assert chief.delete(_url(world)).status_code == 405
    assert not Adjustment.objects.exists()


def test_the_game_page_and_the_referee_page_lead_to_it(world) -> None:
    chief, referee = _client(world, "chief"), _client(world, "referee1")
    event_page = reverse("referee:event", kwargs={"slug": world.event.slug})
    assert _url(world) in chief.get(event_page).content.decode()
    assert _url(world) not in referee.get(event_page).content.decode()
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    game_page = reverse("referee:game", kwargs={"slug": world.event.slug, "pk": game.pk})
    assert _url(world) in chief.get(game_page).content.decode()
    assert _url(world) not in referee.get(game_page).content.decode()


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ("closed", "Round 1 is closed: an adjusted score given here corrects its final results"),
        ("published", "Round 1 is published: an adjusted score given here changes results"),
        ("seated", "Round 1 has not started: its boards take adjusted scores once it is in play"),
    ],
)
def test_the_page_says_what_an_adjusted_score_does_to_a_round_not_in_play(
    world, state, words
) -> None:
    # The trial's complaint: a closed round's results moved with no word of it on the page.
    Round.objects.filter(pk=world.tables[0].round_id).update(state=state)
    page = _client(world, "chief").get(_url(world)).content.decode()
    notice = page.split('id="round-state"', 1)[1].split("</p>", 1)[0]
    assert words in notice


def test_a_round_in_play_needs_no_notice(world) -> None:
    page = _client(world, "chief").get(_url(world)).content.decode()
    assert 'id="round-state"' not in page


def test_an_adjusted_score_posted_before_the_round_starts_is_refused_on_the_page(world) -> None:
    Round.objects.filter(pk=world.tables[0].round_id).update(state="seated")
    response = _client(world, "chief").post(_url(world), _sides())
    assert response.status_code == 400
    assert "has not started" in response.content.decode()
    assert not Adjustment.objects.exists()


def test_the_page_says_a_cut_made_stands(world) -> None:
    # A trial's correction after the cut lifted a player to 4= of a cut of 6 in the stage's
    # standings, unmarked, while the page had said nothing of the cut.
    from tournaments.models import Stage, StageEntry

    round_ = world.tables[0].round
    stage = Stage.objects.create(event=world.event, number=1, name="Heats", cut=1)
    final = Stage.objects.create(event=world.event, number=2, name="Final")
    round_.stage = stage
    round_.save()
    client = _client(world, "chief")
    assert 'id="cut-made"' not in client.get(_url(world)).content.decode()
    player = world.tables[0].seats.first().player
    StageEntry.objects.create(stage=final, player=player, position=1)
    page = client.get(_url(world)).content.decode()
    assert 'id="cut-made"' in page and "The cut of Heats is made" in page
