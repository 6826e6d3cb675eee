"""Tournament models: Player, Team, Event, Stage, Round, Table, Seat, the stored Standing rows,
who may do what in an event (EventRole, TableAssignment) and the audit log (AuditEntry).

Vocabulary (DESIGN.md): an *Event* is one tournament with its rule set (a RULES.md preset and
options, stored as the engine's spec; null for an archive event whose records each carry their
own rules) and its scoring method. A *Round* has boards (games.Board) and tables; a *Table*'s
*Seats* name the player in each seat of the deal (S, E, W; R-SEAT). A *Standing* row is one
player's ranked total, written only by tournaments.services.standings_recompute. A *Stage*
groups rounds (qualifying, second duplicate stage, final table); a *Team* groups players for
team events. *Roles* (DESIGN.md's users): organizer, chief referee, referee (entering the
tables assigned to him), player; anyone else is the public (tournaments.access decides). Every
change to an event is an *AuditEntry* (who, when, what; tournaments.audit writes them).

Once a round of an event has *started* (in play, closed or published), the settings that decide
its results (FROZEN_ONCE_STARTED: rules, scoring method, tie-breaks, seed of the lot) are
frozen: Event.save and the event QuerySet's update refuse to change them (EventFrozen), whatever
the door. The rows of the models that make results (events, stages, rounds, tables, seats,
boards) keep their *history* (django-simple-history: every version with who and when).

A round's *clock* (RoundClock, and each table's extra time, TableTime) is tournaments.clock's.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models.expressions import Combinable
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ddz_site.errors import DomainError

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
    # are unique within an event (tournaments.csv_io), which the archive's references need.
    name = models.CharField(_("name"), max_length=120, db_index=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    external_id = models.CharField(
        _("external id"),
        max_length=64,
        blank=True,
        help_text=_("The player's number in a federation or club register."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Profiles (tournaments.profiles, tournaments.clubs): a player record merged into another
    # of the same person points at it (one level: the kept record never points further), and
    # the person shown on the profile is the kept record. Written only by
    # tournaments.clubs.person_merge / person_unmerge, audited and reversible.
    same_as = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="merged",
        verbose_name=_("same person as"),
    )
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


class EventFormat(models.TextChoices):
    INDIVIDUAL = "individual", _("Individual duplicate")
    TEAM_OF_THREE = "team_of_three", _("Teams of three")
    TEAM_MATCH = "team_match", _("3 v 3 two-table team match")
    SINGLE_TABLE = "single_table", _("Single table")


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
    # Clubs and series (tournaments.clubs): the club that runs the event and the series it
    # counts in (a series of the same club; tournaments.clubs.event_open_for_club checks it).
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
    # Administration (tournaments.rounds, tournaments.dealing): the format, and the secret
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
    # (tournaments.scoring.TIEBREAKS), the seed of the lot, published with the event, and
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
    # The secret seed never goes into the history (the admin shows history rows), nor the
    # recompute's time stamp (written by every recompute, changed by no one).
    history = HistoricalRecords(excluded_fields=["deal_seed", "standings_updated_at"])

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
            # The lock the round transitions take first (tournaments.access.organizer_lock):
            # no round starts between this check and the save.
            events = Event.objects.db_manager(kwargs.get("using"))
            stored = events.select_for_update().filter(pk=self.pk).values(*frozen).first()
            if stored is not None:
                self.refuse_frozen_changes(f for f in frozen if stored[f] != getattr(self, f))
            super().save(*args, **kwargs)


class StageKind(models.TextChoices):
    QUALIFYING = "qualifying", _("Qualifying stage")
    DUPLICATE = "duplicate", _("Second duplicate stage")
    FINAL = "final", _("Final table")


class Stage(models.Model):
    """A phase of an event with a cut to the next (seed 001's last paragraph)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=120, blank=True)
    kind = models.CharField(
        _("kind"), max_length=20, choices=StageKind.choices, default=StageKind.QUALIFYING
    )
    cut = models.PositiveIntegerField(
        _("players through"),
        null=True,
        blank=True,
        help_text=_("How many of the standings go through to the next stage."),
    )
    carry_over = models.BooleanField(_("carry scores over"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="stage_number_unique")
        ]

    def __str__(self) -> str:
        return self.name or f"{self.event} S{self.number}"


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)
    members = models.ManyToManyField(Player, related_name="teams", blank=True)

    class Meta:
        ordering = ["event", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name


class RoundState(models.TextChoices):
    DRAFT = "draft", _("draft")
    SEATED = "seated", _("seated")
    IN_PLAY = "in_play", _("in play")
    CLOSED = "closed", _("closed")
    PUBLISHED = "published", _("published")


# A round has started once it is in play: its games count under the event's settings.
STARTED = (RoundState.IN_PLAY, RoundState.CLOSED, RoundState.PUBLISHED)


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"))
    stage = models.ForeignKey(
        Stage, on_delete=models.PROTECT, null=True, blank=True, related_name="rounds"
    )
    # Changed only by the conditional UPDATEs of tournaments.rounds (draft → seated → in play
    # → closed → published); rounds made before administration existed count as in play.
    state = models.CharField(
        _("state"), max_length=12, choices=RoundState.choices, default=RoundState.IN_PLAY
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(
                condition=models.Q(state__in=RoundState.values), name="round_state_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} R{self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_unique_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="player_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.seat}: {self.player}"


class Standing(models.Model):
    """One ranked row of an event (stage null) or of one stage; exact values are stored as
    reduced fractions in text ("37/2"). `penalty` is kept apart from `total` (the boards) and
    taken off for the rank; `decided_by` names the tie-break that placed the row."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="standings"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    method = models.CharField(max_length=20, choices=ScoringMethod.choices)
    position = models.PositiveIntegerField()
    rank = models.CharField(max_length=12)
    total = models.CharField(max_length=64)
    top = models.CharField(max_length=64, blank=True)
    percentage = models.CharField(max_length=64, blank=True)
    boards = models.PositiveIntegerField()
    penalty = models.CharField(max_length=64, blank=True)
    decided_by = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["event", "stage", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(stage__isnull=True),
                name="standing_once_per_player",
            ),
            models.UniqueConstraint(
                fields=["stage", "player"],
                condition=models.Q(stage__isnull=False),
                name="standing_once_per_player_and_stage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.rank} {self.player}"


class StandingsState(models.Model):
    """The coalescing of an event's standings (tournaments.standings): one row per event.

    `requested` is a generation counter bumped in the same transaction as every change that
    moves the standings (a verified game, a ruling); `done` is the generation the stored rows
    were computed from (everything committed before its bump); `queued` is True while a
    recomputation is queued or running, so a burst of changes sends one task, not one each.
    `runs` counts the recomputations that computed, `read_at` is when the stored rows' reading
    began and `stored_at` when they were stored (the benchmark's lag). Its own row, never the
    event's: a submission never waits on a recomputation (game_submit writes no such row)."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="standings_state"
    )
    requested = models.BigIntegerField(default=0)
    done = models.BigIntegerField(default=0)
    queued = models.BooleanField(default=False)
    runs = models.BigIntegerField(default=0)
    read_at = models.DateTimeField(null=True, blank=True)
    stored_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.event_id}: {self.done}/{self.requested}"


class Role(models.TextChoices):
    ORGANIZER = "organizer", _("Organizer")
    CHIEF_REFEREE = "chief_referee", _("Chief referee")
    REFEREE = "referee", _("Referee")
    PLAYER = "player", _("Player")


class EventRole(models.Model):
    """A user's role in one event; a player role may name the Player he is."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="user_roles"
    )

    class Meta:
        ordering = ["event", "role", "user"]
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "role"], name="event_role_once_per_user"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="event_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.user} ({self.get_role_display()})"


class TableAssignment(models.Model):
    """A referee's table in a round: he sees and enters only these."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_assignments"
    )

    class Meta:
        verbose_name = _("table assignment")
        verbose_name_plural = _("table assignments")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="table_assignment_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.user}"


