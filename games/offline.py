"""What the live entry page needs to go on without the network.

When the network drops mid-game the page keeps taking steps, queued on the device and sent in
order once the network is back; the engine stays the judge (every queued step is checked by
games.steps on sync, R-VERIFY). Meanwhile the page checks each step it can against what the
server sent with the last position it answered: its *hints*, ``entry.view(...)["offline"]``.

Vocabulary:

- *legal*: every legal turn of the seat to move in the play (``games.engine.GameState
  .legal_plays``: canonical card text, ``pass`` last when allowed; R-LEAD, R-CMP, R-AMBIG),
  None when there are more than `MAX_LEGAL` (a long hand leading: the page then checks only
  that the seat holds the cards, R-VERIFY, and marks the step unverified) or in the bidding.
- *reading*: one reading of a play (games.engine.combos.Reading, R-AMBIG) as ``[type,
  length, value, power]``: the compared rank as 0..14 and, for a bomb, its order among bombs
  (``bomb_power``, R-CMP, R-4P, R-5P; 0 for any other type). The page compares readings as
  ``beating_readings`` does: the rocket beats everything else, a bomb every non-bomb and every
  bomb of less power, any other reading one of the same type and length and a lower value.
- *open*: the readings of the play to beat (those the engine keeps open, R-AMBIG), None when
  the seat to move leads.
- *leads*: per seat, every combination its cards can make, ``{cards: [reading]}`` (``legal_
  moves`` of the hand with nothing open; R-LEAD, R-T…, R-KICK), None for a seat past
  `MAX_LEADS`. The cards of any later play are a subset of the hand now, and a set of cards is
  a combination (with its readings) or not whatever else is held: so, with the open readings,
  the page can check every later turn of a seat whose hand is still within the one these were
  computed from. Sent with the first position of the play and whenever asked (a page opening
  mid-game), not with every step: the page keeps them.
- *bidding tree*: every way the bidding may go on from the position, as nested objects:
  ``{"seat": S, "next": {call: node}}`` while a seat is to call, ``{"landlord": S | None,
  "bid": n, "over": bool, "optional": {call: node}}`` once it is done (``over``: passed out or
  surrendered, no card is played; ``optional``: the landlord's calls before the first lead,
  show, surrender, reveal). Calls are the engine's words (games.engine.Bidding.legal_calls:
  R-BID-*, R-DOUBLE-ORDER, R-SC-ROB, R-SURRENDER, R-5P). None past `MAX_TREE_NODES`.
- *words*: what a referee may type for a call (games.steps.CALL_ALIASES, the engine's pass
  words, normalize_call) and for the end of the play (claim, concede: R-CLAIM), with the
  engine's word each stands for: the page's checker reads typed steps as the server does.

Within one trick the page also knows the turn order and the trick's end (R-TRICK: the others
all pass, the last player leads) and the end of the game (R-END: a seat has no card left),
which need no hint.
"""

from __future__ import annotations

from typing import Any

from games.engine import Bidding, IllegalBidError, Reading
from games.engine.bidding import PASS_CALLS
from games.engine.cards import PASS_WORDS
from games.engine.combos import bomb_power
from games.engine.moves import legal_moves

MAX_LEGAL = 300  # legal turns sent with a position (a follower's are a few dozen at most)
MAX_LEADS = 1_000  # combinations of one hand (four players: up to ~550 from 33 cards)
MAX_TREE_NODES = 2_000  # bidding tree nodes (the largest preset, cn2016, has 258 states)

# The engine's pass words in the bidding (games.engine.bidding.normalize_call).
BIDDING_PASS_WORDS = PASS_CALLS
# Its pass words in the play (games.engine.cards.is_pass_text).
PLAY_PASS_WORDS = PASS_WORDS


def reading(r: Reading) -> list[Any]:
    """A Reading as the page compares it: ``[type, length, value, power]`` (see the module)."""
    power = 0
    if r.type == "bomb":
        tier, value = bomb_power(r)
        power = tier * 100 + value
    return [r.type, r.length, r.value, power]


def hints(position: Any, *, leads: bool = False) -> dict[str, Any]:
    """The offline hints of a games.steps.Position: ``{"legal": [text] | None, "open":
    [reading] | None, "leads": {seat: {cards: [reading]} | None} | None, "bidding": tree |
    None}`` (see the module). ``leads`` are sent at the first position of the play, or when
    `leads` asks for them. Computed by the engine, never by hand."""
    legal: list[str] | None = None
    combos: dict[str, dict[str, list[list[Any]]] | None] | None = None
    open_readings = None
    game = position.game
    if position.phase == "play" and game is not None and position.end is None:
        moves = game.legal_plays()
        legal = [str(m) for m in moves] if len(moves) <= MAX_LEGAL else None
        if game.open is not None:
            open_readings = sorted(reading(r) for r in game.open)
        if leads or not game.plays:
            combos = {}
            for seat, hand in zip(game.seats, game.hands_counts, strict=True):
                found = legal_moves(hand, None, game.rules)
                combos[seat] = (
                    {m.cards: sorted(reading(r) for r in m.readings) for m in found}
                    if len(found) <= MAX_LEADS
                    else None
                )
    tree = None
    if position.phase == "bidding" or (
        position.phase == "play" and game is not None and not game.plays
    ):
        tree = bidding_tree(position.bidding)
    return {"legal": legal, "open": open_readings, "leads": combos, "bidding": tree}


def bidding_tree(bidding: Bidding) -> dict[str, Any] | None:
    """Every continuation of `bidding` as a tree (see the module); None past
    `MAX_TREE_NODES` nodes."""
    count = 0

    def node(b: Bidding) -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > MAX_TREE_NODES:
            raise OverflowError
        if not b.done:
            seat = b.to_move or ""
            return {"seat": seat, "next": {c: node(b.apply(seat, c)) for c in b.legal_calls()}}
        optional: dict[str, Any] = {}
        for call in b.optional_calls():
            try:
                optional[call] = node(b.apply(b.landlord or "", call))
            except IllegalBidError:
                continue
        return {
            "landlord": None if b.passed_out else b.landlord,
            "bid": b.bid,
            "over": bool(b.passed_out or b.surrendered),
            "optional": optional,
        }

    try:
        return node(bidding)
    except OverflowError:
        return None
