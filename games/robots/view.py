"""What one seat may know during the play: the *view* a robot decides from (fairness).

Vocabulary:

- *view* (``SeatView``): the rule set, the seat, its own remaining cards, the landlord (and, at
  five players, the hidden landlord once the seat may know him), the number of cards every
  seat holds, the public history of plays and passes, the bidding calls, the bottom cards when
  they are public (R-BOTTOM: shown to all at three players; the landlord always knows them),
  and the open trick (its readings and the seat that made it). Nothing else: never another
  seat's cards.
- *unseen cards*: the deck minus the seat's own cards and every card played so far (R-DECK);
  they are somewhere in the other seats' hands, or in cards nobody sees (R-2P aside; the
  bottom at four and five players for a farmer).
- *known cards*: unseen cards a seat surely holds, from the public bottom: the landlord still
  holds each bottom card he has not played as many times (R-BOTTOM).
- *sample*: one way to deal the unseen cards among the other seats consistent with their
  counts and the known cards; a robot that searches plays on samples, never on the true
  hands, so it decides from the view only.

``view_of`` is the one door from a ``GameState`` (which holds every hand) to a view: it copies
the public fields and only the deciding seat's hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import GameState, Reading, RuleSet, parse_cards, parse_hand
from games.engine.cards import deck_counts
from games.engine.moves import Move, legal_moves

__all__ = ["SeatView", "view_of"]

Counts = tuple[int, ...]


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge at its turn to play (see the module docstring).

    Attributes: ``rules``; ``seat``; ``hand`` (the seat's cards, counts per rank R-RANK);
    ``landlord`` (seat); ``partner`` (the five-player hidden landlord when this seat may know
    him, R-5P, else None); ``counts`` (seat → cards held, in ``rules.seats`` order);
    ``plays`` (the public turns ``(seat, cards or "pass")``); ``calls`` (the bidding calls);
    ``bottom`` (counts, or None when this seat has not seen them); ``open`` (the readings to
    beat, None when the seat leads, R-LEAD); ``owner`` (the seat whose play is open).
    """

    rules: RuleSet
    seat: str
    hand: Counts
    landlord: str
    partner: str | None
    counts: tuple[tuple[str, int], ...]
    plays: tuple[tuple[str, str], ...]
    calls: tuple[tuple[str, str], ...]
    bottom: Counts | None
    open: frozenset[Reading] | None
    owner: str | None

    @property
    def seats(self) -> tuple[str, ...]:
        return self.rules.seats

    def held(self, seat: str) -> int:
        """How many cards ``seat`` holds now."""
        return dict(self.counts)[seat]

    def side(self, seat: str) -> str:
        """``"landlord"`` or ``"farmer"``: the side of ``seat`` as this seat knows it."""
        return "landlord" if seat in (self.landlord, self.partner) else "farmer"

    def partners(self) -> list[str]:
        """The other seats of this seat's side (R-END: one out wins for the whole side)."""
        mine = self.side(self.seat)
        return [s for s in self.seats if s != self.seat and self.side(s) == mine]

    def enemies(self) -> list[str]:
        """The seats of the other side."""
        mine = self.side(self.seat)
        return [s for s in self.seats if self.side(s) != mine]

    def legal(self) -> list[Move]:
        """The seat's legal turns (R-LEAD, R-CMP, R-AMBIG), as ``GameState.legal_plays``."""
        return legal_moves(self.hand, self.open, self.rules)

    def played_by(self, seat: str) -> Counts:
        """The cards ``seat`` has played so far."""
        total = [0] * 15
        for who, text in self.plays:
            if who == seat and text != "pass":
                for r, c in enumerate(parse_cards(text)):
                    total[r] += c
        return tuple(total)

    def unseen(self) -> Counts:
        """The deck minus this seat's cards and every card played (R-DECK)."""
        left = list(deck_counts(self.rules.decks))
        for r, c in enumerate(self.hand):
            left[r] -= c
        for _, text in self.plays:
            if text != "pass":
                for r, c in enumerate(parse_cards(text)):
                    left[r] -= c
        return tuple(left)

    def known(self) -> dict[str, Counts]:
        """Unseen cards a seat surely holds: the bottom cards the landlord has not played."""
        if self.bottom is None or self.seat == self.landlord:
            return {}
        played = self.played_by(self.landlord)
        return {
            self.landlord: tuple(max(0, b - p) for b, p in zip(self.bottom, played, strict=True))
        }

    def sample(self, rng: random.Random) -> dict[str, Counts]:
        """Deal the unseen cards at random among the other seats, consistent with their counts
        and the known cards; cards left over are the ones nobody sees (R-2P, R-4P, R-5P).

        Returns seat → counts for every seat, this seat's own hand included.
        """
        pool = list(self.unseen())
        hands: dict[str, list[int]] = {s: [0] * 15 for s in self.seats}
        need = {s: n for s, n in self.counts if s != self.seat}
        for seat, cards in self.known().items():
            for r, c in enumerate(cards):
                take = min(c, pool[r])
                hands[seat][r] += take
                pool[r] -= take
                need[seat] -= take
        cards_left = [r for r, c in enumerate(pool) for _ in range(c)]
        rng.shuffle(cards_left)
        at = 0
        for seat in self.seats:
            if seat == self.seat:
                continue
            for r in cards_left[at : at + need[seat]]:
                hands[seat][r] += 1
            at += need[seat]
        hands[self.seat] = list(self.hand)
        return {s: tuple(h) for s, h in hands.items()}


def view_of(
    state: GameState,
    seat: str,
    *,
    bottom: str | None = None,
    calls: Sequence[tuple[str, str]] = (),
) -> SeatView:
    """The view of ``seat`` in ``state``: what that seat may know, and nothing more.

    ``bottom`` is the deal's bottom cards (R-NOTE or suited text, R-SUIT); the view keeps them
    only when the seat may see them (R-BOTTOM at three players, or the seat is the landlord).
    ``calls`` are the bidding's ``(seat, call)`` pairs; a five-player hidden landlord is known
    to himself, and to all once a ``reveal`` call is made (R-5P).

    Raises:
        ValueError: ``seat`` is not a seat of the rules (R-SEAT).
        games.engine.NotationError: ``bottom`` is not card notation (R-NOTE).
    """
    seats = state.seats
    if seat not in seats:
        raise ValueError(f"{seat!r} is not a seat of these rules ({' '.join(seats)}) (R-SEAT)")
    partner = None if state.partner_index is None else seats[state.partner_index]
    revealed = any(call == "reveal" for _, call in calls)
    # The open landlord does not know who holds the twin of the marked card either (R-5P).
    if partner is not None and not (revealed or seat == partner):
        partner = None
    public = state.rules.family == "three" or seat == state.landlord
    return SeatView(
        rules=state.rules,
        seat=seat,
        hand=state.hands_counts[seats.index(seat)],
        landlord=state.landlord,
        partner=partner,
        counts=tuple((s, sum(h)) for s, h in zip(seats, state.hands_counts, strict=True)),
        plays=tuple(state.plays),
        calls=tuple((str(s), str(c)) for s, c in calls),
        bottom=parse_hand(bottom) if bottom and public else None,
        open=state.open,
        owner=None if state.last is None or state.open is None else seats[state.last],
    )
