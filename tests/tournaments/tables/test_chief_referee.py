"""The chief referee's pages: the record is shown before the confirm button;
several verified games are confirmed at once; after a ruling the game page, the traveller and
the referees' dashboard show one and the same status."""

from __future__ import annotations

import re

import pytest

from games.engine import replay
from games.models import Game, Status
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.tables.review import game_resolve
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = build_world(seed="chief", tables=2, boards=2)
    world.event.confirmation_required = True
    world.event.save(update_fields=["confirmation_required"])
    return world


def _play(world, *, board_index: int = 0, mismatch: bool = False) -> list[Game]:
    board = world.boards[board_index]
    games = []
    for i, table in enumerate(world.tables):
        record = bot_record(board, table)
        if mismatch and i == 0:
            score = replay(record).to_dict()["score"]
            seat = next(iter(score))
            record["declared"] = {s: v + (1 if s == seat else 0) for s, v in score.items()}
        # Entered by each table's own referee (tournaments.core.access.may_enter).
        referee = world.users["referee1" if i == 0 else "referee2"]
        game = game_submit(table=table, board=board, record=record, actor=referee)
        game_verify(game_id=game.pk)
        games.append(Game.objects.get(pk=game.pk))
    return games


def _badges(html: str) -> list[str]:
    return re.findall(r'class="status status-([a-z_]+)"', html)


def test_after_a_ruling_every_page_shows_one_status(client, world) -> None:
    games = _play(world, mismatch=True)
    assert games[0].status == Status.MISMATCH
    game_resolve(
        game_id=games[0].pk, actor=world.users["chief"], decision="accept", note="Slip of pen"
    )
    client.force_login(world.users["chief"])
    slug = world.event.slug
    pages = {
        "game": client.get(f"/games/{games[0].pk}/").content.decode(),
        "versions": client.get(f"/referee/events/{slug}/games/{games[0].pk}/").content.decode(),
        "traveller": client.get(f"/events/{slug}/boards/1/").content.decode(),
        "dashboard": client.get(f"/referee/events/{slug}/").content.decode(),
    }
    for name, html in pages.items():
        badges = _badges(html)
        assert "accepted" in badges, name
        # the engine's "mismatch" (or "flagged") is never shown beside "accepted" as a status
        assert "mismatch" not in badges and "flagged" not in badges, (name, badges)
        assert "verified" not in badges or name in ("traveller", "dashboard"), (name, badges)


def test_the_confirm_page_shows_the_record_before_the_button(client, world) -> None:
    games = _play(world)
    client.force_login(world.users["chief"])
    html = client.get(f"/referee/events/{world.event.slug}/games/{games[0].pk}/").content.decode()
    button = html.index('id="confirm"')
    assert html.index('id="bidding"') < button
    assert html.index('id="tricks"') < button
    assert html.index('id="result"') < button
    # the plays grouped into tricks (R-TRICK): the first trick starts with the landlord's lead
    record = games[0].record
    first_trick = html.split('id="tricks"', 1)[1].split("</li>", 1)[0]
    landlord = games[0].landlord
    assert f"{landlord}:" in first_trick
    assert len(re.findall(r'<li class="trick"', html)) >= 2
    assert record["plays"]


def test_several_verified_games_are_confirmed_at_once(client, world) -> None:
    games = _play(world) + _play(world, board_index=1)
    client.force_login(world.users["chief"])
    url = f"/referee/events/{world.event.slug}/confirm/"
    html = client.get(url).content.decode()
    for game in games:
        assert f'value="{game.pk}"' in html
    response = client.post(url, {"game": [g.pk for g in games[:3]]})
    assert response.status_code == 302
    confirmed = set(Game.objects.filter(confirmed_at__isnull=False).values_list("pk", flat=True))
    assert confirmed == {g.pk for g in games[:3]}
    assert confirmed.isdisjoint({games[3].pk})
    assert Game.objects.get(pk=games[0].pk).confirmed_by == world.users["chief"]


def test_bulk_confirm_refuses_what_may_not_be_confirmed_and_keeps_the_rest(client, world) -> None:
    games = _play(world, mismatch=True)
    client.force_login(world.users["chief"])
    url = f"/referee/events/{world.event.slug}/confirm/"
    response = client.post(url, {"game": [g.pk for g in games]}, follow=True)
    html = response.content.decode()
    # the mismatch waits for a ruling: refused by name; the verified one is confirmed
    assert Game.objects.get(pk=games[1].pk).confirmed_at is not None
    assert Game.objects.get(pk=games[0].pk).confirmed_at is None
    assert "table 1" in html.lower() or "Table 1" in html


def test_only_chief_referees_confirm_in_bulk(client, world) -> None:
    games = _play(world)
    client.force_login(world.users["referee2"])
    url = f"/referee/events/{world.event.slug}/confirm/"
    assert client.get(url).status_code == 403
    assert client.post(url, {"game": [g.pk for g in games]}).status_code == 403
    assert not Game.objects.filter(confirmed_at__isnull=False).exists()


def test_a_second_ruling_names_who_ruled_first(world) -> None:
    # The trial's finding: an organizer's ruling was refused again as a chief referee's.
    games = _play(world, mismatch=True)
    chief = world.users["chief"]
    game_resolve(game_id=games[0].pk, actor=chief, decision="reject", note="Enter it again")
    with pytest.raises(Exception, match=f"{chief.get_username()} already ruled on this game."):
        game_resolve(game_id=games[0].pk, actor=chief, decision="accept", note="Second thoughts")
