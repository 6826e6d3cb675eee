"""One language per page: every error a person can provoke on the site's forms, read in Chinese
(zh-hans), is in Chinese. Bad input (empty, too long, NUL and other control characters, the
wrong type, out of range, unknown choices) is sent to every form people submit: the
organizer's (event, stages and rounds, players and their import, officials and links,
referees of a stage, substitutions, and the admin's adjustments and penalties), the club's
series, the people's pages, the referee's (quick result, typed record, live entry's steps, a
ruling, the confirm queue), the private links' pages and JSON doors, and the sign-in. Each
refusal must say something, and no text of an error may hold a Latin word but the few the
site writes in any language (card ranks, seats, and the names of formats: JSON, CSV, UTF-8).
A control character is refused by the site's own rule for typed text (ddz_site.kernel.text),
never by Django's "Null characters are not allowed", whose Chinese says "empty strings".
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from operator import attrgetter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from games.engine.rules import BIDDING_SYSTEMS, OPTION_NAMES, PRESETS, SCORING_SYSTEMS
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.core.zones import real_zones
from tournaments.events import players_csv, rounds
from tournaments.league import clubs
from tournaments.links import tokens
from tournaments.models import EventRole, Role, Stage
from tournaments.tables.submission import game_submit

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = "zh-hans"

# Latin words the site writes in every language: card ranks and jokers (RULES.md, notation),
# the seats, and the names of formats.
ALLOWED_LATIN = frozenset(
    {"T", "J", "Q", "K", "A", "BJ", "RJ", "S", "E", "W", "N", "JSON", "CSV", "UTF", "NUL"}
)
# Identifiers a sentence names as they are typed (games.messages: a rule option, its choices, a
# preset, a bidding or scoring system; a column of the players file) and the time zones the
# times are shown in (the zone database's names, "Asia/Shanghai", "UTC"): never translated.
IDENTIFIERS = sorted(
    {
        *real_zones(),
        *OPTION_NAMES,
        *PRESETS,
        *BIDDING_SYSTEMS,
        *SCORING_SYSTEMS,
        *players_csv.COLUMNS,
        *players_csv.OPTIONAL,
    },
    key=len,
    reverse=True,
)
VERBATIM = re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, IDENTIFIERS))})(?![\w-])")
# A quotation (“…” or "…").
QUOTED = re.compile(r"“([^”]*)”|\"([^\"]*)\"")
LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z_]*(?:[\s'’,.:;()/-]+[A-Za-z][A-Za-z_]*)*")
# Django's Chinese for "Null characters are not allowed." (it says "empty strings").
DJANGO_NUL = "不允许是用空字符串"
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The site's word for them (ddz_site.kernel.text: "control characters").
CONTROL_SAID = "控制字符"
# The classes of an error's box: the site's, Django's forms' and the admin's.
ERROR_BOXES = frozenset({"error", "errorlist", "errornote"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"})


def latin_runs(text: str, *, typed: str = "", fields: frozenset[str] = frozenset()) -> list[str]:
    """The runs of Latin words in `text` that hold a word outside ALLOWED_LATIN. Identifiers
    (VERBATIM) are no words, nor is a quotation of what the reader `typed` or of one of the
    `fields` of a game record (the keys he types as they are)."""

    def literal(quote: re.Match[str]) -> str:
        inner = quote.group(1) if quote.group(1) is not None else quote.group(2)
        return " " if inner in fields or (inner and inner in typed) else quote.group(0)

    bare = VERBATIM.sub(" ", QUOTED.sub(literal, text))
    return [
        run
        for run in LATIN_RUN.findall(bare)
        if any(word not in ALLOWED_LATIN for word in re.findall(r"[A-Za-z]+", run))
    ]


class _ErrorBoxes(HTMLParser):
    """The texts of a page's error boxes: elements whose class names an error (the site's
    ``error``, Django's ``errorlist``), the messages included."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        if self._depth:
            self._depth += 1
        elif classes & ERROR_BOXES:
            self._depth = 1
            self.texts.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._depth and tag not in VOID:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.texts[-1] += data


