"""The 522 real games of tests/data (RLCard's rule agents, Botzone) replay to the source's own
judgement: status, winner, and for the illegal one the index and seat of the fault."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import replay
from tests.paths import DATA_DIR

DATA = DATA_DIR


def _games() -> list[dict[str, Any]]:
    games = []
    for name in ("rlcard_rule_agents.jsonl", "botzone_ftl1.jsonl"):
        with open(DATA / name, encoding="utf-8") as fh:
            games.extend(json.loads(line) for line in fh if line.strip())
    return games


GAMES = _games()


def test_the_sample_holds_522_games() -> None:
    assert len(GAMES) == 522


@pytest.mark.parametrize("game", GAMES, ids=[g["id"] for g in GAMES])
def test_r_verify_real_game(game: dict[str, Any]) -> None:
    expected = game["expected"]
    out = replay(game)
    assert out.status == expected["status"], out.to_dict()
    if expected["status"] == "verified":
        assert out.winner == expected["winner"]
        assert sum(out.score.values()) == 0
    else:
        assert out.error is not None
        assert out.error.index == expected["error_index"]
        assert out.error.seat == expected["error_seat"]
        assert out.error.stage == "play"


def test_r_lead_botzone_pass_on_lead_is_the_fault() -> None:
    illegal = [g for g in GAMES if g["expected"]["status"] == "illegal"]
    assert len(illegal) == 1
    out = replay(illegal[0])
    assert out.error is not None and out.error.rule == "R-LEAD"
    assert "may not pass" in out.error.message
