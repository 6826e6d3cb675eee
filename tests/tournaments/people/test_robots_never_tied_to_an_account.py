"""A robot of an online event (Player.robot) is never a person: no organizer invites it (no
Invite button on his list of players, and the service refuses), no account ties itself to it
by an invitation (one mailed before this rule included) or an approved claim, nobody renames
it, and an account tied to one before (a tie made while the site still allowed it) neither
enters the event as it nor sees another entrant's game through its seats. Each refusal says
why in words and changes nothing.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.core import embargo
from tournaments.models import (
    AuditEntry,
    ClaimStatus,
    Entry,
    OutgoingMail,
    Player,
    ProfileClaim,
)
from tournaments.online.entry import online_enter, public_name_set
from tournaments.online.window import OnlineRefused
from tournaments.people import accounts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def played():
    """An online event whose robots are made (an entrant played board 1): the event, its
    organizer, the entrant, his game and the robot of seat E."""
    event, organizer, (ann,) = online_event(entrants=1, boards=2)
    game = online_board_play(event, ann, 1)
    robot = Player.objects.get(entries__event=event, robot=True, name="Robot E")
    return event, organizer, ann, game, robot


def _client(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def _account(name: str):
    return get_user_model().objects.create_user(name, f"{name}@example.org", "pw")


def test_the_organizer_is_offered_no_invitation_of_a_robot(played) -> None:
    event, organizer, _ann, _game, robot = played
    guest = Player.objects.create(name="Guest")  # entered by the organizer, no account yet
    Entry.objects.create(event=event, player=guest)
    page = _client(organizer).get(reverse("organizer:players", args=[event.slug]))
    text = page.content.decode()
    # The player with no account may be invited; no robot of the event may.
    assert reverse("accounts:invite", args=[event.slug, guest.pk]) in text
    for each in Player.objects.filter(entries__event=event, robot=True):
        assert reverse("accounts:invite", args=[event.slug, each.pk]) not in text
    assert robot.name in text


def test_inviting_a_robot_is_refused_and_changes_nothing(played) -> None:
    event, organizer, _ann, _game, robot = played
    answer = _client(organizer).post(
        reverse("accounts:invite", args=[event.slug, robot.pk]),
        {"email": "imposter@example.org"},
        follow=True,
    )
    assert "is a robot" in answer.content.decode()
    with pytest.raises(accounts.AccountRefused, match="is a robot"):
        accounts.invitation_send(
            event=event, player=robot, email="imposter@example.org", actor=organizer, link=str
        )
    robot.refresh_from_db()
    assert robot.email == "" and robot.user is None
    assert not OutgoingMail.objects.filter(key__startswith="invitation:").exists()
    assert not AuditEntry.objects.filter(action="player.invite").exists()


def test_an_invitation_to_a_robot_made_before_ties_nobody(played) -> None:
    event, _organizer, _ann, _game, robot = played
    token = accounts.invitation_token(player=robot, event=event, address="imposter@example.org")
    imposter = _account("imposter")
    url = reverse("accounts:invitation", args=[token])
    page = _client(imposter).get(url)
    assert page.status_code == 400 and "is a robot" in page.content.decode()
    assert "Yes, I am" not in page.content.decode()
    assert _client(imposter).post(url).status_code == 400
    with pytest.raises(accounts.AccountRefused, match="is a robot"):
        accounts.invitation_accept(token=token, user=imposter)
    robot.refresh_from_db()
    assert robot.user is None
    assert not AuditEntry.objects.filter(action="player.account").exists()


def test_a_claim_to_be_a_robot_is_refused_and_never_approved(played) -> None:
    event, organizer, _ann, _game, robot = played
    imposter = _account("imposter")
    with pytest.raises(accounts.AccountRefused, match="is a robot"):
        accounts.claim_make(user=imposter, player=robot, message="me")
    assert not ProfileClaim.objects.exists()
    # A claim stored before the rule: approving it ties nothing.
    claim = ProfileClaim.objects.create(user=imposter, player=robot)
    with pytest.raises(accounts.AccountRefused, match="is a robot"):
        accounts.claim_decide(claim=claim, actor=organizer, approve=True)
    claim.refresh_from_db()
    robot.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING and robot.user is None
    assert not AuditEntry.objects.filter(action__startswith="player.claim").exists()


def test_an_account_tied_to_a_robot_before_can_do_nothing_as_it(played) -> None:
    event, _organizer, _ann, game, robot = played
    imposter = _account("imposter")
    Player.objects.filter(pk=robot.pk).update(user=imposter)  # a tie the old site allowed
    # Not a rename of the robot, on every entrant's game.
    with pytest.raises(accounts.AccountRefused, match="is a robot"):
        public_name_set(user=imposter, name="Mallory")
    answer = _client(imposter).post(reverse("accounts:me"), {"change": "name", "name": "Mallory"})
    assert answer.status_code == 400 and "is a robot" in answer.content.decode()
    robot.refresh_from_db()
    assert robot.name == "Robot E"
    assert not AuditEntry.objects.filter(action="player.name").exists()
    # Not an entry as the robot (which "entered" without entering).
    with pytest.raises(OnlineRefused, match="is a robot"):
        online_enter(event=event, user=imposter)
    # Not the entrant's game through the robot's seat at his table, during the window.
    assert not embargo.game_visible_to(imposter, game)
    assert _client(imposter).get(reverse("public:game", args=[game.pk])).status_code == 404
