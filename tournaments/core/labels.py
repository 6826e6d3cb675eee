"""The names people read for the project's internal names, in the reader's language: tie-breaks
(tournaments.scoring.ranking.TIEBREAKS, tournaments.league.series.SERIES_TIEBREAKS), audit actions
(every
``action`` given to tournaments.core.audit.audit_record), rules presets (games.engine.rules
PRESETS) and who entered a game. Defined here once; pages use them through the template filters
of tournaments.templatetags (``tiebreak``, ``audit_action``, ``rules_preset``, ``entered_by``).
A name without a label reads as itself.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import Game

TIEBREAKS: dict[str, Promise] = {
    "datum_wins": _("boards won against the datum"),
    "best_board": _("best single board"),
    "best_event": _("best single event"),
    "head_to_head": _("head-to-head"),
    "lot": _("lot"),
}


AUDIT_ACTIONS: dict[str, Promise] = {
    "admin.add": pgettext_lazy("audit action", "added in the administration"),
    "admin.change": pgettext_lazy("audit action", "changed in the administration"),
    "admin.delete": pgettext_lazy("audit action", "deleted in the administration"),
    "adjustment.set": pgettext_lazy("audit action", "adjusted score given"),
    "adjustment.remove": pgettext_lazy("audit action", "adjusted score removed"),
    "clock.start": pgettext_lazy("audit action", "clock started"),
    "clock.pause": pgettext_lazy("audit action", "clock paused"),
    "clock.resume": pgettext_lazy("audit action", "clock resumed"),
    "clock.extra_time": pgettext_lazy("audit action", "extra time given"),
    "clock.reset": pgettext_lazy("audit action", "clock reset"),
    "club.create": pgettext_lazy("audit action", "club made"),
    "club.member_add": pgettext_lazy("audit action", "club member added"),
    "entry.add": pgettext_lazy("audit action", "player entered in the event"),
    "entry.step": pgettext_lazy("audit action", "step entered through a table link"),
    "entry.undo": pgettext_lazy("audit action", "last step taken back"),
    "entry.undo_asked": pgettext_lazy("audit action", "taking back the last step asked"),
    "event.correction_window": pgettext_lazy("audit action", "correction window set"),
    "event.create": pgettext_lazy("audit action", "event opened"),
    "event.place": pgettext_lazy("audit action", "date and place set"),
    "event.prizes": pgettext_lazy("audit action", "prizes set"),
    "event.seed_commit": pgettext_lazy("audit action", "deal seed drawn and committed"),
    "event.announce": pgettext_lazy("audit action", "event announced"),
    "event.registration_open": pgettext_lazy("audit action", "event open for registration"),
    "event.finish": pgettext_lazy("audit action", "event finished"),
    "event.reopen": pgettext_lazy("audit action", "event reopened"),
    "event.seed_reveal": pgettext_lazy("audit action", "deal seed revealed"),
    "game.check": pgettext_lazy("audit action", "problem signalled by a player"),
    "game.check.handle": pgettext_lazy("audit action", "player's signal handled"),
    "game.confirm": pgettext_lazy("audit action", "result confirmed"),
    "game.edit": pgettext_lazy("audit action", "game corrected"),
    "game.resolve": pgettext_lazy("audit action", "chief referee's ruling"),
    "game.submit": pgettext_lazy("audit action", "game entered"),
    "link.player.make": pgettext_lazy("audit action", "player links made"),
    "link.revoke": pgettext_lazy("audit action", "link revoked"),
    "link.table.make": pgettext_lazy("audit action", "table links made"),
    "mail.broadcast": pgettext_lazy("audit action", "message to every player sent"),
    "official.add": pgettext_lazy("audit action", "official added"),
    "official.remove": pgettext_lazy("audit action", "official removed"),
    "penalty.add": pgettext_lazy("audit action", "penalty given"),
    "penalty.remove": pgettext_lazy("audit action", "penalty removed"),
    "person.merge": pgettext_lazy("audit action", "players merged as one person"),
    "person.unmerge": pgettext_lazy("audit action", "merge of players undone"),
    "player.mail": pgettext_lazy("audit action", "e-mail from the site turned off or on"),
    "checkin.qr": pgettext_lazy("audit action", "checked in by QR code"),
    "checkin.tap": pgettext_lazy("audit action", "checked in on the list"),
    "checkin.undo": pgettext_lazy("audit action", "check-in taken back"),
    "entry.rounds": pgettext_lazy("audit action", "late entry or withdrawal set"),
    "online.settings": pgettext_lazy("audit action", "online play set"),
    "online.boards_deal": pgettext_lazy("audit action", "online boards dealt"),
    "online.board_start": pgettext_lazy("audit action", "online board started"),
    "online.enter": pgettext_lazy("audit action", "entered online"),
    "online.window_close": pgettext_lazy("audit action", "online window closed"),
    "online.window_end": pgettext_lazy("audit action", "window ended early"),
    "online.table_full": pgettext_lazy("audit action", "online table full, its board started"),
    "online.table_leave": pgettext_lazy("audit action", "left an online table"),
    "online.robot_takeover": pgettext_lazy("audit action", "robot took over an online seat"),
    "registration.open": pgettext_lazy("audit action", "registration opened"),
    "registration.close": pgettext_lazy("audit action", "registration closed"),
    "registration.receive": pgettext_lazy("audit action", "registration received"),
    "registration.add": pgettext_lazy("audit action", "entrant added"),
    "registration.accept": pgettext_lazy("audit action", "registration accepted"),
    "registration.decline": pgettext_lazy("audit action", "registration declined"),
    "registration.waitlist": pgettext_lazy("audit action", "registration put on the waiting list"),
    "registration.withdraw": pgettext_lazy("audit action", "entry withdrawn"),
    "player.invite": pgettext_lazy("audit action", "player invited to tie an account"),
    "player.account": pgettext_lazy("audit action", "account tied to the player"),
    "player.claim.approve": pgettext_lazy("audit action", "profile claim approved"),
    "player.claim.decline": pgettext_lazy("audit action", "profile claim declined"),
    "player.name": pgettext_lazy("audit action", "public name changed by the player"),
    "players.import": pgettext_lazy("audit action", "players imported"),
    "profile.hide": pgettext_lazy("audit action", "profile shown or hidden"),
    "round.close": pgettext_lazy("audit action", "round closed"),
    "round.create": pgettext_lazy("audit action", "round added"),
    "round.deal": pgettext_lazy("audit action", "round dealt"),
    "round.delete": pgettext_lazy("audit action", "round deleted"),
    "round.publish": pgettext_lazy("audit action", "round published"),
    "round.seat": pgettext_lazy("audit action", "round seated"),
    "round.start": pgettext_lazy("audit action", "round started"),
    "series.create": pgettext_lazy("audit action", "series made"),
    "series.finish": pgettext_lazy("audit action", "series marked finished or current"),
    "stage.create": pgettext_lazy("audit action", "stage added"),
    "stage.cut": pgettext_lazy("audit action", "cut made"),
    "stage.referees": pgettext_lazy("audit action", "table referees of the stage set"),
    "stage.seat": pgettext_lazy("audit action", "stage seated"),
    "substitution.add": pgettext_lazy("audit action", "substitute seated"),
    "substitution.remove": pgettext_lazy("audit action", "substitution removed"),
}


RULES_PRESETS: dict[str, Promise] = {
    "classic": pgettext_lazy("rules preset", "classic"),
    "classic_once": pgettext_lazy("rules preset", "classic, one bid each"),
    "rob": pgettext_lazy("rules preset", "rob the landlord"),
    "competition": pgettext_lazy("rules preset", "Happy Dou Dizhu competition"),
    "cn2016": pgettext_lazy("rules preset", "national competition rules 2016"),
    "two_player": pgettext_lazy("rules preset", "two players"),
    "four_player": pgettext_lazy("rules preset", "four players"),
    "five_player": pgettext_lazy("rules preset", "five players"),
}


def _label(labels: dict[str, Promise], name: object) -> str:
    text = str(name or "")
    return str(labels.get(text, text))


def tiebreak_label(name: object) -> str:
    """'best_board' → 'best single board' (translated); '' stays ''."""
    return _label(TIEBREAKS, name)


def action_label(action: object) -> str:
    """'game.edit' → 'game corrected' (translated)."""
    return _label(AUDIT_ACTIONS, action)


def entered_by_label(game: Game) -> str:
    """Who entered `game`: the user's name; for a game entered without an account, the door it
    came through ("table 3 link", "table 3 seat devices"); "—" when nobody is known (an import,
    the demo). Reads `game.entered_by` and `game.table` (select them with the game)."""
    if game.entered_by_id is not None and game.entered_by is not None:
        return game.entered_by.get_username()
    number = game.table.number if game.table_id else None
    if game.source == "link" and number is not None:
        return gettext("table %(table)s link") % {"table": number}
    if game.source == "seat" and number is not None:
        return gettext("table %(table)s seat devices") % {"table": number}
    return "—"


def preset_of(rules: Any) -> str:
    """The preset of an event's rules (a preset's name, or ``{"preset": …, "options": …}``);
    '' for none."""
    if isinstance(rules, dict):
        return str(rules.get("preset") or "")
    return rules if isinstance(rules, str) else ""


def preset_label(rules: Any) -> str:
    """'classic' (or rules of that preset) → 'classic (bids of 1 to 3)' (translated)."""
    return _label(RULES_PRESETS, preset_of(rules))
