"""The duplicate-aware rating, public: the current ratings and one player's history as JSON
(API), and the current ratings as CSV. Only published rounds are rated, so nothing here is
under embargo (tournaments.core.embargo). Thin: the selectors are tournaments.ratings.service'."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.league import profiles
from tournaments.ratings import service as ratings

_RATING = {
    "rating": serializers.FloatField(help_text="The conservative figure, mu - 3 sigma."),
    "mu": serializers.FloatField(),
    "sigma": serializers.FloatField(),
}
CURRENT = inline_serializer(
    "CurrentRating",
    {
        "rank": serializers.IntegerField(),
        "player_id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "club": serializers.CharField(),
        **_RATING,
        "events": serializers.IntegerField(help_text="Rated events played."),
        "last_event": serializers.CharField(help_text="The slug of the last one."),
    },
    many=True,
)
POINT = inline_serializer(
    "RatingHistoryPoint",
    {"event": serializers.CharField(), "date": serializers.DateField(), **_RATING},
    many=True,
)
HISTORY = inline_serializer(
    "RatingHistory",
    {"player_id": serializers.IntegerField(), "name": serializers.CharField(), "history": POINT},
)


def _figures(mu: float, sigma: float, ordinal: float) -> dict[str, float]:
    return {"rating": round(ordinal, 4), "mu": round(mu, 4), "sigma": round(sigma, 4)}


class RatingListView(APIView):
    """Every rated player's current rating, best first."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: CURRENT})
    def get(self, request: Request) -> Response:
        rows: list[dict[str, Any]] = [
            {
                "rank": rank,
                "player_id": r.player.pk,
                "name": r.player.name,
                "club": r.player.club,
                **_figures(r.mu, r.sigma, r.ordinal),
                "events": r.events,
                "last_event": r.event.slug,
            }
            for rank, r in enumerate(ratings.public_ratings(), start=1)
        ]
        return Response(rows)


class RatingHistoryView(APIView):
    """One player's rating after each rated event he played, in the rating order."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: HISTORY})
    def get(self, request: Request, player_id: int) -> Response:
        player = profiles.visible_person(request.user, player_id)
        if player is None:
            raise Http404("no such profile")
        return Response(
            {
                "player_id": player.pk,
                "name": player.name,
                "history": [
                    {
                        "event": p.event.slug,
                        "date": p.date.isoformat(),
                        **_figures(p.mu, p.sigma, p.ordinal),
                    }
                    for p in profiles.rating_points(player)
                ],
            }
        )


def ratings_csv(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        ratings.ratings_csv(ratings.public_ratings()),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(True, "ratings.csv")
    return response
