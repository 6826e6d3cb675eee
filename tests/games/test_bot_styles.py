"""The demo's players of different strengths (games.bot STYLES): every record is legal (the
bot replays it) and, over the same deals from one seat, the styles rank as said."""

from __future__ import annotations

import random

from games.bot import STYLES, play_record
from games.engine import RuleSet, deal_random, replay
from games.notation import rank_cards


def test_styles_are_legal_and_ordered_by_strength() -> None:
    rules = RuleSet.from_spec("classic")
    totals = {}
    for style in STYLES:
        total = 0
        for i in range(60):
            deal = deal_random(rules, random.Random(i), first_bidder="S")
            record = play_record(
                rules=rules,
                hands={s: rank_cards(c) for s, c in deal.hands.items()},
                bottom=rank_cards(deal.bottom),
                first_bidder="S",
                seed=i,
                styles={"S": style},
            )
            assert replay(record).error is None
            total += (record.get("declared") or {}).get("S", 0)
        totals[style] = total
    # Weakest first: random < largest < heuristic in the sum of South's scores.
    assert totals["random"] < totals["largest"] < totals["heuristic"]