def error_texts(answer: HttpResponse) -> list[str]:
    """What `answer` says is wrong: a JSON door's message and field messages, or a page's error
    boxes (the messages of a redirect followed included)."""
    if answer["Content-Type"].startswith("application/json"):
        error = answer.json().get("error") or {}
        texts = [error.get("message") or ""]
        for messages in (error.get("fields") or {}).values():
            texts += messages
        return [t for t in texts if t.strip()]
    boxes = _ErrorBoxes()
    boxes.feed(answer.content.decode())
    return [" ".join(t.split()) for t in boxes.texts if t.strip()]


@dataclass
class Site:
    """An event in play (a round of two tables, two boards, a stage), its officials (a
    referee with a Chinese user name among them), a club, a superuser, a table link, a player
    link and a stored game."""

    world: Any
    admin: User
    club: Any
    table_token: str
    player_token: str
    game: Any

    @property
    def slug(self) -> str:
        return str(self.world.event.slug)

    @property
    def table(self) -> Any:
        return self.world.tables[0]


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


@pytest.fixture
def site() -> Site:
    world = build_world(seed="one-language")
    round_ = world.tables[0].round
    stage = Stage.objects.create(event=world.event, number=1, name="预赛")
    round_.stage = stage
    round_.save(update_fields=["stage"])
    admin = User.objects.create_superuser("管理员", password="长长的管理员密码-1")
    referee = User.objects.create_user("裁判甲", password="长长的裁判密码-1")
    EventRole.objects.create(event=world.event, user=referee, role=Role.REFEREE)
    club = clubs.club_create(name="海港俱乐部", actor=admin)
    table = tokens.table_links_make(event=world.event, round_=round_, actor=admin)
    players = tokens.player_links_make(event=world.event, actor=admin)
    board = world.boards[0]
    game = game_submit(
        table=world.tables[0], board=board, record=bot_record(board, world.tables[0])
    )
    holder = world.tables[0].seats.get(seat="S").player
    return Site(
        world=world,
        admin=admin,
        club=club,
        table_token=_token(table[0].url),
        player_token=_token(next(m.url for m in players if m.player == holder)),
        game=game,
    )


def _client(site: Site, who: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=ZH)
    user = site.admin if who == "admin" else site.world.users.get(who)
    if user is not None:
        client.force_login(user)
    return client


@dataclass(frozen=True)
class Case:
    """One bad input: who sends it, where (a function of the site), what."""

    id: str
    who: str
    url: Callable[[Site], str]
    data: Any = None
    json: bool = False
    get: bool = False


Where = Callable[[Site], str]


def _organizer(name: str, *args: Any) -> Where:
    return lambda s: reverse(f"organizer:{name}", args=[s.slug, *args])


def _officials(name: str, *args: Any) -> Where:
    return lambda s: reverse(f"officials:{name}", args=[s.slug, *args])


def _referee(name: str) -> Where:
    return lambda s: reverse(f"referee:{name}", args=[s.slug, s.table.pk, 1])


def _api(name: str) -> Where:
    return lambda s: reverse(f"api:{name}", args=[s.slug, s.table.pk, 1])


def _link(name: str) -> Where:
    return lambda s: reverse(f"links:{name}", args=[s.table_token, 1])


def _clock(action: str) -> Where:
    return lambda s: reverse("referee:clock", args=[s.slug, 1, action])


def _committed(site: Site) -> str:
    """The deals page of a new event whose seed is committed, asked to check a bad seed."""
    event = rounds.event_open(actor=site.admin, name="春季赛", preset="classic")
    rounds.event_seed_commit(event=event, actor=site.admin)
    return reverse("deals:event", args=[event.slug]) + "?seed=zz"


def _merge(site: Site) -> str:
    return reverse("league:person_merge", args=[site.table.seats.get(seat="S").player.pk])


def _penalty(site: Site) -> dict[str, Any]:
    """A penalty of the event's player in seat E of table 1, of -1 points."""
    player = site.table.seats.get(seat="E").player
    return {"event": site.world.event.pk, "player": player.pk, "points": "-1", "reason": "迟到"}


