"""The engine's outcome of a record as the fields of a Game (R-VERIFY): what verification stores.

Vocabulary: the *facts* of a game are its outcome keys (`FACTS`: bid, unit, bombs, rockets,
spring, anti-spring); a *quick result* (games.steps) has no plays, only the claimed facts,
checked for plausibility and scored by the engine; a *ruled claim* is a flagged claim a chief
referee let stand (tournaments.tables.review), scored as a proven claim. The engine
(games.engine.replay)
is the source of truth; nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import EngineError, RuleSet, replay
from games.models import Status
from games.quick_result import quick_fields

# The outcome keys stored as a game's facts (here and for a ruled claim, tournaments.tables.review).
FACTS = ("bid", "unit", "bombs", "rockets", "spring", "anti_spring")


def replay_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record through the engine: the Game fields of its outcome (R-VERIFY).

    Never raises for a bad record: an engine error becomes status `illegal` with its error.
    A quick result (games.steps: no plays, the claimed facts under ``quick``) is checked for
    plausibility against the deal and scored by the engine (games.quick_result.quick_fields).
    """
    quick = quick_fields(record)
    if quick is not None:
        return quick
    try:
        outcome = replay(dict(record)).to_dict()
    except EngineError as exc:
        return {
            "status": Status.ILLEGAL,
            "landlord": "",
            "winner": "",
            "multiplier": None,
            "score": None,
            "error": exc.to_dict(),
            "facts": None,
        }
    status = outcome.get("status")
    if status not in Status.values or status == Status.PENDING:
        raise ValueError(f"the engine returned an unknown status {status!r}")
    return {
        "status": status,
        "landlord": outcome.get("landlord") or "",
        "winner": outcome.get("winner") or "",
        "multiplier": outcome.get("multiplier"),
        "score": outcome.get("score"),
        "error": outcome.get("error") if status != Status.VERIFIED else None,
        "facts": {k: outcome.get(k) for k in FACTS if outcome.get(k) is not None} or None,
    }


def accepted_claim_fields(record: Any) -> dict[str, Any] | None:
    """The Game fields of a flagged claim ruled to stand: the claimant's side wins, scored by
    the engine as a proven claim (R-CLAIM, R-SPRING from the plays made).

    The record is replayed with its ``{"claim": seat}`` end turned into a concession by a
    seat of the other side (the landlord when a farmer claimed, a farmer when the landlord
    did), which the engine settles for the claimant's side on the plays made; the declared
    score is left out, since the ruling replaces it. Returns ``{"score", "winner",
    "multiplier", "facts"}``, or None when the record is not a claim the engine can settle
    that way (its replay then is not verified).
    """
    if not isinstance(record, dict) or not isinstance(record.get("end"), dict):
        return None
    claimant = record["end"].get("claim")
    try:
        first = replay(dict(record)).to_dict()
        landlord = first.get("landlord")
        seats = RuleSet.from_spec(record.get("rules") or "classic").seats
        if not landlord or claimant not in seats:
            return None
        conceder = landlord if claimant != landlord else next(s for s in seats if s != landlord)
        ruled = {k: v for k, v in record.items() if k not in ("declared", "declared_winner")}
        ruled["end"] = {"concede": conceder}
        outcome = replay(ruled).to_dict()
    except (EngineError, StopIteration):
        return None
    if outcome.get("status") != Status.VERIFIED:
        return None
    return {
        "score": outcome.get("score"),
        "winner": outcome.get("winner") or "",
        "multiplier": outcome.get("multiplier"),
        "facts": {k: outcome[k] for k in FACTS if outcome.get(k) is not None} | {"ruled": True},
    }
