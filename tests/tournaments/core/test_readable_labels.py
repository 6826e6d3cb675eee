"""Internal names read as people's words, in English and in Chinese: every audit action
the code records has a label in both, the dashboard's change log names objects rather than
ids, and the series form's tie-breaks and the event page's rules preset are named in the
reader's language.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tests.paths import ROOT_DIR
from tournaments.models import EventRole, Role

pytestmark = pytest.mark.django_db

ROOT = ROOT_DIR


def _organizer(event):
    user = get_user_model().objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return user


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
                # Both branches of a conditional, never what its test compares with.
                branches = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
                constants = [
                    n.value for b in branches for n in ast.walk(b) if isinstance(n, ast.Constant)
                ]
                found |= {c for c in constants if isinstance(c, str)}
    return found


def _zh(client: Client) -> Client:
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    return client


def _tiebreak_labels(page: str) -> list[str]:
    import re

    return re.findall(r'name="tiebreaks" value="[^"]*"[^>]*>\s*([^<]*?)\s*</label>', page)


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


def test_the_audit_log_names_objects_not_ids(client, event_in_play) -> None:
    event, round_, users = event_in_play
    client.force_login(users["td"])
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    audit = dash[dash.index('id="audit"') :]
    assert "round started · Round 1<" in audit
    assert "stage added · Stage 1: Qualifying stage<" in audit
    assert f"round {round_.pk}<" not in audit.replace("Round", "")


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
    [
        ("classic", "经典"),
        # Its options change the game: they are named, as typed.
        (
            {"preset": "rob", "options": {"spring_multiplier": 2}},
            "抢地主；选项：spring_multiplier=2",
        ),
    ],
)
def test_the_event_page_names_its_rules_preset_in_chinese(rules, expected) -> None:
    import re

    event = EventFactory(rules=rules)
    page = _zh(Client()).get(reverse("public:event", args=[event.slug])).content.decode()
    shown = re.search(r"规则: *([^<\n]*)", page)
    assert shown and shown.group(1).strip() == expected
