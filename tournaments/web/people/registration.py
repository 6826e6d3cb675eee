"""The registration pages (tournaments.people.registration): the player's form and his own
registration with its check-in QR code and "withdraw"; the organizer's registrations page (the
limit, deadline, waiting list and categories; accept, decline, waitlist, withdraw; add an
entrant).

Thin: parse with a Django form, call one service, show its refusal as the form's error or a
message (nothing changed then). The player's pages need a signed-in account (the sign-in page
otherwise); the organizer's, an organizer of the event (403 for anyone else).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, cast
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import NotAllowed, NotOrganizer, account_person
from tournaments.core.zones import wall_time_aware, wall_time_refusal
from tournaments.models import Event, EventStatus, Registration, RegistrationStatus
from tournaments.online.window import is_online_duplicate
from tournaments.people import life
from tournaments.people import registration as service
from tournaments.people.checkin import is_present, next_round
from tournaments.web.officials import qr_svg
from tournaments.web.organizer import event_for_organizer
from tournaments.web.people.life import WALL_FORMATS, WallTimeField


def _sign_up_url() -> str:
    """The sign-up page (django-allauth's ``account_signup``), '' while the site has none."""
    try:
        return reverse("account_signup")
    except NoReverseMatch:
        return ""


class RegisterForm(forms.Form):
    name = TypedTextField(label=gettext_lazy("Name"), max_length=120)
    club = TypedTextField(label=gettext_lazy("Club"), max_length=120, required=False)
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        required=False,
        help_text=gettext_lazy("Where the organizer's answer is sent; empty: your account's."),
    )
    categories = forms.MultipleChoiceField(
        label=gettext_lazy("Categories"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    note = TypedTextField(
        lines=True,
        label=gettext_lazy("Note to the organizer"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.MultipleChoiceField, self.fields["categories"])
        field.choices = [(c, service.category_label(c)) for c in event.categories]
        if not event.categories:
            del self.fields["categories"]


def _sign_in_page(request: HttpRequest, event: Event) -> HttpResponse:
    """What someone not signed in sees instead of the form: sign in, or sign up."""
    sign_in = resolve_url(settings.LOGIN_URL)
    return render(
        request,
        "people/registration_sign_in.html",
        {
            "event": event,
            "sign_in": f"{sign_in}?next={request.get_full_path()}",
            "sign_up": _sign_up_url(),
        },
    )


def register(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration form of an event (for a signed-in account; sign in or sign up
    otherwise); an account registered already is sent to its registration."""
    event = get_object_or_404(Event, slug=slug)
    if not request.user.is_authenticated:
        return _sign_in_page(request, event)
    user = cast(User, request.user)
    if (
        Registration.objects.filter(event=event, user=user)
        .exclude(status=RegistrationStatus.WITHDRAWN)
        .exists()
    ):
        return redirect("registration:mine", slug=event.slug)
    # The account's player, tied by a claim, an invitation or an event's player role.
    player = account_person(user)
    initial = {
        "name": player.name if player else user.get_full_name() or "",
        "club": player.club if player else "",
        "email": user.email,
    }
    form = RegisterForm(request.POST or None, event=event, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.register(
                    event=event,
                    actor=user,
                    name=form.cleaned_data["name"],
                    email=form.cleaned_data["email"],
                    club=form.cleaned_data["club"],
                    categories=form.cleaned_data.get("categories") or [],
                    note=form.cleaned_data["note"],
                )
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("registration:mine", slug=event.slug)
        status = 400
    return render(
        request,
        "people/registration_form.html",
        {
            "event": event,
            "form": form,
            "open": event.status == EventStatus.REGISTRATION_OPEN,
            "refusal": _closed_refusal(event),
            "full": service.full_refusal(event) is not None,
        },
        status=status,
    )


def _closed_refusal(event: Event) -> str:
    """Why the event takes no registration now; '' while it does."""
    return service.closed_refusal(event) or ""


@login_required
def mine(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in account's registration for an event: its status, its check-in QR code
    once accepted, and "withdraw"."""
    event = get_object_or_404(Event, slug=slug)
    registration = Registration.objects.filter(event=event, user=cast(User, request.user)).first()
    if registration is None:
        return redirect("registration:register", slug=event.slug)
    round_ = next_round(event)
    return render(
        request,
        "people/registration_mine.html",
        {
            "event": event,
            "registration": registration,
            "qr": checkin_qr(request, registration),
            "round": round_,
            # Checked in for that round already (a trial's player still read "show this code").
            "present": is_present(round_, registration.player_id),
            "own": True,
        },
    )


def status(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """A registration's own page by its token (the link of the organizer's e-mails, for an
    entrant without an account too): its status and, once accepted, its check-in QR code. The
    token is the registration's secret, as the QR code it carries."""
    event = get_object_or_404(Event, slug=slug)
    try:
        key = uuid.UUID(token)
    except ValueError:
        raise Http404(_("No such registration.")) from None
    registration = get_object_or_404(Registration, event=event, token=key)
    response = render(
        request,
        "people/registration_mine.html",
        {
            "event": event,
            "registration": registration,
            "qr": checkin_qr(request, registration),
            "round": next_round(event),
            "own": request.user.is_authenticated and registration.user_id == request.user.pk,
        },
    )
    # A private page: neither cached nor sent on as a referrer.
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def checkin_qr(request: HttpRequest, registration: Registration) -> str:
    """The check-in QR code of an accepted registration as inline SVG (the address an
    organizer's or referee's phone opens); '' for any other."""
    if registration.status != RegistrationStatus.ACCEPTED:
        return ""
    url = reverse("registration:checkin_scan", args=[registration.event.slug, registration.token])
    return qr_svg(request.build_absolute_uri(url))


@login_required
@require_POST
def withdraw_mine(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    registration = get_object_or_404(Registration, event=event, user=cast(User, request.user))
    try:
        service.registration_withdraw(registration=registration, actor=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your registration is withdrawn."))
    return redirect("registration:mine", slug=event.slug)


# --- The organizer's page -----------------------------------------------------------------


class SettingsForm(forms.Form):
    limit = forms.IntegerField(
        label=gettext_lazy("Places"),
        min_value=1,
        max_value=service.MAX_PLACES,
        required=False,
        help_text=gettext_lazy("Empty: no limit."),
    )
    deadline = WallTimeField(
        label=gettext_lazy("Registration deadline"),
        required=False,
        input_formats=WALL_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=WALL_FORMATS[0]),
    )
    waiting_list = forms.BooleanField(label=gettext_lazy("Waiting list"), required=False)
    categories = forms.CharField(
        label=gettext_lazy("Categories"),
        required=False,
        max_length=600,
        help_text=gettext_lazy(
            "Separated by commas: women, youth, senior, novice, or your own labels."
        ),
    )
    check_in_required = forms.BooleanField(
        label=gettext_lazy("Check-in"),
        required=False,
        help_text=gettext_lazy("Seating a round seats only the players checked in for it."),
    )

    def __init__(self, *args: Any, zone: str = "", **kwargs: Any) -> None:
        # The deadline is typed and shown in the event's zone (the view makes it current).
        # Ids of their own: the page's other form (AddForm) has a categories field too.
        kwargs.setdefault("auto_id", "settings_%s")
        super().__init__(*args, **kwargs)
        self.zone = zone
        self.fields["deadline"].help_text = _("In the event's time zone, %(zone)s.") % {
            "zone": zone
        }

    def clean_deadline(self) -> datetime | None:
        """The moment the deadline typed names in the event's zone: one the zone skips or
        gives twice is refused in the site's words (zones.wall_time_refusal), not Django's."""
        typed: datetime | None = self.cleaned_data["deadline"]
        if typed is None or timezone.is_aware(typed):
            return typed
        refusal = wall_time_refusal(typed, ZoneInfo(self.zone))
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return wall_time_aware(typed, ZoneInfo(self.zone))


class AddForm(forms.Form):
    name = TypedTextField(label=gettext_lazy("Name"), max_length=120)
    club = TypedTextField(label=gettext_lazy("Club"), max_length=120, required=False)
    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False)
    categories = forms.CharField(label=gettext_lazy("Categories"), required=False, max_length=600)
    accept = forms.BooleanField(label=gettext_lazy("Accept at once"), required=False, initial=True)


def _settings_initial(event: Event) -> dict[str, Any]:
    deadline = event.registration_deadline
    return {
        "limit": event.registration_limit,
        "deadline": timezone.localtime(deadline, life.zone_of(event)) if deadline else None,
        "waiting_list": event.waiting_list,
        "check_in_required": event.check_in_required,
        "categories": ", ".join(service.category_label(c) for c in event.categories),
    }


@login_required
def registrations(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's registrations page: the settings, the registrations by status, the
    first on the waiting list when a place is free, and the form to add an entrant. An online
    robot duplicate's places taken are its entrants, who enter themselves online."""
    event = event_for_organizer(request, slug)
    return _registrations_page(request, event)


def _registrations_page(
    request: HttpRequest,
    event: Event,
    *,
    settings_form: SettingsForm | None = None,
    add_form: AddForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rows = list(Registration.objects.filter(event=event).select_related("player"))
    taken = sum(1 for r in rows if r.status == RegistrationStatus.ACCEPTED)
    if is_online_duplicate(event):
        # Its entrants enter themselves online, without registering: they take its places
        # (tournaments.online.entry), robots left out.
        taken = event.entries.filter(player__robot=False).count()
    free = event.registration_limit is None or taken < event.registration_limit
    zone = life.zone_of(event)
    with timezone.override(zone):
        return _registrations_render(
            request, event, rows, taken, free, settings_form, add_form, status
        )


def _registrations_render(
    request: HttpRequest,
    event: Event,
    rows: list[Registration],
    taken: int,
    free: bool,
    settings_form: SettingsForm | None,
    add_form: AddForm | None,
    status: int,
) -> HttpResponse:
    zone = str(life.zone_of(event))
    return render(
        request,
        "people/registration_list.html",
        {
            "event": event,
            "zone": zone,
            "rows": rows,
            "taken": taken,
            "waiting": service.first_waiting(event) if free else None,
            "settings_form": settings_form
            or SettingsForm(initial=_settings_initial(event), zone=zone),
            "add_form": add_form or AddForm(),
            "labels": {c: service.category_label(c) for c in event.categories},
            "online": is_online_duplicate(event),
        },
        status=status,
    )


def _run(request: HttpRequest, event: Event, call: Any, success: str) -> HttpResponse | None:
    """Run one service call: its refusal as a message (None), or ``success`` and back to the
    registrations page; someone not allowed is answered 403."""
    try:
        call()
    except (NotAllowed, NotOrganizer) as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
        return None
    messages.success(request, success)
    return redirect("registration:registrations", slug=event.slug)


@login_required
@require_POST
def registration_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Open registration with the form's settings (or change them while open)."""
    event = event_for_organizer(request, slug)
    form = SettingsForm(request.POST, zone=str(life.zone_of(event)))
    # The deadline typed is a wall time of the event's zone, read there by the service.
    if form.is_valid():
        data = form.cleaned_data

        def call() -> None:
            service.registration_open(
                event=event,
                actor=request.user,
                limit=data["limit"],
                deadline=data["deadline"],
                waiting_list=data["waiting_list"],
                categories=service.categories_parse(data["categories"]),
                check_in_required=data["check_in_required"],
            )

        done = _run(request, event, call, _("Registration is open with these settings."))
        if done is not None:
            return done
    return _registrations_page(request, event, settings_form=form, status=400)


@login_required
@require_POST
def registration_close(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_organizer(request, slug)
    done = _run(
        request,
        event,
        lambda: service.registration_close(event=event, actor=request.user),
        _("Registration is closed."),
    )
    return done or redirect("registration:registrations", slug=event.slug)


@login_required
@require_POST
def registration_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Add an entrant (accepted at once, or received)."""
    event = event_for_organizer(request, slug)
    form = AddForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data

        def call() -> None:
            service.registration_add(
                event=event,
                actor=request.user,
                name=data["name"],
                club=data["club"],
                email=data["email"],
                categories=service.categories_parse(data["categories"]),
                accept=data["accept"],
            )

        done = _run(request, event, call, _("%(name)s is added.") % {"name": data["name"]})
        if done is not None:
            return done
    return _registrations_page(request, event, add_form=form, status=400)


@login_required
@require_POST
def registration_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    """Accept, decline, waitlist or withdraw one registration."""
    event = event_for_organizer(request, slug)
    registration = get_object_or_404(Registration, event=event, pk=pk)
    said = {
        "accept": _("%(name)s is accepted."),
        "decline": _("%(name)s is declined."),
        "waitlist": _("%(name)s is on the waiting list."),
        "withdraw": _("%(name)s is withdrawn."),
    }
    if action not in said:
        raise Http404(_("Unknown action."))

    def call() -> None:
        if action == "withdraw":
            service.registration_withdraw(registration=registration, actor=request.user)
        else:
            service.registration_decide(
                registration=registration, decision=action, actor=request.user
            )

    done = _run(request, event, call, said[action] % {"name": registration.shown_name})
    return done or redirect("registration:registrations", slug=event.slug)
