"""A refused call reads as a sentence in the referee's language: the call said as the action
("call the landlord", "bid 3"), never "cannot call call the landlord" (the third trial's
finding, in English and in Chinese: "S 现在不能叫 叫地主")."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.messages import error_message, error_sentence


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("call", "E may not call the landlord now; allowed: pass, bid 3."),
        ("3", "E may not bid 3 now; allowed: pass, bid 3."),
        ("rob", "E may not rob the landlord now; allowed: pass, bid 3."),
    ],
)
def test_a_call_not_allowed_names_the_call_as_an_action(call: str, said: str) -> None:
    with translation.override("en"):
        text = error_message(
            "bid.not_allowed", {"seat": "E", "call": call, "allowed": ["pass", "3"]}
        )
    assert text == said


def test_the_bidding_sentence_of_live_entry_too() -> None:
    with translation.override("en"):
        text = error_sentence(rule="R-BID-AUCTION", seat="S", cards="call", stage="bidding")
    assert text == "S may not call the landlord now."


def test_the_chinese_says_the_call_once() -> None:
    with translation.override("zh-hans"):
        text = error_message("bid.not_allowed", {"seat": "S", "call": "call", "allowed": ["pass"]})
    assert text is not None and "叫 叫地主" not in text and "不能叫地主" in text
