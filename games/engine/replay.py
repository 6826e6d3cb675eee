"""Replay and verification of a record (R-VERIFY, R-CLAIM).

Vocabulary:

- *status*: ``verified`` (legal, and the declared result if any agrees), ``mismatch`` (legal,
  but the declared score or winner differs from the engine's), ``illegal`` (a fault; replay
  stops at the first), ``incomplete`` (legal so far but nobody is out and no claim or
  concession ends it), ``flagged`` (a claim the verifier could not prove, R-CLAIM: for the
  referee).
- *fault*: the first error met, with its stage (``deal``, ``bidding``, ``play``, ``result``),
  0-based index into that list, seat, cards, rule id and message.

Checks in the order of R-VERIFY: the deal is exactly the deck; each bidding call is legal; each
turn is made by the seat in turn, from cards it holds, is a combination and beats the open
trick; no turn follows the end; then the score is computed and compared with the declaration.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from . import _fast
from .bidding import BID_RULE, Bidding
from .cards import RANKS, Counts, add, contains, deck_counts, looks_suited, parse_hand, parse_suited
from .combos import Reading
from .errors import DealError, EngineError, IllegalPlayError, RulesError
from .play import GameState
from .record import Record, read_record
from .rules import RuleSet
from .scoring import SCORING_RULE, Contract, settle
from .search import ClaimVerdict, prove_claim

__all__ = ["Outcome", "replay", "check_deal"]


@dataclass
class Outcome:
    """The result of replaying one record: the line of RECORDS.md §2 as attributes.

    ``score`` is None when the game was not scored (illegal or incomplete); ``error`` is None
    when verified. ``state`` is the final play state, if play began; it takes no part in ``==``.
    """

    id: Any
    status: str
    landlord: str | None = None
    winner: str | None = None
    multiplier: int | None = None
    score: dict[str, int] | None = None
    error: EngineError | None = None
    bid: int | None = None
    unit: int | None = None
    partner: str | None = None
    bombs: int = 0
    rockets: int = 0
    spring: bool = False
    anti_spring: bool = False
    _state: GameState | Callable[[], GameState | None] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def state(self) -> GameState | None:
        """The final play state, if play began (after the fast path, worked out when first
        read, by the checked replay of the record)."""
        found = self._state
        if callable(found):
            found = self._state = found()
        return found

    def to_dict(self) -> dict[str, Any]:
        """The replay line of RECORDS.md §2 (``error`` only when not verified), plus the optional
        fields ``bid``, ``unit``, ``bombs``, ``rockets``, ``spring``, ``anti_spring``."""
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "landlord": self.landlord,
            "winner": self.winner,
            "multiplier": self.multiplier,
            "score": self.score,
        }
        if self.error is not None and self.status != "verified":
            out["error"] = self.error.to_dict()
        out.update(
            bid=self.bid,
            unit=self.unit,
            bombs=self.bombs,
            rockets=self.rockets,
            spring=self.spring,
            anti_spring=self.anti_spring,
        )
        if self.partner is not None:
            out["partner"] = self.partner
        return out


def check_deal(
    rules: RuleSet, hands: Mapping[str, str], bottom: str, aside: str | None = None
) -> tuple[dict[str, Counts], Counts]:
    """Parse and check a deal: the seats of the table, each hand and the bottom of the table's
    size, the union exactly the deck (one or two decks); with suits, no physical card twice
    (R-DEAL, R-DECK, R-2P, R-4P, R-5P). Two players: with ``aside`` (the 11 cards set aside) the
    union is the whole deck; without it, the hands and bottom must come from one deck.

    Returns:
        (counts per seat, bottom counts).

    Raises:
        DealError: wrong seats, wrong counts, missing or duplicate cards; NotationError.
    """
    if set(hands) != set(rules.seats):
        raise DealError(
            f"the deal must give hands for {' '.join(rules.seats)}, not {' '.join(hands)}",
            rule="R-SEAT",
            stage="deal",
            code="deal.seats",
            params={"seats": list(rules.seats), "given": [str(h) for h in hands]},
        )
    counts: dict[str, Counts] = {}
    for seat in rules.seats:
        try:
            c = parse_hand(hands[seat])
        except EngineError as exc:
            exc.seat = seat
            exc.stage = "deal"
            raise
        if sum(c) != rules.hand_size:
            raise DealError(
                f"{seat} holds {sum(c)} cards at the deal; each hand has {rules.hand_size}",
                rule="R-DEAL",
                stage="deal",
                seat=seat,
                cards=hands[seat],
                code="deal.hand_size",
                params={"seat": seat, "n": sum(c), "size": rules.hand_size},
            )
        counts[seat] = c
    b = parse_hand(bottom)
    if sum(b) != rules.bottom_size:
        raise DealError(
            f"the bottom has {sum(b)} cards; it has {rules.bottom_size}",
            rule="R-DEAL",
            stage="deal",
            cards=bottom,
            code="deal.bottom_size",
            params={"n": sum(b), "size": rules.bottom_size},
        )
    total = b
    for c in counts.values():
        total = add(total, c)
    texts = [*hands.values(), bottom]
    if rules.aside and aside is not None:
        a = parse_hand(aside)
        if sum(a) != rules.aside:
            raise DealError(
                f"{sum(a)} cards are set aside; the rules set aside {rules.aside}",
                rule="R-2P",
                stage="deal",
                cards=aside,
                code="deal.aside_size",
                params={"n": sum(a), "size": rules.aside},
            )
        total = add(total, a)
        texts.append(aside)
    deck = deck_counts(rules.decks)
    partial = rules.aside and aside is None
    if (not partial and total != deck) or (partial and not contains(deck, total)):
        extra = [
            f"{RANKS[r]}×{t - d}" for r, (t, d) in enumerate(zip(total, deck, strict=True)) if t > d
        ]
        missing = (
            []
            if partial
            else [
                f"{RANKS[r]}×{d - t}"
                for r, (t, d) in enumerate(zip(total, deck, strict=True))
                if t < d
            ]
        )
        what = "one deck" if rules.decks == 1 else "two decks"
        raise DealError(
            f"the deal is not exactly {what}: "
            + (f"duplicate {' '.join(extra)}" if extra else "")
            + ("; " if extra and missing else "")
            + (f"missing {' '.join(missing)}" if missing else ""),
            rule="R-DECK",
            stage="deal",
            code="deal.not_the_deck",
            params={"extra": extra, "missing": missing},
        )
    if all(" " in t and looks_suited(t) for t in texts if t):
        tokens = [tok for t in texts for tok in parse_suited(t)]
        seen: set[str] = set()
        for tok in tokens:
            if rules.decks == 2 and tok[-1] not in "ab":
                raise DealError(
                    f"{tok}: with two decks every card names its deck (a or b)",
                    rule="R-SUIT",
                    stage="deal",
                    cards=tok,
                    code="deal.deck_letter",
                    params={"card": tok},
                )
            if tok in seen:
                raise DealError(
                    f"the card {tok} is dealt twice",
                    rule="R-DECK",
                    stage="deal",
                    cards=tok,
                    code="deal.dealt_twice",
                    params={"card": tok},
                )
            seen.add(tok)
    return counts, b


def marked_landlords(
    rules: RuleSet, hands: Mapping[str, str], marked: str
) -> tuple[str, str | None]:
    """Five players (R-5P): the open landlord holds the marked card; the hidden landlord holds
    its twin (same suit and rank, other deck), unless the open landlord holds both or the twin
    lies in the bottom (which the open landlord takes).

    Returns:
        (open landlord, hidden landlord or None).

    Raises:
        DealError: hands without suits, a marked card that is a joker or in no hand (R-5P).
    """
    tok = marked.strip()
    if not re.fullmatch(r"[SHDC][3-9TJQKA2][ab]", tok):
        raise DealError(
            f"the marked card {marked!r} must be a suited non-joker card with its deck, like H7a",
            rule="R-5P",
            stage="deal",
            cards=marked,
            code="deal.marked_card",
            params={"card": str(marked)},
        )
    twin = tok[:2] + ("b" if tok[2] == "a" else "a")
    holder = partner = None
    for seat in rules.seats:
        text = hands[seat]
        if not (" " in text and looks_suited(text)):
            raise DealError(
                "five-player deals record suits: the hidden landlord is found by "
                "the twin of the marked card",
                rule="R-5P",
                stage="deal",
                seat=seat,
                code="deal.marked_unsuited",
                params={"seat": seat},
            )
        cards = parse_suited(text)
        if tok in cards:
            holder = seat
        if twin in cards:
            partner = seat
    if holder is None:
        raise DealError(
            f"nobody holds the marked card {tok}",
            rule="R-5P",
            stage="deal",
            cards=tok,
            code="deal.marked_nobody",
            params={"card": tok},
        )
    return holder, (partner if partner != holder else None)


def _fail(rec_id: Any, exc: EngineError, status: str = "illegal", **kw: Any) -> Outcome:
    return Outcome(id=rec_id, status=status, error=exc, **kw)


def replay(
    record: Mapping[str, Any] | Record,
    *,
    claim_budget: int = 50_000,
    fast: bool = True,
    claim_seconds: float | None = None,
) -> Outcome:
    """Replay a record through the engine and verify it (R-VERIFY).

    Args:
        record: a JSON record (RECORDS.md §1) or a ``Record``.
        claim_budget: positions the claim search may visit before giving up (R-CLAIM).
        claim_seconds: also give up the claim search after this many seconds (a live view
            that must answer at once; verification leaves it None so that its verdict never
            depends on the machine).
        fast: try the private fast path first for a JSON record (a ``dict``): a whole
            three-player game in the common case, decided with tables; at the first doubt the
            checked path replays it from the start and judges every fault. The outcome is the
            same either way (the differential tests); False runs the checked path only.

    Returns:
        An ``Outcome``; never raises for a bad game, only for an object that is not a record.

    Raises:
        RecordError: the object is not a record at all (missing or mistyped fields).
    """
    if fast and type(record) is dict:
        quick = _replay_fast(record)
        if quick is not None:
            return quick
    rec = record if isinstance(record, Record) else read_record(record)
    rid = rec.id
    try:
        rules = RuleSet.from_spec(rec.rules)
    except RulesError as exc:
        return _fail(rid, exc.located(stage="deal", index=None, seat=None))

    # 1. The deal (R-DEAL, R-DECK).
    partner: str | None = None
    first_bidder = rec.first_bidder
    try:
        hands, bottom = check_deal(rules, rec.hands, rec.bottom, rec.aside)
        if rules.family == "five":
            if rec.marked is None:
                raise DealError(
                    "a five-player record names the marked card ('marked')",
                    rule="R-5P",
                    stage="deal",
                    code="deal.marked_missing",
                )
            first_bidder, partner = marked_landlords(rules, rec.hands, rec.marked)
    except EngineError as exc:
        exc.stage = "deal"
        return _fail(rid, exc)

    # 2. The bidding (R-BID-…, R-DOUBLE-ORDER, R-PASSOUT), or the given landlord and bid.
    contract: Contract
    bidding: Bidding | None = None
    if rec.bidding is not None:
        if first_bidder is None:
            return _fail(
                rid,
                EngineError(
                    "the record has bidding but no first_bidder",
                    rule="R-DEAL",
                    stage="bidding",
                    index=0,
                    code="bid.no_first_bidder",
                ),
            )
        try:
            bidding = Bidding.start(rules, first_bidder, partner=partner)
        except EngineError as exc:
            return _fail(rid, exc.located(stage="bidding", index=0, seat=first_bidder))
        for i, (seat, call) in enumerate(rec.bidding):
            try:
                bidding = bidding.apply(seat, call)
            except EngineError as exc:
                return _fail(rid, exc.located(stage="bidding", index=i, seat=seat))
        if not bidding.done:
            return Outcome(
                id=rid,
                status="incomplete",
                error=EngineError(
                    f"the bidding stops with {bidding.to_move} to call "
                    f"({', '.join(bidding.legal_calls())})",
                    rule=bidding.rule,
                    stage="bidding",
                    index=len(rec.bidding),
                    seat=bidding.to_move,
                    code="bid.incomplete",
                    params={"seat": bidding.to_move, "allowed": list(bidding.legal_calls())},
                ),
            )
        if bidding.passed_out:
            # R-PASSOUT: a passed-out board scores 0 for every seat (all_pass zero or redeal).
            if rec.plays:
                seat = rec.plays[0][0]
                return _fail(
                    rid,
                    IllegalPlayError(
                        "the deal was passed out (R-PASSOUT); no card may be played",
                        rule="R-PASSOUT",
                        stage="play",
                        index=0,
                        seat=seat,
                        cards=rec.plays[0][1],
                        code="play.passed_out",
                        params={"seat": seat, "cards": rec.plays[0][1]},
                    ),
                )
            return _compare(
                rec,
                Outcome(
                    id=rid,
                    status="verified",
                    multiplier=0,
                    bid=0,
                    unit=0,
                    score={s: 0 for s in rules.seats},
                ),
                rules,
            )
        contract = _contract(bidding, partner)
    else:
        assert rec.landlord is not None and rec.bid is not None
        if rec.landlord not in rules.seats:
            return _fail(
                rid,
                EngineError(
                    f"landlord {rec.landlord!r} is not a seat",
                    rule="R-SEAT",
                    stage="bidding",
                    seat=rec.landlord,
                    code="bid.landlord_not_seat",
                    params={"landlord": str(rec.landlord)},
                ),
            )
        if not _plausible_bid(rules, rec.bid):
            return _fail(
                rid,
                EngineError(
                    f"bid {rec.bid} is impossible under the {rules.bidding} bidding",
                    rule=BID_RULE[rules.bidding],
                    stage="bidding",
                    seat=rec.landlord,
                    cards=str(rec.bid),
                    code="bid.impossible",
                    params={"bid": rec.bid},
                ),
            )
        if rules.family == "five" and rec.landlord != first_bidder:
            return _fail(
                rid,
                EngineError(
                    f"the landlord is {first_bidder}, who holds the marked card, not "
                    f"{rec.landlord}",
                    rule="R-5P",
                    stage="bidding",
                    seat=rec.landlord,
                    code="bid.not_marked_landlord",
                    params={"landlord": str(rec.landlord), "marked": first_bidder},
                ),
            )
        contract = Contract(landlord=rec.landlord, bid=rec.bid, partner=partner)

    # 3. The play (R-LEAD, R-TRICK, R-CMP, R-END).
    state = GameState.start(rules, hands, bottom, contract.landlord, contract.partner)
    if contract.surrendered:
        if rec.plays:
            return _fail(
                rid,
                IllegalPlayError(
                    "the landlord surrendered (R-SURRENDER); no card may be played",
                    rule="R-SURRENDER",
                    stage="play",
                    index=0,
                    seat=rec.plays[0][0],
                    cards=rec.plays[0][1],
                    code="play.surrendered",
                    params={"seat": rec.plays[0][0], "cards": rec.plays[0][1]},
                ),
                landlord=contract.landlord,
            )
        return _scored(rec, rules, contract, state, "farmers")
    for i, turn in enumerate(rec.plays):
        seat, cards = turn[0], turn[1]
        reading = turn[2] if len(turn) == 3 else None
        try:
            state = state.apply(seat, cards, reading)
        except EngineError as exc:
            return _fail(
                rid,
                exc.located(stage="play", index=i, seat=seat),
                landlord=contract.landlord,
                _state=state,
            )

    # 4. The end: played out, a claim or a concession (R-END, R-CLAIM).
    winner = state.winner
    if rec.end is not None:
        kind, seat = next(iter(rec.end.items()))
        where: dict[str, Any] = dict(stage="play", index=len(rec.plays), seat=seat)
        if state.finished:
            return _fail(
                rid,
                IllegalPlayError(
                    f"the game ended when a seat went out; no {kind} may follow (R-END)",
                    rule="R-END",
                    code="play.end_after_out",
                    params={"seat": seat, "kind": kind},
                    **where,
                ),
                landlord=contract.landlord,
                _state=state,
            )
        if seat not in rules.seats:
            return _fail(
                rid,
                EngineError(
                    f"{kind} by {seat!r}, not a seat",
                    rule="R-CLAIM",
                    code="claim.not_seat",
                    params={"seat": str(seat), "kind": kind},
                    **where,
                ),
                landlord=contract.landlord,
                _state=state,
            )
        side = "landlord" if seat == contract.landlord else "farmers"
        if kind == "concede":
            winner = "farmers" if side == "landlord" else "landlord"
        else:
            verdict = prove_claim(state, side, budget=claim_budget, seconds=claim_seconds)
            if verdict is not ClaimVerdict.PROVEN:
                why = (
                    "a defence beats it"
                    if verdict is ClaimVerdict.REFUTED
                    else f"the search gave up after {claim_budget} positions"
                )
                return Outcome(
                    id=rid,
                    status="flagged",
                    landlord=contract.landlord,
                    _state=state,
                    error=EngineError(
                        f"{seat}'s claim for the {side} is not proven: {why}; the "
                        "referee decides (R-CLAIM)",
                        rule="R-CLAIM",
                        code="claim.refuted"
                        if verdict is ClaimVerdict.REFUTED
                        else "claim.gave_up",
                        params={"seat": seat, "side": side}
                        if verdict is ClaimVerdict.REFUTED
                        else {"seat": seat, "side": side, "budget": claim_budget},
                        **where,
                    ),
                )
            winner = side
    elif winner is None:
        return Outcome(
            id=rid,
            status="incomplete",
            landlord=contract.landlord,
            _state=state,
            error=EngineError(
                "the record stops before any seat is out and has no claim or concession",
                rule="R-END",
                stage="play",
                index=len(rec.plays),
                seat=state.to_move,
                code="play.incomplete",
                params={"seat": state.to_move},
            ),
        )
    return _scored(rec, rules, contract, state, winner)


def _contract(bidding: Bidding, partner: str | None) -> Contract:
    """What a finished bidding settled (R-BID-…, R-DOUBLE-ORDER, R-SURRENDER)."""
    assert bidding.landlord is not None
    return Contract(
        landlord=bidding.landlord,
        bid=bidding.bid,
        doubles=bidding.doubles,
        redoubled=bidding.redoubled,
        shown=bidding.shown,
        surrendered=bidding.surrendered,
        partner=partner,
        reveals=bidding.reveals,
    )


class _Head(NamedTuple):
    """What scoring reads of a record besides the play: its id and the declared result."""

    id: Any
    declared: dict[str, int] | None
    declared_winner: str | None


_SPECS: dict[str, Any] = {}


def _fast_table(spec: Any) -> Any:
    """The fast path's table of a record's ``rules`` (a preset name or an object), None when the
    checked path must judge them (not a spec, RulesError, not a three-player rule set). Objects
    are remembered by their repr."""
    if type(spec) is str:
        key = spec
    elif type(spec) is dict:
        key = repr(spec)
    else:
        return None
    found = _SPECS.get(key, False)
    if found is False:
        try:
            found = _fast.table_of(RuleSet.from_spec(spec))
        except EngineError:
            found = None
        if len(_SPECS) >= 1_000:
            _SPECS.clear()
        _SPECS[key] = found
    return found


def _replay_fast(obj: dict[str, Any]) -> Outcome | None:
    """R-VERIFY for the common case through ``_fast``: a JSON record of a three-player game with
    its deal, a given contract or a bidding that ends with a landlord, and plays to the end of
    the game; None at the first doubt, for the checked path to judge.

    Only a record that ``read_record`` accepts gets past the checks below, and each stage
    either runs the checked code itself (a deal not in canonical rank letters, the bidding, the
    scoring) or is exact for this case (``_fast``'s docstring says why). The outcome's
    ``state`` is worked out when first read, by the checked replay of the record.
    """
    get = obj.get
    hands = get("hands")
    bottom = get("bottom", "")
    first = get("first_bidder")
    landlord = get("landlord")
    bid = get("bid")
    declared = get("declared")
    declared_winner = get("declared_winner")
    if (
        type(hands) is not dict
        or type(bottom) is not str
        or get("end") is not None
        or get("aside") is not None
        or get("marked") is not None
        or not (first is None or type(first) is str)
        or not (landlord is None or type(landlord) is str)
        or not (bid is None or type(bid) is int)
        or declared_winner not in (None, "landlord", "farmers")
        or not (
            declared is None
            or (type(declared) is dict and all(type(v) is int for v in declared.values()))
        )
    ):
        return None
    table = _fast_table(get("rules", "classic"))
    if table is None:
        return None
    rules: RuleSet = table.rules
    seats = rules.seats
    # 1. The deal (R-DEAL, R-DECK): canonical rank letters here, anything else checked.
    if hands.keys() != table.seats:
        return None
    codes = table.deal(hands, bottom)
    if codes is None:
        if not all(type(h) is str for h in hands.values()):
            return None
        try:
            counts, bottom_counts = check_deal(rules, hands, bottom)
        except EngineError:
            return None
        codes = [*(_fast.pack(counts[s]) for s in seats), _fast.pack(bottom_counts)]
    # 2. The contract: given (landlord and bid), or the checked bidding (R-BID-…).
    bidding_raw = get("bidding")
    memo = table.memo
    if bidding_raw is None:
        if landlord is None or bid is None:
            return None
        terms: Any = (landlord, bid)
        contract = memo.get(terms)
        if contract is None:
            if landlord not in seats or not _plausible_bid(rules, bid):
                return None
            contract = memo[terms] = Contract(landlord=landlord, bid=bid)
    else:
        if type(bidding_raw) is not list or first is None:
            return None
        try:
            bidding = Bidding.start(rules, first)
            for call in bidding_raw:
                if type(call) is not list or len(call) != 2:
                    return None
                seat, word = call
                if type(seat) is not str or type(word) is not str:
                    return None
                bidding = bidding.apply(seat, word)
        except EngineError:
            return None
        if not bidding.done or bidding.passed_out or bidding.surrendered:
            return None
        terms = contract = _contract(bidding, None)
    # 3. The play to its end (R-LEAD, R-TRICK, R-CMP, R-END).
    li = seats.index(contract.landlord)
    codes[li] += codes.pop()  # R-BOTTOM: the landlord takes the bottom
    end = table.play_out(codes, li, get("plays"))
    if end is None:
        return None
    # 4. The score, by the checked settlement, remembered per contract and ending (R-VERIFY).
    found = memo.get((terms, end))
    if found is None:
        if len(memo) >= 10_000:
            memo.clear()
        winner = "landlord" if end.winner == li else "farmers"
        found = memo[terms, end] = _settled(
            rules, contract, winner, end.played, frozenset({li}), end.bombs, end.rockets, ()
        )
    template, explanation = found
    out = object.__new__(Outcome)  # a copy of the remembered outcome, its own score dict
    out.__dict__.update(template.__dict__)
    out.id = get("id")
    out.score = dict(template.score)
    out._state = partial(_checked_state, obj)
    if declared is None and declared_winner is None:
        return out
    return _compare(_Head(out.id, declared, declared_winner), out, rules, explanation)


def _checked_state(record: dict[str, Any]) -> GameState | None:
    return replay(record, fast=False).state


def _plausible_bid(rules: RuleSet, bid: int) -> bool:
    if rules.bidding in ("auction", "once"):
        return bid in (1, 2, 3)
    if rules.bidding == "rob":
        return bid >= 3 and (bid // 3) & (bid // 3 - 1) == 0 and bid % 3 == 0
    if rules.bidding in ("call", "marked"):
        return bid == 1
    return bid >= 1


def _scored(
    rec: Record | _Head, rules: RuleSet, contract: Contract, state: GameState, winner: str
) -> Outcome:
    out, explanation = _settled(
        rules,
        contract,
        winner,
        state.played,
        state.landlord_side,
        state.bombs,
        state.rockets,
        state.bomb_readings,
    )
    out.id = rec.id
    out._state = state
    return _compare(rec, out, rules, explanation)


def _settled(
    rules: RuleSet,
    contract: Contract,
    winner: str,
    played: tuple[int, ...],
    side: frozenset[int],
    bombs: int,
    rockets: int,
    bomb_readings: tuple[Reading, ...],
) -> tuple[Outcome, str]:
    """The verified outcome (no id, no state) of a game ``winner`` won, with the settlement's
    explanation: ``played`` plays per seat, ``side`` the landlord's side's seat indices."""
    # A claim or concession settles on the plays made: the opponents of the winning side play
    # no more cards, so spring and anti-spring read off the plays so far (R-SPRING, R-CLAIM).
    li = rules.seats.index(contract.landlord)
    farmers_played = sum(n for i, n in enumerate(played) if i not in side)
    spring = winner == "landlord" and farmers_played == 0 and not contract.surrendered
    anti = winner == "farmers" and played[li] == 1 and rules.family != "five"
    s = settle(
        rules,
        contract,
        winner=winner,
        bombs=bombs,
        rockets=rockets,
        spring=spring,
        anti_spring=anti,
        bomb_readings=bomb_readings,
    )
    out = Outcome(
        id=None,
        status="verified",
        landlord=contract.landlord,
        winner=s.winner,
        multiplier=s.multiplier,
        score=s.score,
        bid=contract.bid,
        unit=s.unit,
        bombs=bombs,
        rockets=rockets,
        spring=spring,
        anti_spring=anti,
        partner=contract.partner,
    )
    return out, s.explanation


def _compare(
    rec: Record | _Head, out: Outcome, rules: RuleSet, explanation: str = "passed out"
) -> Outcome:
    """R-VERIFY's last step: the declared score and winner against the engine's."""
    rule = SCORING_RULE[rules.scoring] if out.landlord else "R-PASSOUT"
    if rec.declared is not None and out.score is not None and rec.declared != out.score:
        out.status = "mismatch"
        out.error = EngineError(
            f"declared {_fmt(rec.declared)}; the engine scores {_fmt(out.score)} ({explanation})",
            rule=rule,
            stage="result",
            index=None,
            code="result.score",
            params={"declared": dict(rec.declared), "score": dict(out.score)},
        )
    elif rec.declared_winner is not None and rec.declared_winner != out.winner:
        out.status = "mismatch"
        out.error = EngineError(
            f"declared winner {rec.declared_winner}; the engine finds {out.winner or 'none'}",
            rule="R-END",
            stage="result",
            index=None,
            code="result.winner",
            params={"declared": rec.declared_winner, "winner": out.winner},
        )
    return out


def _fmt(score: Mapping[str, int]) -> str:
    return ", ".join(f"{s} {v:+d}" if v else f"{s} 0" for s, v in score.items())
