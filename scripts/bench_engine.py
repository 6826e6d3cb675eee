"""Benchmark the pure Python rules engine (games.engine), side by side with RLCard 1.2.0.

Run by `make bench` (which installs the optional extra `bench`: rlcard==1.2.0 and numpy).

    python scripts/bench_engine.py            # everything; the memory run replays 1,000,000 games
    python scripts/bench_engine.py --quick    # the memory run replays 20,000 games instead
    python scripts/bench_engine.py --only classify,leads --json
    python scripts/bench_engine.py --only leads,follows --profile   # cProfile of our side

Sections (all on one core, pure Python, time.perf_counter, one warm-up pass, then the median
of --repeats timed passes):

  classify  canonical plays per second over a fixed seeded list of plays of every type
            (drawn from random hands' legal leads); RLCard: a lookup in its type table
            CARD_TYPE (rlcard.games.doudizhu.utils), the table its judge uses for a play.
  leads     all legal leads of distinct seeded random 20-card hands, hands per second;
            RLCard: DoudizhuJudger.playable_cards_from_hand(hand).
  follows   all legal follows of a 17-card hand to a given previous play, queries per
            second; RLCard: utils.get_gt_cards(player, greater_player), which its players
            call when they must follow.
  replay    replay, verify and score the real games in tests/data/*.jsonl, games per second
            (RLCard has no replayer of recorded games: ours only).
  verify    whole processes on the same JSON-lines file of the real games repeated (15,000
            lines, new ids): `python -m games.engine replay FILE` against
            scripts/rlcard_table_verify.py FILE (a minimal verifier on RLCard's CARD_TYPE
            table with collections.Counter hands), run alternately, --repeats times each;
            games per second by wall and by CPU time (user + sys of the child), and the
            median of the per-repetition ratios.
  claims    the claim positions of tests/engine/claim_positions.py (each verified real game
            cut before its last 2 to 6 card plays, claimed by the side that won and by the
            side that lost): the CPU time (time.process_time, so that the figures hold on a
            busy machine) of prove_claim on each with replay's budget, the share decided
            (proven or refuted) within 0.5 s, and the distribution; also the positions
            expanded by each search (search_claim), which no load changes.
  memory    `python -m games.engine replay FILE` on a generated JSON-lines file of
            1,000,000 games (20,000 with --quick): peak RSS (wait4 rusage of that child)
            and wall time (ours only).

Progress goes to stderr; the table (or --json) to stdout.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# numpy (used by RLCard) must not start helper threads: one core.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

RANKS = "3456789TJQKA2BR"
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
DECK = [r for r in RANKS[:13] for _ in range(4)] + ["B", "R"]
SECTIONS = ("classify", "leads", "follows", "replay", "verify", "claims", "memory")
TARGETS = {
    "claims": 0.99,  # share of claims decided within CLAIM_SECONDS
    "verify": 3.0,  # ours/RLCard-table verifier, whole processes
    "classify": 1_000_000,  # plays/s
    "leads": 10_000,  # hands/s
    "follows": 100_000,  # queries/s
    "memory": 100.0,  # MB peak RSS
}


CLAIM_SECONDS = 0.5


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- machine


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info: dict[str, Any] = {
        "cpu": cpu,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(terse=True),
        "logical_cpus": os.cpu_count(),
    }
    try:
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        info["commit"] = None
    return info


def pin_one_core() -> int | None:
    """Pin this process (and the children it starts) to a single CPU."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return cpu
    except OSError:
        return None


# --------------------------------------------------------------------------- the two sides


class Ours:
    """games.engine, or the reason it cannot be used."""

    def __init__(self) -> None:
        self.error: str | None = None
        try:
            from games.engine import RuleSet, classify, legal_plays, read_record, replay

            self.RuleSet = RuleSet
            self.classify = classify
            self.legal_plays = legal_plays
            self.replay = replay
            self.read_record = read_record
        except Exception as exc:  # the engine lands in small commits
            self.error = f"games.engine not usable yet: {type(exc).__name__}: {exc}"

    @property
    def ok(self) -> bool:
        return self.error is None


class RLCard:
    """RLCard 1.2.0's Dou Dizhu pieces, or the reason they cannot be used."""

    def __init__(self) -> None:
        self.error: str | None = None
        self.version: str | None = None
        try:
            import rlcard
            from rlcard.games.base import Card
            from rlcard.games.doudizhu.judger import DoudizhuJudger
            from rlcard.games.doudizhu.utils import CARD_TYPE, get_gt_cards

            self.version = getattr(rlcard, "__version__", None)
            try:
                from importlib.metadata import version

                self.version = version("rlcard")
            except Exception:
                pass
            self.card_type: dict[str, list[list[str]]] = CARD_TYPE[0]
            self.playable_cards_from_hand = DoudizhuJudger.playable_cards_from_hand
            self.get_gt_cards = get_gt_cards
            self.Card = Card
        except Exception as exc:
            self.error = f"rlcard not usable: {type(exc).__name__}: {exc}"

    @property
    def ok(self) -> bool:
        return self.error is None

    def knows(self, cards: str) -> bool:
        return cards in self.card_type

    def hand_objects(self, hand: str) -> list[Any]:
        """Our rank text as the list of rlcard Card objects a DoudizhuPlayer holds.

        RLCard's rank letters are ours ('T' for ten); its jokers are Card('BJ', '') and
        Card('RJ', ''), which utils.cards2str writes back as 'B' and 'R'. Suits do not matter
        to its judge; they are given round-robin so that the objects are distinct.
        """
        out = []
        suits = "SHDC"
        seen: Counter[str] = Counter()
        for c in hand:
            if c == "B":
                out.append(self.Card("BJ", ""))
            elif c == "R":
                out.append(self.Card("RJ", ""))
            else:
                out.append(self.Card(suits[seen[c]], c))
                seen[c] += 1
        return out


