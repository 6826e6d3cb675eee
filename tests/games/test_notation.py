"""Deal notation of the Django side (games.notation): suits, ranks and the identity of a deal."""

from __future__ import annotations

import pytest

from games.engine import NotationError
from games.notation import deal_key, is_suited, rank_cards


def test_suited_and_rank_text_read_alike() -> None:
    assert rank_cards("S3 H3 D4 BJ RJ") == rank_cards("433BR") == "334BR"
    assert is_suited("S3 H3") and not is_suited("33") and not is_suited("BJ")


def test_same_deal_same_key_whatever_the_suits() -> None:
    hands = {"S": "S3 H4", "E": "D5 C6", "W": "S7 H8"}
    by_rank = {"S": "43", "E": "65", "W": "87"}
    assert deal_key(hands=hands, bottom="BJ RJ S2", first_bidder="S") == deal_key(
        hands=by_rank, bottom="2BR", first_bidder="S"
    )
    assert deal_key(hands=by_rank, bottom="2BR", first_bidder="S") != deal_key(
        hands=by_rank, bottom="2BR", first_bidder="E"
    )


def test_bad_notation_is_an_engine_error() -> None:
    with pytest.raises(NotationError):
        rank_cards("33Z")
