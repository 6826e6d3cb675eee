"""Celery tasks of games: thin callers of games.services, enqueued after commit by id.

Services send them by name (ddz_site.dispatch), never importing this module. A stored game is
pending until its verification ran: the pending games are the outbox of verification.
`ddz_site.dispatch.enqueue` sends a task after commit and never fails the request that stored the
game (a broker that is down is logged); `sweep_pending_games`, sent by beat every
DDZ_SWEEP_SECONDS (settings.CELERY_BEAT_SCHEDULE), sends again the verification of games
pending too long, whose message a broker outage or a dead worker lost.
"""

from __future__ import annotations

from celery import shared_task

from ddz_site.dispatch import DB_TASK_OPTIONS
from games.services import VERIFY_BATCH, games_verify, verification_sweep


@shared_task(**DB_TASK_OPTIONS)
def verify_game(game_id: int) -> bool:
    """Replay game `game_id` through the engine and store the result (idempotent), with up to
    VERIFY_BATCH - 1 other pending games when the queue is deep (games.services.games_verify),
    then the standings they move (at once, unless a recomputation is queued or running); True
    when this task stored game `game_id`."""
    return game_id in games_verify(game_ids=[game_id], fill=VERIFY_BATCH, standings_inline=True)


@shared_task(**DB_TASK_OPTIONS)
def sweep_pending_games(older_than: float = 120) -> int:
    """Send again the verification of games pending for more than `older_than` seconds, and
    the standings of events whose games were verified meanwhile; the number of games sent."""
    return verification_sweep(older_than=older_than)