def _url(name: str, *args: Callable[[Site], Any]) -> Where:
    """The address of the view `name`, its arguments read from the site."""
    return lambda s: reverse(name, args=[arg(s) for arg in args])


SLUG, TABLE, GAME = attrgetter("slug"), attrgetter("table.pk"), attrgetter("game.pk")
EVENT_NEW = _url("organizer:event_new")
SERIES_NEW = _url("clubs:club", attrgetter("club.slug"))
RULING = _url("referee:game", SLUG, GAME)
CONFIRM = _url("referee:confirm", SLUG)
CHECK = _url("links:check", attrgetter("player_token"), GAME)
SIGN_IN = _url("account_login")
DEVICE = _url("referee:device_steps", SLUG, TABLE, lambda s: 1)
ADJUSTMENT = _url("admin:tournaments_adjustment_add")
PENALTY = _url("admin:tournaments_penalty_add")

NUL = "甲\x00乙"
ESC = "甲\x1b[31m乙"
LONG = "长" * 5000
STRONG = "很长很长的密码-42"
EVENT = {"name": "春季赛", "preset": "classic", "options": "", "format": "individual"}
EVENT_M = {**EVENT, "scoring_method": "matchpoints"}
QUICK = {"landlord": "S", "bid": "1", "rockets": "0", "spring": "", "winner": "landlord"}
SUB = {"table": "1", "seat": "S", "substitute": "", "reserve_name": "替补甲"}
SERIES = {"name": "春季系列", "season": "2026", "scale": "", "best_of": "", "lot_seed": ""}
REF = {"username": "裁判乙", "role": "referee"}
STAGE = {"name": "决赛", "kind": "final"}
ADD, SUBSTITUTE = _officials("add"), _organizer("substitution_add", 1)
ORG, ADMIN, CHIEF, REFEREE, NOBODY = "organizer", "admin", "chief", "referee1", "anonymous"

