"""Exhaustive search of the rest of a game, for claims (R-CLAIM).

A claim stops play early: the claimant says his side takes all the rest. *Decision* of
RULES.md: the verifier accepts it only if the claiming side wins against every defence, all
hands known. This module decides that by an AND-OR search over the remaining play: on the
claiming side's turns some legal play must win, on the defenders' turns every legal play
(pass included) must still lose. The search is bounded by a number of positions; past it the
verdict is ``UNKNOWN`` (flagged for the referee), never a hang. A verdict depends only on the
position and the budget, never on the machine's speed, unless a caller also bounds it in
seconds (``seconds``: a live view that must answer at once; its UNKNOWN then depends on the
machine, which is why verification never sets it).

Vocabulary:

- *position*: the hands, the seat to move and, when a trick is open, its open readings, the
  seat that made them and the passes since (R-TRICK). Hands are *codes*: 8 bits per rank.
- *proof and disproof numbers* (df-pn, depth-first proof-number search): for each position,
  how many positions at least must still be decided to prove the claim from it, and to refute
  it. The search always deepens the position that is cheapest to settle, within thresholds,
  and remembers both numbers in a transposition table (positions reached again by other orders
  of the same plays). A new position starts from estimates: the square of the fewest plays
  that any hand of the claiming side, and of the other side, would need with no one answering
  (rank groups, trios carrying a kicker, runs of solos as chains). Estimates steer the order
  only; a verdict is only ever a proof or a refutation.
- *immediate win*: the seat to move can play out its hand at once (a hand that is one
  combination, R-END). A new position won that way is settled when it is generated, without
  being expanded.
- *sure play*: a play no seat of the other side can beat with the cards it holds; as hands only
  shrink, it stays so while they pass. A seat that can make a sure play and then lead sure plays
  until a last one goes out whatever the others do (they can only pass; its partner passes): a
  sound cut (the *sure-win cut*), looked for at any depth (sure leads commute, so the search
  of the ways to split the hand remembers the parts that do not go out; it gives up, saying
  no, after a fixed number of sure leads tried). So is a play the mover's partner, next to
  move, beats with a sure play before going out the same way. Sure plays are tried first.
- *locked lead*: a leader alone of his side to hold cards (the landlord at three), whose hand
  certainly does not go out by sure leads and a last play, and after each of whose beatable
  leads the other side wins at once (by the cuts above): his side loses, whatever order he
  plays his sure leads in (by induction on his hand: they leave him a smaller hand of the same
  kind, and the other side's winning answers stay sure against fewer cards).
- *forced pass*: a seat that cannot beat the open play only passes; the search steps over it.

Moves and their effects are the engine's own: ``legal_moves`` lists exactly the turns the
checked ``GameState.apply`` accepts, with the open readings each leaves (R-CMP, R-AMBIG). Each
seat's plays are listed once for the hand it holds at the claim; the plays of a smaller hand are
those of them that it still holds (a combination is legal to lead, or beats an open play,
whatever else the hand holds).
"""

from __future__ import annotations

import enum
import time
from typing import Any, NamedTuple

from .cards import Counts, parse_cards
from .combos import Reading, classify_counts
from .moves import legal_moves
from .play import GameState

__all__ = ["ClaimSearch", "ClaimVerdict", "prove_claim", "search_claim"]

_INF = 1 << 40
_EPSILON = 0.25  # the 1+ε trick of df-pn: a child keeps the search a little past its sibling
_SURE_STEPS = 200  # sure leads tried at most by one sure-win test
_RANKS = 15
_GUARD = int.from_bytes(b"\x80" * _RANKS, "little")


class ClaimVerdict(enum.Enum):
    PROVEN = "proven"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


class _OutOfBudget(Exception):
    pass


_LOST: list[Any] = []  # expand's answer for a position its mover's side surely loses


Open = frozenset[Reading] | None
# A position: hands (codes by seat), seat to move, open readings, seat of the open play, passes.
Position = tuple[tuple[int, ...], int, Open, int, int]
# A play: its code, the open readings it leaves, its number of cards.
Play = tuple[int, frozenset[Reading], int]


def _code(counts: Counts) -> int:
    return int.from_bytes(bytes(counts), "little")


class ClaimSearch(NamedTuple):
    """The outcome of one claim search: ``verdict``, and ``positions``, the positions expanded
    (generated their moves) to reach it, at most the budget plus one. ``positions`` depends
    only on the position, the side and the budget: a measure of the work that the machine's
    load does not change."""

    verdict: ClaimVerdict
    positions: int


