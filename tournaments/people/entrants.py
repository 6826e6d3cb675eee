"""Who an accepted registration enters the event as (tournaments.people.registration): the
player it names, the account's player, or a new one; and one name on every page for him (a
player with a history keeps his name, a new one takes the registration's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.core.access import account_person
from tournaments.models import Entry, Event, Player, Registration, Seat
from tournaments.people.categories import RegistrationRefused


def entrant_for(event: Event, registration: Registration) -> Player:
    """The player an accepted registration enters: its own, the account's, or a new one (the
    registration's name, club and address); refused when another player of that name is
    entered in the event (names are unique within an event)."""
    player = registration.player
    if player is None and registration.user is not None:
        # The account's player however it is tied (Player.user, an event's player role):
        # a new record would split her history (a trial's Ann became a second Ann).
        player = account_person(registration.user)
    named = Entry.objects.filter(event=event, player__name=registration.name)
    if player is not None:
        named = named.exclude(player=player)
    if named.exists():
        raise RegistrationRefused(
            _(
                "Another player named %(name)s is entered in this event: names are unique "
                "within an event. Correct the name first."
            )
            % {"name": registration.name}
        )
    if player is None:
        return Player.objects.create(
            name=registration.name,
            club=registration.club,
            email=registration.email,
            user_id=registration.user_id,
        )
    if registration.email and player.email != registration.email:
        player.email = registration.email
        player.save(update_fields=["email"])
    if player.name != registration.name:
        names_agree(event, registration, player)
    return player


def another_name_refusal(event: Event, user: Any, name: str) -> None:
    """Refuse a registration under another name than the one of the account's player when
    he has played already (his name is the one his results carry: names_agree would give it
    back at the acceptance, after the organizer and the mail had read the other; a trial
    registered a tied account as another real player's name).

    Raises:
        RegistrationRefused: the name differs (case and spaces aside).
    """
    person = account_person(user)
    if (
        person is None
        or " ".join(name.split()).casefold() == " ".join(person.name.split()).casefold()
    ):
        return
    if has_history(person, event):
        raise RegistrationRefused(
            _(
                "Your account plays as %(name)s, whose results carry that name: register as "
                "%(name)s."
            )
            % {"name": person.name}
        )


def has_history(player: Player, event: Event) -> bool:
    """Whether `player` was seated anywhere or is entered in another event than `event`."""
    return (
        Entry.objects.filter(player=player).exclude(event=event).exists()
        or Seat.objects.filter(player=player).exists()
    )


def names_agree(event: Event, registration: Registration, player: Player) -> None:
    """One name on every page for the player an accepted registration enters under another
    name (registered again after a withdrawal, as "Player 3 again"): a player seated nowhere
    and entered in no other event takes the registration's name; one with a history keeps
    his, which the registration then carries too."""
    if has_history(player, event):
        Registration.objects.filter(pk=registration.pk).update(name=player.name)
        registration.name = player.name
    else:
        Player.objects.filter(pk=player.pk).update(name=registration.name)
        player.name = registration.name