CASES = [
    # The organizer: an event, its stages, rounds, boards and deal seed.
    Case("event-name-empty", ADMIN, EVENT_NEW, {**EVENT_M, "name": ""}),
    Case("event-name-nul", ADMIN, EVENT_NEW, {**EVENT_M, "name": NUL}),
    Case("event-name-esc", ADMIN, EVENT_NEW, {**EVENT_M, "name": ESC}),
    Case("event-name-long", ADMIN, EVENT_NEW, {**EVENT_M, "name": LONG}),
    Case("event-preset", ADMIN, EVENT_NEW, {**EVENT_M, "preset": "象棋"}),
    Case("event-options", ADMIN, EVENT_NEW, {**EVENT_M, "options": "炸弹=多"}),
    Case("event-option-name", ADMIN, EVENT_NEW, {**EVENT_M, "options": "bomb_cap=x"}),
    Case("event-option-value", ADMIN, EVENT_NEW, {**EVENT_M, "options": "base=多"}),
    Case("event-format", ADMIN, EVENT_NEW, {**EVENT_M, "format": "团体"}),
    Case("event-method", ADMIN, EVENT_NEW, {**EVENT, "scoring_method": "积分赛"}),
    Case("event-club", ADMIN, EVENT_NEW, {**EVENT_M, "club": "x"}),
    Case("event-series", ADMIN, EVENT_NEW, {**EVENT_M, "club": "1", "series": "9"}),
    Case("stage-name-nul", ORG, _organizer("stage_create"), {**STAGE, "name": NUL}),
    Case("stage-name-long", ORG, _organizer("stage_create"), {**STAGE, "name": LONG}),
    Case("stage-kind", ORG, _organizer("stage_create"), {**STAGE, "kind": "x"}),
    Case("stage-cut-word", ORG, _organizer("stage_create"), {**STAGE, "cut": "x"}),
    Case("stage-cut-huge", ORG, _organizer("stage_create"), {**STAGE, "cut": "9" * 30}),
    Case("stage-rounds", ORG, _organizer("stage_action", 1, "round"), {"count": "99"}),
    Case("stage-seat", ORG, _organizer("stage_action", 1, "seat"), {}),
    Case("stage-cut", ORG, _organizer("stage_action", 1, "cut"), {}),
    Case("round-deal-word", ORG, _organizer("round_action", 1, "deal"), {"boards": "x"}),
    Case("round-deal-many", ORG, _organizer("round_action", 1, "deal"), {"boards": "9999"}),
    Case("round-swiss", ORG, _organizer("round_action", 1, "swiss"), {}),
    Case("round-publish", ORG, _organizer("round_action", 1, "publish"), {}),
    Case("seed-reveal", ORG, _organizer("seed_reveal"), {}),
    Case("deals-seed", NOBODY, _committed, get=True),
    # Players and their import.
    Case("players-nul", ORG, _organizer("players"), {"text": "name\n" + NUL}),
    Case("players-header", ORG, _organizer("players"), {"text": "名字,俱乐部\n张三,海港"}),
    Case("players-long", ORG, _organizer("players"), {"text": "name,club\n" + LONG + ",甲"}),
    Case("players-confirm", ORG, _organizer("players"), {"text": "name\n\n", "confirm": "1"}),
    Case("players-twice", ORG, _organizer("players"), {"text": "name,external_id\n张三,7\n李四,7"}),
    # Officials, the referees of a stage's tables, private links.
    Case("official-empty", ORG, ADD, {**REF, "username": ""}),
    Case("official-nul", ORG, ADD, {**REF, "username": NUL}),
    Case("official-long", ORG, ADD, {**REF, "username": LONG, "password": STRONG}),
    Case("official-role", ORG, ADD, {**REF, "role": "organizer"}),
    Case("official-unknown", ORG, ADD, REF),
    Case("official-password-short", ORG, ADD, {**REF, "password": "x"}),
    Case("official-password-numeric", ORG, ADD, {**REF, "password": "20261130"}),
    Case(
        "official-password-similar",
        ORG,
        ADD,
        {**REF, "username": "裁判乙乙乙乙", "password": "裁判乙乙乙乙"},
    ),
    Case("official-username-chars", ORG, ADD, {**REF, "username": "裁判 乙", "password": STRONG}),
    Case("official-again", ORG, ADD, {**REF, "username": "裁判甲"}),
    Case("official-remove", ORG, _officials("remove", 999_999), {}),
    Case(
        "stage-referees", ORG, _officials("stage_referees", 1), {"table-1": "x", "table-2": "999"}
    ),
    Case("table-links-none", ORG, _officials("table_links"), {}),
    Case("table-links-hours", ORG, _officials("table_links"), {"round": "1", "hours": "x"}),
    Case("player-links-hours", ORG, _officials("player_links"), {"hours": "-3"}),
    Case("correction-window", ORG, _officials("correction"), {"minutes": "x"}),
    # Substitutions.
    Case("sub-table-word", ORG, SUBSTITUTE, {**SUB, "table": "x"}),
    Case("sub-table-none", ORG, SUBSTITUTE, {**SUB, "table": "99"}),
    Case("sub-seat", ORG, SUBSTITUTE, {**SUB, "seat": "北"}),
    Case("sub-reserve-nul", ORG, SUBSTITUTE, {**SUB, "reserve_name": NUL}),
    Case("sub-reserve-long", ORG, SUBSTITUTE, {**SUB, "reserve_name": LONG}),
    Case("sub-nobody", ORG, SUBSTITUTE, {**SUB, "reserve_name": ""}),
    Case("sub-boards", ORG, SUBSTITUTE, {**SUB, "first_board": "2", "last_board": "1"}),
    Case("sub-board-zero", ORG, SUBSTITUTE, {**SUB, "first_board": "0"}),
    Case("sub-reason-nul", ORG, SUBSTITUTE, {**SUB, "reason": NUL}),
    Case("sub-reason-long", ORG, SUBSTITUTE, {**SUB, "reason": LONG}),
    # The admin's adjustments and penalties.
    Case("adjustment-nul", ADMIN, ADJUSTMENT, {"table": "x", "seat": "北", "reason": NUL}),
    Case("penalty-nul", ADMIN, PENALTY, {"player": "x", "points": "x", "reason": NUL}),
    Case("penalty-esc", ADMIN, PENALTY, {"points": "-1", "reason": ESC}),
    Case("penalty-points", ADMIN, PENALTY, _penalty),
    # A club's series, a person's page.
    Case("series-name-nul", ADMIN, SERIES_NEW, {**SERIES, "name": NUL}),
    Case("series-name-long", ADMIN, SERIES_NEW, {**SERIES, "name": LONG}),
    Case("series-season-nul", ADMIN, SERIES_NEW, {**SERIES, "season": NUL}),
    Case("series-season-long", ADMIN, SERIES_NEW, {**SERIES, "season": LONG}),
    Case("series-scale", ADMIN, SERIES_NEW, {**SERIES, "scale": "十, 八"}),
    Case("series-master-scale", ADMIN, SERIES_NEW, {**SERIES, "master_scale": "10, -8"}),
    Case("series-best", ADMIN, SERIES_NEW, {**SERIES, "best_of": "x"}),
    Case("series-lot", ADMIN, SERIES_NEW, {**SERIES, "tiebreaks": ["lot"]}),
    Case(
        "series-lot-twice",
        ADMIN,
        SERIES_NEW,
        {**SERIES, "tiebreaks": ["lot", "lot"], "lot_seed": "种"},
    ),
    Case(
        "series-lot-seed-long",
        ADMIN,
        SERIES_NEW,
        {**SERIES, "tiebreaks": ["lot"], "lot_seed": LONG},
    ),
    Case("person-merge", ADMIN, _merge, {"other": "x"}),
    # The referee: the quick result, the typed record, a ruling, the confirm queue, the clock.
    Case("quick-empty", REFEREE, _referee("quick"), {"idempotency_key": "k"}),
    Case(
        "quick-words",
        REFEREE,
        _referee("quick"),
        {**QUICK, "bid": "x", "rockets": "y", "landlord": "北", "winner": "赢"},
    ),
    Case("quick-range", REFEREE, _referee("quick"), {**QUICK, "bid": "99999", "rockets": "-1"}),
    Case("quick-bombs-nul", REFEREE, _referee("quick"), {**QUICK, "bombs": "7\x00"}),
    Case("quick-bombs-long", REFEREE, _referee("quick"), {**QUICK, "bombs": "7 " * 100}),
    Case("quick-bombs-bad", REFEREE, _referee("quick"), {**QUICK, "bombs": "炸 Z"}),
    Case("quick-key", REFEREE, _referee("quick"), {**QUICK, "idempotency_key": "k" * 200}),
    Case("record-empty", REFEREE, _referee("enter"), {"record": ""}),
    Case("record-nul", REFEREE, _referee("enter"), {"record": '{"a": "\x00"}'}),
    Case("record-broken", REFEREE, _referee("enter"), {"record": '{"bidding": ['}),
    Case("record-trailing", REFEREE, _referee("enter"), {"record": "{} {}"}),
    Case("record-list", REFEREE, _referee("enter"), {"record": "[]"}),
    Case("record-deep", REFEREE, _referee("enter"), {"record": "[" * 100_000}),
    Case("record-wrong", REFEREE, _referee("enter"), {"record": '{"bidding": [["S", "9"]]}'}),
    Case("ruling-nul", CHIEF, RULING, {"action": "resolve", "decision": "reject", "note": NUL}),
    Case("ruling-empty", CHIEF, RULING, {"action": "resolve", "decision": "x", "note": ""}),
    Case("ruling-long", CHIEF, RULING, {"action": "resolve", "decision": "accept", "note": LONG}),
    Case("ruling-action", CHIEF, RULING, {"action": "x"}),
    Case("confirm-queue", CHIEF, CONFIRM, {"game": ["x", "999"]}),
    Case("clock-start", CHIEF, _clock("start"), {"minutes": "x"}),
    Case("clock-start-negative", CHIEF, _clock("start"), {"minutes": "-5"}),
    Case("clock-extra", CHIEF, _clock("extra"), {"table": "甲", "minutes": "5"}),
    Case("clock-pause", CHIEF, _clock("pause"), {}),
    # The live entry's steps typed on its page: the API's doors, the table link's, a device's.
    Case("entry-step-nul", REFEREE, _api("entry"), {"steps": [], "step": "3\x00"}, json=True),
    Case("entry-step-esc", REFEREE, _api("entry"), {"steps": [], "step": "3\x1b"}, json=True),
    Case("entry-step-long", REFEREE, _api("entry"), {"steps": [], "step": "3" * 100}, json=True),
    Case("entry-step-wrong", REFEREE, _api("entry"), {"steps": [], "step": "叫"}, json=True),
    Case("games-steps-nul", REFEREE, _api("games"), {"steps": ["1\x00"]}, json=True),
    Case("games-unfinished", REFEREE, _api("games"), {"steps": ["pass"]}, json=True),
    Case("link-step-nul", NOBODY, _link("entry"), {"steps": [], "step": "\x00"}, json=True),
    Case("link-quick", NOBODY, _link("quick"), {**QUICK, "bombs": "7\x00", "bid": "x"}),
    Case("link-games-nul", NOBODY, _link("games"), {"steps": ["\x00"]}, json=True),
    Case("device-step-nul", REFEREE, DEVICE, {"step": "3\x00", "at": 0}, json=True),
    # A player's link.
    Case("player-note-nul", NOBODY, CHECK, {"kind": "problem", "note": NUL}),
    Case("player-note-empty", NOBODY, CHECK, {"kind": "problem", "note": ""}),
    Case("player-note-long", NOBODY, CHECK, {"kind": "problem", "note": LONG}),
    Case("player-kind", NOBODY, CHECK, {"kind": "x"}),
    # Signing in.
    Case("sign-in-nul", NOBODY, SIGN_IN, {"login": NUL, "password": "x"}),
    Case("sign-in-wrong", NOBODY, SIGN_IN, {"login": "organizer-one-language", "password": "y"}),
    Case("sign-in-empty", NOBODY, SIGN_IN, {"login": "", "password": ""}),
]


