"""Entering an online robot duplicate: a signed-in account enters itself, at once, any time
before the window closes (the online form of duplicate, where entrants come and play at
different times, has no seating to prepare and no organizer's decision to wait for). One entry
per account: the player tied to the account (Player.user), made when it has none. The
event's places (Event.registration_limit), if it has a limit, count the entrants, robots left
out. An entry made by the organizer (tournaments.people.registration) counts the same.
An account's online events (online_events_entered) are listed on its "My events".
Never an entrant (`entrant_refusal`): an official of the event (its organizers and referees, a
superuser too: tournaments.core.access.is_official), who may see its boards' hands before the
entrants play them (the hand records, the travellers), nor an account tied to a robot (a tie
tournaments.people.accounts now refuses).

The player made at entry is named after the account (its user name: the local part of the
address it signed up with); the account changes that public name on its account page
(public_name_set), under the rules of a player's name: not blank, no longer than the field,
never one that passes for a robot's or for the site's own online entrants' (`name_refusal`),
never another player's of one of the player's events (names are unique within an event).
Here, beside the robots' names.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ddz_site.kernel.text import blank, text_refusal
from games.engine import RuleSet
from games.engine.rules import PRESETS
from tournaments.core.access import Actor, account_person, is_official, signed_in
from tournaments.core.audit import audit_record
from tournaments.models import Entry, Event, Player, Seat
from tournaments.online.robots import ROBOT_NAME
from tournaments.online.window import OnlineRefused, is_online_duplicate
from tournaments.people.accounts import AccountRefused, refuse_robot, robot_refusal

# The longest name a player's row holds.
NAME_MAX = Player._meta.get_field("name").max_length or 120

# The end of the site's own online entrants' names (tournaments.demo.online: "Wen (online)"),
# folded (`_folded`).
ONLINE_SUFFIX = "(online)"

# Scripts whose letters pass for Latin ones ("е" Cyrillic, "ο" Greek), by the first word of
# their Unicode names (`mixed_scripts`).
LATIN_LOOKALIKES = ("CYRILLIC", "GREEK")


def online_entrants(event: Event) -> int:
    """How many players are entered in `event`, its robots left out."""
    return Entry.objects.filter(event=event, player__robot=False).count()


def online_events_entered(user: Actor) -> QuerySet[Event]:
    """The online robot duplicates `user`'s account is entered in: an entry of the player tied
    to it (Player.user) or of a record merged into that player; none for anyone not signed
    in. Unordered."""
    account = signed_in(user)
    if account is None:
        return Event.objects.none()
    entered = Entry.objects.filter(
        Q(player__user=account) | Q(player__same_as__user=account)
    ).values("event_id")
    return Event.objects.filter(pk__in=entered, online=True, online_robots=True)


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


def entrant_refusal(event: Event, user: Actor) -> str | None:
    """Why `user` may neither enter `event` nor play its boards, whatever its window, in the
    reader's language: he is one of its officials, or his account is tied to a robot (module
    docstring); None for anyone else."""
    if is_official(user, event):
        return _(
            "You are an official of %(event)s (its organizer or one of its referees), who may "
            "see its boards' hands before the entrants play them: you cannot enter it nor play "
            "its boards."
        ) % {"event": event.name}
    account = signed_in(user)
    player = Player.objects.filter(user=account).first() if account is not None else None
    return robot_refusal(player) if player is not None else None


def online_enter(*, event: Event, user: Actor, now: datetime | None = None) -> Player:
    """Enter the account `user` in `event` (module docstring); its player. Entering again
    answers with the entry there is (one entry per account). Audited (``online.enter``).

    Raises:
        OnlineRefused: not signed in, one of the event's officials or an account tied to a
            robot (`entrant_refusal`), not an online robot duplicate, its window closed, every
            place taken, or the account's player withdrawn from it.
    """
    account = signed_in(user)
    if account is None:
        raise OnlineRefused(_("Sign in to enter %(event)s.") % {"event": event.name})
    refusal = entrant_refusal(event, account)
    if refusal is not None:
        raise OnlineRefused(refusal)
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


def _folded(name: str) -> str:
    # Told apart by neither case, spacing nor a character's width or other compatibility form
    # (NFKC: "Ｒｏｂｏｔ" is "Robot", "（" is "("), as a reader would not.
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(folded.split())


def robot_names() -> set[str]:
    """The robots' names (`_folded`) as the pages show them in each of the site's languages
    (Player.shown_name, settings.LANGUAGES), of every seat of any rules."""
    seats = {seat for preset in PRESETS for seat in RuleSet.from_spec(preset).seats}
    robots = [Player(name=ROBOT_NAME.format(seat=seat), robot=True) for seat in seats]
    names = {_folded(robot.name) for robot in robots}
    for language, _label in settings.LANGUAGES:
        with translation.override(language):
            names |= {_folded(robot.shown_name) for robot in robots}
    return names


def robot_name(name: str) -> bool:
    """Whether `name` is (or reads as: `_folded`) a robot's name in any of the site's
    languages (`robot_names`)."""
    return _folded(name) in robot_names()


def mixed_scripts(name: str) -> bool:
    """Whether `name` mixes Latin letters with Cyrillic or Greek ones (LATIN_LOOKALIKES), by
    the scripts Unicode names its letters with (after NFKC).

    Why this rule: many Cyrillic and Greek letters look like Latin ones ("Robot Е", its "Е"
    Cyrillic, reads as "Robot E"), and no library of Unicode's confusable skeletons is
    installed. A real name is written in one alphabet, so refusing the mix refuses such
    lookalikes without refusing a name in Cyrillic or Greek alone."""
    scripts = {
        unicodedata.name(char, "").split(" ", 1)[0]
        for char in unicodedata.normalize("NFKC", name)
        if char.isalpha()
    }
    return "LATIN" in scripts and any(script in scripts for script in LATIN_LOOKALIKES)


def name_refusal(name: str) -> str | None:
    """Why `name` may not be a public name, in the reader's language: it mixes Latin letters
    with Cyrillic or Greek ones (`mixed_scripts`), it reads as a robot's name (`robot_name`),
    or it ends in "(online)" (ONLINE_SUFFIX, as read by `_folded`: the site's own online
    entrants'); None when none of these."""
    if mixed_scripts(name):
        return _(
            "%(name)s mixes Latin letters with Cyrillic or Greek ones, which can pass for "
            "another name: write it in one alphabet."
        ) % {"name": name}
    if robot_name(name):
        return _("%(name)s is a name of the robots: choose another.") % {"name": name}
    if _folded(name).endswith(ONLINE_SUFFIX):
        return _(
            "Names ending in “(online)” are kept for the site's own online entrants: choose "
            "another."
        )
    return None


def _name_taken(name: str, player: Player, event_ids: list[int]) -> Event | None:
    """An event of `event_ids` where a player other than `player` (entered or seated) is
    named `name`, case apart; None when there is none."""
    entry = (
        Entry.objects.filter(event_id__in=event_ids, player__name__iexact=name)
        .exclude(player=player)
        .select_related("event")
        .first()
    )
    if entry is not None:
        return entry.event
    seat = (
        Seat.objects.filter(table__round__event_id__in=event_ids, player__name__iexact=name)
        .exclude(player=player)
        .select_related("table__round__event")
        .first()
    )
    return seat.table.round.event if seat is not None else None


def public_name_set(*, user: Actor, name: str) -> Player:
    """Name the player tied to `user`'s account `name` (stripped), the name every page shows
    (module docstring); the player. Audited (``player.name``, on each of the player's events,
    else on none); the standings of those events are shown again with it (their cached pages
    keyed by Event.standings_updated_at). The same name again changes nothing.

    Raises:
        AccountRefused: nobody signed in, an account tied to no player or to a robot
            (tournaments.people.accounts.refuse_robot), a blank name, text the site refuses
            (too long, control or invisible characters), a name `name_refusal` refuses, or
            the name of another player of one of the player's events. Nothing changed.
    """
    account = signed_in(user)
    if account is None:
        raise AccountRefused(_("Sign in to change your public name."))
    # The account's player however it is tied (Player.user, an event's player role): the
    # one its account page names.
    tied = account_person(account)
    if tied is None:
        raise AccountRefused(_("Your account is not tied to a player yet."))
    name = name.strip()
    if not name or blank(name):
        raise AccountRefused(_("Give your public name."))
    unfit = text_refusal(name, max_length=NAME_MAX)
    if unfit is not None:
        raise AccountRefused(unfit[1])
    refusal = name_refusal(name)
    if refusal is not None:
        raise AccountRefused(refusal)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=tied.pk).first()
        if player is None:  # untied since
            raise AccountRefused(_("Your account is not tied to a player yet."))
        # A robot's name is every entrant's opponent's: never an account's to change.
        refuse_robot(player)
        if player.name == name:
            return player
        entered = Entry.objects.filter(player=player).values("event_id")
        seated = Seat.objects.filter(player=player).values("table__round__event_id")
        # The events' rows, in one order: two players renamed at once into one name of an
        # event are told apart (the second sees the first).
        events = list(
            Event.objects.select_for_update()
            .filter(Q(pk__in=entered) | Q(pk__in=seated))
            .order_by("pk")
        )
        ids = [event.pk for event in events]
        taken_at = _name_taken(name, player, ids)
        if taken_at is not None:
            raise AccountRefused(
                _(
                    "Another player of %(event)s is named %(name)s: names are unique within "
                    "an event. Choose another."
                )
                % {"event": taken_at.name, "name": name}
            )
        old, player.name = player.name, name
        player.save(update_fields=["name"])
        audited: list[Event | None] = [*events] or [None]
        for event in audited:
            audit_record(
                event=event,
                actor=user,
                action="player.name",
                obj=player,
                changes={"name": [old, name]},
            )
        # The standings tables are cached by their version: a new one shows the new name.
        Event.objects.filter(pk__in=ids, standings_updated_at__isnull=False).update(
            standings_updated_at=timezone.now()
        )
    return player
