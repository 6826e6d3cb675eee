"""Demo accounts: the logins `manage.py ddz_demo` creates so that a visitor can try every door.

Vocabulary: a *demo account* is a user with a fixed, published password and one role in the
demo event (tournaments.models.Role): the organizer (also staff and superuser, so /admin/
opens), the chief referee, a referee assigned to table 1 of the round left in play, and a
player (the user of one seated Player). The passwords are printed by the demo and written in
the README: they are for a demo on one's own machine only, never for a site others can reach.

`demo_accounts_ensure` is idempotent: users are created once and their password, flags and
roles are set again on every run (the demo event itself is rebuilt each time).
"""

from __future__ import annotations

from dataclasses import dataclass

from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from tournaments.models import Event, EventRole, Player, Role, Table, TableAssignment


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    role: str  # a Role value
    url: str  # where this account signs in or works, relative to the site


def demo_accounts(event: Event) -> list[DemoAccount]:
    """The demo accounts of `event`, in the order the demo prints them."""
    slug = event.slug
    return [
        DemoAccount(
            "demo-organizer", "organizer-demo", Role.ORGANIZER, f"/organizer/events/{slug}/"
        ),
        DemoAccount(
            "demo-chief", "chief-demo", Role.CHIEF_REFEREE, f"/referee/events/{slug}/status/"
        ),
        DemoAccount("demo-referee", "referee-demo", Role.REFEREE, f"/referee/events/{slug}/"),
        DemoAccount("demo-player", "player-demo", Role.PLAYER, event.get_absolute_url()),
    ]


def _account_user(account: DemoAccount) -> User:
    users = get_user_model()
    user, _created = users.objects.get_or_create(username=account.username)
    user.set_password(account.password)
    user.is_staff = user.is_superuser = account.role == Role.ORGANIZER
    user.is_active = True
    user.save()
    # Its password is public: a stranger may have locked it out (django-axes); resetting the
    # demo lifts that, as resetting its password would on a real account.
    axes_reset(username=account.username)
    return user


@transaction.atomic
def demo_organizer_ensure(*, event: Event) -> User:
    """Create (or reset) the demo organizer alone with his role in `event`, and return the
    user: the demo builds its event through the organizer's services, which he must call."""
    account = demo_accounts(event)[0]
    user = _account_user(account)
    EventRole.objects.get_or_create(event=event, user=user, role=Role.ORGANIZER)
    return user


@transaction.atomic
def demo_accounts_ensure(*, event: Event, table: Table, player: Player) -> list[DemoAccount]:
    """Create (or reset) the demo accounts with their roles in `event`.

    `table` is the referee's assigned table (table 1 of round 5, the round the demo leaves in
    play) and `player` the Player the player account is. Returns the accounts (with their
    passwords, for printing).
    Raises ValueError when `table` is not a table of `event`.
    """
    if table.round.event_id != event.pk:
        raise ValueError("the referee's table must belong to the demo event")
    accounts = demo_accounts(event)
    for account in accounts:
        user = _account_user(account)
        EventRole.objects.update_or_create(
            event=event,
            user=user,
            role=account.role,
            defaults={"player": player if account.role == Role.PLAYER else None},
        )
        if account.role == Role.REFEREE:
            TableAssignment.objects.get_or_create(table=table, user=user)
    return accounts
