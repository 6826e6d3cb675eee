"""Clubs, their members and their series (tournaments.league.clubs writes them).

Vocabulary (README, "Clubs, series and player profiles"): a *club* is an organization that
runs events; its *members* hold roles in it (ClubRole: an organizer may open events for the
club and run its series); a *series* groups the events of a season of one club and ranks the
players over them (tournaments.league.series): points per event by finishing place on the
organizer's *scale* (places 1, 2, 3, …; ties share the points of the places they cover), the
best `best_of` events counting (every event when empty), the organizer's tie-breaks and the
seed of their lot. A series is *current* until its organizer marks it finished; the home page
lists every club with its current series. A finished series awards *master points* by final
place on its own table (`master_scale`); a person's master points over every series give her
*title*, the highest MasterTitle threshold she reaches (the site's ladder, kept in the admin).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=120, unique=True, allow_unicode=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:club", kwargs={"slug": self.slug})


class ClubRole(models.TextChoices):
    ORGANIZER = "organizer", _("Organizer")


class ClubMember(models.Model):
    """A user's role in a club: an organizer opens events for it and runs its series."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=ClubRole.choices)

    class Meta:
        app_label = "tournaments"
        ordering = ["club", "role", "user"]
        verbose_name = _("club member")
        verbose_name_plural = _("club members")
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="club_member_once"),
            models.CheckConstraint(
                condition=models.Q(role__in=ClubRole.values), name="club_member_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.get_role_display()})"


class Series(models.Model):
    """A club's season of events with its own standings (tournaments.league.series)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="series")
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200, unique=True, allow_unicode=True)
    season = models.CharField(_("season"), max_length=40, blank=True)
    scale = models.CharField(
        _("points by place"),
        max_length=500,
        help_text=_("Points for places 1, 2, 3, … separated by commas; later places score 0."),
    )
    master_scale = models.CharField(
        _("master points by place"),
        max_length=500,
        blank=True,
        help_text=_(
            "Master points for places 1, 2, 3, … of the final series standings, separated by "
            "commas, awarded when the series is finished; empty: none."
        ),
    )
    best_of = models.PositiveIntegerField(
        _("best events counted"),
        null=True,
        blank=True,
        help_text=_("Each player's best k events count; empty: every event."),
    )
    tiebreaks = models.JSONField(
        _("tie-breaks"),
        default=list,
        blank=True,
        help_text=_("In order: best_event, head_to_head, lot."),
    )
    lot_seed = models.CharField(_("seed of the lot"), max_length=64, blank=True)
    finished = models.BooleanField(_("finished"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["club", "-created_at", "name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="series_name_per_club"),
            models.CheckConstraint(
                condition=models.Q(best_of__isnull=True) | models.Q(best_of__gte=1),
                name="series_best_of_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:series", kwargs={"slug": self.slug})


class MasterTitle(models.Model):
    """One rung of the site's ladder of titles: a person whose master points reach
    `threshold` holds `name` (the highest rung reached; tournaments.league.series.title_of)."""

    name = models.CharField(_("title"), max_length=120, unique=True)
    threshold = models.DecimalField(
        _("master points needed"),
        max_digits=12,
        decimal_places=2,
        unique=True,
        validators=[MinValueValidator(0)],
    )

    class Meta:
        app_label = "tournaments"
        ordering = ["threshold"]
        verbose_name = _("master-point title")
        verbose_name_plural = _("master-point titles")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(threshold__gte=0), name="master_title_threshold_not_negative"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.threshold})"
