"""A minimal verifier of recorded classic games built on RLCard 1.2.0's type table.

The yardstick of the engine benchmark's ``verify`` section (scripts/bench_engine.py): what a
verifier costs when the combination types come from a lookup in RLCard's ``CARD_TYPE`` table
(rlcard.games.doudizhu.utils, 27,471 plays) and the hands are ``collections.Counter`` values.

    python scripts/rlcard_table_verify.py FILE.jsonl > verdicts.jsonl

For each JSON-lines record (RECORDS.md §1, three players, ``landlord`` given) it checks: the
deal is exactly the deck; the landlord takes the bottom and leads; each turn is made by the
seat in turn, from cards it holds, is a play the table knows, and beats the open play (same
type and a higher weight, or a bomb over a non-bomb or a lower bomb, or the rocket); the leader
does not pass; no turn follows the end. It prints one JSON line per record: ``id``, ``status``
(``verified``, ``illegal`` or ``incomplete``), ``winner`` and, when illegal, ``index`` and
``seat`` of the first bad turn. Bidding, claims and scores are out of its reach (the real games
have none). The table has no space shuttle: such a play is illegal here.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from rlcard.games.doudizhu.utils import CARD_TYPE

TABLE = CARD_TYPE[0]
DECK = Counter("3456789TJQKA2" * 4 + "BR")
SEATS = ("S", "E", "W")


def verify(rec: dict) -> dict:
    out = {"id": rec.get("id"), "status": "illegal", "winner": None}
    hands = {s: Counter(rec["hands"][s]) for s in SEATS}
    bottom = rec["bottom"]
    if sum(hands.values(), Counter(bottom)) != DECK:
        out["index"] = None
        return out
    landlord = rec["landlord"]
    hands[landlord].update(bottom)
    left = {s: sum(h.values()) for s, h in hands.items()}
    turn = SEATS.index(landlord)
    open_types: dict[str, int] | None = None  # type -> weight of the open play
    open_seat = None
    for i, (seat, cards) in enumerate(rec["plays"]):
        if out["winner"] is not None or seat != SEATS[turn]:
            out.update(index=i, seat=seat, winner=None)
            return out
        turn = (turn + 1) % 3
        if open_seat == seat:  # everyone else passed: this seat leads
            open_types = None
        if cards == "pass":
            if open_types is None:
                out.update(index=i, seat=seat)
                return out
            continue
        hand = hands[seat]
        need = Counter(cards)
        if any(hand[c] < n for c, n in need.items()):
            out.update(index=i, seat=seat)
            return out
        types = TABLE.get(cards)
        if types is None:
            out.update(index=i, seat=seat)
            return out
        mine = {t: int(w) for t, w in types}
        if open_types is not None and not _beats(mine, open_types):
            out.update(index=i, seat=seat)
            return out
        hand.subtract(need)
        left[seat] -= len(cards)
        open_types, open_seat = mine, seat
        if left[seat] == 0:
            out["winner"] = "landlord" if seat == landlord else "farmers"
    out["status"] = "verified" if out["winner"] is not None else "incomplete"
    return out


def _beats(mine: dict[str, int], open_types: dict[str, int]) -> bool:
    if "rocket" in open_types:
        return False
    if "rocket" in mine:
        return True
    if "bomb" in mine:
        return "bomb" not in open_types or mine["bomb"] > open_types["bomb"]
    return any(t in open_types and w > open_types[t] for t, w in mine.items())


def main(paths: list[str]) -> int:
    write = sys.stdout.write
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    write(json.dumps(verify(json.loads(line))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