def prove_claim(
    state: GameState, side: str, *, budget: int = 200_000, seconds: float | None = None
) -> ClaimVerdict:
    """Whether ``side`` (``"landlord"`` or ``"farmers"``) wins from ``state`` against every
    defence.

    Args:
        state: the play state when the claim was made.
        side: the claiming side.
        budget: positions expanded at most before answering ``UNKNOWN``.
        seconds: also answer ``UNKNOWN`` once this much time has passed (None: no time bound;
            with one, the verdict may depend on the machine's speed).

    Returns:
        ``PROVEN``, ``REFUTED`` (a defence wins for the other side) or ``UNKNOWN``.

    Rules: R-CLAIM (the search), R-LEAD, R-TRICK, R-CMP, R-AMBIG, R-END (the moves).
    """
    return search_claim(state, side, budget=budget, seconds=seconds).verdict


def search_claim(
    state: GameState, side: str, *, budget: int = 200_000, seconds: float | None = None
) -> ClaimSearch:
    """``prove_claim``, with the number of positions the search expanded (``ClaimSearch``).

    Rules: R-CLAIM.
    """
    if state.finished:
        won = state.winner == side
        return ClaimSearch(ClaimVerdict.PROVEN if won else ClaimVerdict.REFUTED, 0)
    search = _Search(state, side, budget)
    if seconds is not None:
        search.deadline = time.monotonic() + seconds
    start = search.settle(
        (
            tuple(_code(h) for h in state.hands_counts),
            state.turn,
            state.open,
            state.last if state.last is not None else state.turn,
            state.passes,
        )
    )
    try:
        proof, disproof = search.mid(start, _key(start), _INF - 1, _INF - 1)
    except (_OutOfBudget, RecursionError):
        return ClaimSearch(ClaimVerdict.UNKNOWN, search.expanded)
    if proof == 0:
        return ClaimSearch(ClaimVerdict.PROVEN, search.expanded)
    if disproof == 0:
        return ClaimSearch(ClaimVerdict.REFUTED, search.expanded)
    return ClaimSearch(ClaimVerdict.UNKNOWN, search.expanded)  # pragma: no cover


def _key(pos: Position) -> Any:
    # A leading position is only hands and seat: who made the last play no longer matters.
    return (pos[0], pos[1]) if pos[2] is None else pos


