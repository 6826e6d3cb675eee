"""The sentences of live entry and of stored verdicts, in the reader's language: each engine
error code (games.engine.errors.ERROR_CODES) and quick-result code as a sentence naming the
play, seat, cards and rule (ENGINE_SENTENCES, QUICK_SENTENCES; the engine's English message
when a code has none), a verified game's stored error, and the labels of calls, types, statuses."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import EngineError, format_cards, parse_cards
from games.models import Status
from games.notation import rank_cards


def call_label(call: str) -> str:
    """A call as a referee reads it in the active language."""
    labels = {
        "pass": _("pass"),
        "call": _("call the landlord"),
        "rob": _("rob the landlord"),
        "double": _("double"),
        "redouble": _("redouble"),
        "show": _("show the hand"),
        "surrender": _("surrender"),
        "reveal": _("reveal"),
    }
    if call in labels:
        return labels[call]
    if call.isdigit():
        return _("bid %(n)s") % {"n": call}
    return call


def type_label(name: str) -> str:
    """A RULES.md play type (``chain_of_solos``) as a referee reads it in the active language."""
    labels = {
        "solo": _("solo"),
        "pair": _("pair"),
        "trio": _("trio"),
        "trio_with_solo": _("trio with a solo"),
        "trio_with_pair": _("trio with a pair"),
        "chain_of_solos": _("chain of solos"),
        "chain_of_pairs": _("chain of pairs"),
        "chain_of_trios": _("chain of trios"),
        "airplane_with_solos": _("airplane with solos"),
        "airplane_with_pairs": _("airplane with pairs"),
        "four_with_two_solos": _("four with two solos"),
        "four_with_two_pairs": _("four with two pairs"),
        "space_shuttle": _("space shuttle"),
        "space_shuttle_with_solos": _("space shuttle with solos"),
        "space_shuttle_with_pairs": _("space shuttle with pairs"),
        "bomb": _("bomb"),
        "rocket": _("rocket"),
    }
    return labels.get(name, _("an unknown type"))


def _listed(values: object, label: Callable[[str], str] = str) -> str:
    if not isinstance(values, (list, tuple)) or not values:
        return "—"
    return ", ".join(label(str(v)) for v in values)


def _end_word(kind: object) -> str:
    return {"claim": _("claim"), "concede": _("concede")}.get(str(kind), "—")


def _joker_name(letter: object) -> str:
    return _("small joker") if letter == "B" else _("big joker")


# One sentence per engine error code (games.engine.errors.ERROR_CODES), built from the error's
# parameters in the active language; gettext runs when the sentence is built, not at import.
ENGINE_SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "engine.error": lambda p: _("The engine refuses this input."),
    "notation.bad_char": lambda p: (
        _(
            "%(cards)s is not card notation: the character “%(char)s” at position %(position)s "
            "is not a card."
        )
        % {"cards": p["text"], "char": p["char"], "position": p["position"]}
    ),
    "notation.no_cards": lambda p: (
        _("“%(text)s” names no card: type the cards, or p to pass.") % {"text": p["text"]}
    ),
    "notation.bad_suited": lambda p: (
        _(
            "%(text)s is not suited card notation: the character “%(char)s” at position "
            "%(position)s starts no card."
        )
        % {"text": p["text"], "char": p["char"], "position": p["position"]}
    ),
    "deal.too_many_of_rank": lambda p: (
        _("No hand can hold %(over)s: the deck has fewer.") % {"over": _listed(p["over"])}
    ),
    "deal.seats": lambda p: (
        _("The deal must give hands for %(seats)s, not %(given)s.")
        % {"seats": _listed(p["seats"]), "given": _listed(p["given"])}
    ),
    "deal.hand_size": lambda p: (
        _("%(seat)s holds %(n)s cards at the deal; each hand has %(size)s.")
        % {"seat": p["seat"], "n": p["n"], "size": p["size"]}
    ),
    "deal.bottom_size": lambda p: (
        _("The bottom has %(n)s cards; it has %(size)s.") % {"n": p["n"], "size": p["size"]}
    ),
    "deal.aside_size": lambda p: (
        _("%(n)s cards are set aside; the rules set aside %(size)s.")
        % {"n": p["n"], "size": p["size"]}
    ),
    "deal.not_the_deck": lambda p: (
        _("The deal is not exactly the deck: duplicate %(extra)s; missing %(missing)s.")
        % {"extra": _listed(p["extra"]), "missing": _listed(p["missing"])}
    ),
    "deal.deck_letter": lambda p: (
        _("%(card)s: with two decks every card names its deck (a or b).") % {"card": p["card"]}
    ),
    "deal.dealt_twice": lambda p: _("The card %(card)s is dealt twice.") % {"card": p["card"]},
    "deal.marked_card": lambda p: (
        _(
            "The marked card %(card)s must be a card of a suit, not a joker, with its deck "
            "(e.g. H7a)."
        )
        % {"card": p["card"]}
    ),
    "deal.marked_unsuited": lambda p: _(
        "A five-player deal records the suits: the hidden landlord holds the twin of the "
        "marked card."
    ),
    "deal.marked_nobody": lambda p: (
        _("Nobody holds the marked card %(card)s.") % {"card": p["card"]}
    ),
    "deal.marked_missing": lambda p: _("A five-player record names the marked card."),
    "bid.first_bidder": lambda p: (
        _("The first bidder %(seat)s is not a seat of this table (%(seats)s).")
        % {"seat": p["seat"], "seats": _listed(p["seats"])}
    ),
    "bid.passed_out": lambda p: (
        _("%(seat)s may not %(call)s: the deal is passed out.")
        % {"seat": p["seat"], "call": call_label(str(p["call"]))}
    ),
    "bid.landlord_only": lambda p: (
        _("%(seat)s may not %(call)s: only the landlord may.")
        % {"seat": p["seat"], "call": call_label(str(p["call"]))}
    ),
    "bid.over": lambda p: (
        _("%(seat)s may not %(call)s: the bidding is over.")
        % {"seat": p["seat"], "call": call_label(str(p["call"]))}
    ),
    "bid.wrong_turn": lambda p: (
        _("It is %(expected)s's turn to call, not %(seat)s's.")
        % {"seat": p["seat"], "expected": p["expected"]}
    ),
    "bid.not_allowed": lambda p: (
        _("%(seat)s may not %(cards)s now; allowed: %(allowed)s.")
        % {
            "seat": p["seat"],
            "cards": call_label(str(p["call"])),
            "allowed": _listed(p["allowed"], call_label),
        }
    ),
    "bid.incomplete": lambda p: (
        _("The bidding stops with %(seat)s to call (allowed: %(allowed)s).")
        % {"seat": p["seat"], "allowed": _listed(p["allowed"], call_label)}
    ),
    "bid.no_first_bidder": lambda p: _("The record has a bidding but no first bidder."),
    "bid.landlord_not_seat": lambda p: (
        _("The landlord %(landlord)s is not a seat of this table.") % {"landlord": p["landlord"]}
    ),
    "bid.impossible": lambda p: (
        _("A bid of %(bid)s is impossible under these rules.") % {"bid": p["bid"]}
    ),
    "bid.not_marked_landlord": lambda p: (
        _("The landlord is %(marked)s, who holds the marked card, not %(landlord)s.")
        % {"marked": p["marked"], "landlord": p["landlord"]}
    ),
    "play.landlord_not_seat": lambda p: (
        _("The landlord %(landlord)s is not a seat of this table.") % {"landlord": p["landlord"]}
    ),
    "play.partner_not_seat": lambda p: (
        _("The hidden landlord %(partner)s is not a seat of this table.")
        % {"partner": p["partner"]}
    ),
    "play.after_end": lambda p: (
        _("The game ended when %(winner)s went out: no step may follow.") % {"winner": p["winner"]}
    ),
    "play.wrong_turn": lambda p: (
        _("It is %(expected)s's turn to play, not %(seat)s's.")
        % {"seat": p["seat"], "expected": p["expected"]}
    ),
    "play.must_lead": lambda p: (
        _("%(seat)s leads this trick and must play cards: a pass is not allowed.")
        % {"seat": p["seat"]}
    ),
    "play.not_held": lambda p: (
        _("%(seat)s does not hold %(cards)s (holds %(hand)s).")
        % {"seat": p["seat"], "cards": p["cards"], "hand": p["hand"] or "—"}
    ),
    "play.unknown_reading": lambda p: (
        _("%(cards)s: the declared type is not a type of play.") % {"cards": p["cards"]}
    ),
    "play.reading_impossible": lambda p: (
        _("%(cards)s cannot be read as a %(reading)s; it reads as: %(readings)s.")
        % {
            "cards": p["cards"],
            "reading": type_label(str(p["reading"])),
            "readings": _listed(p["readings"], type_label),
        }
    ),
    "play.does_not_beat": lambda p: (
        _("%(cards)s does not beat %(last)s played by %(owner)s.")
        % {"cards": p["cards"], "last": p["last"], "owner": p["owner"]}
    ),
    "play.passed_out": lambda p: _("The deal was passed out: no card may be played."),
    "play.surrendered": lambda p: _("The landlord surrendered: no card may be played."),
    "play.end_after_out": lambda p: (
        _("The game ended when a seat went out: no %(kind)s may follow.")
        % {"kind": _end_word(p["kind"])}
    ),
    "play.incomplete": lambda p: _(
        "The record stops before any seat is out and has no claim or concession."
    ),
    "play.previous_pass": lambda p: _("The previous play is a pass: there is nothing to follow."),
    "combo.too_many": lambda p: (
        _("%(cards)s has %(n)s cards: no play has more than %(max)s.")
        % {"cards": p["cards"], "n": p["n"], "max": p["max"]}
    ),
    "combo.over_the_deck": lambda p: (
        _("%(cards)s has more cards of a rank than the deck holds.") % {"cards": p["cards"]}
    ),
    "combo.jokers_four": lambda p: (
        _(
            "%(cards)s is not a combination: with four players BB and RR are pairs, the rocket is "
            "all four jokers BBRR, and B with R is nothing."
        )
        % {"cards": p["cards"]}
    ),
    "combo.jokers_five": lambda p: (
        _(
            "%(cards)s is not a combination: with five players the joker bombs are two equal "
            "jokers (BB, RR), three jokers and four jokers; B with R is nothing."
        )
        % {"cards": p["cards"]}
    ),
    "combo.not_a_pair": lambda p: (
        _("%(cards)s is not a pair: a pair is two cards of one rank (B with R is the rocket).")
        % {"cards": p["cards"]}
    ),
    "combo.joker_as_dealt": lambda p: (
        _(
            "%(cards)s is not a pair: by rank it is a jack and the %(joker)s (a deal writes the "
            "jokers BJ and RJ); the %(joker)s alone is written %(letter)s."
        )
        % {"cards": p["cards"], "letter": p["joker"], "joker": _joker_name(p["joker"])}
    ),
    "combo.two_decks_trio": lambda p: (
        _(
            "%(cards)s is not a combination: with two decks a trio takes only a pair, and a bomb "
            "is played alone."
        )
        % {"cards": p["cards"]}
    ),
    "combo.kickers": lambda p: (
        _(
            "%(cards)s is not a combination: its kickers do not fit a trio, an airplane or a "
            "four with two."
        )
        % {"cards": p["cards"]}
    ),
    "combo.chain_of_pairs": lambda p: (
        _(
            "%(cards)s is not a combination: a chain of pairs needs 3 or more consecutive pairs "
            "from 3 to A."
        )
        % {"cards": p["cards"]}
    ),
    "combo.chain_of_solos": lambda p: (
        _(
            "%(cards)s is not a combination: a chain of solos needs 5 or more consecutive ranks "
            "from 3 to A."
        )
        % {"cards": p["cards"]}
    ),
    "claim.not_seat": lambda p: (
        _("%(seat)s is not a seat of this table: no %(kind)s.")
        % {"seat": p["seat"], "kind": _end_word(p["kind"])}
    ),
    "claim.refuted": lambda p: (
        _(
            "%(seat)s's claim for the %(side)s is not proven: a defence beats it; the referee "
            "decides."
        )
        % {"seat": p["seat"], "side": _winner_word(p["side"])}
    ),
    "claim.gave_up": lambda p: (
        _(
            "%(seat)s's claim for the %(side)s is not proven: the engine's search stopped after "
            "%(budget)s positions; the referee decides."
        )
        % {"seat": p["seat"], "side": _winner_word(p["side"]), "budget": p["budget"]}
    ),
    "result.score": lambda p: (
        _("The record declares %(declared)s; the engine scores %(score)s.")
        % {"declared": _scores(p["declared"]), "score": _scores(p["score"])}
    ),
    "result.winner": lambda p: (
        _("The record declares the winner: %(declared)s; the engine finds: %(winner)s.")
        % {"declared": _winner_word(p["declared"]), "winner": _winner_word(p["winner"])}
    ),
    "record.invalid": lambda p: _("This is not a game record: a field is missing or mistyped."),
    "record.not_object": lambda p: _("This is not a game record: a record is a JSON object."),
    "record.missing_field": lambda p: (
        _("This is not a game record: the field “%(field)s” is missing.") % {"field": p["field"]}
    ),
    "record.bad_field": lambda p: (
        _("This is not a game record: the field “%(field)s” is not of the right kind.")
        % {"field": p["field"]}
    ),
    "record.not_json": lambda p: _("This is not valid JSON."),
    "record.nested_too_deeply": lambda p: _("This JSON is nested too deeply."),
    "record.number_too_long": lambda p: (
        _("A number in this JSON has more than %(digits)s digits.") % {"digits": p["digits"]}
    ),
    "record.number_too_large": lambda p: _("A number in this JSON is out of range."),
    "rules.invalid": lambda p: _("The rules named are unknown or impossible."),
    "rules.option_unknown": lambda p: (
        _("There is no rule option “%(option)s”; the options are: %(options)s.")
        % {"option": p["option"], "options": _listed(p["options"])}
    ),
    "rules.option_bool": lambda p: (
        _("The rule option %(option)s is yes or no (true or false), not “%(value)s”.")
        % {"option": p["option"], "value": p["value"]}
    ),
    "rules.option_whole": lambda p: (
        _("The rule option %(option)s is a whole number, not “%(value)s”.")
        % {"option": p["option"], "value": p["value"]}
    ),
    "rules.option_at_least": lambda p: (
        _("The rule option %(option)s is at least %(low)s, not %(value)s.")
        % {"option": p["option"], "low": p["low"], "value": p["value"]}
    ),
    "rules.option_at_most": lambda p: (
        _("The rule option %(option)s is at most %(high)s, not %(value)s.")
        % {"option": p["option"], "high": p["high"], "value": p["value"]}
    ),
    "rules.option_choice": lambda p: (
        _("The rule option %(option)s is one of %(choices)s, not “%(value)s”.")
        % {"option": p["option"], "choices": _listed(p["choices"]), "value": p["value"]}
    ),
    "rules.preset_unknown": lambda p: (
        _("There is no rules preset “%(preset)s”; the presets are: %(presets)s.")
        % {"preset": p["preset"], "presets": _listed(p["presets"])}
    ),
    "rules.preset_fixed": lambda p: (
        _("The preset %(preset)s fixes its bidding and its scoring.") % {"preset": p["preset"]}
    ),
    "rules.table_size": lambda p: (
        _(
            "Bidding %(bidding)s with scoring %(scoring)s is for another table size than "
            "the preset %(preset)s."
        )
        % {"bidding": p["bidding"], "scoring": p["scoring"], "preset": p["preset"]}
    ),
}


def error_message(code: str, params: Mapping[str, Any]) -> str | None:
    """A refusal's `code` with its `params` as one sentence in the active language: an engine
    error's code (games.engine.errors.ERROR_CODES, ENGINE_SENTENCES) or a quick result's
    (``quick.*``, QUICK_SENTENCES). None for a code without a sentence or parameters that do
    not fit it (a stored error of an older engine), so that the caller falls back."""
    sentence = ENGINE_SENTENCES.get(code) or QUICK_SENTENCES.get(code)
    if sentence is None or not isinstance(params, Mapping):
        return None
    try:
        return sentence(params)
    except (KeyError, TypeError, ValueError):
        return None


def error_sentence(
    rule: str,
    *,
    seat: str,
    cards: str,
    stage: str = "play",
    char: str | None = None,
    char_position: int | None = None,
    allowed: str | None = None,
    hand: str | None = None,
    last: str | None = None,
    owner: str | None = None,
) -> str:
    """One refused call or play as a sentence in the active language, from the attributes of
    the engine's error: its rule id (R-…), seat, cards and stage (``bidding`` or ``play``).

    The optional context makes it precise where known: ``char``/``char_position`` of a
    notation error, ``allowed`` (the calls allowed, already in words), ``hand`` (the cards
    the seat still held, R-VERIFY), ``last`` and ``owner`` (the play to beat, R-CMP).
    Used for live entry (render_error) and for a stored game's error (stored_error_message).
    """
    params = {"seat": seat, "cards": cards, "rule": rule}
    if char is not None:
        return _(
            "%(cards)s is not card notation: the character “%(char)s” at position "
            "%(position)s is not a card."
        ) % {**params, "char": char, "position": char_position}
    if stage == "bidding":
        # The call said as its action ("call the landlord", "bid 3"), not after "call".
        said = {**params, "cards": call_label(cards)}
        if allowed is None:
            return _("%(seat)s may not %(cards)s now.") % said
        return _("%(seat)s may not %(cards)s now; allowed: %(allowed)s.") % {
            **said,
            "allowed": allowed,
        }
    if rule == "R-LEAD":
        return _("%(seat)s leads this trick and must play cards: a pass is not allowed.") % params
    if rule == "R-VERIFY":
        if hand is None:
            return _("%(seat)s does not hold %(cards)s.") % params
        return _("%(seat)s does not hold %(cards)s (holds %(hand)s).") % {**params, "hand": hand}
    if rule == "R-CMP":
        if not last:
            return _("%(cards)s does not beat the play before it.") % params
        return _("%(cards)s does not beat %(last)s played by %(owner)s.") % {
            **params,
            "last": last,
            "owner": owner,
        }
    if rule == "R-AMBIG":
        return _("%(cards)s cannot be read that way.") % params
    if rule == "R-END":
        return _("The game is over: no step may follow.")
    if rule == "R-PASSOUT":
        return _("The deal was passed out: no card may be played.")
    if rule == "R-SURRENDER":
        return _("The landlord surrendered: no card may be played.")
    if rule.startswith(("R-T", "R-KICK", "R-MAX", "R-4W2", "R-SHUTTLE", "R-4P", "R-5P", "R-2P")):
        return _("%(cards)s is not a combination allowed by these rules.") % params
    return _("%(seat)s: %(cards)s is refused.") % params


def stored_error_message(
    error: Mapping[str, Any],
    *,
    status: str,
    record: Mapping[str, Any],
    landlord: str | None = None,
    winner: str | None = None,
    declared: Mapping[str, Any] | None = None,
    score: Mapping[str, Any] | None = None,
) -> str:
    """The error the verification stored for a game (its ``error``: stage, index, seat,
    cards, rule, message in English) as a sentence in the active language.

    `status` is the game's (``incomplete``, ``flagged`` and ``mismatch`` have their own
    sentences), `record` the stored record (the hand held and the play to beat are read from
    it), `landlord`/`winner`/`declared`/`score` what the engine found and the record declared.
    """
    code = error.get("code")
    if isinstance(code, str) and code != "engine.error":
        coded = error_message(code, error.get("params") or {})
        if coded is not None:
            return coded
    # An error stored before the engine gave codes: the sentence from its rule and stage.
    rule = str(error.get("rule") or "")
    seat = str(error.get("seat") or "")
    cards = str(error.get("cards") or "")
    stage = str(error.get("stage") or "")
    if status == "incomplete":
        return _("The record stops before any seat is out and has no claim or concession.")
    if status == "flagged":
        return _("%(seat)s's claim is not proven by the engine's search: the referee decides.") % {
            "seat": seat or "—"
        }
    if stage == "result":
        if rule == "R-END":
            return _(
                "The record declares the winner: %(declared)s; the engine finds: %(winner)s."
            ) % {
                "declared": _winner_word(record.get("declared_winner")),
                "winner": _winner_word(winner),
            }
        return _("The record declares %(declared)s; the engine scores %(score)s.") % {
            "declared": _scores(declared),
            "score": _scores(score),
        }
    if stage == "deal":
        if cards:
            return _("The deal is not valid (%(rule)s): %(cards)s.") % {
                "rule": rule,
                "cards": cards,
            }
        return _("The deal is not valid (%(rule)s).") % {"rule": rule}
    if stage == "bidding":
        return error_sentence(rule, seat=seat, cards=call_label(cards), stage="bidding")
    index = error.get("index")
    plays = [p for p in record.get("plays") or [] if isinstance(p, list) and len(p) >= 2]
    before = plays[: index if isinstance(index, int) else len(plays)]
    owner, last = next(
        ((str(p[0]), str(p[1])) for p in reversed(before) if p[1] != "pass"), ("", "")
    )
    return error_sentence(
        rule,
        seat=seat,
        cards=cards,
        stage="play",
        hand=_hand_before(record, seat, landlord, before),
        last=last,
        owner=owner,
    )


def status_label(status: str) -> str:
    """The engine's verdict on a game (games.models.Status) in the active language."""

    return str(Status(status).label) if status in Status.values else status


