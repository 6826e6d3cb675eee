"""Every page speaks its reader's language: the walk fetches every page of the site's URL
patterns that answers GET, as the public, a player (her private link), a table's referee (the
table's and the seats' private links), a signed-in referee and chief referee, and an organizer
(staff, for the admin), on a realistic world (tests.api_world: an event in play with a
verified, a flagged and a ruled game; a club's series whose event is played, published and
rated), in English, Simplified and Traditional Chinese.

In the two Chinese languages the visible text (tags, scripts and styles stripped; the titles,
placeholders, labels and button values kept; the texts a page hands its script as JSON too)
must hold no English sentence: two or more consecutive ASCII words of two letters or more,
once the world's own data (names of players, events, clubs, stages, users; notes), addresses,
codes and card notations are taken out; an English phrase the translators themselves wrote
into that language's catalogue (NIST SP, …) is allowed. In English, no Chinese character
(outside the language menu, where each language is named in its own script).

A pattern the walk cannot fill or reach is listed in UNWALKED with the reason; a new pattern
whose arguments the walk does not know fails `test_every_pattern_is_walked_or_listed` until it
is taught here. New untranslated strings fail the language test: translate them (zh_Hans, then
scripts/zh_hant.py).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import polib
import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import models
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.engine.bidding import PASS_CALLS
from games.engine.cards import PASS_WORDS
from games.models import Board, Game
from tests.api_world import build_api_world
from tests.factories import EventFactory, PlayerFactory, bot_record, online_event
from tests.paths import ROOT_DIR
from tournaments.events import round_states, rounds, stages
from tournaments.links import tokens
from tournaments.models import (
    Club,
    Entry,
    Event,
    EventRole,
    Registration,
    RegistrationStatus,
    Role,
    Round,
    Series,
    Stage,
    Table,
    TableAssignment,
)
from tournaments.models import Player as PlayerModel
from tournaments.online import play as online_play
from tournaments.tables.review import game_resolve
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

LANGUAGES = ("en", "zh-hans", "zh-hant")
CATALOGUES = {"zh-hans": "zh_Hans", "zh-hant": "zh_Hant"}

# URL names (or namespace prefixes ending in ":") the walk does not check, and why.
UNWALKED = {
    "api:": "the JSON API: answers, not pages (tests/api checks their messages' language); its "
    "docs pages are drf-spectacular's Swagger and ReDoc for programmers",
    "league-api:": "JSON answers of the league's API",
    "ratings:api_list": "JSON",
    "ratings:api_history": "JSON",
    "public:archive": "JSON: an archive event's records",
    "healthz": "the monitors' probe (plain text)",
    "admin:jsi18n": "JavaScript of the admin's own catalogue",
    "admin:view_on_site": "a redirect to the object's public page, walked itself",
    "admin:autocomplete": "JSON for the admin's select boxes",
    "admin:unnamed": "the admin's redirects of an object's bare address to its change page "
    "(walked) and its 404 for unknown addresses",
    "admin:*_simple_history": "a historical version's form (its two ids unnamed); the change "
    "form it repeats is walked",
    "set_language": "a POST door (GET only redirects to the page walked already)",
}
# Walked for their answers, their language not checked: Django's admin, the administrators' tool,
# speaks its packages' catalogues, incomplete in Chinese (Django 5.2's zh_Hans lacks "Add link"
# and "Model name"; django-axes and django-rest-knox have no Chinese, django-simple-history no
# zh_Hant).
LANGUAGE_UNCHECKED = ("/admin/",)
# Pages whose refusal is the page to check: a check-in code scanned once the round is under way
# answers 409 with the reason.
REFUSALS = {"registration:checkin_scan": 409}
# Pages that answer an error today whatever the language: the walk expects the error, and fails
# once the page answers, so that it is walked from then on.
KNOWN_BROKEN: dict[str, str] = {}


@dataclass
class Walk:
    """The world, its private links and the persona clients, for one language."""

    event: Event  # in play: a stage, a round of three tables, games verified and flagged
    round: Round
    stage: Stage
    games: list[Game]  # of the event in play: verified, flagged, ruled
    player: PlayerModel  # seated at table 1 of the event in play, with her private link
    cup: Event  # a club's series event: played, published, rated
    club: Club
    series: Series
    rated: PlayerModel
    table_token: str
    seat_token: str
    player_token: str
    users: dict[str, User]
    clients: dict[str, Client] = field(default_factory=dict)
    online: Event | None = None  # an online event against robots, its entrant on board 1


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


def _game(walk_event: Event, table: Table, board: Board, user: User, *, flag: bool) -> Game:
    """A bot game entered by `user` and verified; with `flag`, the declared score one point off
    for one seat, so verification flags it."""
    record: dict[str, Any] = bot_record(board, table)
    if flag:
        seat = next(iter(record["declared"]))
        record["declared"] = {s: v + (s == seat) for s, v in record["declared"].items()}
    game = game_submit(table=table, board=board, record=record, actor=user)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    return game


def _event_in_play(users: dict[str, User]) -> tuple[Event, Stage, Round]:
    """As an organizer builds it (tests/conftest.py's event_in_play): nine players entered, one
    stage, a round of three tables seated, three boards dealt from the committed seed, the round
    started; the chief referee, and the referee of table 1."""
    td = users["organizer"]
    event = EventFactory(name="Autumn Cup", slug="autumn-cup")
    for key, role in (("organizer", Role.ORGANIZER), ("chief", Role.CHIEF_REFEREE)):
        EventRole.objects.create(event=event, user=users[key], role=role)
    EventRole.objects.create(event=event, user=users["referee"], role=Role.REFEREE)
    for _ in range(9):
        Entry.objects.create(event=event, player=PlayerFactory())
    stage = stages.stage_create(event=event, actor=td)
    round_ = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=round_, boards=3, actor=td)
    round_states.round_start(round_=round_, actor=td)
    TableAssignment.objects.create(table=round_.tables.get(number=1), user=users["referee"])
    event.refresh_from_db()
    round_.refresh_from_db()
    return event, stage, round_


def _walk(language: str) -> Walk:
    league = build_api_world(seed=f"speaks-{language}")
    users = {
        name: User.objects.create_user(f"{name}-{language}", password="x")
        for name in ("organizer", "chief", "referee")
    }
    # The organizer of the demo is staff and superuser: /admin/ is his too.
    User.objects.filter(pk=users["organizer"].pk).update(is_staff=True, is_superuser=True)
    event, stage, round_ = _event_in_play(users)
    tables = list(round_.tables.order_by("number"))
    boards = list(event.boards.order_by("number"))
    games = [
        _game(event, tables[0], boards[0], users["referee"], flag=False),
        _game(event, tables[1], boards[0], users["chief"], flag=True),
        game_resolve(
            game_id=_game(event, tables[0], boards[1], users["referee"], flag=True).pk,
            actor=users["chief"],
            decision="accept",
            note="Scorer's slip",
        ),
    ]
    made = tokens.table_links_make(event=event, round_=round_, actor=users["organizer"])
    seated = tables[0].seats.order_by("seat").select_related("player").first()
    assert seated is not None
    # Her e-mail address and her registration (accepted): the pages of her messages and of her
    # check-in code.
    PlayerModel.objects.filter(pk=seated.player.pk).update(email="player@example.org")
    seated.player.refresh_from_db()
    Registration.objects.create(
        event=event,
        player=seated.player,
        name=seated.player.name,
        email=seated.player.email,
        status=RegistrationStatus.ACCEPTED,
    )
    player_link = tokens.player_links_make(
        event=event, players=[seated.player], actor=users["organizer"]
    )
    walk = Walk(
        event=event,
        round=round_,
        stage=stage,
        games=games,
        player=seated.player,
        cup=Event.objects.filter(series=league.series).get(),
        club=league.series.club,
        series=league.series,
        rated=league.rated,
        table_token=_token(made[0].url),
        seat_token=_token(made[0].seats[0][1]),
        player_token=_token(player_link[0].url),
        users=users,
    )
    # An online event against robots in its window: its entrant started board 1.
    walk.online, _td, (entrant,) = online_event(entrants=1, boards=1)
    online_play.online_board_start(event=walk.online, user=entrant, number=1)
    users["entrant"] = entrant
    # An error page is an answer to check like any other (a 500 is listed, not raised).
    walk.clients["public"] = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    for persona, user in users.items():
        client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(user)
        walk.clients[persona] = client
    return walk


# --- the URL patterns -------------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    name: str  # "namespace:name"
    route: str  # the route as Django prints it
    kwargs: tuple[str, ...]
    positional: bool  # unnamed regex groups: the walk cannot fill them


def _patterns(
    resolvers: list[Any] | None = None, prefix: str = "", ns: str = ""
) -> Iterator[Pattern]:
    for entry in resolvers if resolvers is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{ns}{entry.namespace}:" if entry.namespace else ns
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            regex = entry.pattern.regex
            yield Pattern(
                name=f"{ns}{entry.name or 'unnamed'}",
                route=prefix + str(entry.pattern),
                kwargs=tuple(regex.groupindex),
                positional=regex.groups > len(regex.groupindex),
            )


def _unwalked(pattern: Pattern) -> str | None:
    for key, why in UNWALKED.items():
        if key.endswith(":") and pattern.name.startswith(key):
            return why
        if "*" in key and re.fullmatch(re.escape(key).replace(r"\*", ".*"), pattern.name):
            return why
        if key == pattern.name:
            return why
    return None


def _admin_object(name: str) -> list[dict[str, Any]]:
    """The first object of the admin page's model (admin:<app>_<model>_<view>)."""
    for model in apps.get_models():
        label = f"admin:{model._meta.app_label}_{model._meta.model_name}_"
        if name.startswith(label):
            first = model._default_manager.order_by("pk").first()
            return [{"object_id": first.pk}] if first is not None else []
    raise AssertionError(f"{name}: no model of that name")


def _fill(walk: Walk, pattern: Pattern) -> list[dict[str, Any]] | None:
    """The kwargs to walk `pattern` with (several sets where the page takes a few values); None
    when the walk does not know one of its arguments."""
    event, stage, round_ = walk.event, walk.stage, walk.round
    table = round_.tables.get(number=1)
    board = event.boards.order_by("number").first()
    assert board is not None
    if pattern.name.startswith("admin:") and "object_id" in pattern.kwargs:
        return _admin_object(pattern.name)
    # The public pages of an event show the published one; the organizer's and the referees'
    # the one in play.
    public = pattern.name.startswith(("public:", "deals:")) or pattern.route.startswith("events/")
    game = walk.cup.boards.first().games.first() if public else walk.games[0]  # type: ignore[union-attr]
    by_name: dict[str, list[Any]] = {
        "slug": [walk.cup.slug if public else event.slug],
        "table_id": [table.pk],
        "pk": [game.pk],
        "player_id": [walk.rated.pk],
        "round": [round_.number],
        "action": ["close"],
        "kind": ["table"],
        "what": ["table-cards", "hand-records", "seating"],
        "series_slug": [walk.series.slug],
        "record": [walk.rated.pk],
        "id": [walk.users["organizer"].pk],
        "app_label": ["tournaments"],
        "token": [walk.player_token],
        "decision": ["approve"],
        # django-allauth's links from its e-mails: an unknown key opens its "bad link" page.
        "key": ["no-such-key"],
        "uidb36": ["0"],
        "entry_id": [Entry.objects.filter(event=event, player=walk.player).get().pk],
    }
    special: dict[str, dict[str, list[Any]]] = {
        "organizer:stage_action": {"number": [stage.number]},
        "officials:stage_referees": {"number": [stage.number]},
        "organizer:substitution_add": {"number": [round_.number]},
        "organizer:print": {"number": [round_.number]},
        "organizer:round_action": {"number": [round_.number]},
        "referee:clock": {"number": [round_.number]},
        "public:round": {"number": [1]},
        "public:hands": {"number": [1]},
        "clubs:club": {"slug": [walk.club.slug]},
        "clubs:finish": {"slug": [walk.club.slug]},
        "league:club": {"slug": [walk.club.slug]},
        "league:series": {"slug": [walk.series.slug]},
        "league:series_csv": {"slug": [walk.series.slug]},
        "league:person": {"pk": [walk.rated.pk]},
        "league:person_csv": {"pk": [walk.rated.pk]},
        "league:person_hide": {"pk": [walk.rated.pk]},
        "league:person_merge": {"pk": [walk.rated.pk]},
        "league:person_unmerge": {"pk": [walk.rated.pk]},
        "accounts:invite": {"pk": [walk.player.pk]},
        "accounts:claim": {"pk": [walk.rated.pk]},
        "registration:checkin_tap": {"number": [round_.number], "player_id": [walk.player.pk]},
    }
    registration = Registration.objects.filter(event=event, player=walk.player).first()
    if pattern.name in {"registration:status", "registration:checkin_scan"} and registration:
        special[pattern.name] = {"token": [str(registration.token)], "slug": [event.slug]}
    if pattern.name == "mail:off":
        from tournaments.core.mail import unsubscribe_token

        special[pattern.name] = {"token": [unsubscribe_token(walk.player.email)]}
    if pattern.name == "accounts:invitation":
        from tournaments.people.accounts import invitation_token

        special[pattern.name] = {
            # The player's latest invitation: mailed to the address her record carries.
            "token": [invitation_token(player=walk.player, event=event, address=walk.player.email)]
        }
    if pattern.name.startswith("online:") and walk.online is not None:
        special[pattern.name] = {"slug": [walk.online.slug], "number": [1]}
    values = {**by_name, "number": [board.number], **special.get(pattern.name, {})}
    if pattern.name.startswith("links:"):
        link = walk.table_token
        if pattern.name.startswith("links:seat"):
            link = walk.seat_token
        elif pattern.name.startswith("links:player") or pattern.name == "links:check":
            link = walk.player_token
        values["token"] = [link]
    if any(k not in values for k in pattern.kwargs):
        return None
    names = pattern.kwargs
    return [
        dict(zip(names, combo, strict=True))
        for combo in itertools.product(*(values[k] for k in names))
    ]


def _path(pattern: Pattern, kwargs: dict[str, Any]) -> str:
    route = pattern.route
    for name, value in kwargs.items():
        route = re.sub(rf"<(?:\w+:)?{name}>|\(\?P<{name}>[^)]*\)", str(value), route)
    route = route.replace("^", "").replace("$", "")
    return "/" + route


def _personas(path: str) -> list[str]:
    if "/online/boards/" in path:
        return ["entrant"]  # his own seat's device: nobody else's
    if "/online/" in path:
        return ["entrant", "organizer"]
    if path.startswith(("/organizer/", "/admin/")):
        return ["organizer"]
    if path.startswith("/referee/"):
        return ["referee", "chief"]
    if path.startswith(("/t/", "/s/", "/p/")):
        return ["public"]  # the private link is the persona: table, seat, player
    return ["public", "organizer"]


# --- the text a reader sees ------------------------------------------------------------------

SKIPPED = {"script", "style", "code", "kbd", "samp", "pre", "template"}
SHOWN_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}


