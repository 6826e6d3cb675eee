"""Admin of players, events, rounds, tables and seats (organizers' screens).

The admin goes through the services: a round's state is shown, never edited (the transitions
are the dashboard's buttons, tournaments.events.rounds); an event's settings of
FROZEN_ONCE_STARTED are refused once a round has started (the form says so, and Event.save
refuses them whatever the door); adjustments and penalties are written by their services. Every
add, change and delete of a model that makes results is in the event's audit log (AuditedAdmin),
and its rows' history (django-simple-history) is the "History" page of each object, read-only.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import NotAllowed
from tournaments.core.audit import admin_record
from tournaments.events import rounds
from tournaments.league import clubs
from tournaments.models import (
    FROZEN_ONCE_STARTED,
    Adjustment,
    AuditEntry,
    Event,
    EventFrozen,
    EventRole,
    Penalty,
    Player,
    Round,
    RoundState,
    Seat,
    Stage,
    Standing,
    Substitution,
    Table,
    TableAssignment,
    Team,
)
from tournaments.online.window import online_tables_refusals
from tournaments.standings.penalties import (
    penalty_add,
    penalty_points,
    penalty_refusal,
    penalty_remove,
)
from tournaments.standings.requests import standings_request
from tournaments.standings.rulings import (
    RulingRejected,
    adjustment_check,
    adjustment_remove,
    adjustment_set,
)

# A ruling's reason is typed text: the site's one rule (ddz_site.kernel.text), said in the
# reader's language before Django's own checks.
REASON_TEXT: dict[type[models.Field[Any, Any]], dict[str, Any]] = {
    models.TextField: {"form_class": TypedTextField, "lines": True}
}


@contextmanager
def _refusal_is_403() -> Iterator[None]:
    """A service's NotAllowed (tournaments.core.access) is the admin's 403, as for any door."""
    try:
        yield
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None


class ReadOnlyAdmin(admin.ModelAdmin):
    """A ModelAdmin that only lists and shows: its rows are written by services (which
    refuse, lock and audit), never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class AuditedAdmin(SimpleHistoryAdmin):
    """A ModelAdmin whose additions, changes and deletions are written to the event's audit log
    (tournaments.core.audit.admin_record, in the admin's own transaction) beside Django's admin log,
    with a read-only history page. ``audited`` names the kinds of change recorded (a model whose
    additions go through an audited service records only the others)."""

    audited: tuple[str, ...] = ("add", "change", "delete")

    def log_addition(self, request: HttpRequest, obj: Model, message: Any) -> Any:
        if "add" in self.audited:
            admin_record(actor=request.user, action="add", obj=obj, message=message)
        return super().log_addition(request, obj, message)

    def log_change(self, request: HttpRequest, obj: Model, message: Any) -> Any:
        if "change" in self.audited:
            admin_record(actor=request.user, action="change", obj=obj, message=message)
        return super().log_change(request, obj, message)

    def log_deletions(self, request: HttpRequest, queryset: Any) -> Any:
        if "delete" in self.audited:
            for obj in queryset:
                admin_record(actor=request.user, action="delete", obj=obj)
        return super().log_deletions(request, queryset)

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        # A model that keeps no versions (a game: its record is its history, the audit log its
        # changes) shows Django's own log of admin actions instead of simple-history's page.
        if not hasattr(self.model._meta, "simple_history_manager_attribute"):
            return admin.ModelAdmin.history_view(self, request, object_id, extra_context)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ) -> HttpResponse:
        # A past version is shown, never written back: a revert would save the whole old row
        # (a round's state, an event without its seed) around the services.
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "external_id", "same_as", "profile_hidden"]
    search_fields = ["name", "club", "external_id"]
    # Changed only by the audited services of tournaments.league.clubs (the actions below).
    readonly_fields = ["same_as", "profile_hidden"]
    actions = ["merge_people", "unmerge_people"]

    @admin.action(description=_("Merge the selected players into the first one (same person)"))
    def merge_people(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:

        chosen = list(queryset.order_by("pk"))
        try:
            for other in chosen[1:]:
                clubs.person_merge(keep=chosen[0], merge=other, actor=request.user)
        except clubs.ClubRefused as exc:
            self.message_user(request, exc.message, messages.ERROR)

    @admin.action(description=_("Undo the merge of the selected players"))
    def unmerge_people(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:

        try:
            for player in queryset.filter(same_as__isnull=False):
                clubs.person_unmerge(player=player, actor=request.user)
        except clubs.ClubRefused as exc:
            self.message_user(request, exc.message, messages.ERROR)


class RoundForm(forms.ModelForm):
    """A round made in the admin is a draft: the dashboard seats, deals and starts it. It is
    refused where the dashboard's would be (rounds.round_create_refusal: another event's
    stage, a finished event or a revealed seed, stages out of order), and a round is never
    moved to another event's stage."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        event = data.get("event") or getattr(self.instance, "event", None)
        stage = data.get("stage")
        if event is None:
            return data
        refusal: Any = None
        if self.instance._state.adding:
            refusal = rounds.round_create_refusal(event, stage)
        elif stage is not None and stage.event_id != event.pk:
            refusal = _("That stage belongs to another event.")
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return data

    def save(self, commit: bool = True) -> Any:
        if self.instance._state.adding:
            self.instance.state = RoundState.DRAFT
        return super().save(commit)


class RoundInline(admin.TabularInline):
    model = Round
    form = RoundForm
    extra = 0
    readonly_fields = ["state"]


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


class EventRoleInline(admin.TabularInline):
    model = EventRole
    extra = 0
    autocomplete_fields = ["user", "player"]


# The settings of online play, fixed once a round started as the service fixes them
# (tournaments.online.window.online_play_set): entrants met these robots and tables already.
ONLINE_PLAY_FIELDS = (
    "online_robots",
    "robot_strength",
    "move_seconds",
    "online_tables",
    "seat_wait_seconds",
)


class EventForm(forms.ModelForm):
    """Refuses a change to a setting of FROZEN_ONCE_STARTED once a round has started, on each
    changed field, with the model's message (Event.save refuses it too); the same for the
    settings of online play (ONLINE_PLAY_FIELDS), and online tables without robots or a wait
    out of range, with the service's words (tournaments.online.window)."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self._online_check(data)
        changed = [f for f in FROZEN_ONCE_STARTED if f in self.changed_data]
        if self.instance.pk is not None and changed:
            try:
                self.instance.refuse_frozen_changes(changed)
            except EventFrozen as exc:
                for field in changed:
                    self.add_error(field, exc.message)
        return data

    def _online_check(self, data: dict[str, Any]) -> None:
        refusals = online_tables_refusals(
            robots=bool(data.get("online_robots")),
            tables=bool(data.get("online_tables")),
            seat_wait_seconds=data.get("seat_wait_seconds"),
        )
        for field, message in refusals.items():
            if field in self.fields and field not in self.errors:
                self.add_error(field, message)
        changed = [f for f in ONLINE_PLAY_FIELDS if f in self.changed_data]
        if self.instance.pk is not None and changed and self.instance.started_round() is not None:
            for field in changed:
                if field not in self.errors:
                    self.add_error(
                        field, _("Online play is fixed once a round of the event has started.")
                    )


@admin.register(Event)
class EventAdmin(AuditedAdmin):
    form = EventForm
    list_display = [
        "name",
        "status",
        "starts_at",
        "format",
        "scoring_method",
        "created_at",
        "standings_updated_at",
    ]
    # The deal seed never shows here; its commitment does (tournaments.events.rounds writes both).
    # The status moves by the organizer's actions only (tournaments.people.life: finishing asks
    # for the ratings again), never by an edit here.
    readonly_fields = ["deal_commitment", "seed_revealed", "status"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StageInline, RoundInline, EventRoleInline]
    actions = ["recompute"]

    @admin.action(description=_("Recompute the standings"))
    def recompute(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        with transaction.atomic():
            for pk in queryset.values_list("pk", flat=True):
                standings_request(event_id=pk)
        self.message_user(request, _("Standings queued for recomputation."), messages.SUCCESS)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    # Written by online play only (tournaments.online.tables): shown, never edited.
    readonly_fields = ["waiting_until"]


@admin.register(Round)
class RoundAdmin(AuditedAdmin):
    form = RoundForm
    list_display = ["__str__", "event", "number", "state"]
    list_filter = ["event"]
    # Changed only by the services' transitions (the dashboard's buttons).
    readonly_fields = ["state"]
    inlines = [TableInline]


class TableAssignmentInline(admin.TabularInline):
    model = TableAssignment
    extra = 0
    autocomplete_fields = ["user"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]
    # The robot's take-over at an online table (tournaments.online.tables): shown, never edited.
    readonly_fields = ["robot_from"]


@admin.register(Table)
class TableAdmin(AuditedAdmin):
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__event"]
    readonly_fields = ["waiting_until"]
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
class TeamAdmin(AuditedAdmin):
    list_display = ["name", "event"]
    list_filter = ["event"]
    search_fields = ["name"]
    filter_horizontal = ["members"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The audit log is read-only: entries are written by the services that make changes."""

    list_display = ["at", "event", "actor", "action", "object_type", "object_id"]
    list_filter = ["event", "action"]
    date_hierarchy = "at"


@admin.register(Substitution)
class SubstitutionAdmin(ReadOnlyAdmin):
    """Read-only here: substitutions are recorded and removed on the organizer's dashboard
    (tournaments.events.substitutions, which refuses, locks and audits)."""

    list_display = ["round", "table", "seat", "player", "substitute", "first_board", "last_board"]
    list_filter = ["round__event"]


class AdjustmentForm(forms.ModelForm):
    """One seat's adjusted score: an average or an artificial percentage with its reason (a
    weighted score is the whole table's, given on the referee's page of the table's board)."""

    class Meta:
        model = Adjustment
        fields = ["table", "board", "seat", "kind", "percentage", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if all(data.get(k) for k in ("table", "board", "seat", "kind")):
            try:
                adjustment_check(
                    table=data["table"],
                    board=data["board"],
                    seat=data["seat"],
                    kind=data["kind"],
                    percentage=data.get("percentage"),
                    reason=data.get("reason") or "",
                )
            except RulingRejected as exc:
                raise forms.ValidationError(exc.message) from None
        return data


@admin.register(Adjustment)
class AdjustmentAdmin(admin.ModelAdmin):
    """Adjusted scores per seat, written through tournaments.standings (audited, standings
    recomputed)."""

    form = AdjustmentForm
    formfield_overrides = REASON_TEXT
    list_display = ["board", "table", "seat", "kind", "percentage", "reason", "created_at"]
    list_filter = ["board__event", "kind"]
    raw_id_fields = ["table", "board"]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with _refusal_is_403():
            saved = adjustment_set(
                table=obj.table,
                board=obj.board,
                seat=obj.seat,
                kind=obj.kind,
                percentage=obj.percentage,
                reason=obj.reason,
                actor=request.user,
            )
        obj.pk = saved.pk

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with _refusal_is_403():
            adjustment_remove(adjustment_id=obj.pk, actor=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)


class PenaltyForm(forms.ModelForm):
    class Meta:
        model = Penalty
        fields = ["event", "stage", "player", "points", "reason"]

    def clean_points(self) -> Any:
        # The service's own rule and words (a positive number), before the model's check
        # constraint would name itself.
        points = self.cleaned_data.get("points")
        if points is None:
            return points
        try:
            return penalty_points(points)
        except RulingRejected as exc:
            raise forms.ValidationError(exc.message) from None

    def clean(self) -> dict[str, Any]:
        # The service's refusals of whom and where, as the form's errors (not a server error
        # when the service refuses at save).
        data = super().clean() or {}
        event, player = data.get("event"), data.get("player")
        if event is not None and player is not None:
            refusal = penalty_refusal(event=event, player=player, stage=data.get("stage"))
            if refusal is not None:
                raise forms.ValidationError(refusal)
        return data


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Penalties, kept apart from the boards, written through tournaments.standings."""

    form = PenaltyForm
    formfield_overrides = REASON_TEXT
    list_display = ["event", "player", "points", "stage", "reason", "created_at"]
    list_filter = ["event"]
    fields = ["event", "stage", "player", "points", "reason"]
    raw_id_fields = ["player"]

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return obj is None  # a penalty is withdrawn and given again, never edited

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with _refusal_is_403():
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
        with _refusal_is_403():
            penalty_remove(penalty_id=obj.pk, actor=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)
