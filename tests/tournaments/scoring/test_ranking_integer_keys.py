"""The ranking sums and ranks in integers (ranking.Sums, integer keys) and gives the very rows
the Fraction ranking gave: the same ranks, ties, labels, tie-breaks and exact values, for any
points, penalties, tops and tie-breaks; and sums moved by boards added and taken off equal the
sums of the boards left. Pure: no database."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import methods, ranking
from tournaments.scoring.methods import SeatPoints, SeatResult

SEATS = ("S", "E", "W")


def fraction_standings(
    points: list[SeatPoints],
    *,
    method: methods.Method,
    results: list[SeatResult],
    penalties: Mapping[Hashable, Fraction],
    tiebreaks: Sequence[str],
    seed: str,
) -> list[ranking.RankedRow]:
    """The ranking as it was written with Fractions throughout (the reference)."""
    order = ranking.check_tiebreaks(tiebreaks, seed)
    per_player: dict[Hashable, list[SeatPoints]] = defaultdict(list)
    for p in points:
        per_player[p.player].append(p)
    totals = {pl: sum((p.points for p in ps), Fraction(0)) for pl, ps in per_player.items()}
    tops = {
        pl: sum((p.top or Fraction(0) for p in ps), Fraction(0)) for pl, ps in per_player.items()
    }
    boards = {pl: len(ps) for pl, ps in per_player.items()}
    penalty = {pl: Fraction(penalties.get(pl, 0)) for pl in totals}
    for pl, value in penalties.items():
        if pl not in totals:
            totals[pl], tops[pl], boards[pl], penalty[pl] = Fraction(0), Fraction(0), 0, value

    def key_of(pl: Hashable) -> Fraction:
        net = totals[pl] - penalty[pl]
        if method == "matchpoints":
            return 100 * net / tops[pl] if tops[pl] else Fraction(0)
        return net

    key = {pl: key_of(pl) for pl in totals}
    context = ranking._TieContext(method, lambda: points, results, seed)
    players = sorted(totals, key=lambda pl: (-key[pl], str(pl)))
    out: list[ranking.RankedRow] = []
    i = 0
    while i < len(players):
        j = i
        while j < len(players) and key[players[j]] == key[players[i]]:
            j += 1
        for block, decided_by in ranking.split_ties(
            players[i:j], order, lambda n, g: ranking._tiebreak_values(n, g, context)
        ):
            label = f"{len(out) + 1}{'=' if len(block) > 1 else ''}"
            for pl in block:
                out.append(
                    ranking.RankedRow(
                        label,
                        len(out) + 1,
                        pl,
                        totals[pl],
                        tops[pl] if method == "matchpoints" else None,
                        key[pl] if method == "matchpoints" else None,
                        boards[pl],
                        penalty[pl],
                        decided_by,
                    )
                )
        i = j
    return out


@st.composite
def event(draw: st.DrawFn) -> tuple[list[SeatResult], dict[Hashable, int]]:
    """Seat results of a few boards (players rotate; some tables miss a board, so Neuberg
    gives points in many denominators; few distinct scores, so ties are common; some seats
    adjusted or weighted) and each board's expected tables."""
    boards, tables = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    out = []
    for board in range(1, boards + 1):
        for table in range(1, tables + 1):
            if draw(st.integers(0, 5)) == 0:
                continue
            for k, seat in enumerate(SEATS):
                player = (table * 3 + k + board * draw(st.integers(0, 1))) % (tables * 3)
                kind = draw(st.sampled_from(["score"] * 8 + ["avg+", "61.8%", "weighted"]))
                score = Fraction(draw(st.integers(-4, 4)), draw(st.sampled_from([1, 2, 3])))
                if kind == "weighted":
                    options = [(score, Fraction(1, 3)), (score + 2, Fraction(2, 3))]
                    out.append(methods.weighted_result(board, table, seat, player, options))
                else:
                    adjusted = None if kind == "score" else kind
                    out.append(SeatResult(board, table, seat, player, score, adjusted=adjusted))
    expected = {b: tables + draw(st.integers(0, 2)) for b in range(1, boards + 1)}
    return out, expected


def _unique_seats(rs: list[SeatResult]) -> list[SeatResult]:
    # A player holds one seat at a table (the scoring refuses two).
    seen: set[tuple[Hashable, Hashable, Hashable]] = set()
    kept = []
    for r in rs:
        if (r.board, r.table, r.player) not in seen:
            seen.add((r.board, r.table, r.player))
            kept.append(r)
    return kept


