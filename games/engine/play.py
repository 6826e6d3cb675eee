"""Card play (R-BOTTOM, R-LEAD, R-TRICK, R-END, R-SPRING) as an immutable state.

Vocabulary:

- *trick*: a lead and the plays and passes that follow it until all other players pass in a
  row (R-TRICK); its *open readings* are those of the last play still possible (R-AMBIG).
- *turn*: a play or a pass by the seat to move. The landlord leads the first trick (R-LEAD).
- *finished*: a seat has no cards left (R-END); the landlord's side or the farmers' side won.

``GameState.apply`` is the checked transition: it accepts a turn iff ``legal_plays`` lists it
(the property tests prove it), and otherwise raises ``IllegalPlayError`` (or ``NotationError``)
naming the seat, the cards and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    Counts,
    add,
    contains,
    format_cards,
    parse_hand,
    parse_play,
    subtract,
)
from .combos import TYPES, Reading, beating_readings, classify_counts, why_not_coded
from .errors import IllegalPlayError
from .moves import Move, legal_moves
from .rules import CLASSIC, RuleSet

__all__ = ["GameState", "split_tricks"]


@dataclass(frozen=True)
class GameState:
    """The play of one deal after the bidding.

    Attributes: ``rules``; ``hands_counts`` (counts per seat, in ``rules.seats`` order);
    ``landlord_index``; ``turn`` (index of the seat to move); ``open`` (open readings, None when
    the seat to move leads); ``last`` (index of the seat whose play is open); ``passes`` in a
    row; ``plays`` (tuple of ``(seat, text)``); ``played`` (plays made per seat, for R-SPRING);
    ``bombs`` and ``rockets`` played alone; ``winner_index`` (the seat that went out first).
    """

    rules: RuleSet
    hands_counts: tuple[Counts, ...]
    landlord_index: int
    turn: int
    open: frozenset[Reading] | None = None
    last: int | None = None
    passes: int = 0
    plays: tuple[tuple[str, str], ...] = ()
    played: tuple[int, ...] = (0, 0, 0)
    bombs: int = 0
    rockets: int = 0
    winner_index: int | None = None
    partner_index: int | None = None
    bomb_readings: tuple[Reading, ...] = ()

    @classmethod
    def start(
        cls,
        rules: RuleSet | None,
        hands: Mapping[str, str | Counts],
        bottom: str | Counts,
        landlord: str,
        partner: str | None = None,
    ) -> GameState:
        """The state before the first lead: the landlord holds the bottom cards (R-BOTTOM) and
        leads (R-LEAD). ``hands`` are the deal's hands before the bottom (text or counts);
        ``partner`` is the five-player hidden landlord, on the landlord's side (R-5P).

        Raises:
            IllegalPlayError: ``landlord`` is not a seat (R-SEAT); NotationError on bad cards.
        """
        rs = rules or CLASSIC
        if landlord not in rs.seats:
            raise IllegalPlayError(
                f"landlord {landlord!r} is not a seat",
                rule="R-SEAT",
                code="play.landlord_not_seat",
                params={"landlord": str(landlord)},
            )
        li = rs.seats.index(landlord)
        counts = [
            h if isinstance(h, tuple) else parse_hand(h) for h in (hands[s] for s in rs.seats)
        ]
        bottom_counts = bottom if isinstance(bottom, tuple) else parse_hand(bottom)
        counts[li] = add(counts[li], bottom_counts)
        pi = None
        if partner is not None and partner != landlord:
            if partner not in rs.seats:
                raise IllegalPlayError(
                    f"partner {partner!r} is not a seat",
                    rule="R-SEAT",
                    code="play.partner_not_seat",
                    params={"partner": str(partner)},
                )
            pi = rs.seats.index(partner)
        return cls(
            partner_index=pi,
            rules=rs,
            hands_counts=tuple(counts),
            landlord_index=li,
            turn=li,
            played=(0,) * rs.players,
        )

    # -- queries ------------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return self.rules.seats

    @property
    def landlord(self) -> str:
        return self.seats[self.landlord_index]

    @property
    def finished(self) -> bool:
        return self.winner_index is not None

    @property
    def to_move(self) -> str | None:
        """The seat to play, or None when the game is over."""
        return None if self.finished else self.seats[self.turn]

    @property
    def landlord_side(self) -> frozenset[int]:
        """Indices of the landlord's side: the landlord and, at five, the hidden landlord."""
        if self.partner_index is None:
            return frozenset({self.landlord_index})
        return frozenset({self.landlord_index, self.partner_index})

    @property
    def winner(self) -> str | None:
        """``"landlord"`` or ``"farmers"`` once a seat is out (R-END), else None."""
        if self.winner_index is None:
            return None
        return "landlord" if self.winner_index in self.landlord_side else "farmers"

    @property
    def hands(self) -> dict[str, str]:
        """Each seat's remaining cards, canonical text."""
        return {s: format_cards(c) for s, c in zip(self.seats, self.hands_counts, strict=True)}

    @property
    def leading(self) -> bool:
        return self.open is None

    @property
    def spring(self) -> bool:
        """R-SPRING: the landlord won and no farmer played a card (R-5P: the losing side)."""
        side = self.landlord_side
        return self.winner == "landlord" and all(
            n == 0 for i, n in enumerate(self.played) if i not in side
        )

    @property
    def anti_spring(self) -> bool:
        """R-SPRING: the farmers won and the landlord made exactly one play (his opening lead)."""
        if self.rules.family == "five":  # R-5P: spring only; the landlord always leads a card
            return False
        return self.winner == "farmers" and self.played[self.landlord_index] == 1

    def legal_plays(self) -> list[Move]:
        """Every distinct legal turn of the seat to move, pass last when allowed (R-LEAD)."""
        if self.finished:
            return []
        return legal_moves(self.hands_counts[self.turn], self.open, self.rules)

    # -- the checked transition ---------------------------------------------------------------

    def apply(self, seat: str, cards: str, reading: str | None = None) -> GameState:
        """The state after ``seat`` plays ``cards`` (R-NOTE text, or a pass word).

        ``reading`` optionally declares the intended type (R-AMBIG) to settle an ambiguous
        play early.

        Raises:
            IllegalPlayError: play after the end (R-END); wrong seat or pass on lead (R-LEAD);
            cards the seat does not hold (R-VERIFY); not a combination (R-T…, R-KICK, R-MAX);
            does not beat the open trick (R-CMP); declared reading impossible (R-AMBIG).
            NotationError: cards that are not notation (R-NOTE).
        """
        if self.finished:
            raise IllegalPlayError(
                f"{seat} cannot play {cards!r}: the game ended when "
                f"{self.seats[self.winner_index or 0]} went out (R-END)",
                rule="R-END",
                seat=seat,
                cards=cards,
                code="play.after_end",
                params={"seat": seat, "cards": cards, "winner": self.seats[self.winner_index or 0]},
            )
        expected = self.seats[self.turn]
        if seat != expected:
            raise IllegalPlayError(
                f"it is {expected}'s turn to play, not {seat}'s (turn order "
                f"{'→'.join(self.seats)})",
                rule="R-LEAD",
                seat=seat,
                cards=cards,
                code="play.wrong_turn",
                params={"seat": seat, "cards": cards, "expected": expected},
            )
        play = parse_play(cards)
        n = self.rules.players
        if play is None:
            if self.open is None:
                raise IllegalPlayError(
                    f"{seat} must lead: the leader of a trick may not pass",
                    rule="R-LEAD",
                    seat=seat,
                    cards=cards,
                    code="play.must_lead",
                    params={"seat": seat},
                )
            passes = self.passes + 1
            nxt = (self.turn + 1) % n
            if passes == n - 1:  # R-TRICK: all others passed; the last player leads.
                assert self.last is not None
                return self._evolve(
                    open=None, passes=0, turn=self.last, plays=self.plays + ((seat, "pass"),)
                )
            return self._evolve(passes=passes, turn=nxt, plays=self.plays + ((seat, "pass"),))
        hand = self.hands_counts[self.turn]
        text = format_cards(play)
        if not contains(hand, play):
            raise IllegalPlayError(
                f"{seat} does not hold {text} (holds {format_cards(hand)})",
                rule="R-VERIFY",
                seat=seat,
                cards=cards,
                code="play.not_held",
                params={"seat": seat, "cards": text, "hand": format_cards(hand)},
            )
        readings = classify_counts(play, self.rules)
        if not readings:
            rule, why, code, params = why_not_coded(play, self.rules)
            raise IllegalPlayError(
                f"{seat} plays {text}: {why}",
                rule=rule,
                seat=seat,
                cards=cards,
                code=code,
                params={**params, "seat": seat},
            )
        if reading is not None:
            if reading not in TYPES:
                raise IllegalPlayError(
                    f"unknown declared reading {reading!r}",
                    rule="R-AMBIG",
                    seat=seat,
                    cards=cards,
                    code="play.unknown_reading",
                    params={"seat": seat, "cards": text, "reading": reading},
                )
            narrowed = frozenset(r for r in readings if r.type == reading)
            if not narrowed:
                raise IllegalPlayError(
                    f"{text} cannot be read as {reading}; it reads as "
                    + ", ".join(sorted({r.type for r in readings})),
                    rule="R-AMBIG",
                    seat=seat,
                    cards=cards,
                    code="play.reading_impossible",
                    params={
                        "seat": seat,
                        "cards": text,
                        "reading": reading,
                        "readings": sorted({r.type for r in readings}),
                    },
                )
            readings = narrowed
        if self.open is not None:
            taken = beating_readings(readings, self.open)
            if not taken:
                shown = ", ".join(f"{r.type} {r.rank}" for r in sorted(self.open))
                assert self.last is not None
                raise IllegalPlayError(
                    f"{seat} plays {text}, which does not beat {self.seats[self.last]}'s "
                    f"{self._last_cards()} ({shown})",
                    rule="R-CMP",
                    seat=seat,
                    cards=cards,
                    code="play.does_not_beat",
                    params={
                        "seat": seat,
                        "cards": text,
                        "owner": self.seats[self.last],
                        "last": self._last_cards(),
                    },
                )
            readings = taken
        new_hand = subtract(hand, play)
        hands = list(self.hands_counts)
        hands[self.turn] = new_hand
        played = list(self.played)
        played[self.turn] += 1
        types = {r.type for r in readings}
        # Only a bomb or rocket played alone doubles (R-KICK 3, R-SC-MULT).
        bombs = self.bombs + (1 if types == {"bomb"} else 0)
        rockets = self.rockets + (1 if types == {"rocket"} else 0)
        bomb_readings = self.bomb_readings
        if types == {"bomb"}:
            bomb_readings += (max(readings),)
        out = not any(new_hand)
        return self._evolve(
            hands_counts=tuple(hands),
            open=readings,
            last=self.turn,
            passes=0,
            turn=(self.turn + 1) % n,
            plays=self.plays + ((seat, text),),
            played=tuple(played),
            bombs=bombs,
            rockets=rockets,
            bomb_readings=bomb_readings,
            winner_index=self.turn if out else None,
        )

    def _evolve(self, **changes: Any) -> GameState:
        # dataclasses.replace re-runs __init__ and dominates replay time; a frozen dataclass
        # without __post_init__ can be copied field by field instead.
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def _last_cards(self) -> str:
        for _seat, text in reversed(self.plays):
            if text != "pass":
                return text
        return ""

    def __repr__(self) -> str:
        return (
            f"GameState(landlord={self.landlord!r}, to_move={self.to_move!r}, "
            f"hands={self.hands!r}, plays={len(self.plays)})"
        )


def split_tricks(turns: Sequence[tuple[str, str]], players: int) -> list[list[tuple[str, str]]]:
    """The turns of a record's play, ``[(seat, cards or "pass"), …]``, cut into tricks: a trick
    ends once the `players` − 1 others have passed in a row after its last play (R-TRICK).

    Shapes only: legality is ``GameState.apply``'s. The last trick may be open (unfinished).

    >>> split_tricks([("S", "33"), ("E", "pass"), ("W", "pass"), ("S", "4"), ("E", "5")], 3)
    [[('S', '33'), ('E', 'pass'), ('W', 'pass')], [('S', '4'), ('E', '5')]]
    """
    tricks: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] = []
    passes = 0
    for seat, cards in turns:
        current.append((seat, cards))
        passes = passes + 1 if cards == "pass" else 0
        if passes == players - 1:
            tricks.append(current)
            current, passes = [], 0
    if current:
        tricks.append(current)
    return tricks
