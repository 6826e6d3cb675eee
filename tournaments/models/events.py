"""Players and events: who plays, the event with its rules, scoring method and frozen
settings, and the states of its rounds (RoundState, STARTED)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models, transaction
from django.db.models.expressions import Combinable
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ddz_site.kernel.errors import DomainError

if TYPE_CHECKING:
    from tournaments.models.structure import Round

# Every seat label of R-SEAT: S E W (three players), S N (two), S E N W (four), P1…P5 (five).
SEAT_CHOICES = [
    ("S", _("South")),
    ("E", _("East")),
    ("N", _("North")),
    ("W", _("West")),
    ("P1", _("Player 1")),
    ("P2", _("Player 2")),
    ("P3", _("Player 3")),
    ("P4", _("Player 4")),
    ("P5", _("Player 5")),
]


class ScoringMethod(models.TextChoices):
    MATCHPOINTS = "matchpoints", _("Matchpoints")
    DATUM = "datum", _("Datum difference")


class Player(models.Model):
    # Not unique site-wide: two people may share a name (told apart by external id); names
    # are unique within an event (tournaments.events.players_csv), which the archive's references
    # need.
    name = models.CharField(_("name"), max_length=120, db_index=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    external_id = models.CharField(
        _("external id"),
        max_length=64,
        blank=True,
        help_text=_("The player's number in a federation or club register."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Profiles (tournaments.league.profiles, tournaments.league.clubs): a player record merged into
    # another of the same person points at it (one level: the kept record never points further), and
    # the person shown on the profile is the kept record. Written only by
    # tournaments.league.clubs.person_merge / person_unmerge, audited and reversible.
    same_as = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="merged",
        verbose_name=_("same person as"),
    )
    # Accounts (tournaments.people.accounts): the site account tied to this player by the
    # organizer's invitation or an approved claim, the address the site writes to, and the
    # player's choice to receive no e-mail from the site.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("account"),
    )
    email = models.EmailField(_("e-mail address"), blank=True)
    mail_off = models.BooleanField(_("no e-mail from the site"), default=False)
    # A robot of an online event (tournaments.online): it plays the seats the entrants do not,
    # entered unranked, never a person.
    robot = models.BooleanField(_("robot"), default=False, editable=False)
    profile_hidden = models.BooleanField(
        _("profile hidden from the public"),
        default=False,
        help_text=_("Event pages keep the player's name, as the rules of each event require."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["external_id"],
                condition=~models.Q(external_id=""),
                name="player_external_id_unique",
            ),
            models.CheckConstraint(
                condition=~models.Q(same_as=models.F("pk")), name="player_not_same_as_itself"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        """The name people read: a robot's (stored "Robot S", tournaments.online.robots) in the
        active language, "Robot S" (机器人 S); anyone else's as stored."""
        if not self.robot:
            return self.name
        # The stored name ends with the robot's seat; the rest is the stored English word.
        seat = self.name.rsplit(" ", 1)[-1]
        return gettext("Robot %(seat)s") % {"seat": seat}


# The settings of an event that decide its results: once a round has started, a change would
# rescore or reorder what was played under the old ones.
FROZEN_ONCE_STARTED = ("rules", "scoring_method", "tiebreaks", "lot_seed")


class EventFrozen(DomainError):
    """A change to a setting of FROZEN_ONCE_STARTED after a round of the event started."""


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> int:
        """QuerySet.update, refusing (EventFrozen) to change a setting of FROZEN_ONCE_STARTED
        of an event that has started; bulk_update comes here too."""
        frozen = [f for f in FROZEN_ONCE_STARTED if f in kwargs]
        if not frozen:
            return super().update(**kwargs)
        with transaction.atomic(using=self.db):
            for event in self.select_for_update().only("pk", *frozen):
                event.refuse_frozen_changes(
                    f
                    for f in frozen
                    if isinstance(kwargs[f], Combinable) or getattr(event, f) != kwargs[f]
                )
            return super().update(**kwargs)


class EventStatus(models.TextChoices):
    """An event's life (tournaments.people.life): announced, then registration open, in play from
    its first round, finished once the organizer closes it. Only a finished event moves the
    ratings and the series (tournaments.ratings.service.rated_events,
    tournaments.league.profiles.series_events)."""

    ANNOUNCED = "announced", _("announced")
    REGISTRATION_OPEN = "registration_open", _("registration open")
    IN_PLAY = "in_play", _("in play")
    FINISHED = "finished", _("finished")


class EventFormat(models.TextChoices):
    INDIVIDUAL = "individual", _("Individual duplicate")
    TEAM_OF_THREE = "team_of_three", _("Teams of three")
    TEAM_MATCH = "team_match", _("3 v 3 two-table team match")
    SINGLE_TABLE = "single_table", _("Single table")


class RobotStrength(models.TextChoices):
    """The robots of an online event (games.robots.STRENGTHS)."""

    BASIC = "basic", _("basic")
    MEDIUM = "medium", _("medium")
    STRONG = "strong", _("strong")


