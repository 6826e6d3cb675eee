"""The signed-in player changes his public name (the name of the player tied to his account:
an online entrant's is his address's local part at first) on his account page: audited
(``player.name``) and shown at once on his events' pages. Refused with the reason on the form,
changing nothing (not even the audit): a blank name, one longer than the model's field, a
robot's name ("Robot S", any case), the name of another player of one of his events, an
account tied to no player.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.core.labels import AUDIT_ACTIONS
from tournaments.models import AuditEntry, Player
from tournaments.online.entry import online_enter, public_name_set
from tournaments.people.accounts import AccountRefused

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

NAME_MAX = 120  # Player.name's max_length


@pytest.fixture
def entrant():
    """An account that signed up as zoe.chen@example.org and entered an online event."""
    event, _organizer, _users = online_event(entrants=2, boards=1)
    user = get_user_model().objects.create_user("zoe.chen", "zoe.chen@example.org", "pw")
    online_enter(event=event, user=user)
    return event, user


def _client(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def _name_form(page: str) -> str:
    found = re.search(r'<form[^>]*id="public-name"[^>]*>.*?</form>', page, re.S)
    assert found, page
    return found.group(0)


def test_the_account_page_changes_the_public_name_and_audits_it(entrant) -> None:
    event, user = entrant
    player = Player.objects.get(user=user)
    assert player.name == "zoe.chen"
    client = _client(user)
    form = _name_form(client.get(reverse("accounts:me")).content.decode())
    assert Player._meta.get_field("name").max_length == NAME_MAX
    assert 'value="zoe.chen"' in form and f'maxlength="{NAME_MAX}"' in form
    answer = client.post(reverse("accounts:me"), {"change": "name", "name": "  Zoe Chen  "})
    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:me")
    player.refresh_from_db()
    assert player.name == "Zoe Chen"
    audit = AuditEntry.objects.get(action="player.name")
    assert audit.event_id == event.pk and audit.actor_id == user.pk
    assert audit.object_id == str(player.pk)
    assert audit.changes == {"name": ["zoe.chen", "Zoe Chen"]}
    assert "player.name" in AUDIT_ACTIONS
    page = client.get(reverse("accounts:me")).content.decode()
    assert "Your public name is now Zoe Chen." in page
    assert 'value="Zoe Chen"' in _name_form(page)
    # His online page says under which name he plays, and where to change it.
    online = client.get(reverse("online:home", args=[event.slug])).content.decode()
    playing = re.search(r'<p[^>]*id="online-playing-as"[^>]*>.*?</p>', online, re.S)
    assert playing and "Zoe Chen" in playing.group(0)
    assert reverse("accounts:me") in playing.group(0)


def test_the_mail_choice_still_saves_beside_the_name(entrant) -> None:
    _event, user = entrant
    client = _client(user)
    answer = client.post(reverse("accounts:me"), {})
    assert answer.status_code == 302
    player = Player.objects.get(user=user)
    assert player.mail_off and player.name == "zoe.chen"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("", "Give your public name."),
        ("   ", "Give your public name."),
        ("\u200b", "invisible characters"),
        ("x" * (NAME_MAX + 1), f"at most {NAME_MAX} characters long"),
        ("Robot S", "robots"),
        ("robot  w", "robots"),
        ("ROBOT E", "robots"),
        ("Entrant 2", "Another player of"),
        ("entrant 2", "Another player of"),
    ],
)
def test_a_refused_name_says_why_and_changes_nothing(entrant, name: str, said: str) -> None:
    _event, user = entrant
    client = _client(user)
    answer = client.post(reverse("accounts:me"), {"change": "name", "name": name})
    assert answer.status_code == 400
    form = _name_form(answer.content.decode())
    assert said in form, form
    assert Player.objects.get(user=user).name == "zoe.chen"
    assert not AuditEntry.objects.filter(action="player.name").exists()


def test_an_account_tied_to_no_player_has_no_name_to_change() -> None:
    user = get_user_model().objects.create_user("nobody", "nobody@example.org", "pw")
    client = _client(user)
    assert 'id="public-name"' not in client.get(reverse("accounts:me")).content.decode()
    answer = client.post(reverse("accounts:me"), {"change": "name", "name": "Nobody"}, follow=True)
    assert "Your account is not tied to a player yet." in answer.content.decode()
    assert not Player.objects.filter(name="Nobody").exists()
    with pytest.raises(AccountRefused):
        public_name_set(user=user, name="Nobody")
    assert not AuditEntry.objects.filter(action="player.name").exists()


def test_the_event_pages_show_the_new_name_at_once(entrant) -> None:
    from games.models import Game
    from tournaments.standings.store import standings_recompute
    from tournaments.tables.verification import games_verify

    event, user = entrant
    online_board_play(event, user, 1)
    games = Game.objects.filter(board__event=event).values_list("pk", flat=True)
    games_verify(game_ids=list(games))
    standings_recompute(event_id=event.pk)
    live = reverse("public:standings_live", args=[event.slug])
    assert "zoe.chen" in Client(HTTP_ACCEPT_LANGUAGE="en").get(live).content.decode()
    public_name_set(user=user, name="Zoe Chen")
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(live).content.decode()
    assert "Zoe Chen" in page and "zoe.chen" not in page


def test_an_account_tied_by_an_events_player_role_changes_its_name() -> None:
    # A trial's demo player: her account page said "tied to the player Ann" (an event names
    # her account its player Ann), and changing the name said "not tied to a player yet".
    from tests.factories import EventFactory, PlayerFactory
    from tournaments.models import Entry, EventRole, Role

    event = EventFactory()
    ann = PlayerFactory(name="Ann")
    Entry.objects.create(event=event, player=ann)
    user = get_user_model().objects.create_user("ann-by-role", "ann@example.org", "pw")
    EventRole.objects.create(event=event, user=user, role=Role.PLAYER, player=ann)
    client = _client(user)
    page = client.get(reverse("accounts:me")).content.decode()
    assert "tied to the player" in page and "Ann" in page
    answer = client.post(reverse("accounts:me"), {"change": "name", "name": "Ann Lee"}, follow=True)
    assert "Your public name is now Ann Lee." in answer.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Ann Lee"