class _Text(HTMLParser):
    """The visible text of a page (and the string values of its JSON scripts), the language
    menu's options apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []
        self.json: list[str] = []
        self.in_json = False
        self.in_language_menu = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "select" and values.get("name") == "language":
            self.in_language_menu = True
        if tag == "script" and values.get("type") == "application/json":
            self.in_json = True
        if tag in SKIPPED:
            self.skipping.append(tag)
        for name, value in attrs:
            if value and (name in SHOWN_ATTRIBUTES or (name == "value" and _is_button(values))):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.in_language_menu = False
        if tag == "script":
            self.in_json = False
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if self.in_json:
            self.json.append(data)
        elif not self.skipping and not self.in_language_menu:
            self.parts.append(data)


def _is_button(attributes: dict[str, str | None]) -> bool:
    return attributes.get("type") in {"submit", "button", "reset"}


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def visible_text(html: str) -> list[str]:
    """The pieces of text a reader of `html` sees, in order."""
    parser = _Text()
    parser.feed(html)
    pieces = [p for p in parser.parts if p.strip()]
    for blob in parser.json:
        try:
            pieces.extend(_strings(json.loads(blob)))
        except ValueError:
            continue
    return pieces


ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ \t\n\xa0,;:]+[A-Za-z]{2,})+")
CHINESE = re.compile(r"[\u3400-\u9fff]")
NOT_WORDS = [
    re.compile(r"https?://\S+|/[\w./?=&%-]*/\S*"),  # addresses
    re.compile(r"\S+@\S+"),  # e-mail addresses
    re.compile(r"\bR-[A-Z0-9-]+"),  # rule ids
    re.compile(r"\b[0-9TJQKABRX]{2,}\b"),  # card notations
    re.compile(r"\b[SHDC](?:[2-9TJQKA]|10)\b"),  # cards with their suits (CT, SQ, HA)
]


def _data(walk: Walk) -> list[str]:
    """The world's own words: every text value of its rows (names, notes, usernames), longest
    first. The choices' stored codes are not data: shown raw they are untranslated."""
    found: set[str] = set()
    for model in apps.get_models():
        if model._meta.app_label not in {"tournaments", "games", "auth"}:
            continue
        fields = [
            f.name
            for f in model._meta.get_fields()
            if isinstance(f, models.CharField | models.TextField) and not f.choices
        ]
        if model._meta.model_name == "auditentry" or not fields:
            continue
        for row in model._default_manager.values_list(*fields):
            found.update(v for v in row if isinstance(v, str) and len(v) > 1)
    # The notation's words a referee may type for a pass (R-NOTE), handed to the entry pages'
    # script in every language.
    found.update(w for w in (*PASS_WORDS, *PASS_CALLS) if not w.isascii())
    return sorted(found, key=len, reverse=True)