def _winner_word(side: object) -> str:
    return {"landlord": _("landlord"), "farmers": _("farmers")}.get(str(side or ""), "—")


# -- quick result -------------------------------------------------------------------------------


# One sentence per refusal of a quick result (check_quick), by code, from its parameters: the
# stored error of a quick result carries the code, so a page renders it in its reader's language.
QUICK_SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "quick.landlord": lambda p: (
        _("The landlord must be one of the seats %(seats)s.") % {"seats": " ".join(p["seats"])}
    ),
    "quick.bid": lambda p: (
        _("A bid of %(bid)s is impossible under these rules.") % {"bid": p["bid"]}
    ),
    "quick.range": lambda p: _("Impossible under these rules: %(low)s to %(high)s only.") % p,
    "quick.winner": lambda p: _("The winner is the landlord or the farmers."),
    "quick.doubles_list": lambda p: _("The doubles are a list of seats."),
    "quick.no_double": lambda p: _("These rules have no double: no seat can double."),
    "quick.double_seat": lambda p: (
        _("%(seat)s cannot double: only each farmer, once.") % {"seat": p["seat"]}
    ),
    "quick.bombs_list": lambda p: _("The bombs are a list of ranks (3 … 2)."),
    "quick.bomb_rank": lambda p: (
        _("A bomb is named by its rank (3 … 2), not “%(rank)s”.") % {"rank": p["rank"]}
    ),
    "quick.no_bomb": lambda p: _("No hand holds a bomb of %(rank)s.") % {"rank": p["rank"]},
    "quick.bombs_count": lambda p: (
        _("The hands hold only %(n)s bomb(s) of %(rank)s.") % {"n": p["n"], "rank": p["rank"]}
    ),
    "quick.rockets_number": lambda p: _("The rockets are a whole number of rockets played."),
    "quick.no_rocket": lambda p: _("No hand holds the rocket (both jokers)."),
    "quick.spring_bool": lambda p: _("Spring and anti-spring are true or false."),
    "quick.spring_winner": lambda p: _("A spring needs the landlord to win."),
    "quick.anti_spring_winner": lambda p: _("An anti-spring needs the farmers to win."),
    "quick.both_springs": lambda p: _("Choose spring or anti-spring, not both."),
    "quick.not_the_record": lambda p: _(
        "The quick result names another landlord or bid than the record."
    ),
}


