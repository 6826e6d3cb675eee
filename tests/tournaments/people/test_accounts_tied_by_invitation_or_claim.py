"""An account is tied to a player's profile (tournaments.people.accounts) by the organizer's
invitation (a signed link mailed through the outbox, valid 14 days, kept through sign-up and
the confirmation of the address) or by a claim an organizer of one of the player's events
approves. Refused, changing nothing: an expired or forged link, a player already tied to
another account, an account already tied to another player, a second pending claim; deciding
a claim is for the player's organizers only (403).
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.models import (
    AuditEntry,
    ClaimStatus,
    Entry,
    EventRole,
    OutgoingMail,
    Player,
    ProfileClaim,
    Role,
)
from tournaments.people import accounts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

STRONG = "a-strong-password-42"


@pytest.fixture
def event():
    found = EventFactory(name="Spring Open")
    organizer = get_user_model().objects.create_user("org-spring", password=STRONG)
    EventRole.objects.create(event=found, user=organizer, role=Role.ORGANIZER)
    for name in ("Li Lei", "Han Meimei"):
        Entry.objects.create(event=found, player=PlayerFactory(name=name))
    return found


def _organizer(event) -> Client:
    client = Client()
    client.force_login(EventRole.objects.get(event=event, role=Role.ORGANIZER).user)
    return client


def _player(name: str) -> Player:
    return Player.objects.get(name=name)


def _account(name: str, address: str) -> User:
    user = get_user_model().objects.create_user(name, password=STRONG, email=address)
    EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
    return user


def _as(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _link(mail: OutgoingMail, path: str) -> str:
    found = re.search(r"https?://[^\s/]+(" + re.escape(path) + r"\S*)", mail.body)
    assert found, mail.body
    return found.group(1)


def _invite(event, player: Player, address: str) -> str:
    url = reverse("accounts:invite", args=[event.slug, player.pk])
    answer = _organizer(event).post(url, {"email": address})
    assert answer.status_code == 302
    mail = OutgoingMail.objects.filter(to=address, key__startswith="invitation:").latest("pk")
    assert mail.event == event and mail.player == player
    return _link(mail, "/accounts/invitation/")


def test_the_invitation_survives_sign_up_and_confirmation_and_ties_the_account(event) -> None:
    li = _player("Li Lei")
    page = _organizer(event).get(reverse("organizer:players", args=[event.slug]))
    assert reverse("accounts:invite", args=[event.slug, li.pk]) in page.content.decode()
    invitation = _invite(event, li, "li.lei@example.org")
    li.refresh_from_db()
    assert li.email == "li.lei@example.org"
    assert AuditEntry.objects.filter(event=event, action="player.invite").count() == 1
    # A newcomer opens the link: sign in or sign up, the link as next.
    newcomer = Client()
    opened = newcomer.get(invitation).content.decode()
    assert "Li Lei" in opened and "Spring Open" in opened
    sign_up = re.search(r'href="([^"]+)" id="invitation-sign-up"', opened)
    assert sign_up
    answer = newcomer.post(
        sign_up.group(1).replace("&amp;", "&"),
        {
            "email": "li.lei@example.org",
            "password1": STRONG,
            "password2": STRONG,
            "next": invitation,
        },
    )
    assert answer.status_code == 302
    confirm = OutgoingMail.objects.get(key__startswith="account:email_confirmation_signup:")
    back = newcomer.post(_link(confirm, "/accounts/confirm-email/"))
    assert back.status_code == 302 and back["Location"] == invitation
    tied = newcomer.post(invitation)
    assert tied.status_code == 302 and tied["Location"] == reverse("accounts:me")
    li.refresh_from_db()
    assert li.user is not None and li.user.email == "li.lei@example.org"
    assert AuditEntry.objects.filter(event=event, action="player.account").count() == 1
    mine = newcomer.get(reverse("accounts:me")).content.decode()
    assert reverse("league:person", args=[li.pk]) in mine


def test_a_forged_or_expired_invitation_is_refused(event, monkeypatch) -> None:
    li = _player("Li Lei")
    someone = _as(_account("someone", "someone@example.org"))
    invitation = _invite(event, li, "li.lei@example.org")
    forged = invitation.rstrip("/")[:-3] + "abc/"
    answer = someone.post(forged)
    assert answer.status_code == 400 and "not valid" in answer.content.decode()
    # Signed 15 days ago: past its 14 days.
    old = time.time() - timedelta(days=accounts.INVITATION_DAYS + 1).total_seconds()
    monkeypatch.setattr(
        signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(int(old))
    )
    stale = accounts.invitation_token(player=li, event=event, address="li.lei@example.org")
    monkeypatch.undo()
    answer = someone.post(reverse("accounts:invitation", args=[stale]))
    assert answer.status_code == 400 and "expired" in answer.content.decode()
    li.refresh_from_db()
    assert li.user is None


def test_an_invitation_to_a_tied_player_or_from_a_tied_account_is_refused(event) -> None:
    li, han = _player("Li Lei"), _player("Han Meimei")
    invitation = _invite(event, li, "li.lei@example.org")
    first, second = (
        _account("first", "li.lei@example.org"),
        _account("second", "second@example.org"),
    )
    assert _as(first).post(invitation).status_code == 302
    # The player is tied: another account is refused, and no new invitation goes out.
    refused = _as(second).post(invitation, follow=True)
    assert "already tied to another account" in refused.content.decode()
    with pytest.raises(accounts.AccountRefused):
        accounts.invitation_send(
            event=event,
            player=li,
            email="x@example.org",
            actor=EventRole.objects.get(event=event, role=Role.ORGANIZER).user,
            link=str,
        )
    # The account is tied: the invitation to another player is refused.
    other = _invite(event, han, "han@example.org")
    refused = _as(first).post(other, follow=True)
    assert "already tied to another player" in refused.content.decode()
    li.refresh_from_db()
    han.refresh_from_db()
    assert li.user == first and han.user is None


def test_only_an_organizer_invites(event) -> None:
    li = _player("Li Lei")
    stranger = _as(_account("stranger", "stranger@example.org"))
    url = reverse("accounts:invite", args=[event.slug, li.pk])
    assert stranger.post(url, {"email": "li@example.org"}).status_code == 403
    assert not OutgoingMail.objects.exists()
    bad = _organizer(event).post(url, {"email": "not an address"}, follow=True)
    assert "is not an e-mail address" in bad.content.decode()
    assert not OutgoingMail.objects.exists()


def test_a_claim_approved_by_the_organizer_ties_the_account(event) -> None:
    li = _player("Li Lei")
    ann = _account("ann", "ann@example.org")
    profile = _as(ann).get(reverse("league:person", args=[li.pk])).content.decode()
    assert 'id="claim-form"' in profile
    assert (
        'id="claim-form"'
        not in Client().get(reverse("league:person", args=[li.pk])).content.decode()
    )
    claim_url = reverse("accounts:claim", args=[li.pk])
    assert _as(ann).post(claim_url, {"message": "I sat North in round 2."}).status_code == 302
    # A second claim while the first waits is refused: still one.
    again = _as(ann).post(claim_url, {"message": "me"}, follow=True)
    assert "already asked" in again.content.decode()
    claim = ProfileClaim.objects.get()
    assert claim.status == ClaimStatus.PENDING and claim.player == li
    dashboard = _organizer(event).get(reverse("organizer:dashboard", args=[event.slug]))
    text = dashboard.content.decode()
    assert 'id="claims"' in text and "ann@example.org" in text and "I sat North" in text
    approve = reverse("accounts:claim_decide", args=[claim.pk, "approve"])
    answer = _organizer(event).post(
        approve, {"next": reverse("organizer:dashboard", args=[event.slug])}
    )
    assert answer.status_code == 302
    li.refresh_from_db()
    claim.refresh_from_db()
    assert li.user == ann and claim.status == ClaimStatus.APPROVED
    # Li Lei's record had no address: the site writes to her at the account's confirmed one
    # (a trial's claimed profile got no mail of her results).
    assert li.email == "ann@example.org"
    entry = AuditEntry.objects.get(action="player.claim.approve")
    assert entry.event == event and entry.changes["user"] == [None, ann.pk]
    # Decided: approving again is refused, nothing changes.
    assert _organizer(event).post(approve).status_code == 302
    assert AuditEntry.objects.filter(action__startswith="player.claim").count() == 1


def test_a_claim_of_a_tied_player_is_refused(event) -> None:
    li = _player("Li Lei")
    owner = _account("owner", "owner@example.org")
    Player.objects.filter(pk=li.pk).update(user=owner)
    ann = _account("ann", "ann@example.org")
    answer = _as(ann).post(reverse("accounts:claim", args=[li.pk]), follow=True)
    assert "already tied to an account" in answer.content.decode()
    assert not ProfileClaim.objects.exists()


def test_deciding_a_claim_is_for_the_players_organizers_only(event) -> None:
    li = _player("Li Lei")
    ann = _account("ann", "ann@example.org")
    claim = accounts.claim_make(user=ann, player=li, message="")
    # Another event's organizer, the claimant herself, a stranger: 403, nothing changes.
    elsewhere = EventFactory()
    other = _account("other-org", "other@example.org")
    EventRole.objects.create(event=elsewhere, user=other, role=Role.ORGANIZER)
    for who in (other, ann, _account("stranger", "stranger@example.org")):
        answer = _as(who).post(reverse("accounts:claim_decide", args=[claim.pk, "approve"]))
        assert answer.status_code == 403
    claim.refresh_from_db()
    li.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING and li.user is None
    declined = _organizer(event).post(reverse("accounts:claim_decide", args=[claim.pk, "decline"]))
    assert declined.status_code == 302
    claim.refresh_from_db()
    li.refresh_from_db()
    assert claim.status == ClaimStatus.DECLINED and li.user is None
    assert AuditEntry.objects.filter(event=event, action="player.claim.decline").count() == 1


def test_the_account_page_turns_the_players_mail_off_and_on(event) -> None:
    li = _player("Li Lei")
    ann = _account("ann", "ann@example.org")
    Player.objects.filter(pk=li.pk).update(user=ann)
    client = _as(ann)
    page = client.get(reverse("accounts:me")).content.decode()
    assert "Send me e-mail about my events" in page and "ann@example.org" in page
    client.post(reverse("accounts:me"), {})  # the box unticked
    li.refresh_from_db()
    assert li.mail_off
    client.post(reverse("accounts:me"), {"mail": "1"})
    li.refresh_from_db()
    assert not li.mail_off
    header = client.get("/").content.decode()
    assert reverse("accounts:me") in header
