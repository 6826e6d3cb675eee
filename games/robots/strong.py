"""The strong robot's play: plan the hand, lead its weakest group, follow without breaking it,
cooperate with a partner, and stop an enemy close to going out.

Vocabulary (see hands.py for *group*, *plan* and *cost*, view.py for *view*):

- *enemy*, *partner*: seats of the other side and of this seat's side (R-END: one seat out
  wins for its whole side). A farmer never overtakes his partner's winning play.
- *sure*: a play no enemy can beat whatever the unseen cards hold, checked against the unseen
  cards as one pool (more than any enemy holds, so "sure" is never wrong).
- *danger*: an enemy holds so few cards that the next trick he wins may be his last; then the
  robot beats whatever it can, with its highest play, and a bomb if need be (R-T11, R-T12).

Every choice is one of the view's legal turns (R-LEAD, R-CMP, R-AMBIG): a planned group that
the rules do not accept is never offered.
"""

from __future__ import annotations

from games.engine.cards import subtract
from games.engine.moves import Move, legal_moves

from .hands import Group, Plan, plan
from .view import SeatView

__all__ = ["strong_play", "is_power", "compared_rank"]

_POWER = ("bomb", "rocket")
_RANKS = "3456789TJQKA2BR"
# A follow is worth it when the plan of the hand left costs this much less than the hand's
# (a planned group shed whole lowers it by about one play).
_GAIN = -0.45


def is_power(move: Move) -> bool:
    """Whether a move is a bomb or the rocket (R-T11, R-T12)."""
    return any(r.type in _POWER for r in move.readings)


def compared_rank(move: Move) -> int:
    """The highest compared rank among a move's readings, 0..14 (R-RANK)."""
    return max((_RANKS.index(r.rank) for r in move.readings), default=0)


def _text(group: Group) -> str:
    return "".join(_RANKS[r] * c for r, c in enumerate(group.cards))


class _Table:
    """What the robot works out once per decision from the view."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.enemies = view.enemies()
        self.partners = view.partners()
        self.enemy_low = min((view.held(s) for s in self.enemies), default=99)
        self.enemy_most = max((view.held(s) for s in self.enemies), default=0)
        self.pool = view.unseen()
        self._sure: dict[str, bool] = {}

    def sure(self, move: Move) -> bool:
        """No enemy can beat ``move`` with cards from the unseen pool (R-CMP)."""
        found = self._sure.get(move.cards)
        if found is None:
            answers = legal_moves(self.pool, move.readings, self.view.rules)
            found = not any(not a.is_pass and len(a.cards) <= self.enemy_most for a in answers)
            self._sure[move.cards] = found
        return found


def strong_play(view: SeatView) -> str:
    """The strong robot's turn for ``view``: canonical cards or ``"pass"``.

    Always one of ``view.legal()`` (R-LEAD: never a pass on lead). A play that empties the hand
    is made at once (R-END).
    """
    moves = view.legal()
    plays = [m for m in moves if not m.is_pass]
    if not plays:
        return "pass"
    whole = sum(view.hand)
    for m in plays:
        if len(m.cards) == whole:
            return m.cards
    table = _Table(view)
    if view.open is None:
        return _lead(table, plays)
    return _follow(table, plays)


def _lead(table: _Table, plays: list[Move]) -> str:
    view = table.view
    by_text = {m.cards: m for m in plays}
    own = plan(view.hand)
    groups = [by_text[t] for t in (_text(g) for g in own.groups) if t in by_text]
    if not groups:  # a plan the rules do not read (other table sizes): shed what costs most
        return min(plays, key=lambda m: (_rest(view, m).cost, compared_rank(m))).cards
    helped = _feed_partner(table, plays)
    if helped is not None:
        return helped
    sure = [m for m in groups if table.sure(m)]
    unsure = [m for m in groups if not table.sure(m)]
    if sure and len(unsure) <= 1:
        # Sure plays first keep the lead to the end: the last group goes out unanswered.
        return max(sure, key=lambda m: (not is_power(m), len(m.cards), -compared_rank(m))).cards
    ordinary = [m for m in groups if not is_power(m)] or groups

    def risk(m: Move) -> int:
        # An enemy with one card (two) goes out on any solo (pair) he can beat.
        kinds = {r.type for r in m.readings}
        if table.enemy_low == 1 and "solo" in kinds and not table.sure(m):
            return 2
        if table.enemy_low == 2 and "pair" in kinds and not table.sure(m):
            return 1
        return 0

    choice = min(ordinary, key=lambda m: (risk(m), compared_rank(m), -len(m.cards)))
    if risk(choice) == 2:
        # Only solos left to lead: the highest first, so the enemy's last card must beat it.
        solos = [m for m in plays if len(m.cards) == 1]
        return max(solos, key=compared_rank).cards
    return choice.cards


def _feed_partner(table: _Table, plays: list[Move]) -> str | None:
    """With a partner down to one or two cards, lead the lowest solo or pair he may beat."""
    view = table.view
    if not table.partners:
        return None
    low = min(view.held(s) for s in table.partners)
    if low > 2:
        return None
    width = low
    shaped = [m for m in plays if len(m.cards) == width and len(set(m.cards)) == 1]
    if not shaped:
        return None
    return min(shaped, key=compared_rank).cards


def _rest(view: SeatView, move: Move) -> Plan:
    counts = move.counts
    assert counts is not None  # a play, not a pass
    return plan(subtract(view.hand, counts))


def _follow(table: _Table, plays: list[Move]) -> str:
    view = table.view
    owner = view.owner
    if owner in table.partners:
        return "pass"
    assert owner is not None  # following: someone's play is open
    base = plan(view.hand)
    held = view.held(owner)
    danger = held <= 2 or (view.side(owner) == "landlord" and held <= 4)
    options = [(m, _rest(view, m)) for m in plays]
    ordinary = [(m, p) for m, p in options if not is_power(m)]
    worth = [(m, p) for m, p in ordinary if p.cost - base.cost <= (6.0 if danger else _GAIN)]
    if worth:
        if danger:
            return max(worth, key=lambda o: (compared_rank(o[0]), -o[1].cost))[0].cards
        return min(worth, key=lambda o: (o[1].cost, compared_rank(o[0])))[0].cards
    power = [(m, p) for m, p in options if is_power(m)]
    if power and (danger or min(p.plays for _, p in power) <= 1):
        return min(power, key=lambda o: compared_rank(o[0]) + 20 * ("B" in o[0].cards))[0].cards
    return "pass"
