"""The stored duplicate-aware rating (tournaments.ratings.service computes it,
tournaments.ratings.model is
its pure core): one RatingEntry per player per rated event, and the coalescing state of its
recomputation.

Vocabulary: a *rated event* is an event with at least one published round; its rated boards
are those of its published rounds. A RatingEntry is a player's rating *after* that event:
mean `mu`, uncertainty `sigma`, and the conservative `ordinal` mu − 3·sigma shown to people;
`position` is the event's place in the rating order (1, 2, …). The rows are written only by
tournaments.ratings.service.ratings_recompute, always equal to a recompute from scratch.

The identity rated is the Player row (one row per person across events: the CSV import finds
players again by external id or name, tournaments.events.players_csv); see
tournaments.ratings.service.IDENTITY.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class RatingEntry(models.Model):
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="rating_entries"
    )
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="rating_entries"
    )
    position = models.PositiveIntegerField(_("order of the event"))
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    ordinal = models.FloatField(_("rating"))

    class Meta:
        ordering = ["position", "-ordinal", "player"]
        verbose_name = _("rating entry")
        verbose_name_plural = _("rating entries")
        constraints = [
            models.UniqueConstraint(fields=["player", "event"], name="rating_once_per_event")
        ]
        indexes = [models.Index(fields=["player", "position"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.player_id}@{self.event_id}: {self.ordinal:.2f}"


class RatedEvent(models.Model):
    """What the stored rows of one rated event were computed from: its `position` in the
    rating order and the `fingerprint` (SHA-256) of its groups; `requested` is bumped with
    each change to the event that may move its rating, `done` is the request the stored rows
    answer. The recomputation starts at the first event whose inputs changed and rates it and
    every event after it (tournaments.ratings.service.ratings_recompute)."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, primary_key=True, related_name="rated"
    )
    position = models.PositiveIntegerField(default=0)
    fingerprint = models.CharField(max_length=64, blank=True)
    requested = models.BigIntegerField(default=0)
    done = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.event_id}: {self.position} {self.fingerprint[:8]}"


class RatingState(models.Model):
    """The coalescing of the rating's recomputation (one row, pk 1), as StandingsState for
    standings: `requested` is bumped with each change that may move a rating, `done` is the
    generation the stored rows were computed from, `queued` is True while a recomputation is
    queued or running; `runs` counts the recomputations and `changed` the rows the last one
    wrote."""

    requested = models.BigIntegerField(default=0)
    done = models.BigIntegerField(default=0)
    queued = models.BooleanField(default=False)
    runs = models.BigIntegerField(default=0)
    changed = models.BigIntegerField(default=0)
    stored_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings {self.done}/{self.requested}"