class AuditEntry(models.Model):
    """One recorded change: who (``actor``, null for the system), when, what (``action``, the
    object's type and id, and ``changes``: a JSON object of field → [before, after] or any
    detail the action records). Written only through tournaments.audit.audit_record."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=64)
    object_type = models.CharField(_("object type"), max_length=64, blank=True)
    object_id = models.CharField(_("object id"), max_length=64, blank=True)
    changes = models.JSONField(_("changes"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["event", "-at"], name="audit_event_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.who or '-'} {self.action}"

    @property
    def who(self) -> str:
        """Who made the change, for people: the user's name, or the private link it came
        through ("table 3 link", "player link: Ann"; tournaments.links), else ""."""
        if self.actor_id is not None:
            return self.actor.get_username() if self.actor else ""
        via = (self.changes or {}).get("via") if isinstance(self.changes, dict) else None
        if isinstance(via, dict) and via.get("link") == "table":
            return _("table %(table)s link") % {"table": via.get("table")}
        if isinstance(via, dict) and via.get("link") == "player":
            return _("player link: %(player)s") % {"player": via.get("player")}
        return ""


class Entry(models.Model):
    """A player entered in an event (the field of its first stage). A *reserve* is entered to
    play only as a substitute (tournaments.substitutions): she is not in the field, and she is
    ranked only if ``ranked`` (the organizer's choice; her boards count for the others in any
    case)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    reserve = models.BooleanField(_("reserve"), default=False)
    ranked = models.BooleanField(_("ranked"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player}"


class StageEntry(models.Model):
    """A player through to a later stage by the cut of the one before (tournaments.rounds):
    his place at the cut and, when the stage carries scores over, the total he brings."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="stage_entries")
    position = models.PositiveIntegerField(_("place at the cut"))
    carried = models.CharField(_("carried score"), max_length=64, blank=True)

    class Meta:
        ordering = ["stage", "position"]
        verbose_name = _("stage entry")
        verbose_name_plural = _("stage entries")
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="stage_entry_once"),
            models.UniqueConstraint(fields=["stage", "position"], name="stage_entry_position"),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: {self.position}. {self.player}"


class AdjustmentKind(models.TextChoices):
    AVERAGE_PLUS = "avg+", _("average-plus")
    AVERAGE = "avg", _("average")
    AVERAGE_MINUS = "avg-", _("average-minus")


class Adjustment(models.Model):
    """A referee's adjusted score for one seat of a board at a table that could not play it
    normally: average-plus, average or average-minus (60/50/40 % of the top in matchpoints,
    +u/0/−u in datum difference). It stands in for the seat's result (a current game of that
    table and board, if any, is then not counted for that seat) and takes part in no
    comparison. Written only by tournaments.standings.adjustment_set."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="adjustments")
    board = models.ForeignKey("games.Board", on_delete=models.CASCADE, related_name="adjustments")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    kind = models.CharField(_("adjusted score"), max_length=4, choices=AdjustmentKind.choices)
    reason = models.TextField(_("reason"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "table", "seat"]
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "board", "seat"], name="adjustment_once_per_seat"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=AdjustmentKind.values), name="adjustment_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} T{self.table.number} {self.seat}: {self.kind}"


