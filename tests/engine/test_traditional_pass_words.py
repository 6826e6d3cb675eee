"""R-NOTE's pass words in Traditional Chinese, as Taiwan's and Hong Kong's referees write them
(the site speaks zh-Hant): 過 beside 过 in the play, 過 and 不搶 beside 过 and 不抢 in the
bidding; the words both scripts share (不要, 不出, 不叫, 不加倍) were already taken."""

from __future__ import annotations

import pytest

from games.engine.bidding import normalize_call
from games.engine.cards import is_pass_text, parse_play


@pytest.mark.parametrize("word", ["過", "过", "不要", "不出", " 過 "])
def test_a_pass_in_the_play_reads_in_either_script(word: str) -> None:
    assert is_pass_text(word)
    assert parse_play(word) is None


@pytest.mark.parametrize("word", ["過", "不搶", "不抢", "不叫", "不加倍"])
def test_a_pass_in_the_bidding_reads_in_either_script(word: str) -> None:
    assert normalize_call(word) == "pass"
