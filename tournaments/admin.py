"""Admin of players, events, rounds, tables and seats (organizers' screens)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    Adjustment,
    AuditEntry,
    Event,
    EventRole,
    Penalty,
    Player,
    Round,
    Seat,
    Stage,
    Standing,
    Table,
    TableAssignment,
    Team,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "external_id"]
    search_fields = ["name", "club", "external_id"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


class EventRoleInline(admin.TabularInline):
    model = EventRole
    extra = 0
    autocomplete_fields = ["user", "player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "scoring_method", "created_at", "standings_updated_at"]
    # The deal seed never shows here; its commitment does (tournaments.rounds writes both).
    readonly_fields = ["deal_commitment", "seed_revealed"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StageInline, RoundInline, EventRoleInline]
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


class TableAssignmentInline(admin.TabularInline):
    model = TableAssignment
    extra = 0
    autocomplete_fields = ["user"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__event"]
    inlines = [SeatInline, TableAssignmentInline]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["event", "rank", "player", "total", "percentage", "boards"]
    list_filter = ["event"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "event"]
    list_filter = ["event"]
    search_fields = ["name"]
    filter_horizontal = ["members"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit log is read-only: entries are written by the services that make changes."""

    list_display = ["at", "event", "actor", "action", "object_type", "object_id"]
    list_filter = ["event", "action"]
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class AdjustmentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Adjustment
        fields = ["table", "board", "seat", "kind", "reason"]

    def clean(self) -> dict[str, Any]:
        from tournaments.standings import RulingRejected, adjustment_check

        data = super().clean() or {}
        if all(data.get(k) for k in ("table", "board", "seat", "kind")):
            try:
                adjustment_check(
                    table=data["table"], board=data["board"], seat=data["seat"], kind=data["kind"]
                )
            except RulingRejected as exc:
                raise forms.ValidationError(exc.message) from None
        return data


@admin.register(Adjustment)
class AdjustmentAdmin(admin.ModelAdmin):
    """Adjusted scores per seat, written through tournaments.standings (audited, standings
    recomputed)."""

    form = AdjustmentForm
    list_display = ["board", "table", "seat", "kind", "reason", "created_at"]
    list_filter = ["board__event", "kind"]
    raw_id_fields = ["table", "board"]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        from tournaments.standings import adjustment_set

        saved = adjustment_set(
            table=obj.table,
            board=obj.board,
            seat=obj.seat,
            kind=obj.kind,
            reason=obj.reason,
            actor=request.user,
        )
        obj.pk = saved.pk

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        from tournaments.standings import adjustment_remove

        adjustment_remove(adjustment_id=obj.pk, actor=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Penalties, kept apart from the boards, written through tournaments.standings."""

    list_display = ["event", "player", "points", "stage", "reason", "created_at"]
    list_filter = ["event"]
    fields = ["event", "stage", "player", "points", "reason"]
    raw_id_fields = ["player"]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return obj is None  # a penalty is withdrawn and given again, never edited

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        from tournaments.standings import penalty_add

        saved = penalty_add(
            event=obj.event,
            player=obj.player,
            points=obj.points,
            reason=obj.reason,
            stage=obj.stage,
            actor=request.user,
        )
        obj.pk = saved.pk

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        from tournaments.standings import penalty_remove

        penalty_remove(penalty_id=obj.pk, actor=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)
