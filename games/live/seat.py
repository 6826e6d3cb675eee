"""What one device at a live table may see: a seat's view of the position (games.steps).

Vocabulary:

- *seat view*: the position as one seat sees it at the table: its own hand as dealt and what is
  left of it, the auction, whose turn it is, the play to beat, every play made, how many cards
  each other seat holds, the bottom once the landlord has taken it (R-BID: it is turned face up),
  and, when it is this seat's turn, its *menu* (games.live.choices): the legal steps as buttons.
  Never another seat's unplayed cards: they are not in the view at all, so no page, socket
  message or API answer built from it can carry them.
- *referee view*: the same for the table's referee device (`seat` None): it shows the hand and
  the menu of the seat to act, whichever it is, so that one person can record the whole table
  (the device is printed on the referee's sheet only, never on the players' table card).
- *at*: the number of steps a view was built after. A device sends it with its step, and the
  server refuses a step made on a position that has moved on (tournaments.tables.live).

A claim (R-CLAIM) in a live view is searched for games.steps.LIVE_CLAIM_SECONDS at most, so
that a device never waits on it; a claim the search cannot decide in that bound is shown as
undecided, and the workers' verification of the stored game decides it with the full budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import replay
from games.live import choices
from games.messages import call_label, status_label, stored_error_message, type_label
from games.notation import is_suited, rank_cards
from games.steps import LIVE_CLAIM_SECONDS, LOW_CARDS, Position, open_play, to_record

# What of the engine's verdict a device may see: scores and contract, never the cards.
RESULT_FIELDS = (
    "status",
    "landlord",
    "winner",
    "multiplier",
    "score",
    "bid",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
)


def record_steps(record: Mapping[str, Any]) -> list[str]:
    """The live-entry steps of a stored RECORDS.md §1 record: its calls, then its plays (a
    declared reading written ``cards@type``), then ``claim``/``concede`` when it ended so.

    >>> record_steps({"bidding": [["S", "3"]], "plays": [["S", "33"], ["E", "pass"]],
    ...               "end": {"claim": "S"}})
    ['3', '33', 'pass', 'claim']
    """
    steps = [str(call[1]) for call in record.get("bidding") or []]
    for play in record.get("plays") or []:
        text = str(play[1])
        steps.append(f"{text}@{play[2]}" if len(play) > 2 and play[2] else text)
    end = record.get("end") or {}
    steps.extend(word for word in ("claim", "concede") if word in end)
    return steps


def _labelled(menu: dict[str, Any]) -> dict[str, Any]:
    """`menu` with a ``label`` on each choice and group in the reader's language: a call's
    words, a play's type (what the seat is asked when a play reads in several, R-AMBIG)."""
    choices_ = [*menu["primary"], *(c for g in menu["groups"] for c in g["choices"])]
    for choice in choices_:
        kind = choice["kind"]
        choice["label"] = (
            call_label(choice["step"])
            if kind == "call"
            else call_label("pass")
            if kind == "pass"
            else type_label(kind)
        )
    for group in menu["groups"]:
        group["label"] = type_label(group["kind"])
    return menu


def _menu(position: Position, seat: str) -> dict[str, Any] | None:
    """The legal steps of `seat` as buttons (games.live.choices), None when it is not its turn."""
    return _labelled(_choices(position, seat)) if position.to_move == seat else None


def _choices(position: Position, seat: str) -> dict[str, Any]:
    bidding, game = position.bidding, position.game
    if not bidding.done:
        return choices.call_menu(bidding.legal_calls()).to_dict()
    assert game is not None
    beat = open_play(position)
    menu = choices.play_menu(
        game.hands[seat],
        beat["cards"] if beat else None,
        position.deal.rules,
        open_readings=game.open,
    )
    out = menu.to_dict()
    if not game.plays and seat == bidding.landlord:
        # The landlord's optional calls before the first lead (show, surrender, reveal).
        calls = choices.call_menu(bidding.optional_calls()).to_dict()["primary"]
        out["primary"] = [*out["primary"], *calls]
    return out


def stored_result(
    position: Position, result: dict[str, Any], *, status: str, error: Mapping[str, Any] | None
) -> dict[str, Any]:
    """`result` (the live replay's, seat_view's ``result``) once the game is stored with
    `status` and `error`: every device shows the stored verdict, the same for every seat and
    every read. A claim's live search is bounded in time (LIVE_CLAIM_SECONDS), so it may
    decide on one read and not on the next (a trial saw the seats disagree): until the
    workers verified the stored game, a claim is undecided everywhere; then their verdict is
    shown (R-CLAIM)."""
    out = dict(result)
    if status == "pending":
        if position.end is not None and "claim" in position.end:
            out.update(undecided=True, text="")
        return out
    out.update(status=status, status_label=status_label(status), undecided=False)
    out["text"] = _verdict_text(error, status, to_record(position), out)
    return out