class _Seat:
    """The two attributes of DoudizhuPlayer that utils.get_gt_cards reads."""

    __slots__ = ("current_hand", "played_cards")

    def __init__(self, current_hand: list[Any], played_cards: str | None) -> None:
        self.current_hand = current_hand
        self.played_cards = played_cards


# --------------------------------------------------------------------------- inputs


def sort_cards(cards: Sequence[str]) -> str:
    return "".join(sorted(cards, key=RANK_INDEX.__getitem__))


def deal(rng: random.Random, sizes: Sequence[int]) -> list[str]:
    deck = DECK[:]
    rng.shuffle(deck)
    out, at = [], 0
    for n in sizes:
        out.append(sort_cards(deck[at : at + n]))
        at += n
    return out


class Inputs:
    """Seeded inputs, the same for both sides. Plays are drawn from our legal leads."""

    def __init__(self, ours: Ours, seed: int, args: argparse.Namespace) -> None:
        self.ours = ours
        self.seed = seed
        self.args = args
        self._types: dict[str, str] = {}

    def kind(self, play: str) -> str:
        k = self._types.get(play)
        if k is None:
            k = "+".join(sorted({r.type for r in self.ours.classify(play)}))
            self._types[play] = k
        return k

    def pick_typed(self, rng: random.Random, hand: str, n: int) -> list[str]:
        """n plays of distinct types from hand's legal leads: a type uniformly among those
        the hand can lead, then a play of that type uniformly."""
        by_type: dict[str, list[str]] = {}
        for m in self.ours.legal_plays(hand):
            by_type.setdefault(self.kind(m.cards), []).append(m.cards)
        kinds = sorted(by_type)
        rng.shuffle(kinds)
        return [rng.choice(by_type[k]) for k in kinds[:n]]

    def plays(self) -> list[str]:
        rng = random.Random(self.seed * 1000 + 1)
        out: list[str] = []
        while len(out) < self.args.plays:
            (hand,) = deal(rng, [20])
            out.extend(self.pick_typed(rng, hand, 4))
        return out[: self.args.plays]

    def lead_hands(self) -> list[str]:
        rng = random.Random(self.seed * 1000 + 2)
        seen: set[str] = set()
        out: list[str] = []
        while len(out) < self.args.hands:
            (hand,) = deal(rng, [20])
            if hand not in seen:
                seen.add(hand)
                out.append(hand)
        return out

    def follow_pairs(self) -> list[tuple[str, str]]:
        rng = random.Random(self.seed * 1000 + 3)
        out: list[tuple[str, str]] = []
        while len(out) < self.args.pairs:
            hand, other = deal(rng, [17, 17])
            (prev,) = self.pick_typed(rng, other, 1)
            out.append((hand, prev))
        return out


# --------------------------------------------------------------------------- timing


def measure(one_pass: Callable[[], int], repeats: int, warmup: int = 1) -> dict[str, Any]:
    """Run one_pass (which returns how many operations it did) warmup times untimed, then
    repeats times timed; report the median rate and the spread."""
    for _ in range(warmup):
        one_pass()
    rates, secs = [], []
    ops = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        ops = one_pass()
        dt = time.perf_counter() - t0
        secs.append(dt)
        rates.append(ops / dt)
    return {
        "rate": statistics.median(rates),
        "min_rate": min(rates),
        "max_rate": max(rates),
        "ops_per_pass": ops,
        "median_pass_s": statistics.median(secs),
        "repeats": repeats,
        "warmup": warmup,
    }


def profile(label: str, fn: Callable[[], Any], top: int) -> str:
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    # drop the path prefix of this machine from the listing
    text = "\n".join(lines).replace(str(REPO) + os.sep, "")
    text = text.replace(sys.prefix + os.sep, "")
    return f"--- profile: {label} (sorted by own time) ---\n{text}\n"


# --------------------------------------------------------------------------- sections


