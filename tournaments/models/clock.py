"""A round's clock (RoundClock), a table's extra time (TableTime), and a player replaced for a
round or part of one (Substitution: each board credited to the person who played it).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import SEAT_CHOICES, Player
from tournaments.models.structure import Round, Table


class RoundClock(models.Model):
    """The clock of a round (tournaments.events.clock): its length in minutes, when it was started,
    when it was paused (null while it runs) and the pauses before that, so that every screen
    counts the same time from these timestamps. Written only by tournaments.events.clock."""

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
    round's clock. Written only by tournaments.events.clock."""

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
    them (DESIGN.md, substitutions). Written only by tournaments.events.substitutions."""

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