class Event(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(_("slug"), max_length=200, unique=True, allow_unicode=True)
    rules = models.JSONField(
        _("rules"),
        null=True,
        blank=True,
        help_text=_("Rule preset and options; empty for an archive of records with their own."),
    )
    scoring_method = models.CharField(
        _("scoring method"),
        max_length=20,
        choices=ScoringMethod.choices,
        default=ScoringMethod.MATCHPOINTS,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Clubs and series (tournaments.league.clubs): the club that runs the event and the series it
    # counts in (a series of the same club; tournaments.league.clubs.event_open_for_club checks it).
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("club"),
    )
    series = models.ForeignKey(
        "tournaments.Series",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("series"),
    )
    standings_updated_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Whether a scope of its standings is published (tournaments.models.PublishedStandings):
    # the readers look for the published rows only then (a small event's page saves a query).
    standings_published = models.BooleanField(default=False, editable=False)
    # Administration (tournaments.events.rounds, games.dealing): the format, and the secret
    # seed of every board with its public SHA-256 commitment (the seed is shown once revealed).
    format = models.CharField(
        _("format"), max_length=20, choices=EventFormat.choices, default=EventFormat.INDIVIDUAL
    )
    deal_seed = models.CharField(_("deal seed"), max_length=64, blank=True, editable=False)
    deal_commitment = models.CharField(
        _("deal commitment"), max_length=64, blank=True, editable=False
    )
    seed_revealed = models.BooleanField(_("seed revealed"), default=False, editable=False)
    first_bidder_rule = models.CharField(
        _("first bidder"),
        max_length=4,
        default="",
        blank=True,
        help_text=_("Empty: rotates over the seats by board number; else that seat always."),
    )
    confirmation_required = models.BooleanField(
        _("results need a second person's confirmation"),
        default=True,
        help_text=_("A game counts as settled once someone other than its enterer confirms it."),
    )
    # Standings (tournaments.standings): the organizer's tie-breaks in order of precedence
    # (tournaments.scoring.ranking.TIEBREAKS), the seed of the lot, published with the event, and
    # the unit u of adjusted scores in datum difference (average-plus +u, average-minus −u).
    tiebreaks = models.JSONField(
        _("tie-breaks"),
        default=list,
        blank=True,
        help_text=_("In order: datum_wins, best_board, head_to_head, lot."),
    )
    lot_seed = models.CharField(
        _("seed of the lot"),
        max_length=64,
        blank=True,
        help_text=_("Published with the event; draws the order of players still tied."),
    )
    adjustment_unit = models.PositiveIntegerField(_("datum unit of adjusted scores"), default=0)
    # Private links (tournaments.links): how long after a game is stored its players may
    # confirm it or signal a problem through their links; 0 shows them their games only.
    correction_minutes = models.PositiveIntegerField(
        _("correction window (minutes)"),
        default=30,
        help_text=_(
            "How long after a game is entered its players may confirm it or signal a problem."
        ),
    )
    # The event's life (tournaments.people): when and where, its status, and registration
    # (limit, deadline, waiting list, the categories an entrant may declare), check-in.
    status = models.CharField(
        _("status"), max_length=20, choices=EventStatus.choices, default=EventStatus.IN_PLAY
    )
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True)
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("The venue's time zone, e.g. Asia/Shanghai; empty: the site's."),
    )
    online = models.BooleanField(_("online"), default=False)
    # Online robot duplicate (tournaments.online), an online event with ``online_robots``: the
    # window is starts_at..ends_at; each entrant plays every board on the site against robots
    # of this strength, with this long for each of his moves; ``online_closed_at`` is when the
    # window was closed (every started board finished by the robots, the seed revealed).
    online_robots = models.BooleanField(
        _("played on the site against robots"),
        default=False,
        help_text=_(
            "Online only: each entrant plays every board in the window, the other seats "
            "played by robots."
        ),
    )
    robot_strength = models.CharField(
        _("robot strength"),
        max_length=8,
        choices=RobotStrength.choices,
        default=RobotStrength.STRONG,
    )
    move_seconds = models.PositiveIntegerField(
        _("seconds per move online"),
        default=60,
        help_text=_("Online play: a move not made in time is played by the robot."),
    )
    # Online tables (tournaments.online.tables), a second form of online play against robots:
    # entrants are seated together as they arrive, robots filling the seats still empty
    # ``seat_wait_seconds`` after a table was made and taking over from a player who leaves.
    online_tables = models.BooleanField(
        _("entrants play together at online tables"),
        default=False,
        help_text=_(
            "Online against robots only: entrants are seated together as they arrive, robots "
            "filling the seats still empty after the wait and taking over from a player who "
            "leaves."
        ),
    )
    seat_wait_seconds = models.PositiveIntegerField(
        _("seconds to wait for entrants at an online table"),
        default=60,
        help_text=_("Online tables: after this wait robots fill the seats still empty."),
    )
    online_closed_at = models.DateTimeField(
        _("online window closed"), null=True, blank=True, editable=False
    )
    # Until when the workers finish the boards in play at the window's close, chunk by chunk
    # (tournaments.online.close): meanwhile no other close takes them.
    online_finishing_until = models.DateTimeField(null=True, blank=True, editable=False)
    venue_name = models.CharField(_("venue"), max_length=200, blank=True)
    venue_address = models.TextField(_("venue address"), blank=True)
    registration_limit = models.PositiveIntegerField(
        _("places"),
        null=True,
        blank=True,
        help_text=_("How many entries can be accepted; empty: no limit."),
    )
    registration_deadline = models.DateTimeField(_("registration deadline"), null=True, blank=True)
    waiting_list = models.BooleanField(
        _("waiting list"),
        default=True,
        help_text=_("Once the places are taken, new entries wait for a place."),
    )
    categories = models.JSONField(
        _("categories"),
        default=list,
        blank=True,
        help_text=_(
            "The categories an entrant may declare: women, youth, senior, novice, or your own."
        ),
    )
    check_in_required = models.BooleanField(
        _("check-in"),
        default=False,
        help_text=_("Seating a round seats only the players checked in for it."),
    )
    # The secret seed never goes into the history (the admin shows history rows), nor the
    # recompute's stamp and flag (written by every recompute, changed by no one).
    history = HistoricalRecords(
        excluded_fields=["deal_seed", "standings_updated_at", "standings_published"]
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scoring_method__in=ScoringMethod.values),
                name="event_scoring_method_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(format__in=EventFormat.values), name="event_format_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=EventStatus.values), name="event_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(robot_strength__in=RobotStrength.values),
                name="event_robot_strength_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(move_seconds__gte=5), name="event_move_seconds_at_least_5"
            ),
            models.CheckConstraint(
                condition=models.Q(seat_wait_seconds__gte=1),
                name="event_seat_wait_seconds_positive",
                violation_error_message=_(
                    "The wait for entrants at an online table is at least one second."
                ),
            ),
            # Online tables are a form of online play against robots (tournaments.online).
            models.CheckConstraint(
                condition=models.Q(online_tables=False) | models.Q(online_robots=True),
                name="event_online_tables_with_robots",
                violation_error_message=_(
                    "Entrants play together at online tables only in an event played on this "
                    "site against robots."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(ends_at__isnull=True)
                | models.Q(starts_at__isnull=True)
                | models.Q(ends_at__gte=models.F("starts_at")),
                name="event_ends_after_start",
            ),
            # A revealed seed is never without its commitment.
            models.CheckConstraint(
                condition=models.Q(seed_revealed=False) | ~models.Q(deal_commitment=""),
                name="event_revealed_seed_committed",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("public:event", kwargs={"slug": self.slug})

    def started_round(self) -> Round | None:
        """The first round of the event that has started (in play, closed or published)."""
        return self.rounds.filter(state__in=STARTED).order_by("number").first()

    def refuse_frozen_changes(self, changed: Iterable[str]) -> None:
        """Refuse a change to the fields ``changed`` when one is of FROZEN_ONCE_STARTED and a
        round of the event has started.

        Raises:
            EventFrozen: naming the round that started.
        """
        if not any(f in FROZEN_ONCE_STARTED for f in changed):
            return
        started = self.started_round()
        if started is not None:
            raise EventFrozen(
                gettext(
                    "The rules, the scoring method, the tie-breaks and the seed of the lot are "
                    "fixed once a round of the event has started (round %(number)s is %(state)s)."
                )
                % {"number": started.number, "state": started.get_state_display()}
            )

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, refusing (EventFrozen) to change a setting of FROZEN_ONCE_STARTED once a round
        has started."""
        fields = kwargs.get("update_fields")
        frozen = [f for f in FROZEN_ONCE_STARTED if fields is None or f in fields]
        if self._state.adding or not frozen:
            super().save(*args, **kwargs)
            return
        with transaction.atomic(using=kwargs.get("using")):
            # The lock the round transitions take first (tournaments.core.access.organizer_lock):
            # no round starts between this check and the save.
            events = Event.objects.db_manager(kwargs.get("using"))
            stored = events.select_for_update().filter(pk=self.pk).values(*frozen).first()
            if stored is not None:
                self.refuse_frozen_changes(f for f in frozen if stored[f] != getattr(self, f))
            super().save(*args, **kwargs)


class RoundState(models.TextChoices):
    DRAFT = "draft", _("draft")
    SEATED = "seated", _("seated")
    IN_PLAY = "in_play", _("in play")
    CLOSED = "closed", _("closed")
    PUBLISHED = "published", _("published")


# A round has started once it is in play: its games count under the event's settings.
STARTED = (RoundState.IN_PLAY, RoundState.CLOSED, RoundState.PUBLISHED)
