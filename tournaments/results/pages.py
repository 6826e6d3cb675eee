"""Read side of the public pages: travellers, scorecards, running scores, seating, replays.

Vocabulary: a *traveller* is every table's result of one board side by side (bidding, landlord,
score and points per seat held); a *scorecard* is the boards one player met, with his seat,
score and points; a player's *running score* is his total after each round (the percentage of
the tops so far in matchpoints, the sum of datum differences in datum); a *replay* is the list
of a recorded game's positions, one after each call and each play. Every function here takes
the set of boards the viewer may see (tournaments.core.embargo) and shows nothing else: the embargo
is applied here, once, and not in the templates.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch

from games.counting import counts
from games.engine import EngineError, RuleSet, format_cards, parse_cards, split_tricks
from games.models import Board, Game
from games.notation import rank_cards
from tournaments.core.lineups import Lineup, lineup_of
from tournaments.models import Adjustment, Event, Player, Round, Seat, Table
from tournaments.scoring import methods
from tournaments.standings.results import event_results, method_of


def seats_of(event: Event, board: Board | None = None) -> tuple[str, ...]:
    """The seats of the event's rules in turn order (R-SEAT); for an archive event (no rules),
    the seats of the board's hands."""
    if event.rules is not None:
        try:
            return tuple(RuleSet.from_spec(event.rules).seats)
        except EngineError:
            pass
    if board is not None and isinstance(board.hands, dict) and board.hands:
        order = ["S", "E", "N", "W", "P1", "P2", "P3", "P4", "P5"]
        return tuple(sorted(board.hands, key=lambda s: order.index(s) if s in order else 99))
    return ("S", "E", "W")


def _points(
    event: Event, boards: set[int], lineup: Lineup | None = None
) -> dict[tuple[Any, Any, str], methods.SeatPoints]:
    """(board, table, seat) → points, compared over each whole board (every table of it);
    `lineup` the event's substitutions when the caller has them."""
    if not boards:
        return {}
    data = event_results(event=event, boards=boards, with_penalties=False, lineup=lineup)
    points = methods.board_points(
        data.results,
        method=method_of(event),
        expected=data.expected,
        unit=Fraction(event.adjustment_unit or 0),
    )
    return {(p.board, p.table, p.seat): p for p in points}


@dataclass
class TravellerCell:
    """One seat of a table's row: its player, score, points, adjusted score, and at an online
    table ``robot_move``, the move from which the robot played the seat for its entrant
    (tournaments.online.tables: Seat.robot_from + 1; None when he played it himself)."""

    seat: str
    player: Player | None
    score: Any
    points: Fraction | None
    adjusted: str
    robot_move: int | None = None


@dataclass
class TravellerRow:
    """One table's game of a board: bidding, result, and per seat the player, score, points."""

    table: Table
    game: Game | None
    cells: list[TravellerCell]
    bidding: str
    top: Fraction | None


def board_traveller(*, board: Board) -> list[TravellerRow]:
    """Every table's result of `board` side by side (call only for a visible board)."""
    event = board.event
    seats = seats_of(event, board)
    lineup = lineup_of(event=event)
    points = _points(event, {board.pk}, lineup)
    games = {
        g.table_id: g
        for g in Game.objects.filter(board=board, replaced_at__isnull=True).defer("error")
    }
    adjusted = {(a.table_id, a.seat): a.notation for a in Adjustment.objects.filter(board=board)}
    seat_rows = Seat.objects.select_related("player")
    if board.round_id is not None:
        tables = list(
            Table.objects.filter(round_id=board.round_id).prefetch_related(
                Prefetch("seats", queryset=seat_rows)
            )
        )
    else:
        tables = list(
            Table.objects.filter(pk__in=list(games)).prefetch_related(
                Prefetch("seats", queryset=seat_rows)
            )
        )
    rows = []
    for table in sorted(tables, key=lambda t: t.number):
        game = games.get(table.pk)
        # Who played the board at each seat: a substitute on her boards.
        players = lineup.players(table, board.number, {s.seat: s.player for s in table.seats.all()})
        robot_moves = _robot_moves(table)
        verified = counts(game)
        cells = []
        top = None
        for seat in seats:
            p = points.get((board.pk, table.pk, seat))
            if p is not None and p.top is not None:
                top = p.top
            cells.append(
                TravellerCell(
                    seat=seat,
                    player=players.get(seat),
                    score=(game.score or {}).get(seat) if verified and game else None,
                    points=p.points if p else None,
                    adjusted=adjusted.get((table.pk, seat), ""),
                    robot_move=robot_moves.get(seat),
                )
            )
        rows.append(
            TravellerRow(table=table, game=game, cells=cells, bidding=bidding_text(game), top=top)
        )
    return rows


