"""Public API of clubs, series standings, player profiles and ratings (no token needed):
parse, fetch through tournaments.league.profiles, render. Exact values are reduced fractions in
strings ("37/2"), as elsewhere in the API; a hidden profile answers 404 to the public, and
series standings keep a hidden player's name without her person id."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ddz_site.api.serializers import ErrorSerializer
from tournaments.league import profiles
from tournaments.models import Player, Series
from tournaments.scoring.methods import format_fraction

NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="No such object (or hidden).")}


class SeriesBriefSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField()
    finished = serializers.BooleanField()


class ClubSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    current_series = SeriesBriefSerializer(many=True, source="current")


class EventBriefSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()


class SeriesRowSerializer(serializers.Serializer):
    rank = serializers.CharField()
    position = serializers.IntegerField()
    person_id = serializers.IntegerField(allow_null=True, help_text="null for a hidden profile")
    player = serializers.CharField()
    total = serializers.CharField(help_text="exact, a reduced fraction")
    points = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="per event in the series' order; null where not played",
    )
    counted = serializers.ListField(child=serializers.BooleanField())
    played = serializers.IntegerField()
    decided_by = serializers.CharField()
    master_points = serializers.CharField(
        allow_null=True,
        help_text="exact, a reduced fraction; null until the series is finished or when it "
        "awards none",
    )


class SeriesStandingsSerializer(serializers.Serializer):
    series = SeriesBriefSerializer()
    club = serializers.CharField()
    scale = serializers.ListField(child=serializers.CharField())
    best_of = serializers.IntegerField(allow_null=True)
    master_scale = serializers.ListField(
        child=serializers.CharField(), help_text="master points by final place; [] for none"
    )
    events = EventBriefSerializer(many=True)
    rows = SeriesRowSerializer(many=True)


class RatingSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="the event's slug")
    date = serializers.DateField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    external_id = serializers.CharField()


class PlayedSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="the event's slug")
    club = serializers.CharField(allow_null=True)
    series = serializers.CharField(allow_null=True)
    player_id = serializers.IntegerField()
    rank = serializers.CharField(allow_null=True)
    total = serializers.CharField(allow_null=True)
    percentage = serializers.CharField(allow_null=True)
    method = serializers.CharField()


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    records = RecordSerializer(many=True)
    events = PlayedSerializer(many=True)
    rating = RatingSerializer(many=True)


def _rating(points: list[profiles.RatingPoint]) -> list[dict[str, Any]]:
    return [
        {"event": r.event.slug, "date": r.date, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
        for r in points
    ]


class ClubListView(APIView):
    """Every club with its current series."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ClubSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ClubSerializer(profiles.home_clubs(), many=True).data)


class SeriesStandingsView(APIView):
    """A series' standings: points per event by finishing place, best k of n."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: SeriesStandingsSerializer, **NOT_FOUND})
    def get(self, request: Request, slug: str) -> Response:
        found = get_object_or_404(Series.objects.select_related("club"), slug=slug)
        table = profiles.series_table(found)
        data = {
            "series": found,
            "club": found.club.slug,
            "scale": [format_fraction(v) for v in table.scale],
            "best_of": found.best_of,
            "master_scale": [format_fraction(v) for v in table.master_scale],
            "events": table.events,
            "rows": [
                {
                    "rank": line.rank,
                    "position": line.position,
                    "person_id": None if line.hidden else line.person.pk,
                    "player": line.person.name,
                    "total": format_fraction(line.total),
                    "points": [None if p is None else format_fraction(p) for p, _c in line.points],
                    "counted": [c for _p, c in line.points],
                    "played": line.played,
                    "decided_by": line.decided_by,
                    "master_points": (
                        None if line.master_points is None else format_fraction(line.master_points)
                    ),
                }
                for line in table.lines
            ],
        }
        return Response(SeriesStandingsSerializer(data).data)


def _person(request: Request, pk: int) -> Player:
    person = profiles.visible_person(request.user, pk)
    if person is None:
        raise Http404("no such profile")
    return person


class PersonView(APIView):
    """A person's profile: her records, events (rank, total) and rating after each event. A
    merged record answers with the person it was merged into."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PersonSerializer, **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        person = _person(request, pk)
        events = []
        for p in profiles.person_events(person):
            s = p.standing
            events.append(
                {
                    "event": p.event.slug,
                    "club": p.event.club.slug if p.event.club else None,
                    "series": p.event.series.slug if p.event.series else None,
                    "player_id": p.player.pk,
                    "rank": s.rank if s else None,
                    "total": s.total if s else None,
                    "percentage": (s.percentage or None) if s else None,
                    "method": p.event.scoring_method,
                }
            )
        data = {
            "id": person.pk,
            "name": person.name,
            "records": list(profiles.person_players(person)),
            "events": events,
            "rating": _rating(profiles.rating_points(person)),
        }
        return Response(PersonSerializer(data).data)


class PersonRatingView(APIView):
    """A person's rating after each event, oldest first (empty while the site rates no one)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RatingSerializer(many=True), **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        person = _person(request, pk)
        return Response(RatingSerializer(_rating(profiles.rating_points(person)), many=True).data)
