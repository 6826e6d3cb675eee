"""Shapes of the API: input serializers validate, output serializers render. No business rule
lives here (games.steps, tournaments.tables.submission, tournaments.tables.review hold them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Game, Resolution
from games.steps import MAX_STEPS
from tournaments.core.lineups import table_players, tables_players
from tournaments.tables.selectors import ENTRY_STATES, entry_state

MAX_STEP_CHARS = 60


class StepField(serializers.CharField):
    """One call or play as typed: text (never a number, an object or null), at most
    MAX_STEP_CHARS characters, no NUL; the one rule of every door that takes steps (the API's
    and the table link's, tournaments.web.links)."""

    default_error_messages = {
        "invalid": _("Each step is text."),
        "null": _("Each step is text."),
        "max_length": _("A step is too long (at most {max_length} characters)."),
    }

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class BoundedListField(serializers.ListField):
    """DRF's ListField, refusing a list longer than `max_length` before it checks any element
    (DRF checks every element first: 480,000 steps took 1.2 s to be refused as too many)."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if (
            self.max_length is not None
            and isinstance(data, list | tuple)
            and len(data) > self.max_length
        ):
            self.fail("max_length", max_length=self.max_length)
        result: list[Any] = super().to_internal_value(data)
        return result


def _step(**kwargs: Any) -> StepField:
    return StepField(max_length=MAX_STEP_CHARS, allow_blank=False, trim_whitespace=True, **kwargs)


class EntryErrorSerializer(serializers.Serializer):
    message = serializers.CharField()
    rule = serializers.CharField(allow_null=True)
    index = serializers.IntegerField(allow_null=True)
    seat = serializers.CharField(allow_null=True)
    cards = serializers.CharField(allow_null=True)
    detail = serializers.CharField()
    error_code = serializers.CharField(
        allow_null=True, help_text="The engine error's code (games.engine.ERROR_CODES)."
    )
    params = serializers.DictField(help_text="The engine error's parameters.")


class EntryCheckSerializer(serializers.Serializer):
    """The steps entered so far and, optionally, one more to check."""

    steps = BoundedListField(child=_step(), max_length=MAX_STEPS, default=list)
    step = _step(required=False, allow_null=True)


class AllowedCallSerializer(serializers.Serializer):
    call = serializers.CharField()
    label = serializers.CharField()


class PositionSerializer(serializers.Serializer):
    """games.steps.view: the position after the steps, for the entry page."""

    steps = serializers.ListField(child=serializers.CharField())
    phase = serializers.ChoiceField(choices=["bidding", "play", "done"])
    to_move = serializers.CharField(allow_null=True)
    seats = serializers.ListField(child=serializers.CharField())
    first_bidder = serializers.CharField()
    landlord = serializers.CharField(allow_null=True)
    bid = serializers.IntegerField()
    calls = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    plays = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    allowed = AllowedCallSerializer(many=True)
    hands = serializers.DictField(child=serializers.CharField(allow_blank=True))
    counts = serializers.DictField(child=serializers.IntegerField())
    low = serializers.ListField(child=serializers.CharField())
    bottom = serializers.CharField()
    open = serializers.DictField(child=serializers.CharField(), allow_null=True)
    end = serializers.DictField(child=serializers.CharField(), allow_null=True)
    result = serializers.DictField(allow_null=True)
    offline = serializers.DictField(
        help_text="What a page needs to check the next steps without the network "
        "(games.offline): legal turns of the seat to move, each seat's leads, the bidding tree."
    )


class EntryCheckResultSerializer(serializers.Serializer):
    """A checked step: ``ok`` with the new position, or the refusal and the position before."""

    ok = serializers.BooleanField()
    position = PositionSerializer()
    error = EntryErrorSerializer(allow_null=True)


class JsonBooleanField(serializers.BooleanField):
    """A boolean given only as JSON true or false: DRF's BooleanField also takes "yes", "on",
    "true", 1 or "0", so a typo or a string reads as a decision nobody took."""

    default_error_messages = {"invalid": _("Must be true or false (JSON), not a string or number.")}

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid")
        raise AssertionError  # fail() raises


class QuickSerializer(serializers.Serializer):
    # The bounds of the rules (the bids of the bidding system, the rockets the deck holds) are
    # the quick result's own checks against the deal (games.quick_result.quick_problems), which
    # report every field at fault at once; the bounds here only keep numbers to a sane size.
    landlord = serializers.CharField(max_length=2)
    bid = serializers.IntegerField(max_value=10_000)
    winner = serializers.ChoiceField(choices=["landlord", "farmers"])
    bombs = serializers.ListField(
        child=serializers.CharField(max_length=4), max_length=30, default=list
    )
    rockets = serializers.IntegerField(min_value=0, max_value=10_000, default=0)
    doubles = serializers.ListField(
        child=serializers.CharField(max_length=2), max_length=5, default=list
    )
    spring = JsonBooleanField(default=False)
    anti_spring = JsonBooleanField(default=False)

    def to_internal_value(self, data: Any) -> Any:
        # A call the quick result does not carry (redouble, show, surrender, reveal…) is
        # refused rather than dropped: the result would be scored without it.
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        if unknown:
            raise serializers.ValidationError(
                {
                    name: [_("A quick result has no field “%(name)s”.") % {"name": name}]
                    for name in unknown
                }
            )
        return super().to_internal_value(data)


class GameSubmitSerializer(serializers.Serializer):
    """Exactly one of ``steps`` (a finished live entry), ``quick`` (a quick result) or
    ``record`` (a RECORDS.md §1 object)."""

    steps = BoundedListField(child=_step(), max_length=MAX_STEPS, required=False)
    quick = QuickSerializer(required=False)
    record = serializers.JSONField(required=False)
    replace = JsonBooleanField(default=False)
    idempotency_key = serializers.CharField(max_length=100, required=False, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in ("steps", "quick", "record") if k in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                _("Give exactly one of steps, quick or record."), code="one_of"
            )
        return attrs


class ResolveSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=Resolution.choices)
    note = serializers.CharField(max_length=2000)


def _username(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


class GameSerializer(serializers.ModelSerializer):
    """One version of a table's game: the engine's verdict, who entered, confirmed, ruled."""

    event = serializers.SlugRelatedField(source="board.event", slug_field="slug", read_only=True)
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    board_number = serializers.IntegerField(source="board.number", read_only=True)
    entered_by = serializers.SerializerMethodField()
    confirmed_by = serializers.SerializerMethodField()
    resolved_by = serializers.SerializerMethodField()
    entry_state = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "event",
            "round",
            "table",
            "table_number",
            "board_number",
            "version",
            "source",
            "status",
            "entry_state",
            "landlord",
            "winner",
            "multiplier",
            "score",
            "declared",
            "error",
            "facts",
            "record",
            "submitted_at",
            "verified_at",
            "replaced_at",
            "entered_by",
            "confirmed_by",
            "confirmed_at",
            "resolution",
            "resolution_note",
            "resolved_by",
            "resolved_at",
        ]
        read_only_fields = fields

    def get_entered_by(self, game: Game) -> str | None:
        return _username(game.entered_by)

    def get_confirmed_by(self, game: Game) -> str | None:
        return _username(game.confirmed_by)

    def get_resolved_by(self, game: Game) -> str | None:
        return _username(game.resolved_by)

    def get_entry_state(self, game: Game) -> str:
        return entry_state(game, drafting=False)


class PlayersList(serializers.ListSerializer):
    """A list of games whose `players` are read for all of them at once
    (tournaments.core.lineups.tables_players: two queries, whatever the number of games)."""

    def to_representation(self, data: Iterable[Game]) -> list[Any]:
        games = list(data.all() if hasattr(data, "all") else data)
        self.child.known_players = tables_players((g.table_id, g.board.number) for g in games)
        return super().to_representation(games)


class PlayersMixin(serializers.Serializer):
    """`players`: seat → the name of who played the board there (a substitute on her boards;
    tournaments.events.substitutions). Only on reads: a write's answer never reads the database
    again
    after its commit. Subclasses list with PlayersList."""

    known_players: dict[tuple[int, int], dict[str, Any]] | None = None

    players = serializers.SerializerMethodField(
        help_text=_("Seat to the name of who played this board there (a substitute on her boards).")
    )

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_players(self, game: Game) -> dict[str, str]:
        key = (game.table_id, game.board.number)
        known = self.known_players
        players = known[key] if known and key in known else table_players(game.table, key[1])
        return {s: p.name for s, p in players.items()}


class GameReadSerializer(PlayersMixin, GameSerializer):
    """One game as read (GET): with `players`."""

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "players"]
        read_only_fields = fields
        list_serializer_class = PlayersList


class GameBriefSerializer(PlayersMixin, GameSerializer):
    """A game without its record (lists), with `players`."""

    class Meta(GameSerializer.Meta):
        fields = [
            *(f for f in GameSerializer.Meta.fields if f not in ("record", "declared")),
            "players",
        ]
        read_only_fields = fields
        list_serializer_class = PlayersList


class CellSerializer(serializers.Serializer):
    board = serializers.IntegerField(source="board.number")
    state = serializers.ChoiceField(choices=ENTRY_STATES)
    game = serializers.IntegerField(source="game.pk", allow_null=True, default=None)
    status = serializers.CharField(source="game.status", allow_null=True, default=None)


class TableRowSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk")
    number = serializers.IntegerField(source="table.number")
    round = serializers.IntegerField(source="table.round.number")
    cells = CellSerializer(many=True)


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    action = serializers.CharField()
    object_type = serializers.CharField()
    object_id = serializers.CharField()
    changes = serializers.DictField()
