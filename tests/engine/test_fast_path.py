"""The fast path of verification against the checked path (a differential test, R-VERIFY).

``replay`` tries the private fast path (games.engine._fast) first and hands a record to the
checked path at the first doubt; the verdict must be the same either way: on every real game,
and on Hypothesis-generated games, legal or mutated into faults. ``replay(record, fast=False)``
is the checked path alone. The fast path must also really decide the common case (a fast path
that always handed over would pass the comparison and speed nothing).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import play_random_game

from games.engine import EngineError, RuleSet, _fast, classify, format_cards, parse_hand, replay
from games.engine.__main__ import main
from games.engine._fast import table_of
from games.engine.replay import _replay_fast
from tests.paths import DATA_DIR

DATA = DATA_DIR
GAMES = [
    json.loads(line)
    for name in ("rlcard_rule_agents.jsonl", "botzone_ftl1.jsonl")
    for line in (DATA / name).read_text(encoding="utf-8").splitlines()
    if line.strip()
]
THREE = [
    "classic",
    "classic_once",
    "rob",
    "competition",
    "cn2016",
    {"preset": "classic", "options": {"space_shuttle": True}},
    {"preset": "classic", "options": {"bomb_in_kickers": True, "rocket_in_kickers": True}},
    {"preset": "classic", "options": {"solo_kickers_may_pair": False}},
]
OTHER_SIZES = ["two_player", "four_player", "five_player"]


def verdict(record: Any, *, fast: bool) -> Any:
    """What replay answers: the outcome line and final state, or the error it raises."""
    try:
        out = replay(copy.deepcopy(record), fast=fast)
    except EngineError as exc:
        return ("raises", type(exc).__name__, str(exc))
    state = out.state
    return out.to_dict(), None if state is None else (state.hands_counts, state.plays, state)


def assert_same(record: Any) -> None:
    assert verdict(record, fast=True) == verdict(record, fast=False), record


@pytest.mark.parametrize("game", GAMES, ids=[g["id"] for g in GAMES])
def test_real_game_fast_verdict_is_the_checked_verdict(game: dict[str, Any]) -> None:
    assert_same(game)
    decided = _replay_fast(copy.deepcopy(game))
    # The common case is decided by the fast path; the one illegal game goes to the checked path.
    assert (decided is not None) == (game["expected"]["status"] == "verified")


def test_r_verify_cli_prints_the_checked_lines(tmp_path: Path) -> None:
    """`python -m games.engine replay` takes the fast path; its lines are the checked ones,
    byte for byte (the verified part of a line is remembered, the id never is)."""
    records = [dict(g, id=i) for i, g in enumerate(GAMES[:40])]
    records += [dict(g, id=f'第{i}局 "q"') for i, g in enumerate(GAMES[40:80])]
    records.append(dict(GAMES[0], id=None, declared={"S": 1, "E": -1, "W": 0}))
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(path)]) == 0
    expected = "".join(
        json.dumps(replay(r, fast=False).to_dict(), ensure_ascii=False) + "\n" for r in records
    )
    assert out.getvalue() == expected


def _rank_text(record: dict[str, Any]) -> dict[str, Any]:
    """The same game with its hands in rank letters and the contract given (no bidding):
    the fast path's own deal check instead of the checked one."""
    out = dict(record)
    rules = RuleSet.from_spec(record["rules"])
    out["hands"] = {s: _canonical(h) for s, h in record["hands"].items()}
    out["bottom"] = _canonical(record["bottom"])
    if record.get("plays"):
        replayed = replay(record, fast=False)
        if replayed.landlord is not None and rules.family == "three":
            out["bidding"] = None
            out["landlord"] = replayed.landlord
            out["bid"] = replayed.bid
    return out


def _canonical(text: str) -> str:
    return format_cards(parse_hand(text))


