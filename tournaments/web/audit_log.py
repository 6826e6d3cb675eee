"""The organizer's page of an event's whole change log, its audit log (namespace "organizer",
under /organizer/events/<slug>/changes/; not the standings' change log of
tournaments.standings.changes): every audit entry, newest first, a page at a time, each
with who made it, its time in the event's zone and what changed
(tournaments.events.audit_lines); the dashboard shows the last few and links here. With
``?steps=1`` it lists the steps typed at the tables too. For the event's organizers only (403
for anyone else, the sign-in page for the anonymous).
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.core.zones import zone_of
from tournaments.events import audit_lines
from tournaments.web.organizer import event_for_organizer, login_required

PER_PAGE = 50


@login_required
def change_log(request: HttpRequest, slug: str) -> HttpResponse:
    """A page of the change log of event `slug` (``?page=``: a number past the last shows the
    last, anything else the first).

    Raises:
        Http404: no such event. PermissionDenied: the user is not one of its organizers.
    """
    event = event_for_organizer(request, slug)
    steps = request.GET.get("steps") == "1"
    page = Paginator(audit_lines.change_log(event=event, steps=steps), PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "organizer/changes.html",
        {
            "event": event,
            "page": page,
            "audit": audit_lines.change_log_lines(page.object_list, event=event),
            "zone": zone_of(event),
            "steps": steps,
        },
    )
