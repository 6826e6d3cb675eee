"""Combinations (牌型) and their comparison.

Rules: R-T1 … R-T13b, R-KICK, R-SHUTTLE, R-CMP, R-4W2, R-AMBIG.

Vocabulary:

- *play*: a multiset of cards (``Counts``); its *body* is the part compared, its *kickers*
  (带牌, wings) ride along.
- *reading*: one way to read a play as a combination: ``Reading(type, length, rank)`` where
  ``type`` is a RULES.md type name, ``length`` the number of units of a chain (1 otherwise) and
  ``rank`` the rank compared. A play may have several readings (R-AMBIG): ``classify`` returns
  the set; an empty set means the cards are not a combination.
- *open readings*: the readings of the last play of a trick that are still possible; a response
  is legal iff one of its readings beats one of them (R-CMP), and the open set narrows to the
  response's readings that do.

Classification is cached per rule set, so classifying a play seen before costs a dict lookup.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import ACE, BIG_JOKER, NRANKS, RANKS, SMALL_JOKER, TWO, Counts, parse_cards
from .rules import CLASSIC, RuleSet

__all__ = [
    "Reading",
    "TYPES",
    "TYPE_ORDER",
    "classify",
    "classify_counts",
    "beats",
    "beating_readings",
    "why_not_a_combination",
    "bomb_power",
]


TYPES = (
    "solo",  # R-T1
    "pair",  # R-T2
    "trio",  # R-T3
    "trio_with_solo",  # R-T4
    "trio_with_pair",  # R-T5
    "chain_of_solos",  # R-T6
    "chain_of_pairs",  # R-T7
    "chain_of_trios",  # R-T8
    "airplane_with_solos",  # R-T9
    "airplane_with_pairs",  # R-T10
    "four_with_two_solos",  # R-T13a
    "four_with_two_pairs",  # R-T13b
    "space_shuttle",  # R-SHUTTLE
    "space_shuttle_with_solos",  # R-SHUTTLE
    "space_shuttle_with_pairs",  # R-SHUTTLE
    "bomb",  # R-T11
    "rocket",  # R-T12
)
TYPE_ORDER = {t: i for i, t in enumerate(TYPES)}
RANK_VALUE = {c: i for i, c in enumerate(RANKS)}


class Reading(NamedTuple):
    """One reading of a play: ``type`` (RULES.md name), ``length`` (units of a chain, else 1),
    ``rank`` (the rank compared, one character of R-RANK).

    >>> Reading("airplane_with_solos", 2, "4")
    Reading(type='airplane_with_solos', length=2, rank='4')
    """

    type: str
    length: int
    rank: str

    @property
    def value(self) -> int:
        """The compared rank as an index 0..14."""
        return RANK_VALUE[self.rank]

    def to_dict(self) -> dict[str, object]:
        return {"type": self.type, "length": self.length, "rank": self.rank}


def _one_deck(c: Counts) -> bool:
    # R-DECK: a set the deck cannot hold has no reading (R-NOTE).
    return all(x <= 4 for x in c[:13]) and c[SMALL_JOKER] <= 1 and c[BIG_JOKER] <= 1


def _two_decks(c: Counts) -> bool:
    return all(x <= 8 for x in c[:13]) and c[SMALL_JOKER] <= 2 and c[BIG_JOKER] <= 2


# Bomb order (R-CMP; R-4P: more cards beat fewer; R-5P: 4 < two jokers < 5 < 6 < three jokers
# < 7 < 8 < four jokers), equal kind by rank. One deck: every bomb has length 1, tier 0.
_RANK_BOMB_TIER = {1: 0, 4: 0, 5: 2, 6: 3, 7: 5, 8: 6}
_JOKER_BOMB_TIER = {2: 1, 3: 4, 4: 7}


def bomb_power(reading: Reading) -> tuple[int, int]:
    """Order of bombs: ``(tier, rank)``; a higher tuple beats a lower one (R-CMP, R-4P, R-5P)."""
    if reading.rank in ("B", "R"):
        return (_JOKER_BOMB_TIER[reading.length], RANK_VALUE[reading.rank])
    return (_RANK_BOMB_TIER[reading.length], RANK_VALUE[reading.rank])


def _solo_kickers_ok(rest: Counts, rules: RuleSet) -> bool:
    """R-KICK 2, 3, 6 for solo kickers ``rest`` (body ranks already removed)."""
    if rest[SMALL_JOKER] and rest[BIG_JOKER] and not rules.rocket_in_kickers:
        return False
    for x in rest:
        if x == 4 and not rules.bomb_in_kickers:
            return False
        if x > 1 and not rules.solo_kickers_may_pair:
            return False
    return True


def _pair_kickers_ok(rest: Counts, rules: RuleSet) -> bool:
    """R-KICK 3, 4, 5 for pair kickers ``rest``: real pairs only, two of a rank only as option."""
    if rest[SMALL_JOKER] or rest[BIG_JOKER]:
        return False
    for x in rest[:13]:
        if x in (1, 3):
            return False
        if x == 4 and not rules.bomb_in_kickers:
            return False
    return True


def _without(c: Counts, lo: int, hi: int) -> Counts:
    return c[:lo] + (0,) * (hi - lo + 1) + c[hi + 1 :]


def _classify_two_decks(c: Counts, rules: RuleSet) -> frozenset[Reading]:
    """Two-deck tables: R-4P (four players) and R-5P (five players)."""
    n = sum(c)
    if n == 0 or n > rules.max_play or not _two_decks(c):
        return frozenset()
    five = rules.family == "five"
    ranks = [r for r in range(NRANKS) if c[r]]
    if n == 1:
        return frozenset({Reading("solo", 1, RANKS[ranks[0]])})
    jokers = c[SMALL_JOKER] + c[BIG_JOKER]
    if jokers == n:
        if n == 2 and len(ranks) == 1:  # BB or RR: a pair (R-4P) or a joker bomb (R-5P)
            return frozenset(
                {Reading("bomb" if five else "pair", 2 if five else 1, RANKS[ranks[0]])}
            )
        if five and n in (3, 4):  # three jokers, four jokers (R-5P)
            return frozenset({Reading("bomb", n, "R")})
        if not five and n == 4:  # 天尊: the four jokers (R-4P)
            return frozenset({Reading("rocket", 1, "R")})
        return frozenset()  # B+R is nothing (R-4P, R-5P)
    out: set[Reading] = set()
    distinct = len(ranks)
    if distinct == 1:
        r = ranks[0]
        if n == 2:
            return frozenset({Reading("pair", 1, RANKS[r])})
        if n == 3:
            return frozenset({Reading("trio", 1, RANKS[r])})
        return frozenset({Reading("bomb", n, RANKS[r])})  # 4 to 8 cards of a rank
    lo, hi = ranks[0], ranks[-1]
    if hi <= ACE and hi - lo + 1 == distinct:
        k = c[lo]
        if all(c[r] == k for r in ranks) and (
            (k == 1 and distinct >= 5) or (k == 2 and distinct >= 3) or k == 3
        ):
            kind = ("chain_of_solos", "chain_of_pairs", "chain_of_trios")[k - 1]
            out.add(Reading(kind, distinct, RANKS[hi]))

    def pairs_ok(rest: Counts) -> bool:
        # R-KICK 3, 4 for two decks: real pairs; BB and RR are pairs with four players only;
        # four or more of a rank (a bomb) only with bomb_in_kickers; never all four jokers.
        for r in range(NRANKS):
            x = rest[r]
            if x % 2:
                return False
            if x and r >= SMALL_JOKER and five:
                return False
            if x >= 4 and r <= TWO and not rules.bomb_in_kickers:
                return False
        return not (rest[SMALL_JOKER] == 2 and rest[BIG_JOKER] == 2 and not rules.rocket_in_kickers)

    if n == 5:
        for t in ranks:
            if c[t] == 3 and t <= TWO:
                rest = c[:t] + (0,) + c[t + 1 :]
                if pairs_ok(rest):
                    out.add(Reading("trio_with_pair", 1, RANKS[t]))
    if n % 5 == 0 and n // 5 >= 2:
        k = n // 5
        for start in range(0, ACE - k + 2):
            end = start + k - 1
            if all(c[r] == 3 for r in range(start, end + 1)) and pairs_ok(_without(c, start, end)):
                out.add(Reading("airplane_with_pairs", k, RANKS[end]))
    return frozenset(out)


def _classify(c: Counts, rules: RuleSet) -> frozenset[Reading]:
    if rules.decks == 2:
        return _classify_two_decks(c, rules)
    n = sum(c)
    if n == 0 or n > rules.max_play or not _one_deck(c):
        return frozenset()
    out: set[Reading] = set()
    ranks = [r for r in range(NRANKS) if c[r]]
    distinct = len(ranks)
    if n == 1:
        return frozenset({Reading("solo", 1, RANKS[ranks[0]])})  # R-T1
    if n == 2 and c[SMALL_JOKER] and c[BIG_JOKER]:
        return frozenset({Reading("rocket", 1, "R")})  # R-T12
    if distinct == 1:
        r = ranks[0]
        kind = {2: "pair", 3: "trio", 4: "bomb"}.get(n)  # R-T2, R-T3, R-T11
        return frozenset({Reading(kind, 1, RANKS[r])}) if kind else frozenset()

    # Chains (R-T6, R-T7, R-T8; space shuttle R-SHUTTLE): one count repeated over consecutive
    # ranks within 3..A.
    lo, hi = ranks[0], ranks[-1]
    if hi <= ACE and hi - lo + 1 == distinct:
        k = c[lo]
        if all(c[r] == k for r in ranks):
            if (k == 1 and distinct >= 5) or (k == 2 and distinct >= 3) or (k == 3):
                kind = ("chain_of_solos", "chain_of_pairs", "chain_of_trios")[k - 1]
                out.add(Reading(kind, distinct, RANKS[hi]))
            elif k == 4 and rules.space_shuttle:
                out.add(Reading("space_shuttle", distinct, RANKS[hi]))

    # Trio with kickers (R-T4, R-T5).
    if n == 4 or n == 5:
        for t in ranks:
            if c[t] == 3:
                if n == 4:
                    out.add(Reading("trio_with_solo", 1, RANKS[t]))
                else:
                    other = [r for r in ranks if r != t]
                    if len(other) == 1 and c[other[0]] == 2 and other[0] <= TWO:
                        out.add(Reading("trio_with_pair", 1, RANKS[t]))

    # Airplanes with wings (R-T9, R-T10): k consecutive trios, exactly three of each body rank
    # (R-KICK 1), and k solo or k pair kickers.
    for per, kind in ((4, "airplane_with_solos"), (5, "airplane_with_pairs")):
        if n % per == 0 and n // per >= 2:
            k = n // per
            for start in range(0, ACE - k + 2):
                end = start + k - 1
                if all(c[r] == 3 for r in range(start, end + 1)):
                    rest = _without(c, start, end)
                    ok = (
                        _solo_kickers_ok(rest, rules) if per == 4 else _pair_kickers_ok(rest, rules)
                    )
                    if ok:
                        out.add(Reading(kind, k, RANKS[end]))

    # Four with two (R-T13a, R-T13b; R-4W2: not a bomb).
    if n == 6 or n == 8:
        for f in ranks:
            if c[f] == 4 and f <= TWO:
                rest = c[:f] + (0,) + c[f + 1 :]
                if n == 6 and _solo_kickers_ok(rest, rules):
                    out.add(Reading("four_with_two_solos", 1, RANKS[f]))
                elif n == 8 and _pair_kickers_ok(rest, rules):
                    out.add(Reading("four_with_two_pairs", 1, RANKS[f]))

    # Space shuttle with wings (R-SHUTTLE, option): k consecutive fours, 2k solos or 2k pairs.
    if rules.space_shuttle:
        for per, kind in ((6, "space_shuttle_with_solos"), (8, "space_shuttle_with_pairs")):
            if n % per == 0 and n // per >= 2:
                k = n // per
                for start in range(0, ACE - k + 2):
                    end = start + k - 1
                    if all(c[r] == 4 for r in range(start, end + 1)):
                        rest = _without(c, start, end)
                        ok = (
                            _solo_kickers_ok(rest, rules)
                            if per == 6
                            else _pair_kickers_ok(rest, rules)
                        )
                        if ok:
                            out.add(Reading(kind, k, RANKS[end]))
    return frozenset(out)


def classify_counts(counts: Counts, rules: RuleSet | None = None) -> frozenset[Reading]:
    """The set of readings of a play given as counts (R-AMBIG); empty when not a combination.

    Cached per rule set.
    """
    rs = rules or CLASSIC
    cache = rs._cache
    found: frozenset[Reading] | None = cache.get(counts)
    if found is None:
        found = _classify(counts, rs)
        cache[counts] = found
    return found


def classify(cards: str, rules: RuleSet | None = None) -> frozenset[Reading]:
    """The set of readings of a play (R-T1 … R-T13b, R-KICK, R-SHUTTLE, R-AMBIG).

    Args:
        cards: card notation (R-NOTE), any alias.
        rules: the rule set (options of R-KICK and R-SHUTTLE); None means ``classic``.

    Returns:
        A frozenset of ``Reading``; empty when the cards are not a combination (or the deck
        cannot hold them).

    Raises:
        NotationError: a character that is not card notation.

    >>> sorted(classify("333444TJ"))
    [Reading(type='airplane_with_solos', length=2, rank='4')]
    >>> sorted(r.type for r in classify("333444555666"))
    ['airplane_with_solos', 'airplane_with_solos', 'chain_of_trios']
    >>> classify("333444677")
    frozenset()
    """
    rs = rules or CLASSIC
    cache = rs._cache
    found: frozenset[Reading] | None = cache.get(cards)
    if found is None:
        found = classify_counts(parse_cards(cards), rs)
        if len(cache) >= 150_000:
            cache.clear()  # bounded memory whatever the input
        cache[cards] = found
    return found


def beating_readings(
    play: frozenset[Reading], open_readings: frozenset[Reading]
) -> frozenset[Reading]:
    """The readings of ``play`` that beat at least one open reading (R-CMP, R-4W2, R-AMBIG).

    The rocket beats everything; a bomb beats every non-bomb and every lower bomb; otherwise a
    reading beats one of the same type and length with a lower rank. Four-with-two is not a
    bomb, so any bomb beats it and the two four-with-two types never meet.
    """
    out = []
    for p in play:
        pt = p.type
        if pt == "rocket":
            if any(o.type != "rocket" for o in open_readings):
                out.append(p)
        elif pt == "bomb":
            power = bomb_power(p)
            for o in open_readings:
                if o.type == "rocket":
                    continue
                if o.type != "bomb" or bomb_power(o) < power:
                    out.append(p)
                    break
        else:
            pv = RANK_VALUE[p.rank]
            for o in open_readings:
                if o.type == pt and o.length == p.length and RANK_VALUE[o.rank] < pv:
                    out.append(p)
                    break
    return frozenset(out)


def beats(play: str, previous: str, rules: RuleSet | None = None) -> bool:
    """True when ``play`` beats ``previous`` (R-CMP), every reading of ``previous`` open.

    Raises:
        NotationError: bad notation in either argument.

    >>> beats("9993", "888A")
    True
    >>> beats("QQQ66", "TTTKK")
    True
    >>> beats("3333", "BR")
    False
    >>> beats("666678", "JJJJ9Q")
    False
    """
    return bool(beating_readings(classify(play, rules), classify(previous, rules)))


def why_not_a_combination(counts: Counts, rules: RuleSet | None = None) -> tuple[str, str]:
    """Explain why a card set with no reading is not a combination: ``(rule id, message)``."""
    rule, message, _code, _params = why_not_coded(counts, rules)
    return rule, message


def why_not_coded(
    counts: Counts, rules: RuleSet | None = None
) -> tuple[str, str, str, dict[str, object]]:
    """`why_not_a_combination` with the error code and parameters a caller translates
    (errors.ERROR_CODES, ``combo.*``): ``(rule id, message, code, params)``."""
    n = sum(counts)
    rs = rules or CLASSIC
    text = "".join(RANKS[r] * x for r, x in enumerate(counts))
    decks = "one deck" if rs.decks == 1 else "two decks"
    distinct = sum(1 for x in counts if x)
    jokers = counts[SMALL_JOKER] + counts[BIG_JOKER]
    cards: dict[str, object] = {"cards": text}
    if n > rs.max_play:
        return (
            "R-MAX",
            f"{text} has {n} cards; no play has more than {rs.max_play}",
            "combo.too_many",
            {**cards, "n": n, "max": rs.max_play},
        )
    if not (_one_deck(counts) if rs.decks == 1 else _two_decks(counts)):
        return (
            "R-DECK",
            f"{text} has more cards of a rank than {decks} hold",
            "combo.over_the_deck",
            {**cards, "decks": rs.decks},
        )
    if rs.decks == 2 and jokers == n:
        if rs.family == "four":
            return (
                "R-4P",
                f"{text} is not a combination: with four players BB and RR are "
                "pairs, the rocket is all four jokers BBRR, and B+R is nothing",
                "combo.jokers_four",
                cards,
            )
        return (
            "R-5P",
            f"{text} is not a combination: with five players the joker bombs are "
            "two equal jokers (BB, RR), three jokers and four jokers; B+R is nothing",
            "combo.jokers_five",
            cards,
        )
    jack = RANKS.index("J")
    if n == 2 and counts[jack] == 1 and jokers == 1:
        # "BJ" or "RJ" copied from a deal (R-SUIT writes the jokers so), read by rank.
        letter = "B" if counts[SMALL_JOKER] else "R"
        name = "small" if letter == "B" else "big"
        return (
            "R-T2",
            f"{text} is not a pair: by rank it is a jack and the {name} joker (a deal writes "
            f"the jokers BJ and RJ); the {name} joker alone is written {letter}",
            "combo.joker_as_dealt",
            {**cards, "joker": letter},
        )
    if n == 2 and distinct == 2:
        return (
            "R-T2",
            f"{text} is not a pair: a pair is two cards of one rank (B+R is the rocket)",
            "combo.not_a_pair",
            cards,
        )
    if max(counts) >= 3:
        if rs.decks == 2:
            rule = "R-4P" if rs.family == "four" else "R-5P"
            return (
                rule,
                f"{text} is not a combination: with two decks a trio takes only a pair "
                "(trio_with_pair, airplane_with_pairs); trio_with_solo, airplanes with solos "
                "and four-with-two are not played, and a bomb is played alone",
                "combo.two_decks_trio",
                cards,
            )
        return (
            "R-KICK",
            f"{text} is not a combination: its kickers do not fit a trio, airplane or "
            "four-with-two (wings all solos or all pairs, as many as the body's units, no "
            "kicker of a body rank, no bomb or rocket among them)",
            "combo.kickers",
            cards,
        )
    if max(counts) == 2:
        return (
            "R-T7",
            f"{text} is not a combination: a chain_of_pairs needs 3 or more consecutive pairs "
            "within 3..A (no 2, no jokers)",
            "combo.chain_of_pairs",
            cards,
        )
    return (
        "R-T6",
        f"{text} is not a combination: a chain_of_solos needs 5 or more consecutive ranks "
        "within 3..A (no 2, no jokers)",
        "combo.chain_of_solos",
        cards,
    )
