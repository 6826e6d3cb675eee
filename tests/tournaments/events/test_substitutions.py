"""Substitutions: a player replaced for a round or part of one; each board
is credited to the person who played it (tournaments.events.substitutions).

The worked example, by hand (matchpoints, two tables, four boards; a substitute, Zoe, plays
boards 3-4 for Bea in East at table 1). East's scores, table 1 against table 2:
    board 1: -3 v +3  -> T1 E 0 MP, T2 E 2 MP (top 2)
    board 2: +4 v -4  -> T1 E 2
    board 3: +4 v -4  -> T1 E 2 (Zoe)
    board 4: -1 v -1  -> T1 E 1 (Zoe; a tie)
Bea played boards 1-2: 0 + 2 of 4 = 50 %; Zoe boards 3-4: 2 + 1 of 4 = 75 %. Without the
substitution Bea would have 5 of 8 = 62.5 % over four boards.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Board, Game, Status
from tests.conftest import race
from tests.factories import EventFactory, PlayerFactory
from tournaments.events.setup import round_seat
from tournaments.events.substitutions import (
    SubstitutionRefused,
    substitution_add,
    substitution_remove,
)
from tournaments.models import (
    AuditEntry,
    Entry,
    Event,
    EventRole,
    Player,
    Role,
    Round,
    RoundState,
    Standing,
    Substitution,
)
from tournaments.scoring import methods
from tournaments.standings import cache, results
from tournaments.standings.cache import stored_rows
from tournaments.standings.results import computed_rows
from tournaments.standings.store import standings_recompute

# (table 1 S E W, table 2 S E W) per board; every table zero-sum.
SCORES = {
    1: ({"S": 6, "E": -3, "W": -3}, {"S": -6, "E": 3, "W": 3}),
    2: ({"S": -2, "E": 4, "W": -2}, {"S": 2, "E": -4, "W": 2}),
    3: ({"S": -2, "E": 4, "W": -2}, {"S": 2, "E": -4, "W": 2}),
    4: ({"S": 2, "E": -1, "W": -1}, {"S": 2, "E": -1, "W": -1}),
}


@pytest.fixture
def world(db):
    event = EventFactory(name="Sub Cup", slug="sub-cup")
    names = ["Ann", "Bea", "Cat", "Dan", "Eve", "Fay"]
    players = {n: PlayerFactory(name=n) for n in [*names, "Zoe"]}
    for n in names:
        Entry.objects.create(event=event, player=players[n])
    round_ = round_seat(
        event=event,
        number=1,
        tables=[[players[n] for n in names[:3]], [players[n] for n in names[3:]]],
    )
    boards = {
        n: Board.objects.create(
            event=event, round=round_, number=n, hands={}, bottom="", deal_key=f"k{n}"
        )
        for n in SCORES
    }
    td = get_user_model().objects.create_user("td", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    chief = get_user_model().objects.create_user("chief", password="pw")
    EventRole.objects.create(event=event, user=chief, role=Role.CHIEF_REFEREE)
    referee = get_user_model().objects.create_user("ref", password="pw")
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    Round.objects.filter(pk=round_.pk).update(state=RoundState.IN_PLAY)
    round_.refresh_from_db()
    tables = list(round_.tables.order_by("number"))
    return {
        "event": event,
        "round": round_,
        "tables": tables,
        "boards": boards,
        "players": players,
        "td": td,
        "chief": chief,
        "referee": referee,
    }


def _play(world):
    for number, scores in SCORES.items():
        for table, score in zip(world["tables"], scores, strict=True):
            Game.objects.create(
                table=table,
                board=world["boards"][number],
                record={},
                status=Status.VERIFIED,
                score=score,
            )


def _zoe_for_bea(world, **kw):
    Entry.objects.create(event=world["event"], player=world["players"]["Zoe"])
    return substitution_add(
        table=world["tables"][0],
        seat="E",
        substitute=world["players"]["Zoe"],
        first_board=kw.get("first", 3),
        last_board=kw.get("last", 4),
        actor=world["td"],
    )


def _rows(event):
    return {
        r.player.name: r
        for r in Standing.objects.filter(event=event, stage=None).select_related("player")
    }


def test_the_worked_example_credits_each_board_to_who_played_it(world) -> None:
    _play(world)
    _zoe_for_bea(world)
    standings_recompute(event_id=world["event"].pk)
    rows = _rows(world["event"])
    bea, zoe = rows["Bea"], rows["Zoe"]
    assert (F(bea.total), F(bea.top), bea.boards, F(bea.percentage)) == (2, 4, 2, 50)
    assert (F(zoe.total), F(zoe.top), zoe.boards, F(zoe.percentage)) == (3, 4, 2, 75)
    # Everyone else keeps four boards; table 2 East: 2 + 0 + 0 + 1 = 3 of 8.
    assert rows["Eve"].boards == 4 and F(rows["Eve"].percentage) == F(300, 8)
    assert stored_rows(event=world["event"]) == computed_rows(event=world["event"])
    # Removing the substitution gives Bea her four boards back (62.5 %) and Zoe none.
    substitution_remove(substitution_id=Substitution.objects.get().pk, actor=world["td"])
    standings_recompute(event_id=world["event"].pk)
    rows = _rows(world["event"])
    assert F(rows["Bea"].percentage) == F(125, 2) and rows["Bea"].boards == 4
    assert "Zoe" not in rows


def test_a_whole_round_substitution(world) -> None:
    _play(world)
    Entry.objects.create(event=world["event"], player=world["players"]["Zoe"])
    substitution_add(
        table=world["tables"][0], seat="E", substitute=world["players"]["Zoe"], actor=world["td"]
    )
    standings_recompute(event_id=world["event"].pk)
    rows = _rows(world["event"])
    assert "Bea" not in rows
    assert rows["Zoe"].boards == 4 and F(rows["Zoe"].percentage) == F(125, 2)


def test_the_memo_follows_a_substitution(world) -> None:
    """The per-board memo (results.board_points) is keyed by who played: a recompute after a
    substitution equals a recompute from nothing."""
    _play(world)
    cache.BOARD_POINTS.clear()
    results.compute(results.event_results(event=world["event"]))  # fills the memo
    _zoe_for_bea(world)
    data = results.event_results(event=world["event"])
    assert results.compute(data) == results.compute(data, memo=False)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(1, 4), st.integers(2, 5))
def test_incremental_equals_full_when_only_who_played_changes(data, boards, tables) -> None:
    """Pure: the same scores, some seats of some boards now credited to a substitute."""
    event = Event(name="e", slug="e", scoring_method="matchpoints")
    before = [
        methods.SeatResult(b, t, s, (t * 3 + k) % (tables * 3), F(data.draw(st.integers(-9, 9))))
        for b in range(1, boards + 1)
        for t in range(1, tables + 1)
        for k, s in enumerate("SEW")
    ]
    subbed = data.draw(st.sets(st.integers(0, len(before) - 1)))
    after = [
        methods.SeatResult(
            r.board, r.table, r.seat, 100 + 3 * r.table + "SEW".index(r.seat), r.score
        )
        if i in subbed
        else r
        for i, r in enumerate(before)
    ]

    def make(rs):
        ids = {r.board for r in rs}
        return results.EventResults(event, rs, dict.fromkeys(ids), dict.fromkeys(ids, tables), [])

    cache.BOARD_POINTS.clear()
    results.compute(make(before))
    assert results.compute(make(after)) == results.compute(make(after), memo=False)


def test_a_new_reserve_is_entered_and_not_ranked_unless_asked(world) -> None:
    _play(world)
    sub = substitution_add(
        table=world["tables"][0],
        seat="E",
        reserve_name="Rex",
        first_board=3,
        last_board=4,
        actor=world["td"],
    )
    rex = sub.substitute
    entry = Entry.objects.get(event=world["event"], player=rex)
    assert entry.reserve and not entry.ranked
    standings_recompute(event_id=world["event"].pk)
    rows = _rows(world["event"])
    assert "Rex" not in rows and F(rows["Bea"].percentage) == 50
    # His boards still count for the others: table 2 East keeps 3 of 8.
    assert F(rows["Eve"].percentage) == F(300, 8)
    # Ranked at the organizer's wish.
    substitution_add(
        table=world["tables"][1],
        seat="E",
        reserve_name="Roy",
        ranked=True,
        first_board=1,
        last_board=1,
        actor=world["td"],
    )
    standings_recompute(event_id=world["event"].pk)
    assert _rows(world["event"])["Roy"].boards == 1
    # A reserve is not in the field the next stage's seating draws from.
    from tournaments.events.fields import stage_field
    from tournaments.models import Stage

    stage = Stage.objects.create(event=world["event"], number=1)
    assert {p.name for p in stage_field(stage=stage)} == {"Ann", "Bea", "Cat", "Dan", "Eve", "Fay"}


def test_refusals(world) -> None:
    t1, t2 = world["tables"]
    zoe, ann, dan = (world["players"][n] for n in ("Zoe", "Ann", "Dan"))
    td = world["td"]
    Entry.objects.create(event=world["event"], player=zoe)

    def refused(**kw):
        kw.setdefault("table", t1)
        kw.setdefault("seat", "E")
        kw.setdefault("actor", td)
        with pytest.raises(SubstitutionRefused) as exc:
            substitution_add(**kw)
        return exc.value.message

    # Already seated in that round (Dan holds South at table 2), or replacing herself.
    assert "already" in refused(substitute=dan)
    assert refused(table=t1, seat="S", substitute=ann)
    # Boards out of range, reversed, or half a range.
    assert "1" in refused(substitute=zoe, first_board=4, last_board=5)
    assert refused(substitute=zoe, first_board=3, last_board=2)
    assert refused(substitute=zoe, first_board=3)
    # A seat that is not at the table; neither substitute nor reserve; both.
    assert refused(seat="N", substitute=zoe)
    assert refused()
    assert refused(substitute=zoe, reserve_name="Rex")
    # Not a player of the event.
    assert refused(substitute=PlayerFactory(name="Stranger"))
    # A reserve's name already taken in the event.
    assert refused(reserve_name="Ann")
    # The name of another event's player tied to her account: not taken over as a reserve
    # (a trial's reserve "Ann" became the demo's Ann, her page listing this event).
    elsewhere = PlayerFactory(
        name="Ann Elsewhere", user=get_user_model().objects.create_user("ann-else", password="x")
    )
    assert "account" in refused(substitute=None, reserve_name="Ann Elsewhere")
    assert not Entry.objects.filter(event=world["event"], player=elsewhere).exists()
    # Not an organizer or a chief referee.
    assert refused(substitute=zoe, actor=world["referee"])
    # Overlapping another substitution of the seat, or the substitute twice in the round.
    substitution_add(table=t1, seat="E", substitute=zoe, first_board=3, last_board=4, actor=td)
    yan = PlayerFactory(name="Yan")
    Entry.objects.create(event=world["event"], player=yan)
    assert refused(substitute=yan, first_board=4, last_board=4)
    assert refused(table=t2, seat="W", substitute=zoe, first_board=3, last_board=3)
    # A closed round takes no substitution, and none is removed from it.
    Round.objects.filter(pk=world["round"].pk).update(state=RoundState.CLOSED)
    assert "closed" in refused(substitute=yan, first_board=1, last_board=2)
    with pytest.raises(SubstitutionRefused):
        substitution_remove(substitution_id=Substitution.objects.get().pk, actor=td)
    assert Substitution.objects.count() == 1


def test_the_refusal_is_translated(world) -> None:
    with translation.override("zh-hans"), pytest.raises(SubstitutionRefused) as exc:
        substitution_add(
            table=world["tables"][0],
            seat="E",
            substitute=world["players"]["Dan"],
            actor=world["td"],
        )
    assert "已" in exc.value.message


def test_audited_and_chief_referee_may_too(world) -> None:
    sub = _zoe_for_bea(world)
    entry = AuditEntry.objects.get(action="substitution.add")
    assert entry.actor == world["td"] and entry.event == world["event"]
    assert entry.changes["substitute"] == "Zoe" and entry.changes["player"] == "Bea"
    assert entry.changes["boards"] == "3-4" and entry.changes["table"] == 1
    substitution_remove(substitution_id=sub.pk, actor=world["chief"])
    assert AuditEntry.objects.filter(action="substitution.remove", actor=world["chief"]).exists()


@pytest.mark.django_db(transaction=True)
def test_one_substitute_in_two_seats_at_once_is_refused_once() -> None:
    event = EventFactory()
    players = [PlayerFactory() for _ in range(6)]
    round_ = round_seat(event=event, number=1, tables=[players[:3], players[3:]])
    Round.objects.filter(pk=round_.pk).update(state=RoundState.IN_PLAY)
    td = get_user_model().objects.create_user("td2", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    zoe = PlayerFactory(name="Zoe")
    Entry.objects.create(event=event, player=zoe)
    t1, t2 = round_.tables.order_by("number")
    seats = iter([(t1, "E"), (t2, "W")])

    def add():
        table, seat = next(seats)
        return substitution_add(table=table, seat=seat, substitute=zoe, actor=td)

    outcomes = race(2, add)
    assert sum(isinstance(o, SubstitutionRefused) for o in outcomes) == 1
    assert Substitution.objects.filter(substitute=zoe).count() == 1


def test_pages_show_who_played(world, client) -> None:
    _play(world)
    _zoe_for_bea(world)
    event, t1 = world["event"], world["tables"][0]
    Round.objects.filter(pk=world["round"].pk).update(state=RoundState.CLOSED)
    # Travellers: board 1 shows Bea at table 1 East, board 3 Zoe.
    b1 = client.get(reverse("public:traveller", args=[event.slug, 1])).content.decode()
    b3 = client.get(reverse("public:traveller", args=[event.slug, 3])).content.decode()
    assert "Bea" in b1 and "Zoe" not in b1
    assert "Zoe" in b3 and "Bea" not in b3
    # Scorecards: Bea's boards 1-2, Zoe's 3-4.
    from tournaments.results.pages import player_scorecard

    bea = player_scorecard(event=event, player=world["players"]["Bea"], visible=None)
    zoe = player_scorecard(event=event, player=world["players"]["Zoe"], visible=None)
    assert [r.board.number for r in bea] == [1, 2]
    assert [r.board.number for r in zoe] == [3, 4] and {r.seat for r in zoe} == {"E"}
    assert [r.points for r in zoe] == [2, 1]
    assert [r.replacing for r in zoe] == [world["players"]["Bea"]] * 2
    assert [r.replacing for r in bea] == [None, None]
    page = client.get(reverse("public:scorecard", args=[event.slug, world["players"]["Zoe"].pk]))
    assert page.status_code == 200 and "(for Bea)" in page.content.decode()
    # The round's page and the printed table cards and seating list say who replaced whom.
    note = "Zoe plays E for Bea: boards 3-4"
    round_page = client.get(reverse("public:round", args=[event.slug, 1])).content.decode()
    assert "Zoe plays E at table 1 for Bea: boards 3-4" in round_page  # the round's list
    client.force_login(world["td"])
    for what in ("table-cards", "seating"):
        page = client.get(reverse("organizer:print", args=[event.slug, 1, what]))
        assert note in page.content.decode(), what
    # Live entry shows the substitute at the seat on her boards only.
    Round.objects.filter(pk=world["round"].pk).update(state=RoundState.IN_PLAY)
    client.force_login(world["referee"])
    from tournaments.models import TableAssignment

    TableAssignment.objects.create(table=t1, user=world["referee"])
    live3 = client.get(reverse("referee:live", args=[event.slug, t1.pk, 3]))
    live1 = client.get(reverse("referee:live", args=[event.slug, t1.pk, 1]))
    assert live3.status_code == 200
    assert "Zoe" in live3.content.decode() and "Zoe" not in live1.content.decode()


def test_the_dashboard_form_records_and_removes(world, client) -> None:
    event = world["event"]
    Entry.objects.create(event=event, player=world["players"]["Zoe"])
    client.force_login(world["td"])
    dash = reverse("organizer:dashboard", args=[event.slug])
    page = client.get(dash).content.decode()
    assert 'name="substitute"' in page
    url = reverse("organizer:substitution_add", args=[event.slug, 1])
    response = client.post(
        url,
        {
            "table": "1",
            "seat": "E",
            "substitute": str(world["players"]["Zoe"].pk),
            "first_board": "3",
            "last_board": "4",
        },
        follow=True,
    )
    assert response.status_code == 200
    sub = Substitution.objects.get()
    assert (sub.substitute.name, sub.player.name, sub.first_board, sub.last_board) == (
        "Zoe",
        "Bea",
        3,
        4,
    )
    page = response.content.decode()
    assert "Zoe" in page and "Bea" in page
    # A refusal comes back as a message, nothing stored.
    response = client.post(
        url,
        {"table": "2", "seat": "S", "substitute": str(world["players"]["Zoe"].pk)},
        follow=True,
    )
    assert Substitution.objects.count() == 1
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    client.post(reverse("organizer:substitution_remove", args=[event.slug, sub.pk]))
    assert not Substitution.objects.exists()
    # The button pressed twice says so (it answered "Nothing is at this address": 404).
    again = client.post(
        reverse("organizer:substitution_remove", args=[event.slug, sub.pk]), follow=True
    )
    assert again.status_code == 200
    assert "This substitution was removed already." in again.content.decode()
    # The chief referee's page has the form too.
    client.force_login(world["chief"])
    assert Player.objects.filter(name="Zoe").exists()


def test_the_player_links_show_the_boards_each_played(world) -> None:
    from tournaments.core import access
    from tournaments.links import player as links_player
    from tournaments.links import tokens
    from tournaments.models import PlayerLink

    _play(world)
    _zoe_for_bea(world)
    event = world["event"]
    bea, zoe = world["players"]["Bea"], world["players"]["Zoe"]
    event.correction_minutes = 30
    event.save(update_fields=["correction_minutes"])
    tokens.player_links_make(event=event, actor=world["td"], players=[bea, zoe])
    views = {
        p.name: links_player.player_view(PlayerLink.objects.get(event=event, player=p))
        for p in (bea, zoe)
    }
    assert [g.game.board.number for g in views["Bea"].games] == [1, 2]
    assert [(g.game.board.number, g.seat) for g in views["Zoe"].games] == [(3, "E"), (4, "E")]
    assert [(t.number, seat) for _r, t, seat, _m in views["Zoe"].seats] == [(1, "E")]
    assert dict(views["Zoe"].seats[0][3])["E"] == zoe
    # Bea may not confirm board 3 (Zoe played it); Zoe may.
    game3 = Game.objects.get(table=world["tables"][0], board=world["boards"][3])
    bea_link = PlayerLink.objects.get(event=event, player=bea)
    zoe_link = PlayerLink.objects.get(event=event, player=zoe)
    assert access.player_check_refusal(bea_link, game3) == "This is not one of your games."
    assert access.player_check_refusal(zoe_link, game3) is None


def test_the_archive_keeps_the_substitutions(world) -> None:
    import json

    from tournaments.archive.event_archive import event_export, event_import

    _play(world)
    _zoe_for_bea(world)
    standings_recompute(event_id=world["event"].pk)
    archive = event_export(event=world["event"])
    (sub,) = archive["rounds"][0]["tables"][0]["substitutions"]
    assert (sub["seat"], sub["player"], sub["substitute"], sub["first_board"]) == (
        "E",
        "Bea",
        "Zoe",
        3,
    )
    assert {e["player"]: e["reserve"] for e in archive["entries"]}["Zoe"] is False
    text = json.dumps(archive, sort_keys=True)
    Event.objects.filter(pk=world["event"].pk).delete()
    restored = event_import(data=json.loads(text))
    assert json.dumps(event_export(event=restored), sort_keys=True) == text
    assert stored_rows(event=restored) == computed_rows(event=restored)


def test_the_api_names_who_played_each_game(world, client) -> None:
    _play(world)
    _zoe_for_bea(world)
    Round.objects.filter(pk=world["round"].pk).update(state=RoundState.CLOSED)
    slug = world["event"].slug
    b1 = client.get(reverse("api:board-games", args=[slug, 1])).json()
    b3 = client.get(reverse("api:board-games", args=[slug, 3])).json()
    assert [g["players"]["E"] for g in b1] == ["Bea", "Eve"]
    assert [g["players"]["E"] for g in b3] == ["Zoe", "Eve"]


def test_the_chief_referee_records_one_from_his_page(world, client) -> None:
    event = world["event"]
    client.force_login(world["chief"])
    page = client.get(reverse("referee:event", args=[event.slug])).content.decode()
    assert 'id="substitutions"' in page and 'name="reserve_name"' in page
    response = client.post(
        reverse("organizer:substitution_add", args=[event.slug, 1]),
        {"table": "2", "seat": "W", "reserve_name": "Rex", "back": "referee"},
    )
    assert response.status_code == 302 and response["Location"].endswith(
        reverse("referee:event", args=[event.slug])
    )
    sub = Substitution.objects.get()
    assert (sub.player.name, sub.substitute.name, sub.first_board) == ("Fay", "Rex", None)
    # A referee sees no such form and may not post it.
    client.force_login(world["referee"])
    assert (
        'id="substitutions"'
        not in client.get(reverse("referee:event", args=[event.slug])).content.decode()
    )
    assert (
        client.post(
            reverse("organizer:substitution_add", args=[event.slug, 1]),
            {"table": "2", "seat": "S", "reserve_name": "Rob"},
        ).status_code
        == 403
    )


def test_a_substitute_scores_for_the_team_of_the_player_she_replaced(world) -> None:
    from tournaments.models import Team
    from tournaments.standings.teams import team_standings

    event = world["event"]
    Event.objects.filter(pk=event.pk).update(format="team_of_three")
    event.refresh_from_db()
    x = Team.objects.create(event=event, name="X")
    x.members.set([world["players"]["Bea"]])
    y = Team.objects.create(event=event, name="Y")
    y.members.set([world["players"]["Eve"]])
    _play(world)
    _zoe_for_bea(world)
    rows = {r.team.name: r.total for r in team_standings(event=event)}
    # X: Bea -3 + 4 on boards 1-2, Zoe +4 - 1 on boards 3-4; Y: Eve +3 - 4 - 4 - 1.
    assert rows == {"X": 4, "Y": -6}


def test_the_api_game_page_names_who_played(world, client) -> None:
    _play(world)
    _zoe_for_bea(world)
    Round.objects.filter(pk=world["round"].pk).update(state=RoundState.CLOSED)
    game3 = Game.objects.get(table=world["tables"][0], board=world["boards"][3])
    assert client.get(reverse("api:game", args=[game3.pk])).json()["players"]["E"] == "Zoe"