def _scores(score: Mapping[str, Any] | None) -> str:
    """{'W': -1, 'S': 2, 'E': -1} → 'S +2, E -1, W -1' (seats in table order)."""
    rank = {seat: i for i, seat in enumerate(_SEAT_ORDER)}
    items = sorted((score or {}).items(), key=lambda kv: rank.get(kv[0], len(rank)))
    return ", ".join(f"{seat} {_signed(value)}" for seat, value in items) or "—"


def _signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)


def _hand_before(
    record: Mapping[str, Any], seat: str, landlord: str | None, plays: Sequence[Sequence[Any]]
) -> str | None:
    """The cards `seat` held before the faulty play (None when the record cannot tell)."""
    hands = record.get("hands")
    if not seat or not isinstance(hands, Mapping) or seat not in hands:
        return None
    try:
        held = list(parse_cards(rank_cards(str(hands[seat]))))
        if seat == landlord:
            bottom = parse_cards(rank_cards(str(record.get("bottom") or "")))
            held = [a + b for a, b in zip(held, bottom, strict=True)]
        for who, cards in plays:
            if who == seat and cards != "pass":
                held = [a - b for a, b in zip(held, parse_cards(str(cards)), strict=True)]
    except (EngineError, ValueError):
        return None
    if min(held) < 0:
        return None
    return format_cards(tuple(held)) or "—"


_SEAT_ORDER = ("S", "E", "N", "W", "P1", "P2", "P3", "P4", "P5")  # RuleSet.seats' orders
