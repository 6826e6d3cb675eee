"""Entering an online robot duplicate: a signed-in account enters itself, at once, any time
before the window closes (the online form of duplicate, where entrants come and play at
different times, has no seating to prepare and no organizer's decision to wait for). One entry
per account: the player tied to the account (Player.user), made when it has none. The
event's places (Event.registration_limit), if it has a limit, count the entrants, robots left
out. An entry made by the organizer (tournaments.people.registration) counts the same.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.access import Actor, signed_in
from tournaments.core.audit import audit_record
from tournaments.models import Entry, Event, Player
from tournaments.online.window import OnlineRefused, is_online_duplicate


def online_entrants(event: Event) -> int:
    """How many players are entered in `event`, its robots left out."""
    return Entry.objects.filter(event=event, player__robot=False).count()


def enter_refusal(event: Event, now: datetime | None = None) -> str | None:
    """Why nobody may enter `event` now, in the reader's language; None while one may (an
    online robot duplicate whose window has not closed, with a place free)."""
    now = now or timezone.now()
    if not is_online_duplicate(event):
        return _("%(event)s is not played on this site.") % {"event": event.name}
    if event.online_closed_at is not None or (event.ends_at is not None and now >= event.ends_at):
        return _("The window of %(event)s has closed: it takes no more entrants.") % {
            "event": event.name
        }
    limit = event.registration_limit
    if limit is not None and online_entrants(event) >= limit:
        return _("All %(n)s places of %(event)s are taken.") % {"n": limit, "event": event.name}
    return None


def online_enter(*, event: Event, user: Actor, now: datetime | None = None) -> Player:
    """Enter the account `user` in `event` (module docstring); its player. Entering again
    answers with the entry there is (one entry per account). Audited (``online.enter``).

    Raises:
        OnlineRefused: not signed in, not an online robot duplicate, its window closed, every
            place taken, or the account's player withdrawn from it.
    """
    account = signed_in(user)
    if account is None:
        raise OnlineRefused(_("Sign in to enter %(event)s.") % {"event": event.name})
    with transaction.atomic():
        # The event's row orders the entries, so that the last place is taken once.
        locked = Event.objects.select_for_update().get(pk=event.pk)
        player = Player.objects.filter(user=account).first()
        entry = Entry.objects.filter(event=locked, player=player).first() if player else None
        if entry is not None:
            if entry.withdrawn_from is not None:
                raise OnlineRefused(
                    _("You withdrew from %(event)s: ask its organizer.") % {"event": locked.name}
                )
            return entry.player
        refusal = enter_refusal(locked, now)
        if refusal is not None:
            raise OnlineRefused(refusal)
        if player is None:
            name = (account.get_full_name() or account.get_username()).strip()[:100]
            player = Player.objects.create(name=name, user=account, email=account.email or "")
        Entry.objects.create(event=locked, player=player)
        audit_record(
            event=locked,
            actor=user,
            action="online.enter",
            obj=player,
            changes={"player": player.name},
        )
    return player
