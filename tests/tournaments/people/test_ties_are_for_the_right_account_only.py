"""An account is tied to a player's profile only by the person it is (the third trial's
findings, each a takeover of someone's profile and results):

- an invitation ties the account of the address it was mailed to, and only while it is the
  player's latest one: a link mailed to a mistaken address, then sent again to the right
  one, tied whoever opened the first;
- an invitation to an address whose account is tied to another player is refused;
- a profile that is an account's through its role in an event (EventRole "player", as the
  demo's player) is tied: "This is me" on it was taken and approved, and its player lost it;
- an account asks to be one person at a time.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.people.test_accounts_tied_by_invitation_or_claim import (
    _account,
    _as,
    _invite,
    _player,
    event,  # noqa: F401 (fixture)
)
from tournaments.models import EventRole, Player, ProfileClaim, Role
from tournaments.people import accounts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def test_an_invitation_ties_only_the_account_of_its_address(event) -> None:  # noqa: F811
    li = _player("Li Lei")
    invitation = _invite(event, li, "li.lei@example.org")
    stranger = _account("stranger", "stranger@example.org")
    refused = _as(stranger).post(invitation, follow=True).content.decode()
    assert "This invitation was sent to li.lei@example.org" in refused
    li.refresh_from_db()
    assert li.user is None
    # The account of that address, confirmed, is tied.
    owner = _account("li", "li.lei@example.org")
    assert _as(owner).post(invitation).status_code == 302
    li.refresh_from_db()
    assert li.user == owner


def test_an_unconfirmed_address_does_not_take_the_invitation(event) -> None:  # noqa: F811
    from allauth.account.models import EmailAddress

    li = _player("Li Lei")
    invitation = _invite(event, li, "li.lei@example.org")
    taker = get_user_model().objects.create_user("taker", password="a-strong-password-42")
    EmailAddress.objects.create(user=taker, email="li.lei@example.org", verified=False)
    _as(taker).post(invitation)
    li.refresh_from_db()
    assert li.user is None


def test_an_invitation_sent_again_to_another_address_replaces_the_first(event) -> None:  # noqa: F811
    li = _player("Li Lei")
    mistaken = _invite(event, li, "wrong@example.org")
    right = _invite(event, li, "li.lei@example.org")
    wrong = _account("wrong", "wrong@example.org")
    refused = _as(wrong).post(mistaken, follow=True).content.decode()
    assert "replaced by a newer invitation" in refused
    li.refresh_from_db()
    assert li.user is None
    owner = _account("li", "li.lei@example.org")
    assert _as(owner).post(right).status_code == 302
    li.refresh_from_db()
    assert li.user == owner


def test_an_invitation_to_the_address_of_an_account_tied_elsewhere_is_refused(event) -> None:  # noqa: F811
    li, han = _player("Li Lei"), _player("Han Meimei")
    owner = _account("li", "li.lei@example.org")
    Player.objects.filter(pk=li.pk).update(user=owner)
    organizer = EventRole.objects.get(event=event, role=Role.ORGANIZER).user
    with pytest.raises(accounts.AccountRefused, match="already tied to another player, Li Lei"):
        accounts.invitation_send(
            event=event, player=han, email="LI.LEI@example.org", actor=organizer, link=str
        )


def test_a_profile_that_is_an_accounts_by_its_event_role_cannot_be_claimed(event) -> None:  # noqa: F811
    li = _player("Li Lei")
    player_account = _account("li", "li.lei@example.org")
    EventRole.objects.create(event=event, user=player_account, role=Role.PLAYER, player=li)
    claimant = _account("claimant", "claimant@example.org")
    page = _as(claimant).post(reverse("accounts:claim", args=[li.pk]), follow=True)
    assert "already tied to an account" in page.content.decode()
    assert not ProfileClaim.objects.exists()
    # Nor can an invitation tie it to another account.
    with pytest.raises(accounts.AccountRefused, match="already tied to an account"):
        accounts.invitation_send(
            event=event,
            player=li,
            email="claimant@example.org",
            actor=EventRole.objects.get(event=event, role=Role.ORGANIZER).user,
            link=str,
        )


def test_an_account_asks_to_be_one_person_at_a_time(event) -> None:  # noqa: F811
    li, han = _player("Li Lei"), _player("Han Meimei")
    claimant = _account("claimant", "claimant@example.org")
    accounts.claim_make(user=claimant, player=li)
    with pytest.raises(accounts.AccountRefused, match="You have asked to be Li Lei"):
        accounts.claim_make(user=claimant, player=han)
    assert ProfileClaim.objects.count() == 1


def test_the_other_claims_are_declined_once_she_is_someones(event) -> None:  # noqa: F811
    from tournaments.models import ClaimStatus

    li = _player("Li Lei")
    first, second = _account("first", "first@example.org"), _account("second", "s@example.org")
    mine = accounts.claim_make(user=first, player=li)
    theirs = accounts.claim_make(user=second, player=li)
    organizer = EventRole.objects.get(event=event, role=Role.ORGANIZER).user
    accounts.claim_decide(claim=mine, actor=organizer, approve=True)
    theirs.refresh_from_db()
    assert theirs.status == ClaimStatus.DECLINED


def test_the_invitation_page_says_a_refusal_before_the_button(event) -> None:  # noqa: F811
    li = _player("Li Lei")
    mistaken = _invite(event, li, "wrong@example.org")
    _invite(event, li, "li.lei@example.org")
    page = _as(_account("wrong", "wrong@example.org")).get(mistaken)
    assert page.status_code == 400
    assert "replaced by a newer invitation" in page.content.decode()
    assert 'id="accept"' not in page.content.decode()


def test_an_account_tied_by_invitation_hides_its_own_profile(event) -> None:  # noqa: F811
    li = _player("Li Lei")
    owner = _account("li", "li.lei@example.org")
    Player.objects.filter(pk=li.pk).update(user=owner)
    answer = _as(owner).post(reverse("league:person_hide", args=[li.pk]), {"hidden": "1"})
    assert answer.status_code == 302
    li.refresh_from_db()
    assert li.profile_hidden


def test_a_profile_tied_by_an_event_role_offers_no_claim(event) -> None:  # noqa: F811
    li = _player("Li Lei")
    EventRole.objects.create(
        event=event, user=_account("li", "li.lei@example.org"), role=Role.PLAYER, player=li
    )
    page = _as(_account("other", "other@example.org")).get(reverse("league:person", args=[li.pk]))
    assert 'id="claim-form"' not in page.content.decode()


def test_an_invitation_without_an_address_asks_for_one(event) -> None:  # noqa: F811
    organizer = EventRole.objects.get(event=event, role=Role.ORGANIZER).user
    with pytest.raises(accounts.AccountRefused, match="Give the player's e-mail address."):
        accounts.invitation_send(
            event=event, player=_player("Li Lei"), email="  ", actor=organizer, link=str
        )