class Penalty(models.Model):
    """A penalty on a player in an event (or one stage), in the unit of the event's scoring
    method (matchpoints or datum points), kept apart from his board scores and taken off his
    total for the ranking. Written only by tournaments.standings.penalty_add."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="penalties"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=4)
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(condition=models.Q(points__gt=0), name="penalty_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player} −{self.points}"


class TableLink(models.Model):
    """A private link to one table without an account (tournaments.links): table
    ``table_number`` of ``round``, or of each round of ``stage``. Only the SHA-256 of its
    token is stored. It opens that table's live entry and quick result until it is revoked,
    until ``expires_at``, and for each round until that round closes (tournaments.access)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="table_links")
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="table_links"
    )
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="table_links"
    )
    table_number = models.PositiveIntegerField(_("table"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["event", "round", "stage", "table_number", "-created_at"]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(round__isnull=False, stage__isnull=True)
                | models.Q(round__isnull=True, stage__isnull=False),
                name="table_link_round_or_stage",
            ),
            # One link in force per table: making new ones revokes the ones before.
            models.UniqueConstraint(
                fields=["round", "table_number"],
                condition=models.Q(revoked_at__isnull=True, round__isnull=False),
                name="table_link_one_per_round_table",
            ),
            models.UniqueConstraint(
                fields=["stage", "table_number"],
                condition=models.Q(revoked_at__isnull=True, stage__isnull=False),
                name="table_link_one_per_stage_table",
            ),
        ]

    def __str__(self) -> str:
        scope = f"R{self.round_id}" if self.round_id else f"S{self.stage_id}"
        return f"{self.event} {scope} T{self.table_number}"