def _robot_moves(table: Table) -> dict[str, int]:
    """Seat → the move from which the robot played it for its entrant at an online table
    (Seat.robot_from + 1: the first step after the take-over), from the prefetched seats."""
    return {s.seat: s.robot_from + 1 for s in table.seats.all() if s.robot_from is not None}


def bidding_text(game: Game | None) -> str:
    """The calls of a game in one line ("S:1 E:pass W:3"), or "landlord S, bid 2" when the
    bidding was not recorded; "" without a game."""
    if game is None or not isinstance(game.record, dict):
        return ""
    calls = game.record.get("bidding")
    if isinstance(calls, list) and calls:
        return " ".join(f"{c[0]}:{c[1]}" for c in calls if isinstance(c, list) and len(c) >= 2)
    landlord, bid = game.record.get("landlord"), game.record.get("bid")
    return f"{landlord} ({bid})" if landlord else ""


@dataclass
class ScorecardRow:
    """One board a player met: where, in which seat, against whom (`opponents`: the other
    seats of his table, in turn order), his role, score, points and `percentage` (matchpoints:
    100 × points / top of the board, as the standings' percentage is of the sums); `hidden`
    when the viewer may not see its result yet (the embargo)."""

    round: Round
    board: Board
    table: Table
    seat: str
    game: Game | None
    role: str
    score: Any
    points: Fraction | None
    top: Fraction | None
    adjusted: str
    hidden: bool
    opponents: list[tuple[str, Player]] = field(default_factory=list)
    percentage: Fraction | None = None
    replacing: Player | None = None  # whom she played the board for, as a substitute


def player_scorecard(
    *, event: Event, player: Player, visible: set[int] | None
) -> list[ScorecardRow]:
    """The boards `player` met in `event`, in round and board order; `visible` the board ids
    the viewer may see (None: all): the boards she played, in her seats and as a substitute
    (tournaments.events.substitutions), not those a substitute played for her. Eight queries
    whatever the event's size."""
    lineup = lineup_of(event=event)
    places = _places_of(event, player, lineup)
    table_ids = [t.pk for t, _s, _o in places]
    round_ids = [t.round_id for t, _s, _o in places]
    boards = list(
        Board.objects.filter(round_id__in=round_ids).select_related("event").order_by("number")
    )
    shown = {b.pk for b in boards if visible is None or b.pk in visible}
    games = _scorecard_games(table_ids)
    adjusted = {
        (a.table_id, a.board_id, a.seat): a.notation
        for a in Adjustment.objects.filter(table_id__in=table_ids)
    }
    points = _points(event, shown, lineup)
    at_table = _seated_at(event, table_ids)
    rows = []
    for table, seat, mine in places:
        for board in boards:
            if board.round_id != table.round_id:
                continue
            if not lineup.played(table.pk, seat, board.number, player.pk, own=mine):
                continue  # a substitute played it for her, or she did not substitute on it
            hidden = board.pk not in shown
            rows.append(
                _scorecard_row(
                    table,
                    seat,
                    board,
                    game=games.get((table.pk, board.pk)),
                    seat_points=None if hidden else points.get((board.pk, table.pk, seat)),
                    adjusted="" if hidden else adjusted.get((table.pk, board.pk, seat), ""),
                    hidden=hidden,
                    opponents=[
                        (s, lineup.player(table.pk, s, board.number, other))
                        for s, other in at_table[table.pk]
                        if s != seat
                    ],
                    replacing=None if mine else dict(at_table[table.pk]).get(seat),
                )
            )
    rows.sort(key=lambda r: (r.round.number, r.board.number))
    return rows


