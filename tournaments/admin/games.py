"""Admin of boards and games. A game added here goes through
tournaments.tables.submission.game_submit,
the one write path; its verification fields are read-only (the engine writes them). Changes
and deletions are in the event's audit log (tournaments.admin.events.AuditedAdmin)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ddz_site.kernel.errors import DomainError
from games.models import Board, Game
from tournaments.admin.events import AuditedAdmin
from tournaments.core.access import NotAllowed
from tournaments.tables.submission import _check_record, game_submit
from tournaments.tables.verification import game_reverify

DEAL_FIELDS = ("event", "round", "number", "hands", "bottom", "first_bidder", "aside", "marked")


class BoardForm(forms.ModelForm):
    """A board added or its deal changed by hand, refused in an event with a deal seed: its
    boards are dealt from the seed (the dashboard), so the reveal can verify every one, and
    none is added once the seed is public (tournaments.core.access.refuse_more_play)."""

    class Meta:
        model = Board
        fields = list(DEAL_FIELDS)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        event = cleaned.get("event") or (self.instance.event if self.instance.pk else None)
        changed = self.instance.pk is None or any(f in self.changed_data for f in DEAL_FIELDS)
        if event is not None and event.deal_commitment and changed:
            raise forms.ValidationError(
                _(
                    "This event's boards are dealt from its committed seed (the dashboard), "
                    "never entered or changed by hand."
                )
            )
        return cleaned


@admin.register(Board)
class BoardAdmin(AuditedAdmin):
    form = BoardForm
    list_display = ["__str__", "event", "round", "number", "first_bidder"]
    list_filter = ["event"]
    readonly_fields = ["deal_key"]
    search_fields = ["event__name"]


class GameAddForm(forms.ModelForm):
    class Meta:
        model = Game
        fields = ["table", "board", "record"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        table, board, record = data.get("table"), data.get("board"), data.get("record")
        if table is not None and board is not None:
            try:
                _check_record(table=table, board=board, record=record)
            except DomainError as exc:
                raise forms.ValidationError(exc.message) from None
        return data


@admin.register(Game)
class GameAdmin(AuditedAdmin):
    # An added game is audited by game_submit (game.submit).
    audited = ("change", "delete")
    list_display = ["__str__", "record_id", "status", "landlord", "multiplier", "submitted_at"]
    list_filter = ["status", "board__event"]
    search_fields = ["record_id", "board__event__name"]
    actions = ["reverify"]
    _verification_fields = [
        "status",
        "landlord",
        "winner",
        "multiplier",
        "score",
        "error",
        "declared",
        "declared_winner",
        "record_id",
        "submitted_at",
        "verified_at",
        "replaced_at",
    ]

    def get_form(self, request: HttpRequest, obj: Game | None = None, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = GameAddForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            return []
        return ["table", "board", "record", *self._verification_fields]

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            return ["table", "board", "record"]
        return ["table", "board", "record", *self._verification_fields]

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        if change:
            return
        try:
            game = game_submit(
                table=obj.table,
                board=obj.board,
                record=obj.record,
                actor=request.user,
                source="admin",
            )
        except NotAllowed as exc:  # a staff user who may not enter at this table
            raise PermissionDenied(exc.message) from None
        obj.pk = game.pk
        obj.refresh_from_db()

    @admin.action(description=_("Verify again with the engine"))
    def reverify(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        count = sum(game_reverify(game_id=pk) for pk in queryset.values_list("pk", flat=True))
        self.message_user(
            request,
            _("%(count)d games queued for verification.") % {"count": count},
            messages.SUCCESS,
        )