class PlayerLink(models.Model):
    """A private link of one player in one event (tournaments.links): her seat in each round,
    her scorecard, and her games to confirm or signal within the correction window. Only the
    SHA-256 of its token is stored."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="player_links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="links")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["event", "player__name", "-created_at"]
        verbose_name = _("player link")
        verbose_name_plural = _("player links")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(revoked_at__isnull=True),
                name="player_link_one_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player}"


class CheckKind(models.TextChoices):
    CONFIRM = "confirm", _("confirmed")
    PROBLEM = "problem", _("problem signalled")


class ResultCheck(models.Model):
    """A player's answer on one of her games through her link: she confirms it, or signals a
    problem (with a note) that waits in the chief referee's queue until he handles it. One
    per game version and player; she may change it within the correction window."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="checks")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="checks")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    kind = models.CharField(_("answer"), max_length=8, choices=CheckKind.choices)
    note = models.TextField(_("note"), blank=True)
    link = models.ForeignKey(
        PlayerLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="checks"
    )
    device = models.CharField(_("device"), max_length=200, blank=True)
    at = models.DateTimeField(_("when"))
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    handled_note = models.TextField(_("how it was handled"), blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("player's check of a result")
        verbose_name_plural = _("players' checks of results")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="result_check_once"),
            models.CheckConstraint(
                condition=models.Q(kind__in=CheckKind.values), name="result_check_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.player} {self.kind}"


class RoundClock(models.Model):
    """The clock of a round (tournaments.clock): its length in minutes, when it was started,
    when it was paused (null while it runs) and the pauses before that, so that every screen
    counts the same time from these timestamps. Written only by tournaments.clock."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="clock"
    )
    minutes = models.PositiveIntegerField(_("minutes"), default=0)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused"), null=True, blank=True)
    paused = models.DurationField(_("time paused before"), default=timedelta(0))

    class Meta:
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")
        constraints = [
            # A clock is paused only once started, and never after its own pause.
            models.CheckConstraint(
                condition=models.Q(paused_at__isnull=True)
                | models.Q(started_at__isnull=False, paused_at__gte=models.F("started_at")),
                name="round_clock_paused_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(paused__gte=timedelta(0)), name="round_clock_pause_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} clock"


class TableTime(models.Model):
    """Extra minutes given to one table of a round (a late start, a ruling), on top of the
    round's clock. Written only by tournaments.clock."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="time"
    )
    extra_minutes = models.PositiveIntegerField(_("extra minutes"), default=0)

    class Meta:
        verbose_name = _("table's extra time")
        verbose_name_plural = _("tables' extra time")

    def __str__(self) -> str:
        return f"{self.table} +{self.extra_minutes}"


class Substitution(models.Model):
    """A substitute in one seat of one table of a round, for the whole round (``first_board``
    and ``last_board`` null) or for the boards ``first_board``..``last_board`` (event board
    numbers, inclusive). Each board is credited to the person who played it: ``player`` (the
    player seated there, who was absent) gets no result for these boards, ``substitute`` gets
    them (DESIGN.md, substitutions). Written only by tournaments.substitutions."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="substitutions")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="replaced_in", verbose_name=_("replaced")
    )
    substitute = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="substitutions", verbose_name=_("substitute")
    )
    first_board = models.PositiveIntegerField(_("from board"), null=True, blank=True)
    last_board = models.PositiveIntegerField(_("to board"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "table__number", "seat", "first_board"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(first_board__isnull=True, last_board__isnull=True)
                | models.Q(
                    first_board__isnull=False,
                    last_board__isnull=False,
                    first_board__lte=models.F("last_board"),
                ),
                name="substitution_board_range",
            ),
            models.CheckConstraint(
                condition=~models.Q(player=models.F("substitute")),
                name="substitution_other_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.seat}: {self.substitute} for {self.player}"

    @property
    def boards_label(self) -> str:
        """Which boards, for people: "boards 3-4", "board 5" or "the whole round"."""
        if self.first_board is None or self.last_board is None:
            return gettext("the whole round")
        if self.first_board == self.last_board:
            return gettext("board %(n)s") % {"n": self.first_board}
        return gettext("boards %(first)s-%(last)s") % {
            "first": self.first_board,
            "last": self.last_board,
        }

    def covers(self, board_number: int) -> bool:
        """Whether the substitute played board number `board_number` (of this round)."""
        if self.first_board is None or self.last_board is None:
            return True
        return self.first_board <= board_number <= self.last_board


# Clubs, their members and series (tournaments.models_clubs) and the stored rating
# (tournaments.rating_models) live in their own modules; imported here so that Django finds
# them as models of this app.
from tournaments.models_clubs import Club, ClubMember, ClubRole, Series  # noqa: E402, F401
from tournaments.rating_models import RatedEvent, RatingEntry, RatingState  # noqa: E402, F401
