"""The unchecked fast path of verification (R-VERIFY): a whole three-player game in the common
case, decided with tables; at the first doubt it answers None and ``replay`` runs the checked
path from the start, which judges every fault.

Vocabulary:

- *code*: cards packed into one int, 8 bits per rank (``count << 8·rank``, the little-endian
  bytes of the counts), so that the cards a seat played are one ``sum`` and containment is one
  subtraction (below). A play's code also counts, above the ranks, itself (one play), and
  whether it is a bomb or the rocket (R-KICK 3: played alone they double the stake).
- *table*: per rule set, the canonical text of each play met so far with its code and its one
  reading, and the pairs (open play, answer) known to beat (R-CMP). Every entry is learnt from
  the checked classifier and comparison (``classify_counts``, ``beating_readings``): the fast
  path never works out a reading or a comparison by itself.
- *doubt*: anything outside the common case: a text that is not canonical (aliases, suits, a
  pass word other than ``pass``), a play with several readings (R-AMBIG) or a declared reading,
  a play the table cannot read, a turn out of order, a pass on lead, a play that does not beat,
  cards not held, a game that does not end exactly when its last turn takes a seat out, more
  than ``MAX_TURNS`` turns. A doubt is not a verdict: the checked path gives it.

Why the shortcuts are exact for three players and one deck (R-LEAD, R-TRICK, R-END):

- turns rotate S→E→W whatever is played: when the two others pass, the last player leads, and
  he is the next seat anyway; so turn ``i`` belongs to seat ``(landlord + i) mod 3``;
- a seat leads exactly when it makes the first turn or follows two passes; so a pass is legal
  iff it is not such a turn, and a play must beat the last play iff fewer than two passes
  separate them;
- hands only shrink, so a seat held each of its plays when it made it iff it held their sum:
  one containment per seat instead of one per play. A play of one deck has at most 4 cards of
  a rank, so the sum of at most ``_MOST_PLAYS`` plays of a seat is at most 128 a rank, and
  ``hand + GUARD - sum`` keeps each rank's bit 7 iff that rank's sum is at most the hand's,
  without a borrow from the next rank.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

from .cards import ONE_DECK, RANKS, Counts, format_cards, parse_play
from .combos import Reading, beating_readings, classify_counts
from .errors import EngineError
from .rules import RuleSet

__all__ = ["MAX_TURNS", "Ending", "table_of", "pack"]

MAX_TURNS = 180  # a longer record goes to the checked path
_MOST_PLAYS = 32  # plays of one seat: 32 × 4 = 128 cards of a rank at most (see above)
_N = len(RANKS)
_CARDS = (1 << (8 * _N)) - 1
GUARD = int.from_bytes(b"\x80" * _N, "little")
_BOMB_AT, _ROCKET_AT, _PLAY_AT = 8 * _N, 8 * _N + 8, 8 * _N + 16  # bit offsets above the ranks
_ONE_DECK = int.from_bytes(bytes(ONE_DECK), "little")
_TABLE_LIMIT = 50_000  # entries per table: bounded memory whatever the input
_LISTS = {list}
_CHAR_CODE = {ch: 1 << (8 * r) for r, ch in enumerate(RANKS)}


def pack(counts: Counts) -> int:
    """The code of counts of one deck (8 bits per rank)."""
    return int.from_bytes(bytes(counts), "little")


class Ending(NamedTuple):
    """How a game the fast path decided ended: ``winner`` (the seat index that went out, by its
    last turn), ``played`` (plays made per seat, for R-SPRING), ``bombs`` and ``rockets``
    played (R-KICK 3)."""

    winner: int
    played: tuple[int, int, int]
    bombs: int
    rockets: int


class _Table:
    """The plays of one rule set met so far (see the module docstring)."""

    __slots__ = ("rules", "code", "reading", "beats", "known_beats", "rotations", "seats", "memo")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.code: dict[Any, int] = {}
        self.reading: dict[str, Reading] = {}
        self.beats: dict[str, set[str]] = {}
        self.known_beats = 0
        seats = rules.seats
        self.seats = frozenset(seats)
        self.rotations = tuple(
            [seats[(first + i) % 3] for i in range(MAX_TURNS)] for first in range(3)
        )
        # Anything a caller wants to remember per rule set (replay keeps its settlements).
        self.memo: dict[Any, Any] = {}
        self._reset()

    def _reset(self) -> None:
        self.code.clear()
        self.reading.clear()
        self.beats.clear()
        self.known_beats = 0
        self.code["pass"] = 0

    def learn(self, text: Any) -> bool:
        """Enter a canonical play that the checked classifier reads one way; False for any
        other text (R-NOTE, R-AMBIG)."""
        if not isinstance(text, str):
            return False
        try:
            counts = parse_play(text)
        except EngineError:
            return False
        if counts is None or format_cards(counts) != text:
            return False
        readings = classify_counts(counts, self.rules)
        if len(readings) != 1:
            return False
        if len(self.code) >= _TABLE_LIMIT:
            self._reset()
        (reading,) = readings
        kind = reading.type
        flag = _BOMB_AT if kind == "bomb" else _ROCKET_AT if kind == "rocket" else None
        self.code[text] = pack(counts) + (1 << _PLAY_AT) + (0 if flag is None else 1 << flag)
        self.reading[text] = reading
        return True

    def beat(self, answer: str, open_play: str) -> bool:
        """Whether ``answer`` beats ``open_play`` (R-CMP), by the checked comparison."""
        reading = self.reading.get(answer)
        previous = self.reading.get(open_play)
        if reading is None or previous is None:
            return False
        if not beating_readings(frozenset({reading}), frozenset({previous})):
            return False
        if self.known_beats >= _TABLE_LIMIT:
            self.beats.clear()
            self.known_beats = 0
        self.beats.setdefault(open_play, set()).add(answer)
        self.known_beats += 1
        return True

    def deal(self, hands: dict[str, Any], bottom: str) -> list[int] | None:
        """The codes of the hands in seat order, then the bottom, when all are canonical rank
        letters of the right sizes and together exactly one deck (R-DEAL, R-DECK); None
        otherwise (the checked ``check_deal`` reads and judges those)."""
        rules = self.rules
        size = rules.hand_size
        unit = _CHAR_CODE.__getitem__
        codes = []
        try:
            for seat in rules.seats:
                text = hands[seat]
                if type(text) is not str or len(text) != size:
                    return None
                codes.append(sum(map(unit, text)))
            if len(bottom) != rules.bottom_size:
                return None
            codes.append(sum(map(unit, bottom)))
        except KeyError:
            return None
        if sum(codes) != _ONE_DECK:
            return None
        return codes

    def play_out(self, hands: Sequence[int], landlord: int, plays: Any) -> Ending | None:
        """How the game played from ``hands`` (codes in seat order, the landlord's with the
        bottom) by ``plays`` (the record's list of ``[seat, cards]`` lists) ends, if it is legal
        and its last turn takes a seat out; None at the first doubt.

        Rules: R-LEAD, R-TRICK, R-CMP, R-END, R-VERIFY.
        """
        try:
            return self._play_out(hands, landlord, plays)
        except (TypeError, ValueError, KeyError, IndexError):
            return None

    def _play_out(self, hands: Sequence[int], landlord: int, plays: Any) -> Ending | None:
        n = len(plays)
        if type(plays) is not list or not 0 < n <= MAX_TURNS or set(map(type, plays)) != _LISTS:
            return None
        get = self.code.get
        beats = self.beats
        codes: list[int] = []  # per turn, 0 for a pass
        append = codes.append
        open_play = ""
        answers: Collection[str] = ()  # the plays known to beat the open one
        passes = 2  # passes since the open play; two: the seat to move leads (R-LEAD, R-TRICK)
        # The rotation is longer than the plays; [seat, cards, reading] is a ValueError: a doubt.
        for expected, (seat, text) in zip(self.rotations[landlord], plays, strict=False):
            if seat != expected:
                return None
            c = get(text)
            if c is None:
                if not self.learn(text):
                    return None
                c = self.code[text]
            append(c)
            if c:
                if passes < 2 and text not in answers and not self.beat(text, open_play):
                    return None
                open_play = text
                answers = beats.get(text, ())
                passes = 0
            elif passes == 2:
                return None
            else:
                passes += 1
        if passes:
            return None  # R-END: the game goes on after a pass
        # R-VERIFY: each seat held what it played; R-END: the last turn, and only it, empties
        # a hand.
        last = (landlord + n - 1) % 3
        played = [0, 0, 0]
        bombs = rockets = 0
        for turn in range(3):
            seat = (landlord + turn) % 3
            total = sum(codes[turn::3])
            count = total >> _PLAY_AT
            if count > _MOST_PLAYS:
                return None
            rest = hands[seat] + GUARD - (total & _CARDS)
            if rest & GUARD != GUARD or (rest == GUARD) != (seat == last):
                return None
            played[seat] = count
            bombs += (total >> _BOMB_AT) & 0xFF
            rockets += (total >> _ROCKET_AT) & 0xFF
        return Ending(last, (played[0], played[1], played[2]), bombs, rockets)


_TABLES: dict[int, tuple[RuleSet, _Table]] = {}


def table_of(rules: RuleSet) -> _Table | None:
    """The table of a three-player, one-deck rule set; None for the other table sizes."""
    found = _TABLES.get(id(rules))
    if found is None or found[0] is not rules:
        if rules.family != "three" or rules.decks != 1:
            return None
        if len(_TABLES) >= 1_000:
            _TABLES.clear()
        found = _TABLES[id(rules)] = (rules, _Table(rules))
    return found[1]
