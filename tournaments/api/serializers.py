"""Shapes of the API: input serializers validate, output serializers render. No business rule
lives here (games.steps, tournaments.tables.submission, tournaments.tables.review hold them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ddz_site.api.serializers import ErrorBodySerializer
from ddz_site.kernel.text import text_refusal
from games.models import Game, Resolution
from games.steps import MAX_STEPS
from tournaments.core.lineups import table_players, tables_players
from tournaments.models import EventStatus
from tournaments.tables.selectors import ENTRY_STATES, entry_state
from tournaments.tables.versions import VERSION_MAX

MAX_STEP_CHARS = 60


class TypedTextField(serializers.CharField):
    """Text under the site's one rule (ddz_site.kernel.text; `lines`: a text of lines), said
    in the reader's language before DRF's and Django's checks (whose Chinese for a NUL says
    "empty strings"): codes ``unreadable``, ``control`` and ``max_length`` (the field's own
    message for a text too long)."""

    def __init__(self, *, lines: bool = False, **kwargs: Any) -> None:
        self.lines = lines
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = str(super().to_internal_value(data))
        unfit = text_refusal(text, lines=self.lines, max_length=self.max_length)
        if unfit is not None and unfit[0] == "max_length":
            self.fail("max_length", max_length=self.max_length)
        if unfit is not None:
            raise serializers.ValidationError(unfit[1], code=unfit[0])
        return text


class StepField(TypedTextField):
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
        return super().to_internal_value(data)


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


class JsonVersionField(serializers.IntegerField):
    """A version number given only as a JSON whole number from 1 to VERSION_MAX: DRF's
    IntegerField also takes "2", true or 2.0, so a string or a boolean would name a version
    nobody chose."""

    default_error_messages = {
        "invalid": _("A version number: a JSON whole number, not a string, boolean or fraction.")
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=VERSION_MAX, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class QuickSerializer(serializers.Serializer):
    # The bounds of the rules (the bids of the bidding system, the rockets the deck holds) are
    # the quick result's own checks against the deal (games.quick_result.quick_problems), which
    # report every field at fault at once; the bounds here only keep numbers to a sane size.
    landlord = TypedTextField(max_length=2)
    bid = serializers.IntegerField(max_value=10_000)
    winner = serializers.ChoiceField(choices=["landlord", "farmers"])
    bombs = serializers.ListField(child=TypedTextField(max_length=4), max_length=30, default=list)
    rockets = serializers.IntegerField(min_value=0, max_value=10_000, default=0)
    doubles = serializers.ListField(child=TypedTextField(max_length=2), max_length=5, default=list)
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
    ``record`` (a RECORDS.md §1 object); ``replace`` true with ``replaces``, the version it
    replaces, to correct a board the table has a game of (tournaments.tables.versions)."""

    steps = BoundedListField(child=_step(), max_length=MAX_STEPS, required=False)
    quick = QuickSerializer(required=False)
    record = serializers.JSONField(required=False)
    replace = JsonBooleanField(default=False)
    replaces = JsonVersionField(
        required=False,
        help_text=_(
            "With replace true: the number of the version this game replaces, the table's "
            "current one (a 409 names it otherwise)."
        ),
    )
    idempotency_key = TypedTextField(max_length=100, required=False, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in ("steps", "quick", "record") if k in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                _("Give exactly one of steps, quick or record."), code="one_of"
            )
        if "replaces" in attrs and not attrs["replace"]:
            raise serializers.ValidationError(
                {"replaces": [_("A version is named only to replace it: send replace true.")]}
            )
        return attrs

    @staticmethod
    def replaced_version(data: dict[str, Any]) -> int | None:
        """The version the validated submission `data` replaces (tournaments.tables.submission
        .game_submit's `replaces`): None unless it says replace and names one."""
        return data.get("replaces") if data["replace"] else None


class VersionSeenSerializer(serializers.Serializer):
    """The table's current version of a board, as a 409 of a submission names it
    (tournaments.tables.versions.VersionSeen.to_dict)."""

    id = serializers.IntegerField()
    version = serializers.IntegerField(min_value=1)
    entered_by = serializers.CharField(
        help_text=_("The user's name, or the door (“table 3 link”); “—” when nobody is known.")
    )
    submitted_at = serializers.DateTimeField()
    status = serializers.CharField(help_text=_("Its one status, as the pages show it."))
    landlord = serializers.CharField(allow_blank=True)
    winner = serializers.CharField(allow_blank=True)
    score = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=_("Seat → the engine's score; null when the engine gives none."),
    )


class GameConflictBodySerializer(ErrorBodySerializer):
    current = VersionSeenSerializer(
        required=False,
        help_text=_("The version the submission would replace, to name in replaces."),
    )


class GameConflictSerializer(serializers.Serializer):
    """The error shape of a submission's 409, with the current version under ``current``."""

    error = GameConflictBodySerializer()


class ResolveSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=Resolution.choices)
    note = TypedTextField(lines=True, max_length=2000)


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
    # The model's blank choice, which DRF drops from a read-only field: "" while no chief
    # referee has ruled on the game.
    resolution = serializers.ChoiceField(
        choices=Resolution.choices,
        allow_blank=True,
        read_only=True,
        help_text=_("The chief referee's ruling; empty while there is none."),
    )

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


class VenueSerializer(serializers.Serializer):
    name = serializers.CharField(read_only=True, help_text="empty when not given")
    address = serializers.CharField(read_only=True, help_text="lines separated by newlines")


class RegistrationStateSerializer(serializers.Serializer):
    open = serializers.BooleanField(
        read_only=True,
        help_text="whether it takes registrations now: the status is registration_open and "
        "the deadline has not passed",
    )
    limit = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="places; null for no limit"
    )
    deadline = serializers.DateTimeField(read_only=True, allow_null=True)
    places_taken = serializers.IntegerField(read_only=True, help_text="accepted registrations")
    waiting_list = serializers.BooleanField(
        read_only=True, help_text="once the places are taken, new registrations wait for one"
    )
    categories = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="those an entrant may declare: women, youth, senior, novice or the "
        "organizer's own labels",
    )


class EventSerializer(serializers.Serializer):
    """An event's announcement and life, read only (tournaments.people.life and
    tournaments.people.registration hold their rules)."""

    name = serializers.CharField(read_only=True)
    slug = serializers.CharField(read_only=True)
    status = serializers.ChoiceField(choices=EventStatus.choices, read_only=True)
    starts_at = serializers.DateTimeField(read_only=True, allow_null=True)
    ends_at = serializers.DateTimeField(read_only=True, allow_null=True)
    time_zone = serializers.CharField(
        read_only=True, help_text="IANA name of the zone the event is shown in (the venue's)"
    )
    online = serializers.BooleanField(read_only=True)
    venue = VenueSerializer(read_only=True)
    registration = RegistrationStateSerializer(read_only=True)
