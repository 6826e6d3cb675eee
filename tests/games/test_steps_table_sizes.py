"""Live entry at tables of two, four and five players (R-2P, R-4P, R-5P): the bot's game of a
deal, typed step by step, rebuilds to the same record the engine verifies."""

from __future__ import annotations

import random

import pytest

from games import steps
from games.bot import play_record
from games.engine import RuleSet, deal_random, replay


def _steps(record: dict[str, object]) -> list[str]:
    calls = [c for _s, c in record["bidding"]]  # type: ignore[union-attr]
    plays = [c for _s, c in record["plays"]]  # type: ignore[union-attr]
    return [*calls, *plays]


@pytest.mark.parametrize("preset", ["two_player", "four_player", "five_player"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_steps_of_a_whole_game_rebuild_the_verified_record(preset: str, seed: int) -> None:
    rules = RuleSet.from_spec(preset)
    deal = deal_random(rules, random.Random(seed), "S")
    record = play_record(
        rules=rules,
        hands=deal.hands,
        bottom=deal.bottom,
        first_bidder=deal.first_bidder,
        seed=seed,
        aside=deal.aside,
        marked=deal.marked,
    )
    from games.notation import rank_cards

    entry_deal = steps.EntryDeal(
        rules=rules,
        hands={s: rank_cards(h) for s, h in deal.hands.items()},
        bottom=rank_cards(deal.bottom),
        first_bidder=deal.first_bidder,
        suited_hands=dict(deal.hands),
        marked=deal.marked or "",
        aside=rank_cards(deal.aside or ""),
    )
    position = steps.rebuild(entry_deal, _steps(record))
    assert position.finished
    view = steps.view(position)
    assert view["seats"] == list(rules.seats)
    assert view["result"]["status"] == "verified"
    if record["plays"]:  # not passed out: the seat that went out holds no card
        assert 0 in view["counts"].values()
    out = replay(steps.to_record(position, record_id="typed"))
    assert out.status == "verified", out.to_dict()
    assert out.score == replay(record).score
    if preset == "five_player":
        assert out.partner == replay(record).partner


def test_a_five_player_step_out_of_turn_is_refused_with_r_5p() -> None:
    rules = RuleSet.from_spec("five_player")
    deal = deal_random(rules, random.Random(9))
    from games.notation import rank_cards

    entry_deal = steps.EntryDeal(
        rules=rules,
        hands={s: rank_cards(h) for s, h in deal.hands.items()},
        bottom=rank_cards(deal.bottom),
        first_bidder=deal.first_bidder,
        suited_hands=dict(deal.hands),
        marked=deal.marked or "",
    )
    position = steps.start(entry_deal)
    assert position.to_move == deal.first_bidder
    with pytest.raises(steps.EntryError) as info:
        steps.apply_step(position, "3")
    assert info.value.rule == "R-5P"