def _places_of(event: Event, player: Player, lineup: Lineup) -> list[tuple[Table, str, bool]]:
    """Each place `player` played in `event`: (table, seat, whether it is her own seat), her
    own seats first, then those she took as a substitute."""
    own = list(
        Seat.objects.filter(table__round__event=event, player=player).select_related("table__round")
    )
    stints = lineup.stints_of(player.pk)
    subbed_tables = {
        t.pk: t
        for t in Table.objects.filter(pk__in={t for t, _s, _x in stints}).select_related("round")
    }
    return [(s.table, s.seat, True) for s in own] + list(
        {(subbed_tables[t], seat, False) for t, seat, _x in stints}
    )


def _scorecard_games(table_ids: list[int]) -> dict[tuple[int, int], Game]:
    """(table id, board id) → the current game of the tables `table_ids`, with only the fields
    a scorecard shows."""
    return {
        (g.table_id, g.board_id): g
        for g in Game.objects.filter(table_id__in=table_ids, replaced_at__isnull=True).only(
            "id",
            "table_id",
            "board_id",
            "status",
            "score",
            "landlord",
            "resolution",
            "confirmed_at",
        )
    }


def _seated_at(event: Event, table_ids: list[int]) -> dict[int, list[tuple[str, Player]]]:
    """Table id → (seat, player seated there) of the tables `table_ids`, in turn order."""
    # Who sat at his tables is public (the seating), whatever the embargo of the results.
    order = {s: i for i, s in enumerate(seats_of(event))}
    at_table: dict[int, list[tuple[str, Player]]] = defaultdict(list)
    for other in sorted(
        Seat.objects.filter(table_id__in=table_ids).select_related("player"),
        key=lambda o: order.get(o.seat, 99),
    ):
        at_table[other.table_id].append((other.seat, other.player))
    return at_table


def _scorecard_row(
    table: Table,
    seat: str,
    board: Board,
    *,
    game: Game | None,
    seat_points: methods.SeatPoints | None,
    adjusted: str,
    hidden: bool,
    opponents: list[tuple[str, Player]],
    replacing: Player | None,
) -> ScorecardRow:
    """The row of one board played in `seat` of `table`; its role and score shown only when
    not `hidden` (the caller leaves out the points and adjustment of a hidden board)."""
    verified = counts(game)
    role = ""
    if game is not None and game.landlord and not hidden:
        role = "landlord" if game.landlord == seat else "farmer"
    return ScorecardRow(
        round=table.round,
        board=board,
        table=table,
        seat=seat,
        game=game,
        role=role,
        score=(game.score or {}).get(seat) if verified and game and not hidden else None,
        points=seat_points.points if seat_points else None,
        top=seat_points.top if seat_points else None,
        adjusted=adjusted,
        hidden=hidden,
        opponents=opponents,
        percentage=(
            100 * seat_points.points / seat_points.top
            if seat_points is not None and seat_points.top
            else None
        ),
        replacing=replacing,
    )


@dataclass
class RunningPoint:
    round: int
    value: Fraction


def running_score(event: Event, rows: list[ScorecardRow]) -> list[RunningPoint]:
    """A player's score after each round, from his scorecard rows (hidden boards left out):
    the percentage of the tops so far in matchpoints, the running sum in datum difference. A
    round comes in once one of its boards counts for him (a round in play with nothing
    counted yet would repeat the last value as if it were a result); in matchpoints, once his
    tops so far are above 0 (before, no board of his was compared with another table: no
    percentage, not 0 %)."""
    per_round: dict[int, list[ScorecardRow]] = defaultdict(list)
    for row in rows:
        if row.points is not None:
            per_round[row.round.number].append(row)
    total, tops = Fraction(0), Fraction(0)
    out = []
    matchpoints = method_of(event) == "matchpoints"
    for number in sorted(per_round):
        for row in per_round[number]:
            total += row.points or 0
            tops += row.top or 0
        if matchpoints and not tops:
            continue
        out.append(RunningPoint(number, 100 * total / tops if matchpoints else total))
    return out