def _translators_phrases(language: str) -> set[str]:
    """English phrases the translators wrote into `language`'s catalogue on purpose."""
    path = ROOT_DIR / "ddz_site" / "locale" / CATALOGUES[language] / "LC_MESSAGES" / "django.po"
    found: set[str] = set()
    for entry in polib.pofile(str(path)):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            found.update(m.group(0) for m in ENGLISH.finditer(_placeholders_out(text)))
    return found


def _placeholders_out(text: str) -> str:
    return re.sub(r"%\(\w+\)[sdif]|\{\w*\}|<[^>]+>", " ", text)


def english_sentences(pieces: list[str], data: list[str], allowed: set[str]) -> list[str]:
    """The English phrases left in `pieces` once data, addresses and codes are out."""
    found = []
    # A datum counts where it stands whole, never as a part of a word ("pass" in "passed").
    whole = re.compile(
        "|".join(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])" for value in data) or "$^"
    )
    for piece in pieces:
        text = whole.sub(" ", piece)
        for pattern in NOT_WORDS:
            text = pattern.sub(" ", text)
        found += [m.group(0) for m in ENGLISH.finditer(text) if m.group(0) not in allowed]
    return found


# --- the walk ---------------------------------------------------------------------------------


def _pages(walk: Walk) -> Iterator[tuple[str, str, str]]:
    """(persona, path, URL name) of every page the walk fetches."""
    for pattern in _patterns():
        if _unwalked(pattern) or pattern.positional:
            continue
        fills = _fill(walk, pattern)
        assert fills is not None, f"{pattern.name} ({pattern.route}): teach the walk its kwargs"
        for kwargs in fills:
            path = _path(pattern, kwargs)
            for persona in _personas(path):
                yield persona, path, pattern.name
    # The site's own error page in the reader's language.
    yield "public", "/no-such-page/", "404"


