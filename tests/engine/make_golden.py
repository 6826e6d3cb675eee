"""One-off generator of golden_leads.json: lead counts by brute force over sub-multisets.

Run from the repository root:  python tests/engine/make_golden.py > tests/engine/golden_leads.json

For each hand, every non-empty sub-multiset is classified by the independent reference
classifier (reference.py); the number with at least one reading is the number of distinct legal
leads.  The counts are established this way only, never from the engine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import Options, fmt, lead_count, parse  # noqa: E402

# (name, hand, why it is here).  Canonical text, one deck.
HANDS: list[tuple[str, str, str]] = [
    ("pair_only", "33", "hand-checked: 3, 33"),
    ("straight6", "345678", "hand-checked: 6 solos + 34567, 45678, 345678"),
    ("trio_solo", "3334", "hand-checked: 3, 33, 333, 4, 3334"),
    ("jokers_two", "2BR", "hand-checked: 2, B, R, BR (2B, 2R, 2BR are nothing)"),
    ("two_bombs", "33334444", "hand-checked; shuttle adds 33334444"),
    ("four_trios", "333444555666", "R-AMBIG example, airplanes with trio kickers"),
    ("shuttle_seed", "3444455556JQ", "seed 004 4444555536JQ: shuttle with solos"),
    ("trios17", "33344455566677789", "17 cards, five consecutive trios"),
    ("pairs17", "33445566778899TTJ", "17 cards, long chain of pairs"),
    ("straight17", "334567789TJQKA2BR", "17 cards, full straight, both jokers"),
    ("bombs17", "33334444555566667", "17 cards, four consecutive bombs"),
    ("mixed17", "344556677789JQQA2", "17 cards, a typical deal"),
    ("trios20", "33344455566677788899", "20 cards, six trios and a pair"),
    ("spread20", "334455667788TJQKA2BR", "20 cards, many sub-multisets, both jokers"),
    ("bombs_jokers20", "3333444477778888AABR", "20 cards, four bombs, a pair, rocket"),
    ("wings20", "3334445557QQKKAA22BR", "20 cards, trios with pair wings, 2s, both jokers"),
    ("landlord20", "344555667788TTJQKK2B", "20 cards, a typical landlord hand"),
]

VARIANTS: list[tuple[str, Options]] = [
    ("default", Options()),
    ("space_shuttle", Options(space_shuttle=True)),
    ("solo_kickers_distinct", Options(solo_kickers_may_pair=False)),
    ("bomb_and_rocket_in_kickers", Options(bomb_in_kickers=True, rocket_in_kickers=True)),
]


def main() -> None:
    hands_out = []
    for name, hand, why in HANDS:
        counts = parse(hand)
        assert fmt(counts) == hand, hand
        hands_out.append(
            {
                "name": name,
                "hand": hand,
                "cards": len(hand),
                "note": why,
                "leads": {
                    variant: {"options": opts.as_spec(), "count": lead_count(counts, opts)}
                    for variant, opts in VARIANTS
                },
            }
        )
        print(name, file=sys.stderr, flush=True)
    doc = {
        "about": (
            "Number of distinct legal leads (non-empty sub-multisets of the hand with at least "
            "one reading, RULES.md section 2) under preset classic with the given options; "
            "computed by brute force with tests/engine/reference.py (make_golden.py)."
        ),
        "hands": hands_out,
    }
    json.dump(doc, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
