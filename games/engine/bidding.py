"""Bidding (叫牌): who becomes landlord and at what contract (RULES.md §3).

Vocabulary:

- *call*: one word of the bidding, as recorded (RECORDS.md §1): ``pass``, ``1``/``2``/``3``
  (auction and once), ``call``/``rob`` (rob and competition), ``double``, ``redouble``,
  ``show`` (明牌), ``surrender``.
- *system*: ``auction`` (R-BID-AUCTION), ``once`` (R-BID-ONCE), ``rob`` (R-BID-ROB),
  ``competition`` (R-BID-COMP). After the auction, the doubling phase of R-DOUBLE-ORDER for the
  ``additive`` and ``cn2016`` scorings, then optional calls (``surrender`` in competition,
  R-SURRENDER; ``show`` by the landlord under R-SC-ROB).
- *contract value* (``bid``): the bid (auction, once), the stake multiplier 3 × 2^robs (rob), or
  the value 1 + robs (competition).
- *passed out*: nobody took the landlord (R-PASSOUT).

``Bidding`` is immutable: ``apply`` returns a new value or raises ``IllegalBidError``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import IllegalBidError
from .rules import CLASSIC, RuleSet

__all__ = ["Bidding", "BID_RULE"]

BID_RULE = {
    "auction": "R-BID-AUCTION",
    "once": "R-BID-ONCE",
    "rob": "R-BID-ROB",
    "competition": "R-BID-COMP",
    "call": "R-2P",
    "marked": "R-5P",
}
NUMBERS = ("1", "2", "3")
# R-NOTE's words for a pass in the bidding (normalize_call; the live entry page's checker too).
PASS_CALLS = ("p", "pass", "-", "0", "不要", "过", "過", "不出", "不叫", "不抢", "不搶", "不加倍")


def normalize_call(call: str) -> str:
    """Lower-case a call and map R-NOTE's pass words to ``pass``."""
    word = call.strip().lower()
    if word in PASS_CALLS:
        return "pass"
    return word


