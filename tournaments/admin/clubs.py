"""Admin of clubs (with their members), series and the ladder of master-point titles; a series'
settings are checked as tournaments.league.clubs.series_create checks them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments.events.rounds import series_running_refusal
from tournaments.league import series as pure
from tournaments.models import Club, ClubMember, MasterTitle, Series


class ClubMemberInline(admin.TabularInline):
    model = ClubMember
    extra = 1


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubMemberInline]


class SeriesForm(forms.ModelForm):
    class Meta:
        model = Series
        fields = "__all__"

    def clean_scale(self) -> str:
        try:
            return pure.format_scale(pure.parse_scale(self.cleaned_data["scale"]))
        except pure.SeriesError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_master_scale(self) -> str:
        text = self.cleaned_data["master_scale"]
        if not text.strip():
            return ""
        try:
            return pure.format_scale(pure.parse_scale(text))
        except pure.SeriesError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            pure.check_tiebreaks(list(data.get("tiebreaks") or []), data.get("lot_seed") or "")
        except pure.SeriesError as exc:
            raise forms.ValidationError(str(exc)) from None
        # Finishing awards master points at once: not while an event of it still runs.
        if data.get("finished") and self.instance.pk is not None:
            refusal = series_running_refusal(self.instance)
            if refusal:
                raise forms.ValidationError(refusal)
        return data


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    form = SeriesForm
    list_display = ["name", "club", "season", "best_of", "finished"]
    list_filter = ["club", "finished"]
    prepopulated_fields = {"slug": ["name"]}
    fieldsets = [
        (None, {"fields": ["club", "name", "slug", "season", "finished"]}),
        (_("Standings"), {"fields": ["scale", "best_of", "tiebreaks", "lot_seed"]}),
        (_("Master points"), {"fields": ["master_scale"]}),
    ]


@admin.register(MasterTitle)
class MasterTitleAdmin(admin.ModelAdmin):
    """The site's ladder of titles by master points (tournaments.league.series.title_of)."""

    list_display = ["name", "threshold"]
    ordering = ["threshold"]