@dataclass
class Chart:
    """An SVG line chart: the polyline's points and the labelled axis values."""

    width: int
    height: int
    points: str
    dots: list[tuple[float, float, str, str]] = field(default_factory=list)
    y_labels: list[tuple[float, str]] = field(default_factory=list)


def chart(series: list[RunningPoint], *, width: int = 320, height: int = 160) -> Chart | None:
    """Screen coordinates of a running score (None for no rounds); values shown to 2 places.

    Coordinates are for drawing only; the exact values stay Fractions up to here.
    """
    if not series:
        return None
    pad = 28
    low = min(min(p.value for p in series), Fraction(0))
    high = max(max(p.value for p in series), Fraction(0))
    flat = high == low
    if flat:  # a range to draw in; the axis names only the one value
        high = low + 1
    span_x = max(len(series) - 1, 1)

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * i / span_x, 1)

    def y(v: Fraction) -> float:
        return round(height - pad - float((v - low) / (high - low)) * (height - 2 * pad), 1)

    dots = [(x(i), y(p.value), str(p.round), _short(p.value)) for i, p in enumerate(series)]
    return Chart(
        width=width,
        height=height,
        points=" ".join(f"{dx},{dy}" for dx, dy, _r, _v in dots),
        dots=dots,
        y_labels=[(y(low), _short(low))] + ([] if flat else [(y(high), _short(high))]),
    )


def _short(value: Fraction) -> str:
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass
class ReplayStep:
    """One position of a replay: what was done (a call or a play), every seat's hand, and the
    `trick` on the table after it: its plays and passes as (seat, cards or "pass"), from its
    lead on (R-TRICK; empty before the first lead)."""

    index: int
    kind: str
    seat: str
    action: str
    hands: dict[str, str]
    trick: list[tuple[str, str]] = field(default_factory=list)


def game_record(game: Game) -> dict[str, Any]:
    """What a game's page shows of it (the public game page, the referee's confirm page): the
    table's seats with player, hand, declared and engine score; the bidding; the plays cut into
    tricks (R-TRICK); the bottom cards. For a viewer who may see the game (the pages answer
    any other as not found). `game` needs ``table__seats__player`` prefetched and its board
    and event selected."""
    board, event = game.board, game.board.event
    players = lineup_of(table_ids=[game.table_id]).players(
        game.table, board.number, {s.seat: s.player for s in game.table.seats.all()}
    )
    record = game.record if isinstance(game.record, dict) else {}
    hands: dict[str, Any] = record["hands"] if isinstance(record.get("hands"), dict) else {}
    # The board's hands carry suits when it was dealt (R-SUIT); a record holds ranks only.
    suited = board.hands if isinstance(board.hands, dict) else {}
    order = seats_of(event, board)
    robot_moves = _robot_moves(game.table)
    seats = [
        {
            "seat": seat,
            "player": players.get(seat),
            "robot_move": robot_moves.get(seat),
            "hand": suited.get(seat) or hands.get(seat, ""),
            "declared": (game.declared or {}).get(seat),
            "score": (game.score or {}).get(seat),
        }
        for seat in order
    ]
    plays = [
        (str(p[0]), str(p[1]))
        for p in record.get("plays") or []
        if isinstance(p, list | tuple) and len(p) >= 2
    ]
    tricks, index = [], 0
    for trick in split_tricks(plays, len(order)):
        tricks.append([(index + i, seat, cards) for i, (seat, cards) in enumerate(trick)])
        index += len(trick)
    return {
        "game": game,
        "event": event,
        "board": board,
        "seats": seats,
        "record": record,
        "bottom": board.bottom or record.get("bottom", ""),
        "bidding": record.get("bidding") or [],
        "plays": plays,
        "tricks": tricks,
    }