def _check(language: str, text: list[str], data: list[str], allowed: set[str]) -> list[str]:
    if language == "en":
        return [p.strip()[:80] for p in text if p not in data and CHINESE.search(p)]
    return english_sentences(text, data, allowed)


def _walk_language(language: str) -> tuple[dict[str, list[str]], list[str], int]:
    """Walks every page in `language`: (problems by page, pages that did not answer, pages
    checked)."""
    walk = _walk(language)
    data = _data(walk)
    allowed = _translators_phrases(language) if language != "en" else set()
    problems: dict[str, list[str]] = {}
    unanswered: list[str] = []
    checked = 0
    for persona, path, name in _pages(walk):
        answer = walk.clients[persona].get(path, follow=True)
        where = f"{persona} {path}"
        if answer.status_code == 405:
            continue  # a door that takes no GET
        if answer.status_code == 403 and path.startswith("/admin/"):
            continue  # the admin's read-only models: no add, change or delete page
        if answer.status_code == 403 and persona == "referee":
            continue  # the chief referee's pages (walked as the chief)
        if name in KNOWN_BROKEN:
            if answer.status_code < 400:
                unanswered.append(f"{where} answers now: take {name} out of KNOWN_BROKEN")
            continue
        if name == "404":
            assert answer.status_code == 404
        elif answer.status_code not in {200, REFUSALS.get(name)}:
            unanswered.append(f"{where}: {answer.status_code}")
            continue
        if not answer.get("Content-Type", "").startswith("text/html"):
            continue  # CSV, JSON, JavaScript: files, not pages
        html = answer.content.decode()
        checked += 1
        if path.startswith(LANGUAGE_UNCHECKED):
            continue
        lang = re.search(r'<html lang="([^"]+)"', html)
        if lang is not None and lang.group(1) != language:
            problems.setdefault(where, []).append(f'<html lang="{lang.group(1)}">')
        found = _check(language, visible_text(html), data, allowed)
        if found:
            problems[where] = sorted(set(found))
    return problems, unanswered, checked


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_speaks_its_language(language: str) -> None:
    problems, unanswered, checked = _walk_language(language)
    assert not unanswered, "pages that did not answer:\n" + "\n".join(unanswered)
    assert not problems, "\n".join(f"{page}: {found}" for page, found in problems.items())
    assert checked > 100


