"""Admin of players, events, rounds, tables and seats (organizers' screens)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event, Player, Round, Seat, Standing, Table


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ["name"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "scoring_method", "created_at", "standings_updated_at"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoundInline]
    actions = ["recompute"]

    @admin.action(description=_("Recompute the standings"))
    def recompute(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        from tournaments.tasks import recompute_standings

        for pk in queryset.values_list("pk", flat=True):
            recompute_standings.delay(pk)
        self.message_user(request, _("Standings queued for recomputation."), messages.SUCCESS)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "number"]
    list_filter = ["event"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__event"]
    inlines = [SeatInline]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["event", "rank", "player", "total", "percentage", "boards"]
    list_filter = ["event"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