@dataclass(frozen=True)
class Bidding:
    """The bidding of one deal so far.

    Attributes: ``rules``; ``calls`` (tuple of ``(seat, call)``); ``phase`` (``auction``,
    ``double``, ``redouble``, ``done``); ``landlord`` (seat or None); ``bid`` (contract value,
    0 before any); ``passed_out``; ``doubles`` (seats that doubled); ``redoubled``; ``robs``;
    ``shown``; ``surrendered``.
    """

    rules: RuleSet
    first: int
    calls: tuple[tuple[str, str], ...] = ()
    phase: str = "auction"
    turn: int | None = 0
    bid: int = 0
    high: int | None = None  # current highest bidder or holder, a seat index
    passes: int = 0  # passes in a row (auction)
    declined: frozenset[int] = frozenset()
    held: tuple[int, ...] = ()  # how often each seat became holder (rob)
    first_caller: int | None = None
    later: tuple[int, ...] = ()  # competition: the seats still to speak after the first call
    robs: int = 0
    landlord_index: int | None = None
    passed_out: bool = False
    doubles: tuple[str, ...] = ()
    redoubled: bool = False
    shown: bool = False
    surrendered: bool = False
    double_queue: tuple[int, ...] = ()
    partner_index: int | None = None
    reveals: int = 0

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def start(
        cls, rules: RuleSet | None, first_bidder: str, *, partner: str | None = None
    ) -> Bidding:
        """The empty bidding with ``first_bidder`` to speak (R-DEAL: part of the board).

        Five players (R-5P): ``first_bidder`` is the open landlord (the holder of the marked
        card) and ``partner`` the hidden landlord (None when the open landlord holds both); the
        calls are one round of ``double`` or ``pass`` from the open landlord, then ``reveal``.

        Raises:
            IllegalBidError: ``first_bidder`` is not a seat of the table (R-SEAT).
        """
        rs = rules or CLASSIC
        if first_bidder not in rs.seats:
            raise IllegalBidError(
                f"first bidder {first_bidder!r} is not a seat ({' '.join(rs.seats)})",
                rule="R-SEAT",
                seat=first_bidder,
                code="bid.first_bidder",
                params={"seat": str(first_bidder), "seats": list(rs.seats)},
            )
        first = rs.seats.index(first_bidder)
        start = cls(rules=rs, first=first, turn=first, held=(0,) * rs.players)
        if rs.bidding == "marked":
            pi = rs.seats.index(partner) if partner in rs.seats else None
            queue = tuple((first + k) % rs.players for k in range(rs.players))
            return replace(
                start,
                landlord_index=first,
                high=first,
                bid=1,
                phase="double",
                double_queue=queue[1:],
                partner_index=pi if pi != first else None,
            )
        return start

    # -- queries ------------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return self.rules.seats

    @property
    def rule(self) -> str:
        if self.rules.bidding == "marked":
            return "R-5P"
        if self.phase in ("double", "redouble"):
            return "R-DOUBLE-ORDER"
        return BID_RULE[self.rules.bidding]

    @property
    def done(self) -> bool:
        """True when the landlord and contract are settled, or the deal is passed out."""
        return self.phase == "done"

    @property
    def to_move(self) -> str | None:
        """The seat whose call is due, or None when the bidding is done."""
        if self.phase == "done" or self.turn is None:
            return None
        return self.seats[self.turn]

    @property
    def landlord(self) -> str | None:
        return None if self.landlord_index is None else self.seats[self.landlord_index]

    def legal_calls(self) -> list[str]:
        """The calls the seat to move may make now; [] when done (see ``optional_calls``)."""
        if self.phase == "done":
            return []
        system = self.rules.bidding
        if self.phase == "double":
            return ["double", "pass"]
        if self.phase == "redouble":
            return ["redouble", "pass"]
        if system in ("auction", "once"):
            return ["pass"] + [n for n in NUMBERS if int(n) > self.bid]
        if self.first_caller is None or system == "call":
            return ["call", "pass"]
        return ["rob", "pass"]

    def optional_calls(self) -> list[str]:
        """Calls allowed after the bidding is done: ``surrender`` (R-SURRENDER, competition),
        ``show`` (明牌, R-SC-ROB); made by the landlord before the first lead."""
        if self.phase != "done" or self.passed_out or self.surrendered:
            return []
        out = []
        if self.rules.scoring == "additive":
            out.append("surrender")
        if self.rules.scoring == "rob" and not self.shown:
            out.append("show")
        if self.rules.bidding == "marked" and self.partner_index is not None and not self.reveals:
            out.append("reveal")
        return out

    def _may_make(self, seat: str, word: str) -> bool:
        if word not in self.optional_calls():
            return False
        if word == "reveal":  # R-5P: either landlord may reveal
            return seat in (self.landlord, self.seats[self.partner_index or 0])
        return seat == self.landlord

    # -- transitions --------------------------------------------------------------------------

    def apply(self, seat: str, call: str) -> Bidding:
        """The bidding after ``seat`` makes ``call``.

        Raises:
            IllegalBidError: wrong seat, a call the system does not know or forbids here, a bid
            not above the current one, a call after the end; names seat, call and rule.
        """
        word = normalize_call(str(call))
        if self.phase == "done":
            if self._may_make(seat, word):
                if word == "surrender":
                    return self._record(seat, word, surrendered=True)
                if word == "reveal":
                    return self._record(seat, word, reveals=1)
                return self._record(seat, word, shown=True)
            if self.passed_out:
                why, code = (
                    "the deal is passed out (R-PASSOUT); no call may follow",
                    "bid.passed_out",
                )
            elif word in self.optional_calls():
                why, code = f"only a landlord may {word}", "bid.landlord_only"
            else:
                why, code = "the bidding is over", "bid.over"
            raise IllegalBidError(
                f"{seat} cannot call {call!r}: {why}",
                rule="R-SURRENDER" if word == "surrender" else self.rule,
                seat=seat,
                cards=str(call),
                code=code,
                params={"seat": seat, "call": word},
            )
        expected = self.to_move
        if seat != expected:
            raise IllegalBidError(
                f"it is {expected}'s turn to call, not {seat}'s",
                rule=self.rule,
                seat=seat,
                cards=str(call),
                code="bid.wrong_turn",
                params={"seat": seat, "call": str(call), "expected": expected},
            )
        legal = self.legal_calls()
        if word not in legal:
            raise IllegalBidError(
                f"{seat} cannot call {call!r} now; allowed: {', '.join(legal)}" + self._why(word),
                rule=self.rule,
                seat=seat,
                cards=str(call),
                code="bid.not_allowed",
                params={"seat": seat, "call": str(call), "allowed": list(legal)},
            )
        i = self.seats.index(seat)
        if self.phase == "double":
            return self._after_double(seat, word)
        if self.phase == "redouble":
            return self._finish_auction(
                self._record(seat, word, redoubled=word == "redouble"), doubling_done=True
            )
        system = self.rules.bidding
        if system == "auction":
            return self._auction(i, seat, word)
        if system == "once":
            return self._once(i, seat, word)
        if system == "rob":
            return self._rob(i, seat, word)
        if system == "call":
            return self._call(i, seat, word)
        return self._competition(i, seat, word)

    def _call(self, i: int, seat: str, word: str) -> Bidding:
        # R-2P: in turn, call or pass; the first call makes the landlord; all pass: passed out.
        if word == "call":
            return self._record(seat, word, bid=1)._won(i)
        new = self._record(seat, word, turn=self._next(i))
        return new._out() if len(new.calls) == self.rules.players else new

    # -- helpers ------------------------------------------------------------------------------

    def _why(self, word: str) -> str:
        if word in NUMBERS and int(word) <= self.bid:
            return f" (a bid must be higher than the current {self.bid})"
        if word in ("call", "rob", "double", "redouble", "show", "surrender") or word in NUMBERS:
            return f" ({word!r} does not belong to this phase of the {self.rules.bidding} bidding)"
        return f" ({word!r} is not a call)"

    def _record(self, seat: str, word: str, **changes: object) -> Bidding:
        return replace(self, calls=self.calls + ((seat, word),), **changes)  # type: ignore[arg-type]

    def _next(self, i: int) -> int:
        return (i + 1) % self.rules.players

    def _auction(self, i: int, seat: str, word: str) -> Bidding:
        # R-BID-AUCTION: bid above the current one or pass; passed players may bid later; a 3
        # ends it, as do two passes in a row after a bid; three passes with no bid pass it out.
        if word == "pass":
            new = self._record(seat, word, passes=self.passes + 1, turn=self._next(i))
            if new.high is not None and new.passes == self.rules.players - 1:
                return new._won(new.high)
            if new.high is None and new.passes == self.rules.players:
                return new._out()
            return new
        new = self._record(seat, word, bid=int(word), high=i, passes=0, turn=self._next(i))
        return new._won(i) if word == "3" else new

    def _once(self, i: int, seat: str, word: str) -> Bidding:
        # R-BID-ONCE: each player speaks once; a 3 ends it at once; the highest bid wins.
        if word == "pass":
            new = self._record(seat, word, turn=self._next(i))
        else:
            new = self._record(seat, word, bid=int(word), high=i, turn=self._next(i))
            if word == "3":
                return new._won(i)
        if len(new.calls) == self.rules.players:
            return new._won(new.high) if new.high is not None else new._out()
        return new

    def _rob(self, i: int, seat: str, word: str) -> Bidding:
        # R-BID-ROB: the first call makes the holder (stake ×3); then each player who has not
        # declined may rob (×2, becomes holder) or decline for good; it ends when all others
        # have declined or a player becomes holder for the second time.
        held = list(self.held)
        if word == "pass":
            declined = self.declined | {i}
            new = self._record(seat, word, declined=declined)
            if self.first_caller is None and len(declined) == self.rules.players:
                return new._out()
        elif word == "call":
            held[i] += 1
            new = self._record(seat, word, first_caller=i, high=i, held=tuple(held), bid=3)
        else:
            held[i] += 1
            new = self._record(
                seat,
                word,
                high=i,
                held=tuple(held),
                robs=self.robs + 1,
                bid=3 * 2 ** (self.robs + 1),
            )
            if held[i] == 2:
                return new._won(i)
        if new.first_caller is None:
            return replace(new, turn=self._next(i))
        others = [j for j in range(self.rules.players) if j != new.high and j not in new.declined]
        if not others:
            assert new.high is not None
            return new._won(new.high)
        j = self._next(i)
        while j == new.high or j in new.declined:
            j = self._next(j)
        return replace(new, turn=j)

    def _competition(self, i: int, seat: str, word: str) -> Bidding:
        # R-BID-COMP: value 1 on the first call; each later player speaks once (rob +1 or pass);
        # a player who passed the call may not rob; if anyone robbed, the first caller has one
        # final rob. No circling back.
        n = self.rules.players
        if self.first_caller is None:
            if word == "pass":
                new = self._record(seat, word, turn=self._next(i))
                if len(new.calls) == n:
                    return new._out()
                return new
            later = []
            j = self._next(i)
            while j != self.first:
                later.append(j)
                j = self._next(j)
            new = self._record(seat, word, first_caller=i, high=i, bid=1, later=tuple(later))
            return new._competition_next()
        if i == self.first_caller:  # the final rob
            if word == "rob":
                return self._record(seat, word, high=i, bid=self.bid + 1, robs=self.robs + 1)._won(
                    i
                )
            assert self.high is not None
            return self._record(seat, word)._won(self.high)
        if word == "rob":
            new = self._record(
                seat, word, high=i, bid=self.bid + 1, robs=self.robs + 1, later=self.later[1:]
            )
        else:
            new = self._record(seat, word, later=self.later[1:])
        return new._competition_next()

    def _competition_next(self) -> Bidding:
        if self.later:
            return replace(self, turn=self.later[0])
        if self.robs and self.first_caller is not None and self.high != self.first_caller:
            return replace(self, turn=self.first_caller)
        assert self.high is not None
        return self._won(self.high)

    def _won(self, i: int) -> Bidding:
        won = replace(self, landlord_index=i, high=i)
        return won._finish_auction(won, doubling_done=False)

    def _finish_auction(self, state: Bidding, *, doubling_done: bool) -> Bidding:
        if not doubling_done and state.rules.scoring in ("additive", "cn2016"):
            assert state.landlord_index is not None
            n = state.rules.players
            queue = tuple((state.landlord_index + k) % n for k in range(1, n))
            return replace(state, phase="double", double_queue=queue[1:], turn=queue[0])
        return replace(state, phase="done", turn=None)

    def _after_double(self, seat: str, word: str) -> Bidding:
        doubles = self.doubles + ((seat,) if word == "double" else ())
        new = self._record(seat, word, doubles=doubles)
        if self.double_queue:
            return replace(new, double_queue=self.double_queue[1:], turn=self.double_queue[0])
        # R-DOUBLE-ORDER: the landlord may redouble (cn2016) only if a farmer doubled.
        # R-5P: every player doubles or passes once; that is the whole bidding.
        if self.rules.scoring == "cn2016" and doubles:
            return replace(new, phase="redouble", turn=self.landlord_index)
        return replace(new, phase="done", turn=None)

    def _out(self) -> Bidding:
        return replace(self, phase="done", turn=None, passed_out=True, bid=0, high=None)