def test_every_pattern_is_walked_or_listed() -> None:
    """A pattern with unnamed groups must be listed; every listed key still names a pattern."""
    patterns = list(_patterns())
    assert [p.name for p in patterns if p.positional and not _unwalked(p)] == []
    names = {p.name for p in patterns}
    stale = [
        key
        for key in UNWALKED
        if not any(
            n.startswith(key) if key.endswith(":") else re.fullmatch(key.replace("*", ".*"), n)
            for n in names
        )
    ]
    assert stale == []


def test_the_reader_sees_text_not_markup() -> None:
    html = (
        '<html lang="zh-hant"><head><style>p { color: red }</style></head><body>'
        '<select name="language"><option>English</option></select>'
        '<p title="Hello there">你好 <code>333444TJ</code></p><script>var a = "in a script";'
        '</script><script type="application/json">{"words": {"pass": "not yet translated"}}'
        '</script><input type="submit" value="Send it"></body></html>'
    )
    pieces = visible_text(html)
    assert "你好 " in pieces and "Hello there" in pieces and "Send it" in pieces
    assert "not yet translated" in pieces
    assert not any("script" in p or "color" in p or "English" in p or "TJ" in p for p in pieces)
    assert english_sentences(["Ann Lee 叫地主 at table"], ["Ann Lee"], set()) == ["at table"]
    assert english_sentences(["NIST SP 800-90A"], [], {"NIST SP"}) == []
