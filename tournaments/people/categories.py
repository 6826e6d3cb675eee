"""The categories of an event's registration (women, youth, senior, novice, or the organizer's
own labels: Event.categories, Registration.categories, each ranked apart on the final results),
and the refusal every registration service raises (tournaments.people.registration).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ddz_site.kernel.text import blank, text_refusal
from tournaments.core.access import AdministrationRefused
from tournaments.models import Event

# The categories every organizer may offer, by key (stored in Event.categories and
# Registration.categories); an organizer's own labels are stored as he types them.
CATEGORIES = {
    "women": gettext_lazy("women"),
    "youth": gettext_lazy("youth"),
    "senior": gettext_lazy("senior"),
    "novice": gettext_lazy("novice"),
}
MAX_CATEGORIES = 12
CATEGORY_LENGTH = 40  # Prize.category's length: a category's prizes name it


class RegistrationRefused(AdministrationRefused):
    """A registration, or a change to one, that cannot be made; nothing was written."""


def category_label(category: str) -> str:
    """What a category is called on the pages: the translated name of one of CATEGORIES, else
    the organizer's own label."""
    return str(CATEGORIES.get(category, category))


def categories_parse(text: str) -> list[str]:
    """The categories an organizer typed, separated by commas (``,`` ``，`` or ``、``) or lines:
    the keys of CATEGORIES given by key or by their name in the reader's language, his own
    labels as typed (without duplicates, in order).

    Raises:
        RegistrationRefused: a label refused by the site's rule for typed text, longer than
        CATEGORY_LENGTH, or more than MAX_CATEGORIES of them.
    """
    names = {str(label).casefold(): key for key, label in CATEGORIES.items()}
    out: list[str] = []
    for part in re.split(r"[,，、\n]", text):
        label = part.strip()
        if not label or blank(label):
            continue
        unfit = text_refusal(label, max_length=CATEGORY_LENGTH)
        if unfit is not None:
            raise RegistrationRefused(
                _("Category %(label)s: %(reason)s") % {"label": label[:40], "reason": unfit[1]}
            )
        key = names.get(label.casefold(), label)
        if key.casefold() not in {c.casefold() for c in out}:
            out.append(key)
    if len(out) > MAX_CATEGORIES:
        raise RegistrationRefused(_("At most %(n)s categories per event.") % {"n": MAX_CATEGORIES})
    return out


def categories_check(event: Event, categories: list[str]) -> list[str]:
    """``categories`` when every one is a category of ``event`` (deduplicated, in the event's
    order); else RegistrationRefused naming the others and the event's."""
    unknown = [c for c in categories if c not in event.categories]
    if unknown:
        offered = ", ".join(category_label(c) for c in event.categories) or _("none")
        raise RegistrationRefused(
            _("%(event)s has no category %(unknown)s; its categories: %(offered)s.")
            % {
                "event": event.name,
                "unknown": ", ".join(str(c)[:40] for c in unknown),
                "offered": offered,
            }
        )
    return [c for c in event.categories if c in categories]
