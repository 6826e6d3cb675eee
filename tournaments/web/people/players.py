"""The players page of an organizer's event: its entrants, the players file (CSV) previewed
then imported (tournaments.events.players_csv), and the same file exported."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from tournaments.events import players_csv
from tournaments.models import Entry
from tournaments.web.organizer import event_for_organizer

# The largest players file read (bytes): the upload is refused before it is read.
CSV_MAX_BYTES = 1_000_000


@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's players; POST a players file to preview it, then with ``confirm`` to import
    it (the same text, carried in the form)."""
    event = event_for_organizer(request, slug)
    preview = None
    text = ""
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is not None:
            if upload.size and upload.size > CSV_MAX_BYTES:
                messages.error(request, _("The file is larger than 1 MB."))
                return redirect("organizer:players", slug=event.slug)
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                messages.error(
                    request,
                    _(
                        "The file is not UTF-8 text. Save it again as CSV in UTF-8 (Excel: "
                        "Save As, “CSV UTF-8”; WPS, Numbers or LibreOffice: export as CSV with "
                        "the UTF-8 encoding) and send it again."
                    ),
                )
                return redirect("organizer:players", slug=event.slug)
        else:
            text = request.POST.get("text", "")
        # Pasted or in a file, the same rule as every typed text (ddz_site.kernel.text): U+FFFD
        # (bytes that were not UTF-8) or control characters refuse the whole text.
        unfit = text_refusal(text, lines=True)
        if unfit is not None:
            messages.error(request, unfit[1])
            text, status = "", 400
        elif request.POST.get("confirm"):
            try:
                done = players_csv.players_csv_import(event=event, text=text, actor=request.user)
            except players_csv.CsvRejected as exc:
                messages.error(request, exc.message)
                preview, status = exc.preview, 400
            except DomainError as exc:
                messages.error(request, exc.message)
                status = 400
            else:
                actions = [r.action for r in done.rows]
                messages.success(
                    request,
                    ngettext(
                        "%(n)s player imported: %(new)s new, %(updated)s updated, %(known)s "
                        "known already.",
                        "%(n)s players imported: %(new)s new, %(updated)s updated, %(known)s "
                        "known already.",
                        len(actions),
                    )
                    % {
                        "n": len(actions),
                        "new": actions.count("new"),
                        "updated": actions.count("update"),
                        "known": actions.count("existing"),
                    },
                )
                return redirect("organizer:players", slug=event.slug)
        else:
            preview = players_csv.players_csv_preview(event=event, text=text)
            status = 200 if preview.ok else 400
    entries = (
        Entry.objects.filter(event=event)
        .select_related("player")
        .prefetch_related("player__teams")
        .order_by("player__name")
    )
    return render(
        request,
        "organizer/players.html",
        {"event": event, "entries": entries, "preview": preview, "text": text},
        status=status,
    )


@login_required
def players_export(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_organizer(request, slug)
    response = HttpResponse(
        players_csv.players_csv_export(event=event), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, f"{event.slug}-players.csv")
    return response