def replay_steps(game: Game, seats: tuple[str, ...]) -> list[ReplayStep]:
    """The positions of a recorded game: the deal, each call, the bottom cards taken, each
    play (hands shrink as cards are played). A record the engine cannot read stops the replay
    at the last readable position (its page shows the engine's error)."""
    record = game.record if isinstance(game.record, dict) else {}
    raw: dict[str, Any] = record["hands"] if isinstance(record.get("hands"), dict) else {}
    try:
        hands = {s: list(parse_cards(rank_cards(str(raw.get(s, ""))))) for s in seats}
    except (EngineError, ValueError):
        return []
    steps = [ReplayStep(0, "deal", "", "", _show(hands))]
    for call in record.get("bidding") or []:
        if isinstance(call, list) and len(call) >= 2:
            steps.append(ReplayStep(len(steps), "call", str(call[0]), str(call[1]), _show(hands)))
    landlord = game.landlord or record.get("landlord")
    if landlord in hands:
        try:
            bottom = parse_cards(rank_cards(str(record.get("bottom") or "")))
        except (EngineError, ValueError):
            return steps
        hands[landlord] = [a + b for a, b in zip(hands[landlord], bottom, strict=True)]
        steps.append(ReplayStep(len(steps), "bottom", landlord, format_cards(bottom), _show(hands)))
    trick: list[tuple[str, str]] = []
    passes = 0
    for play in record.get("plays") or []:
        if not (isinstance(play, list) and len(play) >= 2) or play[0] not in hands:
            break
        seat, cards = str(play[0]), str(play[1])
        if cards != "pass":
            try:
                counts = parse_cards(cards)
            except (EngineError, ValueError):
                break
            left = [a - b for a, b in zip(hands[seat], counts, strict=True)]
            if min(left) < 0:
                break
            hands[seat] = left
            # R-TRICK: once every other player has passed in a row, this play leads anew.
            if passes >= len(seats) - 1:
                trick = []
            passes = 0
        else:
            passes += 1
        trick = [*trick, (seat, cards)]
        steps.append(ReplayStep(len(steps), "play", seat, cards, _show(hands), trick))
    return steps


@dataclass
class ReplaySummary:
    """What a replay shows above the cards: the landlord (seat and player), the bid (the
    engine's contract value, or the one a quick result gave), and the result once the engine
    counted the game: which side won and each seat's score, in seat order."""

    landlord: str
    landlord_player: Player | None
    bid: Any
    winner: str
    scores: list[tuple[str, int]]
    spring: bool
    anti_spring: bool


def replay_summary(game: Game, seats: tuple[str, ...], players: dict[str, Player]) -> ReplaySummary:
    """The summary of `game` (call only for a game the viewer may see)."""
    record = game.record if isinstance(game.record, dict) else {}
    facts = game.facts if isinstance(game.facts, dict) else {}
    landlord = game.landlord or str(record.get("landlord") or "")
    bid = facts.get("bid", record.get("bid"))
    score: dict[str, Any] = game.score if isinstance(game.score, dict) else {}
    counted = counts(game) and isinstance(game.score, dict)
    return ReplaySummary(
        landlord=landlord,
        landlord_player=players.get(landlord),
        bid=bid,
        winner=game.winner if counted else "",
        scores=[(s, score[s]) for s in seats if s in score] if counted else [],
        spring=bool(facts.get("spring")) if counted else False,
        anti_spring=bool(facts.get("anti_spring")) if counted else False,
    )


def _show(hands: dict[str, list[int]]) -> dict[str, str]:
    return {s: format_cards(tuple(c)) for s, c in hands.items()}


@dataclass
class SeatingTable:
    table: Table
    players: list[tuple[str, Player | None]]


def round_seating(*, round_: Round, seats: tuple[str, ...]) -> list[SeatingTable]:
    """The tables of a round with the player in each seat (two queries)."""
    tables = Table.objects.filter(round=round_).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
    out = []
    for table in tables:
        by_seat = {s.seat: s.player for s in table.seats.all()}
        out.append(SeatingTable(table, [(s, by_seat.get(s)) for s in seats]))
    return out