def _verdict_text(
    error: Mapping[str, Any] | None,
    status: str,
    record: Mapping[str, Any],
    result: Mapping[str, Any],
) -> str:
    """The engine's `error` of a game said once in the active language ("" for none), with
    the `result`'s landlord, winner and score (games.messages.stored_error_message)."""
    if not error:
        return ""
    return stored_error_message(
        dict(error),
        status=status,
        record=record,
        landlord=result.get("landlord"),
        winner=result.get("winner"),
        score=result.get("score"),
    )


def _result(position: Position) -> dict[str, Any] | None:
    if not position.finished:
        return None
    record = to_record(position)
    full = replay(record, claim_seconds=LIVE_CLAIM_SECONDS).to_dict()
    result = {key: full.get(key) for key in RESULT_FIELDS}
    result["status_label"] = status_label(str(full.get("status")))
    error = full.get("error")
    undecided = bool(error and position.end is not None and "budget" in (error.get("params") or {}))
    result["undecided"] = undecided
    result["text"] = _verdict_text(error, str(full.get("status")), record, full)
    return result


def seat_view(
    position: Position, seat: str | None, *, undo: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The position as `seat` sees it (None: the referee device, which sees the seat to act).

    Shape: ``{"at", "phase", "to_move", "seats", "seat", "first_bidder", "landlord", "bid",
    "calls": [[seat, call]], "plays": [[seat, cards]], "counts": {seat: n}, "low": [seat],
    "open": {"seat", "cards"} | null, "bottom": cards | null, "end", "hand": {"seat",
    "dealt", "left"} | null, "menu": games.live.choices.Menu.to_dict() | null, "undo": {"at",
    "by"} | null, "result": {status, landlord, winner, score, multiplier, bid, bombs, rockets,
    spring, anti_spring, status_label, undecided, text} | null}``. ``hand`` is the viewer's
    seat (the seat to act for the referee device): ``dealt`` as dealt (suited when the board
    is), ``left`` its unplayed cards in R-NOTE ranks.

    Rules: R-BID (the bottom is shown once taken), R-CLAIM (the live claim bound above).
    """
    deal, bidding, game = position.deal, position.bidding, position.game
    seats = list(deal.rules.seats)
    hands = game.hands if game is not None else {s: deal.hands[s] for s in seats}
    counts = {s: _count(hands[s]) for s in seats}
    shown = seat if seat is not None else position.to_move
    landlord = bidding.landlord if bidding.done and not bidding.passed_out else None
    hand = None
    if shown is not None:
        hand = {"seat": shown, "dealt": _dealt(position, shown, landlord), "left": hands[shown]}
    return {
        "at": len(position.steps),
        "phase": position.phase,
        "to_move": position.to_move,
        "seats": seats,
        "seat": seat,
        "first_bidder": deal.first_bidder,
        "landlord": landlord,
        "bid": bidding.bid,
        "calls": [[s, c] for s, c in bidding.calls],
        "plays": [[s, c] for s, c in game.plays] if game else [],
        "counts": counts,
        "low": [s for s in seats if game is not None and 0 < counts[s] <= LOW_CARDS],
        "open": open_play(position),
        "bottom": deal.bottom if landlord else None,
        "end": position.end,
        "hand": hand,
        "menu": _menu(position, shown) if shown is not None else None,
        "undo": dict(undo) if undo else None,
        "result": _result(position),
    }


def _dealt(position: Position, seat: str, landlord: str | None) -> str:
    """`seat`'s cards as dealt, suited when the board is; the landlord's with the bottom he
    took (R-BID)."""
    deal = position.deal
    suited = deal.suited_hands.get(seat, "")
    if seat != landlord or position.game is None:
        return suited or deal.hands[seat]
    if suited and is_suited(suited) and is_suited(deal.suited_bottom):
        return f"{suited} {deal.suited_bottom}"
    # A board without suits (or a bottom without them): ranks only, as the engine writes them.
    return rank_cards(deal.hands[seat] + deal.bottom)


def _count(cards: str) -> int:
    return sum(1 for ch in cards if not ch.isspace())
