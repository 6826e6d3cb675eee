"""Rule sets: presets and named options (RULES.md §7).

Vocabulary:

- *preset*: a named rule set of RULES.md §7 (``classic``, ``classic_once``, ``rob``,
  ``competition``, ``cn2016``); this engine plays the three-player presets.
- *option*: a named override of a preset (``all_pass``, ``spring_multiplier``,
  ``solo_kickers_may_pair``, ``bomb_in_kickers``, ``rocket_in_kickers``, ``space_shuttle``,
  ``max_additions``, ``base``, ``show_multiplier``, ``bidding``, ``scoring``). An unknown name or
  an impossible value is a ``RulesError``, never ignored.
- *spec*: how a record names its rules: a preset name, or ``{"preset": NAME, "options": {…}}``.

A ``RuleSet`` is immutable and hashable; it owns the classification cache of its options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError

__all__ = ["RuleSet", "PRESETS", "OPTION_NAMES", "BIDDING_SYSTEMS", "SCORING_SYSTEMS"]

BIDDING_SYSTEMS = ("auction", "once", "rob", "competition", "call", "marked")
SCORING_SYSTEMS = (
    "multiply",
    "rob",
    "additive",
    "cn2016",
    "two_player",
    "four_player",
    "five_player",
)

# preset -> (bidding system, scoring system, option defaults that differ from the base)
PRESETS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "classic": ("auction", "multiply", {}),  # seed 000: R-BID-AUCTION, R-SC-MULT
    "classic_once": ("once", "multiply", {}),  # seeds 002, 004: R-BID-ONCE, R-SC-MULT
    "rob": ("rob", "rob", {"spring_multiplier": 3}),  # seed 004: R-BID-ROB, R-SC-ROB
    "competition": ("competition", "additive", {}),  # seed 001: R-BID-COMP, R-SC-ADD
    "cn2016": ("once", "cn2016", {"spring_multiplier": 2}),  # national rules 2016
    "two_player": ("call", "two_player", {}),  # seeds 002, 003: R-2P
    "four_player": ("auction", "four_player", {}),  # seeds 000, 002, 003, 004: R-4P
    "five_player": ("marked", "five_player", {}),  # seeds 002, 003: R-5P
}

# family -> (seats R-SEAT, decks R-DECK, hand size, bottom size, cards set aside, largest hand)
TABLES: dict[str, tuple[tuple[str, ...], int, int, int, int, int]] = {
    "three": (("S", "E", "W"), 1, 17, 3, 0, 20),  # R-DEAL
    "two": (("S", "N"), 1, 20, 3, 11, 23),  # R-2P
    "four": (("S", "E", "N", "W"), 2, 25, 8, 0, 33),  # R-4P
    "five": (("P1", "P2", "P3", "P4", "P5"), 2, 21, 3, 0, 24),  # R-5P
}
FAMILY = {"two_player": "two", "four_player": "four", "five_player": "five"}


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.lower() in ("true", "1", "yes")
    raise RulesError(
        f"option {name} must be true or false, not {_shown(value)}",
        code="rules.option_bool",
        params={"option": _plain(name), "value": _plain(value)},
    )


SHOWN_CHARS = 30  # of a value named in a message: a value of thousands of digits is cut


def _shown(value: Any) -> str:
    """`value` as a message names it: its repr, at most SHOWN_CHARS characters and "…"."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


def _plain(value: Any) -> str:
    """`value` as a parameter of an error names it: text as typed (not a repr), any other
    value as JSON writes it, each character that does not print (a NUL, a line break) as
    U+FFFD, at most SHOWN_CHARS characters and "…"."""
    if isinstance(value, str):
        text = value
    elif value is None or isinstance(value, bool):
        text = "null" if value is None else str(value).lower()
    else:
        text = str(value)[: SHOWN_CHARS + 1]
    text = "".join(c if c.isprintable() else "\ufffd" for c in text[: SHOWN_CHARS + 1])
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