def bench_classify(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    plays = inp.plays()
    passes = args.classify_passes
    kinds = Counter(inp.kind(p) for p in plays)
    res: dict[str, Any] = {
        "unit": "plays/s",
        "inputs": f"{len(plays)} plays x {passes} passes per timing, {len(kinds)} types",
        "types": dict(sorted(kinds.items())),
    }
    log(f"classify: {len(plays)} plays, {len(kinds)} types")

    classify = ours.classify

    def ours_pass() -> int:
        for _ in range(passes):
            for p in plays:
                classify(p)
        return passes * len(plays)

    res["ours"] = measure(ours_pass, args.repeats)
    res["ours"]["not_a_combination"] = sum(1 for p in plays if not classify(p))

    # The engine caches readings per rule set: after the warm-up pass the figure above is a
    # cache hit. First sight: every distinct play once, the rule set's memo table emptied
    # before each pass (a private attribute: skipped if the engine no longer has it).
    distinct = list(dict.fromkeys(plays))
    rules = ours.RuleSet.from_spec("classic")
    memo = getattr(rules, "_cache", None)

    def ours_first_sight() -> int:
        memo.clear()
        for p in distinct:
            classify(p, rules)
        return len(distinct)

    if isinstance(memo, dict):
        res["first_sight"] = measure(ours_first_sight, args.repeats)
        res["first_sight"]["inputs"] = (
            f"{len(distinct)} distinct plays, the rule set's memo emptied before each pass"
        )
    if args.profile:
        res["profile"] = profile("classify", ours_pass, args.profile_top)
        if "first_sight" in res:
            res["profile"] += profile("classify, first sight", ours_first_sight, args.profile_top)
    if rl.ok:
        table = rl.card_type

        def rl_pass() -> int:
            get = table.get
            for _ in range(passes):
                for p in plays:
                    get(p)
            return passes * len(plays)

        res["rlcard"] = measure(rl_pass, args.repeats)
        unknown = [p for p in plays if p not in table]
        res["rlcard"]["unknown_to_rlcard"] = len(unknown)
        res["rlcard"]["unknown_types"] = dict(Counter(inp.kind(p) for p in unknown))
        res["rlcard"]["unknown_examples"] = sorted(set(unknown), key=len)[:5]
    return res


def bench_leads(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    hands = inp.lead_hands()
    log(f"leads: {len(hands)} distinct 20-card hands")
    res: dict[str, Any] = {"unit": "hands/s", "inputs": f"{len(hands)} distinct 20-card hands"}
    legal_plays = ours.legal_plays

    def ours_pass() -> int:
        for h in hands:
            legal_plays(h)
        return len(hands)

    res["ours"] = measure(ours_pass, args.repeats)
    ours_sets = [{m.cards for m in legal_plays(h)} for h in hands]
    res["ours"]["moves_per_query"] = sum(map(len, ours_sets)) / len(hands)
    if args.profile:
        res["profile"] = profile("leads", ours_pass, args.profile_top)
    if rl.ok:
        gen = rl.playable_cards_from_hand

        def rl_pass() -> int:
            for h in hands:
                gen(h)
            return len(hands)

        res["rlcard"] = measure(rl_pass, args.repeats)
        rl_sets = [set(gen(h)) for h in hands]
        res["rlcard"]["moves_per_query"] = sum(map(len, rl_sets)) / len(hands)
        res["agreement"] = compare_sets(inp, hands, ours_sets, rl_sets)
    return res


def bench_follows(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    pairs = inp.follow_pairs()
    kinds = Counter(inp.kind(p) for _, p in pairs)
    log(f"follows: {len(pairs)} (17-card hand, previous play) pairs, {len(kinds)} types")
    res: dict[str, Any] = {
        "unit": "queries/s",
        "inputs": f"{len(pairs)} (17-card hand, previous play) pairs, {len(kinds)} types",
        "previous_types": dict(sorted(kinds.items())),
    }
    legal_plays = ours.legal_plays

    def ours_on(sel: list[tuple[str, str]]) -> Callable[[], int]:
        def one_pass() -> int:
            for h, p in sel:
                legal_plays(h, p)
            return len(sel)

        return one_pass

    res["ours"] = measure(ours_on(pairs), args.repeats)
    if args.profile:
        res["profile"] = profile("follows", ours_on(pairs), args.profile_top)
    if rl.ok:
        # get_gt_cards looks the previous play up in CARD_TYPE: it cannot be driven with a
        # play its table lacks. Both sides are timed on the pairs it can take.
        common = [(h, p) for h, p in pairs if rl.knows(p)]
        res["rlcard_skipped"] = len(pairs) - len(common)
        res["rlcard_skipped_types"] = dict(
            Counter(inp.kind(p) for _, p in pairs if not rl.knows(p))
        )
        seats = [(_Seat(rl.hand_objects(h), None), _Seat([], p), h, p) for h, p in common]
        gt = rl.get_gt_cards

        def rl_pass() -> int:
            for me, greater, _, _ in seats:
                gt(me, greater)
            return len(seats)

        if len(common) != len(pairs):
            res["ours_on_common"] = measure(ours_on(common), args.repeats)
        res["rlcard"] = measure(rl_pass, args.repeats)
        ours_sets = [{m.cards or "pass" for m in legal_plays(h, p)} for h, p in common]
        rl_sets = [set(gt(me, greater)) for me, greater, _, _ in seats]
        res["ours"]["moves_per_query"] = sum(map(len, ours_sets)) / max(1, len(common))
        res["rlcard"]["moves_per_query"] = sum(map(len, rl_sets)) / max(1, len(common))
        res["agreement"] = compare_sets(inp, [f"{h} / {p}" for h, p in common], ours_sets, rl_sets)
    return res


def compare_sets(
    inp: Inputs, labels: list[str], ours_sets: list[set[str]], rl_sets: list[set[str]]
) -> dict[str, Any]:
    only_ours: Counter[str] = Counter()
    only_rl: Counter[str] = Counter()
    ex_ours: dict[str, str] = {}
    ex_rl: dict[str, str] = {}
    same = 0
    for label, a, b in zip(labels, ours_sets, rl_sets, strict=True):
        if a == b:
            same += 1
            continue
        for c in a - b:
            k = inp.kind(c) if c != "pass" else "pass"
            only_ours[k] += 1
            ex_ours.setdefault(k, f"{c} (from {label})")
        for c in b - a:
            k = inp.kind(c) if c != "pass" else "pass"
            only_rl[k or "not a combination for us"] += 1
            ex_rl.setdefault(k or "not a combination for us", f"{c} (from {label})")
    return {
        "identical": same,
        "of": len(labels),
        "only_ours_by_type": dict(only_ours.most_common()),
        "only_rlcard_by_type": dict(only_rl.most_common()),
        "only_ours_examples": ex_ours,
        "only_rlcard_examples": ex_rl,
    }


def load_records() -> tuple[list[str], list[dict[str, Any]]]:
    lines: list[str] = []
    for path in sorted((REPO / "tests" / "data").glob("*.jsonl")):
        lines.extend(ln for ln in path.read_text().splitlines() if ln.strip())
    return lines, [json.loads(ln) for ln in lines]


def bench_replay(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    _, records = load_records()
    log(f"replay: {len(records)} real games")
    replay = ours.replay

    def one_pass() -> int:
        for r in records:
            replay(r).to_dict()
        return len(records)

    res: dict[str, Any] = {"unit": "games/s", "inputs": f"{len(records)} games from tests/data"}
    res["ours"] = measure(one_pass, args.repeats)
    outs = [replay(r) for r in records]
    res["statuses"] = dict(Counter(o.status for o in outs))
    agree = 0
    for r, o in zip(records, outs, strict=True):
        exp = r.get("expected") or {}
        if exp.get("status") == o.status and (
            o.status != "verified" or exp.get("winner") == o.winner
        ):
            agree += 1
    res["agree_with_source"] = agree
    plays = sum(len(r.get("plays") or []) for r in records)
    res["ours"]["plays_per_s"] = res["ours"]["rate"] * plays / len(records)
    res["rlcard"] = None
    res["rlcard_note"] = "RLCard has no replayer for recorded games"
    if args.profile:
        res["profile"] = profile("replay", one_pass, args.profile_top)
    return res


def bench_claims(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    sys.path.insert(0, str(REPO / "tests" / "engine"))
    from claim_positions import claim_records

    from games.engine import search_claim

    claims = claim_records()
    budget = 50_000  # replay's claim_budget
    log(f"claims: {len(claims)} claim positions, budget {budget:,} positions")
    times: list[float] = []
    positions: list[int] = []
    verdicts: Counter[str] = Counter()
    slow: list[str] = []
    for record in claims:
        base = {k: v for k, v in record.items() if k not in ("end", "claim_side")}
        state = ours.replay(base, fast=False).state
        seat = record["end"]["claim"]
        side = "landlord" if seat == record["landlord"] else "farmers"
        t0 = time.process_time()  # CPU time: the machine may be shared
        found = search_claim(state, side, budget=budget)
        dt = time.process_time() - t0
        verdict = found.verdict.value
        times.append(dt)
        positions.append(found.positions)
        verdicts[f"{record['claim_side']} side claims: {verdict}"] += 1
        if verdict == "unknown" or dt > CLAIM_SECONDS:
            slow.append(f"{record['id']} {verdict} {dt:.2f} s {found.positions:,} positions")
    times.sort()
    positions.sort()
    n = len(times)
    decided_in_time = n - len(slow)

    def at(q: float, values: list[Any] = times) -> Any:
        return values[min(n - 1, int(q * n))]

    return {
        "unit": "claims",
        "inputs": f"{n} claims ({n // 2} positions, each side claiming), budget {budget:,}",
        "ours": {"rate": decided_in_time / n},
        "decided_in_time": decided_in_time,
        "claims": n,
        "verdicts": dict(sorted(verdicts.items())),
        "seconds": {
            "median": at(0.5),
            "p90": at(0.9),
            "p99": at(0.99),
            "max": times[-1],
            "mean": sum(times) / n,
        },
        "positions": {
            "median": at(0.5, positions),
            "p90": at(0.9, positions),
            "p99": at(0.99, positions),
            "max": positions[-1],
            "histogram": {
                label: sum(1 for p in positions if lo <= p <= hi)
                for label, lo, hi in (
                    ("<= 10", 0, 10),
                    ("11-100", 11, 100),
                    ("101-1,000", 101, 1_000),
                    ("1,001-5,000", 1_001, 5_000),
                    ("5,001-50,000", 5_001, budget),
                    ("gave up", budget + 1, budget + 1),
                )
            },
        },
        "histogram": {
            label: sum(1 for t in times if lo <= t < hi)
            for label, lo, hi in (
                ("< 0.01 s", 0.0, 0.01),
                ("0.01-0.05 s", 0.01, 0.05),
                ("0.05-0.1 s", 0.05, 0.1),
                ("0.1-0.5 s", 0.1, CLAIM_SECONDS),
                ("> 0.5 s", CLAIM_SECONDS, float("inf")),
            )
        },
        "not_in_time": slow,
    }


def time_child(argv: list[str], stdout_path: Path) -> dict[str, Any]:
    """Run argv to its end with stdout into stdout_path: wall time, and the child's user and
    system CPU time from wait4."""
    with open(stdout_path, "wb") as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=REPO)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(argv[1:])} exited {code}: {stderr[-500:]}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime}


def _verdicts(path: Path) -> list[tuple[Any, ...]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            index = (d.get("error") or {}).get("index") if "error" in d else d.get("index")
            out.append((d["id"], d["status"], d.get("winner"), index))
    return out


def bench_verify(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    n_games = args.verify_games
    res: dict[str, Any] = {
        "unit": "games/s",
        "inputs": f"{n_games:,} lines (the {len(load_records()[1])} real games repeated, new ids), "
        f"whole processes, {args.repeats} alternating runs each",
    }
    if not rl.ok:
        res["error"] = rl.error
        return res
    verifier = REPO / "scripts" / "rlcard_table_verify.py"
    sides = {
        "ours": [sys.executable, "-m", "games.engine", "replay"],
        "rlcard": [sys.executable, str(verifier)],
    }
    with tempfile.TemporaryDirectory(prefix="ddz-bench-") as tmp:
        src = Path(tmp) / "games.jsonl"
        write_games(src, "real", n_games, inp.seed)
        empty = Path(tmp) / "empty.jsonl"
        empty.write_text("")
        outs = {side: Path(tmp) / f"{side}.jsonl" for side in sides}
        runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
        startup: dict[str, list[float]] = {side: [] for side in sides}
        ratios: dict[str, list[float]] = {"wall": [], "cpu": []}
        for rep in range(args.repeats):
            order = list(sides) if rep % 2 == 0 else list(sides)[::-1]
            timed = {}
            for side in order:
                startup[side].append(time_child([*sides[side], str(empty)], outs[side])["cpu_s"])
                timed[side] = time_child([*sides[side], str(src)], outs[side])
                runs[side].append(timed[side])
            for kind in ("wall", "cpu"):
                ratios[kind].append(timed["rlcard"][f"{kind}_s"] / timed["ours"][f"{kind}_s"])
            log(
                f"verify: run {rep + 1}/{args.repeats}: ours {timed['ours']['wall_s']:.2f} s "
                f"wall / {timed['ours']['cpu_s']:.2f} s cpu, RLCard table "
                f"{timed['rlcard']['wall_s']:.2f} s / {timed['rlcard']['cpu_s']:.2f} s"
            )
        ours_v, rl_v = _verdicts(outs["ours"]), _verdicts(outs["rlcard"])
    for side, key in (("ours", "ours"), ("rlcard", "rlcard")):
        wall = statistics.median(r["wall_s"] for r in runs[side])
        cpu = statistics.median(r["cpu_s"] for r in runs[side])
        res[key] = {
            "rate": n_games / wall,
            "cpu_rate": n_games / cpu,
            "median_wall_s": wall,
            "median_cpu_s": cpu,
            "startup_cpu_s": statistics.median(startup[side]),
            "repeats": args.repeats,
        }
    res["ratio_wall"] = statistics.median(ratios["wall"])
    res["ratio_cpu"] = statistics.median(ratios["cpu"])
    res["ratios"] = ratios
    same = sum(1 for a, b in zip(ours_v, rl_v, strict=True) if a == b)
    res["same_verdicts"] = same
    res["statuses"] = dict(Counter(v[1] for v in ours_v))
    return res


def _proc_status_kb(pid: int | str) -> dict[str, int]:
    """VmRSS and VmHWM (peak RSS of the process since its exec) from /proc, in kB."""
    out: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1])
    except (OSError, ValueError):
        pass
    return out


def run_child(argv: list[str], stdout_path: Path, total: int | None) -> dict[str, Any]:
    """Run argv with stdout into stdout_path: wall time, and peak RSS from /proc polling.

    The peak is the child's VmHWM, read every 0.1 s until it exits: the high-water mark of
    its own address space since exec. (getrusage's ru_maxrss is no good here: a child forked
    from this process, which holds numpy and RLCard, is charged this process's RSS too.)
    """
    with open(stdout_path, "wb") as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=REPO)
        samples: list[tuple[float, int]] = []
        hwm = 0
        next_log = t0 + 5.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            now = time.perf_counter()
            st = _proc_status_kb(proc.pid)
            hwm = max(hwm, st.get("VmHWM", 0))
            if "VmRSS" in st:
                samples.append((now - t0, st["VmRSS"]))
            if total and now >= next_log:
                done = _count_lines(stdout_path)
                log(
                    f"  memory: {done:,}/{total:,} games replayed, {now - t0:.0f} s, "
                    f"RSS {st.get('VmRSS', 0) / 1024:.1f} MB"
                )
                next_log = now + 15.0
            time.sleep(0.1)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    return {
        "wall_s": wall,
        "peak_rss_mb": hwm / 1024,
        "user_s": usage.ru_utime,
        "sys_s": usage.ru_stime,
        "returncode": proc.returncode,
        "stderr_tail": stderr[-2000:],
        "rss_samples_mb": [(round(t, 1), round(kb / 1024, 1)) for t, kb in samples],
    }


def baseline_rss_mb() -> float:
    """Peak RSS of a Python that imports games.engine and nothing else (it reads its own)."""
    code = "import games.engine; print(open('/proc/self/status').read())"
    text = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    for line in text.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _count_lines(path: Path) -> int:
    n = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            n += chunk.count(b"\n")
    return n


SEATS = ("S", "E", "W")


def solo_game(rng: random.Random, game_id: str, landlord: str) -> tuple[dict[str, Any], str]:
    """A distinct, legal, complete game on a random deal, played with solos only: the leader
    leads its lowest card, a follower plays its lowest card above the one on the table or
    passes. Cheap to make in bulk; its use is that no two deals repeat."""
    a, b, c, bottom = deal(rng, [17, 17, 17, 3])
    hands = dict(zip(SEATS, (a, b, c), strict=True))
    left = {s: list(h) for s, h in hands.items()}
    left[landlord] = sorted(left[landlord] + list(bottom), key=RANK_INDEX.__getitem__)
    order = SEATS[SEATS.index(landlord) :] + SEATS[: SEATS.index(landlord)]
    plays: list[list[str]] = []
    turn, top, top_seat = 0, None, order[0]
    while True:
        seat = order[turn % 3]
        cards = left[seat]
        if top is None or top_seat == seat:
            card = cards.pop(0)
        else:
            card = next((x for x in cards if RANK_INDEX[x] > RANK_INDEX[top]), None)
            if card is not None:
                cards.remove(card)
        if card is None:
            plays.append([seat, "pass"])
        else:
            plays.append([seat, card])
            top, top_seat = card, seat
            if not cards:
                winner = "landlord" if seat == landlord else "farmers"
                break
        turn += 1
    record = {
        "id": game_id,
        "rules": "classic",
        "hands": hands,
        "bottom": bottom,
        "first_bidder": None,
        "bidding": None,
        "landlord": landlord,
        "bid": 1,
        "plays": plays,
        "end": None,
        "declared": None,
    }
    return record, winner


def write_games(path: Path, source: str, n_games: int, seed: int) -> Counter[str]:
    """Write n_games JSON lines; return the expected statuses."""
    expected: Counter[str] = Counter()
    with open(path, "w") as f:
        if source == "real":
            _, records = load_records()
            templates = []
            for rec in records:
                text = json.dumps(rec, separators=(",", ":"))
                key = json.dumps(rec["id"])
                head, tail = text.split(key, 1)
                exp = rec.get("expected") or {}
                templates.append((head + key[:-1], '"' + tail, exp.get("status", "?")))
            for i in range(n_games):
                head, tail, status = templates[i % len(templates)]
                f.write(f"{head}-x{i // len(templates)}{tail}\n")
                expected[status] += 1
        else:
            rng = random.Random(seed * 1000 + 4)
            for i in range(n_games):
                rec, _ = solo_game(rng, f"solo-{i:07d}", SEATS[i % 3])
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                expected["verified"] += 1
    return expected


def bench_memory(ours: Ours, rl: RLCard, inp: Inputs, args: argparse.Namespace) -> dict:
    n_games = args.games
    res: dict[str, Any] = {"unit": "MB peak RSS", "games": n_games, "rlcard": None, "runs": {}}
    res["rlcard_note"] = "RLCard has no replayer for recorded games"
    with tempfile.TemporaryDirectory(prefix="ddz-bench-") as tmp:
        src = Path(tmp) / "games.jsonl"
        dst = Path(tmp) / "out.jsonl"
        res["baseline_import_rss_mb"] = baseline_rss_mb()
        for source in args.memory_sources:
            log(f"memory[{source}]: writing {n_games:,} games to a temporary file")
            expected = write_games(src, source, n_games, inp.seed)
            file_mb = src.stat().st_size / 1e6
            log(f"memory[{source}]: {file_mb:.0f} MB; python -m games.engine replay FILE")
            run = run_child(
                [sys.executable, "-m", "games.engine", "replay", str(src)], dst, n_games
            )
            statuses: Counter[str] = Counter()
            bad = 0
            with open(dst) as f:
                for ln in f:
                    try:
                        statuses[json.loads(ln)["status"]] += 1
                    except (ValueError, KeyError, TypeError):
                        bad += 1
            samples = run.pop("rss_samples_mb")
            run["stderr_tail"] = run["stderr_tail"].replace(tmp, "$TMP")
            run["file_mb"] = file_mb
            run["games_per_s"] = n_games / run["wall_s"]
            run["statuses"] = dict(statuses)
            run["expected_statuses"] = dict(expected)
            run["unparsed_lines"] = bad
            if samples:
                k = len(samples)
                run["rss_mb_at"] = {
                    "10%": samples[k // 10][1],
                    "50%": samples[k // 2][1],
                    "90%": samples[(9 * k) // 10][1],
                }
            res["runs"][source] = run
            log(
                f"memory[{source}]: peak RSS {run['peak_rss_mb']:.1f} MB, "
                f"{run['wall_s']:.1f} s, statuses {run['statuses']}"
            )
    return res


# --------------------------------------------------------------------------- output


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:,.1f}"


def render(report: dict[str, Any]) -> str:
    m = report["machine"]
    out = [
        f"engine benchmark: {m['cpu']}, {m['python']}, {m['platform']}, "
        f"one core (pinned to CPU {m.get('pinned_cpu')}), commit {m.get('commit')}",
        f"RLCard {m.get('rlcard') or 'not available'}; seed {report['seed']}; "
        f"median of {report['repeats']} timed passes after a warm-up pass",
        "",
    ]
    head = ("benchmark", "unit", "ours", "RLCard 1.2.0", "ours/RLCard", "target", "met")
    rows: list[tuple[str, ...]] = []
    notes: list[str] = []
    res = report["results"]
    for name in SECTIONS:
        r = res.get(name)
        if r is None:
            continue
        if "error" in r:
            rows.append((name, "-", "-", "-", "-", "-", "-"))
            notes.append(f"{name}: {r['error']}")
            continue
        if name == "memory":
            what = {"real": "real games repeated", "distinct": "distinct solo-only deals"}
            for source, run in r["runs"].items():
                peak = run["peak_rss_mb"]
                ok = peak < TARGETS["memory"] and run["returncode"] == 0
                rows.append(
                    (
                        f"memory, {r['games']:,} {what.get(source, source)}",
                        "MB peak RSS",
                        f"{peak:.1f}",
                        "n/a",
                        "-",
                        "< 100",
                        "yes" if ok else "NO",
                    )
                )
                rows.append(
                    ("  same run", "games/s", fmt_rate(run["games_per_s"]), "n/a", "-", "", "")
                )
                notes.append(
                    f"memory[{source}]: {r['games']:,} games ({run['file_mb']:.0f} MB of JSON "
                    f"lines) in {run['wall_s']:.1f} s wall; exit code {run['returncode']}; "
                    f"peak RSS {peak:.1f} MB (a Python that only imports games.engine: "
                    f"{r['baseline_import_rss_mb']:.1f} MB); RSS at 10/50/90% of the run: "
                    + ", ".join(f"{v} MB" for v in run.get("rss_mb_at", {}).values())
                    + f"; statuses {run['statuses']} (expected {run['expected_statuses']})"
                )
                if run["returncode"] != 0:
                    notes.append(f"memory[{source}]: stderr: {run['stderr_tail'][-500:]}")
            continue
        if name == "claims":
            share = r["ours"]["rate"]
            rows.append(
                (
                    "claims decided within 0.5 s",
                    "share",
                    f"{share:.1%} ({r['decided_in_time']} of {r['claims']})",
                    "n/a",
                    "-",
                    f">= {TARGETS['claims']:.0%}",
                    "yes" if share >= TARGETS["claims"] else "NO",
                )
            )
            sec = r["seconds"]
            notes.append(
                f"claims: {r['inputs']}; CPU seconds per claim: median {sec['median']:.4f}, p90 "
                f"{sec['p90']:.3f}, p99 {sec['p99']:.3f}, max {sec['max']:.2f}; positions "
                f"expanded: {r['positions']}; "
                f"histogram {r['histogram']}; verdicts {r['verdicts']}; not decided within "
                f"0.5 s: {', '.join(r['not_in_time']) or 'none'}"
            )
            continue
        if name == "verify":
            ratio = r["ratio_wall"]
            rows.append(
                (
                    "verify, whole processes",
                    "games/s (wall)",
                    fmt_rate(r["ours"]["rate"]),
                    fmt_rate(r["rlcard"]["rate"]) + " (its table)",
                    f"{ratio:.2f}x",
                    f">= {TARGETS['verify']:.0f}x",
                    "yes" if ratio >= TARGETS["verify"] else "NO",
                )
            )
            rows.append(
                (
                    "  same runs",
                    "games/s (CPU)",
                    fmt_rate(r["ours"]["cpu_rate"]),
                    fmt_rate(r["rlcard"]["cpu_rate"]),
                    f"{r['ratio_cpu']:.2f}x",
                    "",
                    "",
                )
            )
            notes.append(
                f"verify: {r['inputs']}; ratios are the median of the per-run ratios "
                f"(wall {', '.join(f'{x:.2f}' for x in r['ratios']['wall'])}; CPU "
                f"{', '.join(f'{x:.2f}' for x in r['ratios']['cpu'])}); start-up CPU of an "
                f"empty file: ours {r['ours']['startup_cpu_s']:.2f} s, RLCard table "
                f"{r['rlcard']['startup_cpu_s']:.2f} s (numpy and its JSON tables); "
                f"{r['same_verdicts']:,} of {sum(r['statuses'].values()):,} verdicts identical "
                f"(id, status, winner, fault index); statuses {r['statuses']}"
            )
            continue
        ours = r["ours"]["rate"]
        rl = r.get("rlcard")
        rl_rate = rl["rate"] if rl else None
        ratio = "-"
        if rl_rate:
            base = r.get("ours_on_common", r["ours"])["rate"]
            ratio = f"{base / rl_rate:.2f}x"
        target = TARGETS.get(name)
        rows.append(
            (
                name,
                r["unit"],
                fmt_rate(ours),
                fmt_rate(rl_rate) if rl else "n/a",
                ratio,
                f">= {target:,}" if target else "",
                ("yes" if ours >= target else "NO") if target else "",
            )
        )
        notes.append(f"{name}: {r['inputs']}")
        if name == "classify" and "first_sight" in r:
            fs = r["first_sight"]["rate"]
            rows.append(
                (
                    "  first sight",
                    r["unit"],
                    fmt_rate(fs),
                    fmt_rate(rl_rate) if rl else "n/a",
                    f"{fs / rl_rate:.2f}x" if rl_rate else "-",
                    "",
                    "",
                )
            )
            notes.append(
                f"classify, first sight: {r['first_sight']['inputs']} (nothing cached but the "
                "engine's global parse cache); RLCard's column is the same table lookup"
            )
        if name == "classify" and rl:
            notes.append(
                f"classify: RLCard's table lacks {rl['unknown_to_rlcard']} of the plays "
                f"{rl['unknown_types'] or ''} (looked up all the same, a miss answers None)"
            )
        if name in ("leads", "follows") and rl:
            a = r["agreement"]
            notes.append(
                f"{name}: moves per query ours {r['ours']['moves_per_query']:.1f}, "
                f"RLCard {rl['moves_per_query']:.1f}; identical sets "
                f"for {a['identical']} of {a['of']}; only ours by type {a['only_ours_by_type']}; "
                f"only RLCard {a['only_rlcard_by_type']}"
            )
        if name == "follows" and rl and r.get("rlcard_skipped"):
            notes.append(
                f"follows: RLCard cannot take {r['rlcard_skipped']} previous plays "
                f"{r['rlcard_skipped_types']} (not in CARD_TYPE); the ratio compares both "
                f"on the other {r['agreement']['of']} "
                f"(ours there: {fmt_rate(r['ours_on_common']['rate'])}/s)"
            )
        if name == "replay":
            notes.append(
                f"replay: statuses {r['statuses']}; {r['agree_with_source']} of "
                f"{sum(r['statuses'].values())} agree with the source's own judge; "
                f"{fmt_rate(r['ours']['plays_per_s'])} plays/s; {r['rlcard_note']}"
            )
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    out.append(line(head))
    out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    out.extend(line(r) for r in rows)
    out.append("")
    out.extend(f"- {n}" for n in notes)
    for name in SECTIONS:
        r = res.get(name) or {}
        if r.get("profile"):
            out.append("")
            out.append(r["profile"])
    return "\n".join(out)


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default=",".join(SECTIONS), help="comma list of " + ",".join(SECTIONS))
    p.add_argument("--quick", action="store_true", help="memory run on 20,000 games, not 1,000,000")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--repeats", type=int, default=5, help="timed passes (median reported)")
    p.add_argument("--plays", type=int, default=20_000, help="classify: distinct list size")
    p.add_argument("--classify-passes", type=int, default=5, help="classify: passes per timing")
    p.add_argument("--hands", type=int, default=2_000, help="leads: number of 20-card hands")
    p.add_argument("--pairs", type=int, default=10_000, help="follows: (hand, previous) pairs")
    p.add_argument("--games", type=int, default=None, help="memory: games (overrides --quick)")
    p.add_argument("--verify-games", type=int, default=15_000, help="verify: lines of the file")
    p.add_argument(
        "--memory-sources",
        default="real,distinct",
        help="memory: real (the real records repeated, new ids) and/or distinct (random deals "
        "played with solos only, no deal repeated)",
    )
    p.add_argument("--profile", action="store_true", help="cProfile one pass of our side")
    p.add_argument("--profile-top", type=int, default=15)
    args = p.parse_args(argv)
    args.sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        p.error(f"unknown section(s) {sorted(unknown)}; choose from {','.join(SECTIONS)}")
    args.memory_sources = [x.strip() for x in args.memory_sources.split(",") if x.strip()]
    if set(args.memory_sources) - {"real", "distinct"}:
        p.error("--memory-sources takes real and/or distinct")
    if args.games is None:
        args.games = 20_000 if args.quick else 1_000_000
    return args


BENCHES = {
    "classify": bench_classify,
    "leads": bench_leads,
    "follows": bench_follows,
    "replay": bench_replay,
    "verify": bench_verify,
    "claims": bench_claims,
    "memory": bench_memory,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    machine = machine_info()
    machine["pinned_cpu"] = pin_one_core()
    ours, rl = Ours(), RLCard()
    machine["rlcard"] = rl.version if rl.ok else None
    report: dict[str, Any] = {
        "machine": machine,
        "seed": args.seed,
        "repeats": args.repeats,
        "rlcard_error": rl.error,
        "results": {},
    }
    if rl.error:
        log(rl.error)
    inp = Inputs(ours, args.seed, args)
    for name in args.sections:
        if not ours.ok:
            report["results"][name] = {"error": ours.error}
            continue
        t0 = time.perf_counter()
        try:
            report["results"][name] = BENCHES[name](ours, rl, inp, args)
        except Exception as exc:
            report["results"][name] = {"error": f"{type(exc).__name__}: {exc}"}
            log(f"{name}: failed: {type(exc).__name__}: {exc}")
        gc.collect()
        log(f"{name}: done in {time.perf_counter() - t0:.1f} s")
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        print(render(report))
    failed = any("error" in r for r in report["results"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
