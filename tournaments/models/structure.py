"""The structure of an event: stages (StageKind, Stage), teams, rounds and their tables, the
seats of a table (S, E, W …; R-SEAT), a player's entry in the event (Entry) and in a stage
(StageEntry: a qualifier's place after the cut).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.models.events import SEAT_CHOICES, Event, Player, RoundState


class StageKind(models.TextChoices):
    QUALIFYING = "qualifying", _("Qualifying stage")
    DUPLICATE = "duplicate", _("Second duplicate stage")
    FINAL = "final", _("Final table")


def stage_label(number: int, name: str, kind: str) -> str:
    """Stage.label from its fields (a list read as values)."""
    if name:
        return name
    kind_label = StageKind(kind).label if kind in StageKind.values else kind
    return gettext("Stage %(n)s: %(kind)s") % {"n": number, "kind": kind_label}


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
        return self.label()

    def label(self) -> str:
        """What the pages call the stage: its name, else its number and kind ("Stage 1:
        Qualifying stage"), in the active language."""
        return stage_label(self.number, self.name, self.kind)


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


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"))
    stage = models.ForeignKey(
        Stage, on_delete=models.PROTECT, null=True, blank=True, related_name="rounds"
    )
    # Changed only by the conditional UPDATEs of tournaments.events.rounds (draft → seated → in play
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
    # Online robot duplicate (tournaments.online): how many of the entrant's moves the robot
    # played for him (he let the time of a move run out, or the window closed mid-board).
    robot_moves = models.PositiveIntegerField(_("moves played by the robot"), default=0)
    # Online tables (tournaments.online.tables): while entrants are still awaited, when the
    # robots fill the seats still empty; null once the table is full (and at any other table).
    waiting_until = models.DateTimeField(
        _("waits for entrants until"), null=True, blank=True, editable=False
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")
        ]
        # The sweep looks for the waiting tables whose wait is over (a few among many).
        indexes = [
            models.Index(
                fields=["waiting_until"],
                condition=models.Q(waiting_until__isnull=False),
                name="table_waiting_until",
            )
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Online tables (tournaments.online.tables): the number of steps the board had when the
    # robot of this seat took over from its player (he left, let a move's time run out, or the
    # window closed), so that his result is marked; null when he played it to its end.
    robot_from = models.PositiveIntegerField(
        _("played by the robot from step"), null=True, blank=True, editable=False
    )
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


class Entry(models.Model):
    """A player entered in an event (the field of its first stage). A *reserve* is entered to
    play only as a substitute (tournaments.events.substitutions): she is not in the field, and she
    is
    ranked only if ``ranked`` (the organizer's choice; her boards count for the others in any
    case)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    reserve = models.BooleanField(_("reserve"), default=False)
    ranked = models.BooleanField(_("ranked"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The event's life (tournaments.people): the categories the player is ranked in besides the
    # whole field (Event.categories), and the rounds he plays: a late entry from
    # ``first_round``, a withdrawal from ``withdrawn_from`` on (round numbers; empty: all).
    categories = models.JSONField(_("categories"), default=list, blank=True)
    first_round = models.PositiveIntegerField(_("enters from round"), null=True, blank=True)
    withdrawn_from = models.PositiveIntegerField(_("withdrawn from round"), null=True, blank=True)

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
    """A player through to a later stage by the cut of the one before (tournaments.events.rounds):
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