def _int_between(low: int, high: int) -> Callable[[str, Any], int]:
    def whole(name: str, value: Any) -> RulesError:
        return RulesError(
            f"option {name} must be a whole number, not {_shown(value)}",
            code="rules.option_whole",
            params={"option": _plain(name), "value": _plain(value)},
        )

    def parse(name: str, value: Any) -> int:
        if isinstance(value, bool):
            raise whole(name, value)
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):
            # OverflowError: an infinite float (a JSON 1e400); ValueError: not a number, or
            # more digits than int() reads (sys.get_int_max_str_digits()).
            raise whole(name, value) from None
        if isinstance(value, float) and value != number:
            raise whole(name, value)
        if number < low:
            raise RulesError(
                f"option {name} must be at least {low}, not {_shown(number)}",
                code="rules.option_at_least",
                params={"option": _plain(name), "low": low, "value": _plain(number)},
            )
        if number > high:
            raise RulesError(
                f"option {name} must be at most {high}, not {_shown(number)}",
                code="rules.option_at_most",
                params={"option": _plain(name), "high": high, "value": _plain(number)},
            )
        return number

    return parse


def _optional_int(name: str, value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.lower() in ("none", "null", "")):
        return None
    return _int_between(0, MAX_ADDITIONS)(name, value)


def _choice(*choices: str) -> Callable[[str, Any], str]:
    def parse(name: str, value: Any) -> str:
        # Read in any case, as true and false are (_bool): "REDEAL" is "redeal".
        if isinstance(value, str) and value.lower() in choices:
            return value.lower()
        if value not in choices:
            raise RulesError(
                f"option {name} must be one of {', '.join(choices)}, not {_shown(value)}",
                code="rules.option_choice",
                params={"option": _plain(name), "choices": list(choices), "value": _plain(value)},
            )
        return str(value)

    return parse


# The largest value of each whole-number option: far above any table's, and a score stays a
# number a page shows (R-SC-ADD, R-SC-ROB, R-SC-MULT).
MAX_ADDITIONS = 100
MAX_MULTIPLIER = 100
MAX_BASE = 10_000

# name -> (parser, base default)
_OPTIONS: dict[str, tuple[Callable[[str, Any], Any], Any]] = {
    "all_pass": (_choice("zero", "redeal"), "zero"),  # R-PASSOUT
    "spring_multiplier": (_int_between(1, MAX_MULTIPLIER), 1),  # R-SC-MULT, R-SC-ROB, R-SC-CN2016
    "solo_kickers_may_pair": (_bool, True),  # R-KICK 2
    "bomb_in_kickers": (_bool, False),  # R-KICK 3
    "rocket_in_kickers": (_bool, False),  # R-KICK 3
    "space_shuttle": (_bool, False),  # R-SHUTTLE
    "max_additions": (_optional_int, None),  # R-SC-ADD
    "base": (_int_between(1, MAX_BASE), 1),  # R-SC-ROB
    "show_multiplier": (_int_between(1, MAX_MULTIPLIER), 2),  # R-SC-ROB (明牌)
    "bidding": (_choice(*BIDDING_SYSTEMS), None),  # RULES.md §3, option `bidding`
    "scoring": (_choice(*SCORING_SYSTEMS), None),  # RULES.md §4, option `scoring`
}
OPTION_NAMES = tuple(_OPTIONS)