class _Search:
    """One claim's search: its tables and its budget (see the module docstring)."""

    def __init__(self, state: GameState, side: str, budget: int) -> None:
        self.rules = state.rules
        self.players = state.rules.players
        landlord_side = state.landlord_side
        self.ours = tuple(
            (seat in landlord_side) == (side == "landlord") for seat in range(self.players)
        )
        self.start = state.hands_counts
        self.budget = budget
        self.deadline: float | None = None  # time.monotonic() past which it gives up
        self.expanded = 0
        self.numbers: dict[Any, tuple[int, int]] = {}  # the transposition table
        self.children: dict[Any, list[tuple[Any, Position]]] = {}
        self.universe: dict[tuple[int, Open], list[Play]] = {}
        self.plays_of: dict[tuple[int, int, Open], list[Play]] = {}
        self.beaten: dict[tuple[frozenset[Reading], tuple[tuple[int, int], ...]], bool] = {}
        self.whole: dict[int, bool] = {}
        self.answers: dict[tuple[int, int, frozenset[Reading]], bool] = {}
        self.estimates: dict[int, int] = {}
        # Hands of a seat, against the hands of the other side, that do not go out by sure
        # leads (goes_out).
        self.not_out: dict[tuple[int, tuple[tuple[int, int], ...]], set[int]] = {}

    # -- moves ---------------------------------------------------------------------------------

    def plays(self, seat: int, hand: int, open_: Open) -> list[Play]:
        """The plays (no pass) of ``seat`` holding ``hand``, leading or beating ``open_``:
        going out first, then larger first."""
        key = (seat, hand, open_)
        found = self.plays_of.get(key)
        if found is None:
            held = hand + _GUARD
            found = [p for p in self.every(seat, open_) if (held - p[0]) & _GUARD == _GUARD]
            found.sort(key=lambda p: (p[0] != hand, -p[2]))
            self.plays_of[key] = found
        return found

    def beatable(self, readings: frozenset[Reading], others: tuple[tuple[int, int], ...]) -> bool:
        """Whether some seat of ``others`` (seat, hand) can beat a play of these readings."""
        key = (readings, others)
        found = self.beaten.get(key)
        if found is None:
            found = False
            for seat, hand in others:
                held = hand + _GUARD
                if any(
                    (held - code) & _GUARD == _GUARD for code, _, _ in self.every(seat, readings)
                ):
                    found = True
                    break
            self.beaten[key] = found
        return found

    def can_beat(self, seat: int, hand: int, readings: frozenset[Reading]) -> bool:
        """Whether ``seat`` holding ``hand`` can beat a play of these readings."""
        key = (seat, hand, readings)
        found = self.answers.get(key)
        if found is None:
            held = hand + _GUARD
            found = self.answers[key] = any(
                (held - code) & _GUARD == _GUARD for code, _, _ in self.every(seat, readings)
            )
        return found

    def every(self, seat: int, open_: Open) -> list[Play]:
        """The plays of ``seat``'s hand at the claim, leading or beating ``open_``."""
        found = self.universe.get((seat, open_))
        if found is None:
            found = self.universe[seat, open_] = [
                (_code(parse_cards(m.cards)), m.readings, len(m.cards))
                for m in legal_moves(self.start[seat], open_, self.rules)
                if not m.is_pass
            ]
        return found

    def one_play(self, code: int) -> bool:
        """Whether these cards are one combination (a lead that empties the hand)."""
        found = self.whole.get(code)
        if found is None:
            counts = tuple(code.to_bytes(_RANKS, "little"))
            found = self.whole[code] = bool(classify_counts(counts, self.rules))
        return found

    def goes_out(self, seat: int, hand: int, others: tuple[tuple[int, int], ...]) -> bool:
        """Whether ``seat``, leading with ``hand``, goes out by sure leads (plays no seat of
        ``others`` can beat with the hands it holds) and then one last play of any kind.

        A sufficient test: the search of the ways to split the hand stops after _SURE_STEPS
        sure leads tried (then False). Sure leads commute (each one wins its trick, the seat
        leads again), so a part of the hand once found not to go out is not tried again.
        """
        key = (seat, others)
        lost = self.not_out.get(key)
        if lost is None:
            lost = self.not_out[key] = set()
        if hand in lost:
            return False
        sure = [c for c, r, _ in self.plays(seat, hand, None) if not self.beatable(r, others)]
        steps = [_SURE_STEPS]

        def out(h: int) -> bool:
            if self.one_play(h):
                return True
            if h in lost:
                return False
            held = h + _GUARD
            for code in sure:
                if code != h and (held - code) & _GUARD == _GUARD:
                    if steps[0] <= 0:
                        return False
                    steps[0] -= 1
                    if out(h - code):
                        return True
            if steps[0] > 0:  # every split was tried: h never goes out this way
                lost.add(h)
            return False

        return out(hand)

    def never_out(self, seat: int, hand: int, others: tuple[tuple[int, int], ...]) -> bool:
        """Whether it is certain that ``seat``, leading with ``hand``, does not go out by sure
        leads and one last play (goes_out answered no after trying every split)."""
        return not self.goes_out(seat, hand, others) and hand in self.not_out[seat, others]

    # -- positions -----------------------------------------------------------------------------

    def settle(self, pos: Position) -> Position:
        """The position after the forced passes of the seats that cannot beat the open play."""
        hands, turn, open_, last, passes = pos
        n = self.players
        while open_ is not None and not self.can_beat(turn, hands[turn], open_):
            passes += 1
            if passes == n - 1:  # R-TRICK: all the others passed; the last player leads
                return (hands, last, None, last, 0)
            turn = (turn + 1) % n
        return (hands, turn, open_, last, passes)

    def expand(self, pos: Position) -> list[tuple[Any, Position]] | None:
        """The children of a position, sure plays first; None when its mover's side wins at
        once or surely (the immediate win and the sure-win cut); _LOST when it loses surely
        (locked)."""
        hands, turn, open_, last, passes = pos
        mine = self.ours[turn]
        hand = hands[turn]
        plays = self.plays(turn, hand, open_)
        if plays and plays[0][0] == hand:
            return None  # R-END: the mover goes out now
        others = tuple((seat, h) for seat, h in enumerate(hands) if self.ours[seat] != mine and h)
        sure = [not self.beatable(readings, others) for _, readings, _ in plays]
        if any(sure):
            for is_sure, (code, _, _) in zip(sure, plays, strict=True):
                if is_sure and self.goes_out(turn, hand - code, others):
                    return None
        n = self.players
        nxt = (turn + 1) % n
        if self.ours[nxt] == mine and self.feeds(hands, nxt, plays, others):
            return None
        if open_ is None and self.locked(pos, plays, sure, others):
            return _LOST
        numbers = self.numbers
        # Initial numbers of new children: the estimates of the other seats are the parent's.
        ours = theirs = _INF
        for seat, h in enumerate(hands):
            if h and seat != turn:
                if self.ours[seat]:
                    ours = min(ours, self.estimate(h))
                else:
                    theirs = min(theirs, self.estimate(h))
        first: list[tuple[Any, Position]] = []
        later: list[tuple[Any, Position]] = []
        for is_sure, (code, readings, _) in zip(sure, plays, strict=True):
            rest = hand - code
            after = hands[:turn] + (rest,) + hands[turn + 1 :]
            child = self.settle((after, nxt, readings, turn, 0))
            ck = _key(child)
            if ck not in numbers and not self.ends_at_once(child, ck):
                e = self.estimate(rest)
                numbers[ck] = (min(ours, e), theirs) if mine else (ours, min(theirs, e))
            (first if is_sure else later).append((ck, child))
        kids = first + later
        if open_ is not None:  # the pass: first when the open play is the mover's own side's
            if passes + 1 == n - 1:
                child = (hands, last, None, last, 0)
            else:
                child = self.settle((hands, nxt, open_, last, passes + 1))
            ck = _key(child)
            if ck not in numbers and not self.ends_at_once(child, ck):
                e = self.estimate(hand)
                numbers[ck] = (min(ours, e), theirs) if mine else (ours, min(theirs, e))
            if self.ours[last] == mine:
                kids.insert(0, (ck, child))
            else:
                kids.append((ck, child))
        return kids

    def ends_at_once(self, pos: Position, key: Any) -> bool:
        """Whether the mover of a new position goes out with his next play (R-END): if so,
        its numbers are settled at once, without expanding it."""
        hands, turn, open_, _, _ = pos
        hand = hands[turn]
        plays = self.plays(turn, hand, open_)
        if not plays or plays[0][0] != hand:
            return False
        self.numbers[key] = (0, _INF) if self.ours[turn] else (_INF, 0)
        self.children[key] = []
        return True

    def locked(
        self,
        pos: Position,
        plays: list[Play],
        sure: list[bool],
        others: tuple[tuple[int, int], ...],
    ) -> bool:
        """Whether the leader, alone of his side to hold cards, loses whatever he does: he
        cannot go out by sure leads and one last play (never_out), and after each of his leads
        that the other side can beat, the other side wins at once (wins_now).

        Sound by induction on the leader's hand: a sure lead wins its trick (no one can
        answer it) and leaves a smaller hand, which still cannot go out by sure leads, whose
        leads are some of these, and against which the other side's sure plays stay sure (its
        answers win the same way: wins_now only asks that the leader cannot beat them)."""
        hands, turn, _, _, _ = pos
        mine = self.ours[turn]
        if any(h and self.ours[s] == mine for s, h in enumerate(hands) if s != turn):
            return False
        hand = hands[turn]
        if not self.never_out(turn, hand, others):
            return False
        nxt = (turn + 1) % self.players
        for is_sure, (code, readings, _) in zip(sure, plays, strict=True):
            if is_sure:
                continue
            after = hands[:turn] + (hand - code,) + hands[turn + 1 :]
            child = self.settle((after, nxt, readings, turn, 0))
            if self.ours[child[1]] == mine or not self.wins_now(child):
                return False
        return True

    def wins_now(self, pos: Position) -> bool:
        """Whether the mover's side wins from ``pos`` whatever the others do, seen without a
        search: the mover goes out with his next play (R-END), or makes a sure play and then
        goes out by sure leads (goes_out), or makes a play that his partner, next to move,
        beats with a sure play before going out the same way (feeds)."""
        hands, turn, open_, _, _ = pos
        hand = hands[turn]
        plays = self.plays(turn, hand, open_)
        if plays and plays[0][0] == hand:
            return True
        mine = self.ours[turn]
        others = tuple((seat, h) for seat, h in enumerate(hands) if self.ours[seat] != mine and h)
        for code, readings, _ in plays:
            if not self.beatable(readings, others) and self.goes_out(turn, hand - code, others):
                return True
        nxt = (turn + 1) % self.players
        return self.ours[nxt] == mine and self.feeds(hands, nxt, plays, others)

    def feeds(
        self,
        hands: tuple[int, ...],
        partner: int,
        plays: list[Play],
        others: tuple[tuple[int, int], ...],
    ) -> bool:
        """Whether the mover can make a play that ``partner``, next to move, beats with a sure
        play and then goes out by sure leads (nobody answers in between)."""
        hand = hands[partner]
        for _, readings, _ in plays:
            for code, answer, _ in self.plays(partner, hand, readings):
                if code == hand:
                    return True
                if not self.beatable(answer, others) and self.goes_out(
                    partner, hand - code, others
                ):
                    return True
        return False

    def estimate(self, hand: int) -> int:
        """The square of the plays a hand needs to go out with no one answering, roughly: a
        rank group each, a trio carrying one solo or pair (at least 1)."""
        found = self.estimates.get(hand)
        if found is None:
            counts = hand.to_bytes(_RANKS, "little")
            singles, pairs = counts.count(1), counts.count(2)
            trios, fours = counts.count(3), counts.count(4)
            plays = singles + pairs + trios + fours - min(trios, singles + pairs)
            run = alone = 0  # chains of solos: a run of five or more ranks (3..A) is one play
            for r in range(12):
                if counts[r]:
                    run += 1
                    alone += counts[r] == 1
                else:
                    if run >= 5 and alone > 1:
                        plays -= alone - 1
                    run = alone = 0
            if run >= 5 and alone > 1:
                plays -= alone - 1
            plays = max(1, plays)
            # Squared: near the end, a play less weighs more.
            found = self.estimates[hand] = plays * plays
        return found

    # -- df-pn ---------------------------------------------------------------------------------

    def mid(
        self, pos: Position, key: Any, proof_limit: int, disproof_limit: int
    ) -> tuple[int, int]:
        """Search ``pos`` until its proof number reaches ``proof_limit`` or its disproof number
        ``disproof_limit``, or it is settled (0 and ∞); return both numbers."""
        kids = self.children.get(key)
        if kids is None:
            self.expanded += 1
            if self.expanded > self.budget or (
                self.deadline is not None and time.monotonic() > self.deadline
            ):
                raise _OutOfBudget
            found = self.expand(pos)
            if found is None or found is _LOST:
                won = self.ours[pos[1]] == (found is None)  # the claiming side wins
                settled = (0, _INF) if won else (_INF, 0)
                self.numbers[key] = settled
                self.children[key] = []
                return settled
            kids = self.children[key] = found
        elif not kids:
            return self.numbers[key]
        mine = self.ours[pos[1]]
        numbers = self.numbers
        while True:
            best = 0
            if mine:  # the claiming side chooses: proof = min, disproof = sum
                proof = second = _INF
                disproof = 0
                for i, (ck, _) in enumerate(kids):
                    cp, cd = numbers[ck]
                    if not cp:  # a proven child proves the position
                        numbers[key] = (0, _INF)
                        return 0, _INF
                    disproof += cd
                    if cp < proof:
                        second, proof, best = proof, cp, i
                    elif cp < second:
                        second = cp
                disproof = min(disproof, _INF)
            else:  # the defence chooses: proof = sum, disproof = min
                disproof = second = _INF
                proof = 0
                for i, (ck, _) in enumerate(kids):
                    cp, cd = numbers[ck]
                    if not cd:  # a refuted child refutes the position
                        numbers[key] = (_INF, 0)
                        return _INF, 0
                    proof += cp
                    if cd < disproof:
                        second, disproof, best = disproof, cd, i
                    elif cd < second:
                        second = cd
                proof = min(proof, _INF)
            numbers[key] = (proof, disproof)
            if proof >= proof_limit or disproof >= disproof_limit or not proof or not disproof:
                return proof, disproof
            ck, child = kids[best]
            cp, cd = numbers[ck]
            if mine:
                child_proof = min(proof_limit, int(second * (1 + _EPSILON)) + 1)
                child_disproof = disproof_limit - disproof + cd
            else:
                child_disproof = min(disproof_limit, int(second * (1 + _EPSILON)) + 1)
                child_proof = proof_limit - proof + cp
            self.mid(child, ck, min(child_proof, _INF - 1), min(child_disproof, _INF - 1))