def _mutate(record: dict[str, Any], kind: str, rng: random.Random) -> dict[str, Any]:
    """One change that usually makes a fault (or an odd but legal record)."""
    rec = copy.deepcopy(record)
    plays = rec["plays"]
    i = rng.randrange(len(plays)) if plays else 0
    seats = list(rec["hands"])
    if kind == "none" or not plays:
        pass
    elif kind == "drop":
        del plays[i]
    elif kind == "swap":
        j = rng.randrange(len(plays))
        plays[i][1], plays[j][1] = plays[j][1], plays[i][1]
    elif kind == "to_pass":
        plays[i][1] = "pass"
    elif kind == "card":
        plays[i][1] = rng.choice("3456789TJQKA2BR") * rng.randint(1, 4)
    elif kind == "seat":
        plays[i][0] = rng.choice(seats)
    elif kind == "truncate":
        del plays[i:]
    elif kind == "extra":
        plays.append([rng.choice(seats), rng.choice(["3", "pass", "BR"])])
    elif kind == "reading":
        readings = sorted({r.type for r in classify(plays[i][1])}) if plays[i][1] != "pass" else []
        plays[i].append(rng.choice(readings + ["solo", "bomb", "nonsense"]))
    elif kind == "alias":
        text = plays[i][1]
        plays[i][1] = rng.choice([text[::-1], text.lower(), text.replace("T", "10"), "p", "不要"])
    elif kind == "repeat":
        plays.insert(i, list(plays[i]))
    elif kind == "tuple":
        plays[i] = tuple(plays[i])
    elif kind == "declared":
        rec["declared"] = {s: rng.randint(-8, 8) for s in seats}
        if rng.random() < 0.5:
            rec["declared_winner"] = rng.choice(["landlord", "farmers", "nobody"])
    elif kind == "deal":
        a, b = rng.sample(seats, 2)
        rec["hands"][a], rec["hands"][b] = rec["hands"][b], rec["hands"][a][:-1] + "3"
    elif kind == "bottom":
        rec["bottom"] = rng.choice(["", "333", "BR3", rec["bottom"][::-1]])
    elif kind == "contract":
        if rec.get("bidding") is None:
            rec["landlord"] = rng.choice([*seats, "N", None])
            rec["bid"] = rng.choice([0, 1, 2, 3, 5, True, "1"])
        else:
            rec["bidding"] = rec["bidding"][:-1]
    elif kind == "end":
        del plays[i:]
        rec["end"] = {rng.choice(["claim", "concede"]): rng.choice(seats)}
    elif kind == "rules":
        rec["rules"] = rng.choice(["two_player", "nonsense", {"preset": "classic", "x": 1}, 3])
    elif kind == "shape":
        field = rng.choice(["hands", "plays", "bottom", "id", "first_bidder"])
        rec[field] = rng.choice([None, 7, [], {}, "S"])
    return rec


MUTATIONS = [
    "none",
    "drop",
    "swap",
    "to_pass",
    "card",
    "seat",
    "truncate",
    "extra",
    "reading",
    "alias",
    "repeat",
    "tuple",
    "declared",
    "deal",
    "bottom",
    "contract",
    "end",
    "rules",
    "shape",
]


def test_r_ambig_a_play_of_several_readings_is_left_to_the_checked_path() -> None:
    """333444555666 reads as a chain of trios and as airplanes (R-AMBIG): the open readings
    narrow play by play, which the fast path's one-reading table does not follow."""
    table = table_of(RuleSet.from_spec("classic"))
    assert table is not None
    assert table.learn("333444555666") is False
    assert table.learn("333444TJ") is True
    assert table.learn("TJ444333") is False  # not canonical text (R-NOTE): checked


def test_fast_path_tables_emptied_mid_game_still_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables are bounded; emptied while a game is read, the fast path hands over."""
    monkeypatch.setattr(_fast, "_TABLE_LIMIT", 5)
    monkeypatch.setattr(_fast, "_TABLES", {})
    for game in GAMES[:60]:
        assert_same(game)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(THREE + OTHER_SIZES),
    rank_text=st.booleans(),
    kind=st.sampled_from(MUTATIONS),
)
def test_random_game_fast_verdict_is_the_checked_verdict(
    seed: int, spec: Any, rank_text: bool, kind: str
) -> None:
    record = play_random_game(seed, spec, check_agreement=False)
    if rank_text:
        record = _rank_text(record)
    assert_same(_mutate(record, kind, random.Random(seed)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32 - 1), which=st.integers(0, 521))
def test_mutated_real_game_fast_verdict_is_the_checked_verdict(
    kind: str, seed: int, which: int
) -> None:
    assert_same(_mutate(GAMES[which], kind, random.Random(seed)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(THREE), rank_text=st.booleans())
def test_fast_path_decides_legal_three_player_games(seed: int, spec: Any, rank_text: bool) -> None:
    """A legal three-player game played to its end, every play with one reading (R-AMBIG) and
    the landlord not surrendered, is decided by the fast path, not handed over."""
    record = play_random_game(seed, spec, check_agreement=False)
    if rank_text:
        record = _rank_text(record)
    checked = replay(record, fast=False)
    rules = RuleSet.from_spec(spec)
    common = checked.status == "verified" and all(
        text == "pass" or len(classify(text, rules)) == 1 for _, text in record["plays"]
    )
    if common and record["plays"]:
        assert _replay_fast(copy.deepcopy(record)) is not None