@dataclass(frozen=True)
class RuleSet:
    """A preset with its options resolved.

    Attributes: ``preset`` (str), ``bidding`` and ``scoring`` (systems), ``seats`` (turn order,
    R-SEAT), ``overrides`` (the options the spec set explicitly, as sorted pairs), one
    attribute per option with its effective value, and the table: ``family`` (``three``,
    ``two``, ``four``, ``five``), ``decks``, ``hand_size``, ``bottom_size``, ``aside`` (cards
    set aside unseen, R-2P) and ``max_play`` (the largest hand, R-MAX).
    """

    preset: str
    overrides: tuple[tuple[str, Any], ...] = ()
    seats: tuple[str, ...] = ("S", "E", "W")
    all_pass: str = "zero"
    spring_multiplier: int = 1
    solo_kickers_may_pair: bool = True
    bomb_in_kickers: bool = False
    rocket_in_kickers: bool = False
    space_shuttle: bool = False
    max_additions: int | None = None
    base: int = 1
    show_multiplier: int = 2
    bidding: str = "auction"
    scoring: str = "multiply"
    family: str = "three"
    decks: int = 1
    hand_size: int = 17
    bottom_size: int = 3
    aside: int = 0
    max_play: int = 20
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def from_spec(cls, spec: str | Mapping[str, Any] | RuleSet | None) -> RuleSet:
        """Build a rule set from a preset name or ``{"preset": NAME, "options": {…}}``.

        Raises:
            RulesError: unknown preset, unknown option name, impossible value (RULES.md §7).

        >>> RuleSet.from_spec("classic").bidding
        'auction'
        >>> spec = {"preset": "classic", "options": {"space_shuttle": True}}
        >>> RuleSet.from_spec(spec).space_shuttle
        True
        """
        if isinstance(spec, RuleSet):
            return spec
        if spec is None:
            return CLASSIC
        if isinstance(spec, str):
            return _preset(spec, ())
        if not isinstance(spec, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {_shown(spec)}")
        unknown_keys = set(spec) - {"preset", "options"}
        if unknown_keys:
            raise RulesError(f"unknown key(s) in rules: {', '.join(sorted(unknown_keys))}")
        preset = spec.get("preset")
        if not isinstance(preset, str):
            raise RulesError(f"rules need a preset name, not {_shown(preset)}")
        options = spec.get("options") or {}
        if not isinstance(options, Mapping):
            raise RulesError(f"rules options must be an object, not {_shown(options)}")
        parsed = []
        for name, value in options.items():
            if name not in _OPTIONS:
                raise RulesError(
                    f"unknown option {_shown(name)}; known options: {', '.join(OPTION_NAMES)}",
                    code="rules.option_unknown",
                    params={"option": _plain(name), "options": list(OPTION_NAMES)},
                )
            parser, _ = _OPTIONS[name]
            parsed.append((name, parser(name, value)))
        return _preset(preset, tuple(sorted(parsed)))

    def to_spec(self) -> str | dict[str, Any]:
        """The spec this rule set came from: the preset name, or preset with its overrides."""
        if not self.overrides:
            return self.preset
        return {"preset": self.preset, "options": dict(self.overrides)}

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its effective value."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    @property
    def players(self) -> int:
        return len(self.seats)

    def __repr__(self) -> str:
        return f"RuleSet.from_spec({self.to_spec()!r})"


_PRESET_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], RuleSet] = {}


def _preset(name: str, overrides: tuple[tuple[str, Any], ...]) -> RuleSet:
    # One RuleSet per distinct spec, so that its classification cache is shared by every game.
    key = (name, overrides)
    found = _PRESET_CACHE.get(key)
    if found is None:
        found = _PRESET_CACHE[key] = _build_preset(name, overrides)
    return found


def _build_preset(name: str, overrides: tuple[tuple[str, Any], ...]) -> RuleSet:
    if name not in PRESETS:
        raise RulesError(
            f"unknown preset {_shown(name)}; known presets: {', '.join(PRESETS)}",
            code="rules.preset_unknown",
            params={"preset": _plain(name), "presets": list(PRESETS)},
        )
    bidding, scoring, defaults = PRESETS[name]
    values: dict[str, Any] = {k: default for k, (_, default) in _OPTIONS.items()}
    values.update(defaults)
    values["bidding"], values["scoring"] = bidding, scoring
    for key, value in overrides:
        values[key] = value
    if values["bidding"] is None:
        values["bidding"] = bidding
    if values["scoring"] is None:
        values["scoring"] = scoring
    family = FAMILY.get(name, "three")
    seats, decks, hand, bottom, aside, largest = TABLES[family]
    if family == "three" and (
        values["bidding"] in ("call", "marked")
        or values["scoring"] in ("two_player", "four_player", "five_player")
    ):
        raise RulesError(
            f"bidding {values['bidding']!r} with scoring {values['scoring']!r} "
            f"is for another table size than preset {name!r}",
            code="rules.table_size",
            params={"bidding": values["bidding"], "scoring": values["scoring"], "preset": name},
        )
    if family != "three" and (overrides and any(k in ("bidding", "scoring") for k, _ in overrides)):
        raise RulesError(
            f"preset {name!r} fixes its bidding and scoring",
            code="rules.preset_fixed",
            params={"preset": name},
        )
    return RuleSet(
        preset=name,
        overrides=overrides,
        seats=seats,
        family=family,
        decks=decks,
        hand_size=hand,
        bottom_size=bottom,
        aside=aside,
        max_play=largest,
        **values,
    )


CLASSIC = _preset("classic", ())
