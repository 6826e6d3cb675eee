"""Defects a user trial of the demo found (not in a browser): the status board of imported
games, the labels of tie-breaks, audit actions and rule presets, the entry pages' crumbs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, Status
from tests.factories import EventFactory
from tournaments.archive.records import records_import
from tournaments.models import EventRole, Role
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent / "data"


def _organizer(event):
    user = get_user_model().objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return user


# --- 4. the status board of an event of imported games ---------------------------------------


def test_the_status_board_shows_the_boards_of_imported_games() -> None:
    lines = (DATA / "rlcard_rule_agents.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    again = json.dumps({**json.loads(lines[0]), "id": "the-first-deal-played-again"})
    event = EventFactory(rules=None)
    report = records_import(event=event, lines=[*lines, again])
    assert report.stored == 3
    for game in Game.objects.all():
        game_verify(game_id=game.pk)
    assert Game.objects.filter(status=Status.VERIFIED).count() == 3
    td = _organizer(event)

    # The first deal was played at tables 1 and 2, the second at table 1: three verified cells.
    api = APIClient()
    api.force_authenticate(td)
    rows = api.get(reverse("api:tables", args=[event.slug])).json()
    cells = {row["number"]: [(c["board"], c["state"]) for c in row["cells"]] for row in rows}
    assert cells == {1: [(1, "verified"), (2, "verified")], 2: [(1, "verified")]}

    client = Client()
    client.force_login(td)
    page = client.get(reverse("referee:status", args=[event.slug])).content.decode()
    assert "verified: 3" in page
    assert page.count('data-state="verified"') == 3


# --- 2. internal names read as people's words, in both languages -----------------------------

ROOT = Path(__file__).resolve().parent.parent


def _recorded_actions() -> set[str]:
    """Every action name the code gives audit_record: the literal ones, both of a conditional,
    and the f-strings of round transitions and admin changes expanded."""
    import ast

    from tournaments.events.round_states import TRANSITIONS

    found: set[str] = set()
    for path in [*(ROOT / "games").rglob("*.py"), *(ROOT / "tournaments").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name != "audit_record":
                continue
            for keyword in node.keywords:
                if keyword.arg != "action":
                    continue
                value = keyword.value
                if isinstance(value, ast.JoinedStr):
                    text = ast.unparse(value)
                    if "round." in text:
                        found |= {f"round.{t}" for t in TRANSITIONS}
                    elif "admin." in text:
                        found |= {f"admin.{a}" for a in ("add", "change", "delete")}
                    else:
                        raise AssertionError(f"an action this test cannot expand: {text}")
                    continue
                constants = [n.value for n in ast.walk(value) if isinstance(n, ast.Constant)]
                found |= {c for c in constants if isinstance(c, str)}
    return found


def test_every_recorded_audit_action_has_a_label_in_english_and_chinese() -> None:
    from django.utils import translation

    from tournaments.templatetags.ddz_public import audit_action

    actions = _recorded_actions()
    assert {"game.edit", "game.submit", "substitution.remove", "round.publish"} <= actions
    for action in sorted(actions):
        with translation.override("en"):
            english = audit_action(action)
        with translation.override("zh-hans"):
            chinese = audit_action(action)
        assert english != action, f"{action} has no label"
        assert chinese != english and not chinese.isascii(), f"{action} is not translated"


def _zh(client: Client) -> Client:
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    return client


def test_the_dashboard_change_log_reads_in_chinese_without_raw_action_names() -> None:
    from tournaments.core.audit import audit_record

    event = EventFactory()
    td = _organizer(event)
    audit_record(event=event, actor=td, action="round.publish")
    # A substitution removed: its row is gone, its round and table are in the entry.
    entry = audit_record(
        event=event,
        actor=td,
        action="substitution.remove",
        changes={"round": 2, "table": 3, "seat": "E", "player": "Ann"},
    )
    entry.object_type, entry.object_id = "substitution", "1"
    entry.save()
    client = _zh(Client())
    client.force_login(td)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    log = page[page.index('id="audit"') :]
    assert "substitution.remove" not in log and "round.publish" not in log
    assert "substitution 1" not in log
    assert "撤销替补" in log and "第 2 轮第 3 桌" in log  # substitution removed; round 2, table 3
    assert "公布轮次成绩" in log  # round published


def _tiebreak_labels(page: str) -> list[str]:
    import re

    return re.findall(r'name="tiebreaks" value="[^"]*"[^>]*>\s*([^<]*?)\s*</label>', page)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["best single event", "head-to-head", "lot"]),
        ("zh-hans", ["最佳单场成绩", "直接交锋", "抽签"]),
    ],
)
def test_the_series_form_names_the_tie_breaks_in_the_readers_language(language, expected):
    from django.conf import settings

    from tournaments.league import clubs

    staff = get_user_model().objects.create_user("club-staff", password="x", is_staff=True)
    club = clubs.club_create(name="North Club", actor=staff)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(staff)
    page = client.get(reverse("clubs:club", args=[club.slug])).content.decode()
    assert _tiebreak_labels(page) == expected


@pytest.mark.parametrize(
    ("rules", "expected"),
    [("classic", "经典"), ({"preset": "rob", "options": {"spring_multiplier": 2}}, "抢地主")],
)
def test_the_event_page_names_its_rules_preset_in_chinese(rules, expected) -> None:
    import re

    event = EventFactory(rules=rules)
    page = _zh(Client()).get(reverse("public:event", args=[event.slug])).content.decode()
    shown = re.search(r"规则: *([^<\n]*)", page)
    assert shown and shown.group(1).strip() == expected


# --- 3. the entry pages' crumbs end with the page's own name ---------------------------------


def _crumbs_and_switch(page: str) -> tuple[str, list[str]]:
    """The text of the page's crumbs, and the texts of the links outside them to the other
    entry mode (the switch)."""
    import re

    nav = re.search(r'<nav class="crumbs">(.*?)</nav>', page, re.S)
    assert nav, "the page has no crumbs"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", nav.group(1))).strip()
    rest = page[nav.end() :]
    switches = re.findall(r'<a [^>]*class="switch"[^>]*>([^<]*)</a>', rest)
    return text, switches


def test_the_entry_pages_crumbs_end_with_their_own_name_and_the_other_mode_is_a_switch():
    from tests.entry_personas import build_world
    from tournaments.links import tokens

    world = build_world(seed="crumbs", tables=1, boards=1)
    event, table = world.event, world.tables[0]
    made = tokens.table_links_make(event=event, round_=table.round, actor=world.users["organizer"])
    token = made[0].url.strip("/").split("/")[-1]
    referee = Client()
    referee.force_login(world.users["referee1"])
    anyone = Client()
    pages = {
        "referee live": referee.get(reverse("referee:live", args=[event.slug, table.pk, 1])),
        "referee quick": referee.get(reverse("referee:quick", args=[event.slug, table.pk, 1])),
        "link live": anyone.get(reverse("links:live", args=[token, 1])),
        "link quick": anyone.get(reverse("links:quick", args=[token, 1])),
    }
    shown = {}
    for name, response in pages.items():
        assert response.status_code == 200, name
        shown[name] = _crumbs_and_switch(response.content.decode())
    where = f"{event.name} · Table 1"
    assert shown == {
        "referee live": (f"Referee: {event.name} · Live entry", ["Switch to quick result"]),
        "referee quick": (f"Referee: {event.name} · Quick result", ["Switch to live entry"]),
        "link live": (f"{where} · Live entry", ["Switch to quick result"]),
        "link quick": (f"{where} · Quick result", ["Switch to live entry"]),
    }


def test_the_status_boards_counts_name_the_submitted_state_in_chinese() -> None:
    import re

    event = EventFactory()
    td = _organizer(event)
    client = _zh(Client())
    client.force_login(td)
    page = client.get(reverse("referee:status", args=[event.slug])).content.decode()
    counts = re.search(r'<p id="status-counts">(.*?)</p>', page, re.S)
    assert counts
    text = re.sub(r"<[^>]+>", "", counts.group(1))
    # "submitted" is the state (waiting for the engine), not the time of submission.
    assert "已提交: 0" in text and "提交时间" not in text
