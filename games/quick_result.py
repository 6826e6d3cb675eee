"""The quick result: a game entered by its outcome when the plays were not followed.

Vocabulary: a *quick result* is landlord, bid, doubles, the bombs and rockets played, spring
and winner; it is checked against the deal for plausibility (a claimed bomb must be four of a
rank in one hand, R-T11; the rocket both jokers in one hand, R-T12) and scored by the engine
(games.engine.settle), never typed. Its record has no plays, only the claimed facts under
``quick`` (RECORDS.md); verification checks them again (`quick_fields`). Refusals are
games.steps.EntryError, naming the field at fault.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.engine import (
    Bidding,
    Contract,
    EngineError,
    IllegalBidError,
    RuleSet,
    Settlement,
    parse_cards,
    settle,
)
from games.engine import replay as engine_replay
from games.engine.bidding import BID_RULE
from games.engine.replay import _plausible_bid
from games.messages import QUICK_SENTENCES, error_message
from games.notation import rank_cards
from games.steps import EntryDeal, EntryError


@dataclass(frozen=True)
class QuickResult:
    """A result entered without the plays: ``landlord`` seat, ``bid`` (contract value),
    ``doubles`` (seats that doubled), ``bombs`` (ranks of the bombs played alone, one per
    bomb), ``rockets`` (how many rockets were played), ``spring``/``anti_spring``, ``winner``
    (``landlord`` or ``farmers``)."""

    landlord: str
    bid: int
    winner: str
    bombs: tuple[str, ...] = ()
    rockets: int = 0
    doubles: tuple[str, ...] = ()
    spring: bool = False
    anti_spring: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "landlord": self.landlord,
            "bid": self.bid,
            "winner": self.winner,
            "bombs": list(self.bombs),
            "rockets": self.rockets,
            "doubles": list(self.doubles),
            "spring": self.spring,
            "anti_spring": self.anti_spring,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> QuickResult:
        """The inverse of `to_dict`; ``bombs``, ``rockets``, ``doubles``, ``spring`` and
        ``anti_spring`` may be left out.

        Raises:
            KeyError: no ``landlord``, ``bid`` or ``winner``.
            TypeError: ``bombs`` or ``doubles`` not a list.
        """
        return cls(
            landlord=str(raw["landlord"]),
            bid=raw["bid"],
            winner=str(raw["winner"]),
            bombs=tuple(str(b) for b in raw.get("bombs") or ()),
            rockets=raw.get("rockets") or 0,
            doubles=tuple(str(d) for d in raw.get("doubles") or ()),
            spring=bool(raw.get("spring")),
            anti_spring=bool(raw.get("anti_spring")),
        )


def _quick_fail(code: str, rule: str, field: str | None = None, **params: Any) -> EntryError:
    message = QUICK_SENTENCES[code](params)
    return EntryError(message, rule=rule, field=field, error_code=code, params=params)


DOUBLING_CALLS = ("double", "redouble", "show", "surrender", "reveal")
_BIDDING_STATES = 20_000  # far above the largest bidding tree of a preset (cn2016: 258)


@functools.lru_cache(maxsize=64)
def _calls_of(spec: str) -> frozenset[str]:
    rules = RuleSet.from_spec(json.loads(spec))
    seats = rules.seats
    partner = seats[1] if rules.family == "five" else None
    seen: set[str] = set()
    stack = [Bidding.start(rules, seats[0], partner=partner)]
    visited = 0
    while stack and visited < _BIDDING_STATES:
        bidding = stack.pop()
        visited += 1
        if bidding.done:
            for call in bidding.optional_calls():
                seen.add(call)
                try:
                    stack.append(bidding.apply(bidding.landlord or "", call))
                except IllegalBidError:
                    continue
            continue
        for call in bidding.legal_calls():
            seen.add(call)
            stack.append(bidding.apply(bidding.to_move or "", call))
    return frozenset(seen)


def bidding_calls(rules: RuleSet) -> frozenset[str]:
    """Every call the bidding system of `rules` can ever allow: bids, ``call``, ``rob``,
    ``double``, ``redouble``, and the landlord's ``show``, ``surrender``, ``reveal``.

    Found by walking every bidding sequence with the engine's Bidding (its public API), so the
    answer is the engine's own: ``classic`` has no ``double``, ``cn2016`` has ``double`` and
    ``redouble``, ``rob`` has ``show``, ``competition`` ``double`` and ``surrender``, five
    players ``double`` and ``reveal`` (R-BID-*, R-DOUBLE-ORDER, R-SC-ROB, R-SURRENDER, R-5P).
    """
    return _calls_of(json.dumps(rules.to_spec(), sort_keys=True))


def quick_problems(deal: EntryDeal, quick: QuickResult) -> list[EntryError]:
    """Every implausible claim of a quick result (see `check_quick`), in the fields' order:
    one per field, except the bombs, where each refused claim is its own problem (a rank that
    is none, a rank claimed more often than the deck or the hands allow). Checks that need a
    valid landlord (the doubling seats, the bombs and rockets in hands) or winner (spring) are
    skipped when that field is refused; those against the rules and the deck alone are not, so
    that one answer names every field at fault. Empty when all are plausible."""
    rules = deal.rules
    seats = rules.seats
    problems: list[EntryError] = []
    landlord_ok = isinstance(quick.landlord, str) and quick.landlord in seats
    if not landlord_ok:
        problems.append(_quick_fail("quick.landlord", "R-SEAT", "landlord", seats=list(seats)))
    bid_problem = _bid_problem(rules, quick.bid)
    if bid_problem is not None:
        problems.append(bid_problem)
    winner_ok = quick.winner in ("landlord", "farmers")
    if not winner_ok:
        problems.append(_quick_fail("quick.winner", "R-END", "winner"))
    holdings: dict[str, Any] | None = None
    if landlord_ok:
        holdings = {s: parse_cards(deal.hands[s]) for s in seats}
        bottom = parse_cards(deal.bottom)
        holdings[quick.landlord] = tuple(
            a + b for a, b in zip(holdings[quick.landlord], bottom, strict=True)
        )
    problem = _doubles_problem(deal, quick, landlord_ok=landlord_ok)
    if problem is not None:
        problems.append(problem)
    problems.extend(_bombs_problems(rules, quick, holdings))
    problem = _rockets_problem(rules, quick, holdings)
    if problem is not None:
        problems.append(problem)
    if not isinstance(quick.spring, bool) or not isinstance(quick.anti_spring, bool):
        problems.append(_quick_fail("quick.spring_bool", "R-SPRING", "spring"))
    elif quick.spring and quick.anti_spring:
        # Both claimed: the fault is the choice, whoever won.
        problems.append(_quick_fail("quick.both_springs", "R-SPRING", "spring"))
    elif winner_ok:
        if quick.spring and quick.winner != "landlord":
            problems.append(_quick_fail("quick.spring_winner", "R-SPRING", "spring"))
        elif quick.anti_spring and quick.winner != "farmers":
            problems.append(_quick_fail("quick.anti_spring_winner", "R-SPRING", "spring"))
    return problems


def _bid_problem(rules: RuleSet, bid: Any) -> EntryError | None:
    """R-BID-*: the bid a contract value of the bidding system; refused with the range the
    system allows where it is one (1 to 3 by auction or once around, 1 where the first call
    makes the landlord)."""
    rule = BID_RULE[rules.bidding]
    if isinstance(bid, bool) or not isinstance(bid, int):
        return _quick_fail("quick.bid", rule, "bid", bid=str(bid))
    if _plausible_bid(rules, bid):
        return None
    high = {"auction": 3, "once": 3, "call": 1, "marked": 1}.get(rules.bidding)
    if high is not None:
        return _quick_fail("quick.range", rule, "bid", bid=str(bid), low=1, high=high)
    # Robbing (3 doubled by each rob) and competition (at least 1) have no range to name.
    return _quick_fail("quick.bid", rule, "bid", bid=str(bid))


def _doubles_problem(
    deal: EntryDeal, quick: QuickResult, *, landlord_ok: bool = True
) -> EntryError | None:
    """R-DOUBLE-ORDER: doubles a list of farmers' seats, each once, under rules that double;
    the seats are checked only against a valid landlord (the farmers are the others)."""
    if not isinstance(quick.doubles, (tuple, list)) or not all(
        isinstance(d, str) for d in quick.doubles
    ):
        return _quick_fail("quick.doubles_list", "R-DOUBLE-ORDER", "doubles")
    if quick.doubles and "double" not in bidding_calls(deal.rules):
        return _quick_fail("quick.no_double", "R-DOUBLE-ORDER", "doubles")
    if not landlord_ok:
        return None
    side = {quick.landlord, deal.partner()} - {None}
    for seat in quick.doubles:
        if seat not in deal.rules.seats or seat in side or list(quick.doubles).count(seat) > 1:
            return _quick_fail("quick.double_seat", "R-DOUBLE-ORDER", "doubles", seat=seat)
    return None


RANKS = "3456789TJQKA2BR"


def _bombs_problems(
    rules: RuleSet, quick: QuickResult, holdings: Mapping[str, Any] | None
) -> list[EntryError]:
    """R-T11: each claimed bomb a rank (R-NOTE), no rank claimed more often than the hands
    hold it four times (the landlord's with the bottom); without `holdings` (no landlord), no
    more often than the deck holds four of it (R-DECK: once with one deck, twice with two)."""
    if not isinstance(quick.bombs, (tuple, list)) or not all(
        isinstance(b, str) for b in quick.bombs
    ):
        return [_quick_fail("quick.bombs_list", "R-T11", "bombs")]
    problems: list[EntryError] = []
    claimed: list[str] = []
    for rank in quick.bombs:
        try:
            normal = rank_cards(rank)
        except EngineError:
            normal = ""
        if len(normal) == 1 and normal in RANKS[:13]:
            claimed.append(normal)
        elif all(p.params.get("rank") != rank for p in problems):  # each text said once
            problems.append(_quick_fail("quick.bomb_rank", "R-T11", "bombs", rank=rank))
    for normal in sorted(set(claimed), key=RANKS.index):
        count = claimed.count(normal)
        if holdings is None:
            # No landlord, so no hands to look in: the deck's bound, four of each rank 3..2
            # in each deck (R-DECK), one bomb of a rank per deck at most.
            available = rules.decks
        else:
            i = RANKS.index(normal)
            available = sum(1 for hand in holdings.values() if hand[i] >= 4)
        if count > available:
            if not available:
                problems.append(_quick_fail("quick.no_bomb", "R-T11", "bombs", rank=normal))
            else:
                problems.append(
                    _quick_fail("quick.bombs_count", "R-T11", "bombs", n=available, rank=normal)
                )
    return problems


def _deck_rockets(rules: RuleSet) -> int:
    """R-DECK, R-T12: one small and one big joker per deck, a rocket being both; R-4P: the
    rocket is all four jokers, so two decks hold one."""
    if rules.family in ("four", "five"):
        return (2 * rules.decks) // 4
    return rules.decks


def _rockets_problem(
    rules: RuleSet, quick: QuickResult, holdings: Mapping[str, Any] | None
) -> EntryError | None:
    """R-T12: rockets a whole number, at most the rockets the deck holds, and at most the hands
    holding both jokers (R-4P: all four; checked only when `holdings` are known)."""
    if isinstance(quick.rockets, bool) or not isinstance(quick.rockets, int) or quick.rockets < 0:
        return _quick_fail("quick.rockets_number", "R-T12", "rockets")
    deck = _deck_rockets(rules)
    if quick.rockets > deck:
        return _quick_fail("quick.range", "R-T12", "rockets", low=0, high=deck)
    if holdings is None:
        return None
    jokers_b, jokers_r = RANKS.index("B"), RANKS.index("R")
    rockets = sum(min(hand[jokers_b], hand[jokers_r]) for hand in holdings.values())
    if rules.family in ("four", "five"):
        rockets = sum(
            1 for hand in holdings.values() if hand[jokers_b] + hand[jokers_r] >= 4
        )  # R-4P: the rocket is all four jokers
    if quick.rockets > rockets:
        return _quick_fail("quick.no_rocket", "R-T12", "rockets")
    return None


def check_quick(deal: EntryDeal, quick: QuickResult) -> Settlement:
    """Check a quick result against the deal and score it with the engine (RULES.md §4).

    Returns the engine's Settlement (winner, unit, multiplier, score per seat).
    Plausibility, by rule: every field has its type (landlord and winner texts, bid and
    rockets whole numbers, doubles and bombs lists of texts, spring and anti-spring
    booleans); the landlord is a seat (R-SEAT); the bid is a contract value of the bidding
    system (R-BID-*); the winner is a side (R-END); doubles only under rules whose bidding has
    a ``double`` (`bidding_calls`), by farmers' seats, each once (R-DOUBLE-ORDER); each
    claimed bomb is a rank (R-NOTE) and four (or more) of it in one hand, the landlord's with
    the bottom (R-T11), no rank claimed twice where the deck holds only one such bomb; each
    rocket is both jokers in one hand (R-T12); spring only for a landlord's win, anti-spring
    only for the farmers' (R-SPRING).

    Raises:
        EntryError: the first implausible claim, with its rule and its ``field``; its
            ``others`` the other claims refused (`quick_problems`): every field at fault.
    """
    problems = quick_problems(deal, quick)
    if problems:
        first = problems[0]
        first.others = problems[1:]
        raise first
    rules = deal.rules
    partner = deal.partner()
    contract = Contract(
        landlord=quick.landlord, bid=quick.bid, doubles=tuple(quick.doubles), partner=partner
    )
    try:
        settlement = settle(
            rules,
            contract,
            winner=quick.winner,
            bombs=len(quick.bombs),
            rockets=quick.rockets,
            spring=quick.spring,
            anti_spring=quick.anti_spring,
        )
    except EngineError as exc:
        raise EntryError(
            error_message(exc.code, exc.params) or exc.message,
            rule=exc.rule or "R-SC-MULT",
            error_code=exc.code,
            params=exc.params,
        ) from None
    return settlement


def quick_record(deal: EntryDeal, quick: QuickResult, *, record_id: str = "") -> dict[str, Any]:
    """The RECORDS.md §1 record of a quick result: ``bidding`` null with ``landlord`` and
    ``bid``, no plays, the engine's score as ``declared``, and the claims under ``quick``.

    Raises:
        EntryError: see `check_quick`.
    """
    score = dict(check_quick(deal, quick).score)
    record: dict[str, Any] = {
        "id": record_id,
        "rules": deal.rules.to_spec(),
        "hands": dict(deal.suited_hands if deal.marked else deal.hands),
        "bottom": deal.bottom,
        "first_bidder": deal.first_bidder,
        "bidding": None,
        "landlord": quick.landlord,
        "bid": quick.bid,
        "plays": [],
        "end": None,
        "declared": score,
        "declared_winner": quick.winner,
        "quick": quick.to_dict(),
    }
    if deal.aside:
        record["aside"] = deal.aside
    if deal.marked:
        record["marked"] = deal.marked
    return record


def quick_from_record(record: Mapping[str, Any]) -> QuickResult | None:
    """The QuickResult a record carries under ``quick``, None when it has none.

    Raises:
        EntryError: a ``quick`` object of the wrong shape.
    """
    raw = record.get("quick")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise EntryError(_("A quick result must be an object."))
    try:
        return QuickResult.from_dict(raw)
    except (KeyError, TypeError):
        raise EntryError(_("A quick result needs the landlord, the bid and the winner.")) from None


def _quick_failed(error: dict[str, Any]) -> dict[str, Any]:
    """The verifier's fields of a quick result that cannot have happened: status ``illegal``
    with `error`."""
    return {
        "status": "illegal",
        "landlord": "",
        "winner": "",
        "multiplier": None,
        "score": None,
        "error": error,
        "facts": {"quick": True},
    }


def _record_deal(record: Mapping[str, Any]) -> EntryDeal:
    """The deal a record carries, as the quick result's checks take it.

    Raises:
        EngineError: rules or cards the engine refuses.
    """
    rules = RuleSet.from_spec(record.get("rules") or "classic")
    hands = record.get("hands") or {}
    return EntryDeal(
        rules=rules,
        hands={s: rank_cards(hands.get(s, "")) for s in rules.seats},
        bottom=rank_cards(str(record.get("bottom") or "")),
        first_bidder=str(record.get("first_bidder") or rules.seats[0]),
        suited_hands=dict(hands),
        marked=str(record.get("marked") or ""),
    )


def _claim_error(exc: EntryError | EngineError) -> dict[str, Any]:
    """The stored error of a refused claim (stage ``result``)."""
    return {
        "stage": "result",
        "index": None,
        "seat": None,
        "cards": None,
        "rule": getattr(exc, "rule", None),
        "message": getattr(exc, "detail", "") or str(exc),
        # The code and parameters render the error in the reader's language.
        "code": exc.error_code if isinstance(exc, EntryError) else exc.code,
        "params": exc.params,
    }


def _settled_fields(
    record: Mapping[str, Any], quick: QuickResult, settlement: Settlement
) -> dict[str, Any]:
    """The verifier's fields of a plausible quick result, scored by the engine: ``verified``
    when the declared score is the engine's, else ``mismatch``."""
    settlement_facts = {
        "quick": True,
        "bid": quick.bid,
        "unit": settlement.unit,
        "bombs": len(quick.bombs),
        "rockets": quick.rockets,
        "spring": quick.spring,
        "anti_spring": quick.anti_spring,
    }
    score = dict(settlement.score)
    declared = record.get("declared")
    mismatch = isinstance(declared, Mapping) and dict(declared) != score
    return {
        "status": "mismatch" if mismatch else "verified",
        "landlord": quick.landlord,
        "winner": quick.winner,
        "multiplier": settlement.multiplier,
        "score": score,
        "error": {
            "stage": "result",
            "index": None,
            "seat": None,
            "cards": None,
            "rule": "R-VERIFY",
            "message": f"declared {dict(declared)}; the engine scores {score}",
        }
        if mismatch and isinstance(declared, Mapping)
        else None,
        "facts": settlement_facts,
    }


def quick_fields(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The verifier's Game fields for a record carrying a quick result, None for any other.

    The engine replays what there is (the deal, the landlord and bid: R-VERIFY's first steps);
    the claims are checked by `check_quick` and scored by the engine. Status ``verified`` when
    the declared score is the engine's, ``mismatch`` when not, ``illegal`` when a claim cannot
    have happened; ``facts`` carry ``"quick": true`` so that pages say the plays were not
    followed.
    """
    if record.get("quick") is None:
        return None
    try:
        outcome = engine_replay(dict(record)).to_dict()
    except EngineError as exc:
        return _quick_failed(exc.to_dict())
    error = outcome.get("error") or {}
    if outcome.get("status") == "illegal" and error.get("stage") in ("deal", "bidding"):
        return _quick_failed(error)
    try:
        quick = quick_from_record(record)
        assert quick is not None
        deal = _record_deal(record)
        if quick.landlord != record.get("landlord") or quick.bid != record.get("bid"):
            raise _quick_fail("quick.not_the_record", "R-REC")
        settlement = check_quick(deal, quick)
    except (EntryError, EngineError) as exc:
        return _quick_failed(_claim_error(exc))
    return _settled_fields(record, quick, settlement)