@settings(max_examples=300, deadline=None)
@given(
    event(),
    st.sampled_from(["matchpoints", "datum"]),
    st.dictionaries(
        st.integers(0, 20),
        st.fractions(min_value=-5, max_value=5, max_denominator=7),
        max_size=4,
    ),
    st.lists(st.sampled_from(ranking.TIEBREAKS), unique=True, max_size=4),
)
def test_integer_ranking_equals_the_fraction_ranking(
    played: tuple[list[SeatResult], dict[Hashable, int]],
    method: methods.Method,
    penalties: dict[Hashable, Fraction],
    tiebreaks: list[str],
) -> None:
    rs, expected = played
    rs = _unique_seats(rs)
    points = methods.board_points(rs, method=method, expected=expected, unit=Fraction(3))
    got = ranking.standings(
        points, method=method, results=rs, penalties=penalties, tiebreaks=tiebreaks, seed="s"
    )
    want = fraction_standings(
        points, method=method, results=rs, penalties=penalties, tiebreaks=tiebreaks, seed="s"
    )
    assert got == want
    # Every exact value is reduced as a Fraction keeps it (the rows are formatted from them).
    for row in got:
        for value in (row.total, row.top, row.percentage, row.penalty):
            assert value is None or isinstance(value, Fraction)


@settings(max_examples=200, deadline=None)
@given(event(), st.sampled_from(["matchpoints", "datum"]), st.data())
def test_sums_moved_by_boards_equal_the_sums_of_the_boards_left(
    played: tuple[list[SeatResult], dict[Hashable, int]],
    method: methods.Method,
    data: st.DataObject,
) -> None:
    rs, expected = played
    rs = _unique_seats(rs)
    points = methods.board_points(rs, method=method, expected=expected, unit=Fraction(3))
    boards = sorted({p.board for p in points})
    taken = data.draw(st.sets(st.sampled_from(boards))) if boards else set()
    moved = ranking.Sums()
    moved.add(points)
    moved.add([p for p in points if p.board in taken], -1)
    fresh = ranking.Sums()
    fresh.add([p for p in points if p.board not in taken])
    for sums in (moved, fresh):
        assert (
            set(sums.total)
            == set(sums.boards)
            == {p.player for p in points if p.board not in taken}
        )
    assert {pl: Fraction(n, moved.den) for pl, n in moved.total.items()} == {
        pl: Fraction(n, fresh.den) for pl, n in fresh.total.items()
    }
    assert {pl: Fraction(n, moved.top_den) for pl, n in moved.top.items() if n} == {
        pl: Fraction(n, fresh.top_den) for pl, n in fresh.top.items() if n
    }
    assert moved.boards == fresh.boards


def test_a_tie_on_an_integer_key_across_different_tops() -> None:
    # a: 6 of 12 (50 %), b: 3 of 6 (50 %), c: 4 of 6: a and b tie although their tops differ.
    points = [
        SeatPoints(1, 1, "S", "a", Fraction(6), Fraction(12)),
        SeatPoints(1, 2, "S", "b", Fraction(3), Fraction(6)),
        SeatPoints(1, 3, "S", "c", Fraction(4), Fraction(6)),
    ]
    rows = ranking.standings(points)
    assert [(r.player, r.rank, r.percentage) for r in rows] == [
        ("c", "1", Fraction(200, 3)),
        ("a", "2=", Fraction(50)),
        ("b", "2=", Fraction(50)),
    ]


def test_one_fraction_object_as_points_and_top_is_summed_as_each() -> None:
    # A seat that scored the top (4 of 4) may carry one Fraction object as both: the sums
    # read each object's parts once, and must not take a top for a point or a point for a
    # top. Two boards of a player who holds two seats (the sums' general path).
    four, two = Fraction(4), Fraction(2)
    points = [
        methods.SeatPoints(1, 1, "S", "a", four, four),
        methods.SeatPoints(2, 1, "S", "a", two, four),
        methods.SeatPoints(1, 2, "S", "b", Fraction(0), four),
    ]
    sums = ranking.Sums()
    sums.add(points)
    assert Fraction(sums.total["a"], sums.den) == 6
    assert Fraction(sums.top["a"], sums.top_den) == 8
    assert Fraction(sums.total["b"], sums.den) == 0