def _send(site: Site, case: Case) -> tuple[HttpResponse, str]:
    """The answer to `case`, and what was typed (the address and the data sent)."""
    client = _client(site, case.who)
    url = case.url(site)
    data = case.data(site) if callable(case.data) else case.data
    typed = f"{url} {json.dumps(data, ensure_ascii=False)}"
    if case.get:
        return client.get(url), typed
    if case.json:
        answer = client.post(
            url,
            json.dumps(data),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        return answer, typed
    return client.post(url, data, follow=True), typed


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_error_of_a_form_is_in_the_readers_language(site: Site, case: Case) -> None:
    answer, typed = _send(site, case)
    said = error_texts(answer)
    assert said, (answer.status_code, answer.content.decode()[:3000])
    fields = frozenset(site.game.record)
    found = [(t, latin_runs(t, typed=typed, fields=fields)) for t in said]
    assert [(text, runs) for text, runs in found if runs] == []
    assert [text for text in said if DJANGO_NUL in text] == []
    # A control character typed is named as such, by the site's rule; the sign-in alone never
    # says which of the name and the password is wrong.
    if CONTROL.search(typed) and not case.id.startswith("sign-in"):
        assert any(CONTROL_SAID in text for text in said), said


def test_the_detector_finds_english_and_lets_cards_seats_and_formats_pass() -> None:
    assert latin_runs("This password is too short. 这个密码太常见了。") == [
        "This password is too short"
    ]
    assert latin_runs("或新候补选手: 确保 reserve 不超过 120 个字符") == ["reserve"]
    assert latin_runs("没有人持有 7 的炸弹，也没有 BJ RJ；S 座的牌里没有 T。") == []
    assert latin_runs("这不是 JSON（第 1 行）；CSV 文件须是 UTF-8 文本，不含 NUL。") == []
    # Identifiers, the reader's own words quoted and the fields of a record are no words.
    assert latin_runs("可用的选项为：all_pass, space_shuttle；预设 classic。") == []
    assert latin_runs("没有“warp”这个选项", typed="warp=1") == []
    assert latin_runs("缺少“hands”一项", fields=frozenset({"hands"})) == []
    assert latin_runs("约束 “penalty_positive” 是无效的", typed="-1") == ["penalty_positive"]
