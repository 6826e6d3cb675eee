"""A public name never passes for a robot's, nor for a name kept for the site's own online
entrants ("Wen (online)"): refused are a robot's name as any page of the site shows it, in
each of its languages (English "Robot S", Chinese pages' names), and these written with
other characters that read the same (full-width letters and brackets, other spaces: Unicode
NFKC, any case), or with Cyrillic or Greek letters among Latin ones ("Robot Е", its Е
Cyrillic). Each refusal says why and changes nothing; names in one script, of any script,
pass.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import online_event
from tournaments.models import AuditEntry, Player
from tournaments.online.entry import online_enter, public_name_set
from tournaments.people.accounts import AccountRefused

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def entrant():
    event, _organizer, _users = online_event(entrants=0, boards=1)
    user = get_user_model().objects.create_user("zoe", "zoe@example.org", "pw")
    online_enter(event=event, user=user)
    return user


def _refused(user, name: str, said: str) -> None:
    with pytest.raises(AccountRefused, match=said):
        public_name_set(user=user, name=name)
    assert Player.objects.get(user=user).name == "zoe"
    assert not AuditEntry.objects.filter(action="player.name").exists()


@pytest.mark.parametrize(
    "name",
    [
        "机器人 E",  # as the Simplified Chinese pages show the robot of E
        "機器人 S",  # as the Traditional Chinese pages show the robot of S
        "机器人E",  # the same without the space
        "Ｒｏｂｏｔ　Ｗ",  # full-width letters and space
        "ROBOT\u00a0s",  # a no-break space
    ],
)
def test_a_robots_name_in_any_language_or_form_is_refused(entrant, name: str) -> None:
    _refused(entrant, name, "name of the robots")


def test_every_robot_name_a_page_shows_is_refused(entrant) -> None:
    robot = Player(name="Robot W", robot=True)
    for language, _label in settings.LANGUAGES:
        with translation.override(language):
            shown = robot.shown_name
        _refused(entrant, shown, "name of the robots")


@pytest.mark.parametrize("name", ["Wen（online）", "Wen (online)", "Xia ( ONLINE )"])
def test_the_online_suffix_is_kept(entrant, name: str) -> None:
    _refused(entrant, name, "kept for")


@pytest.mark.parametrize(
    "name",
    [
        "Robot \u0415",  # Cyrillic capital IE
        "R\u043ebot S",  # Cyrillic small o
        "R\u03bfbot W",  # Greek small omicron
        "\u0410nn Li",  # Cyrillic A in a Latin name
    ],
)
def test_latin_mixed_with_cyrillic_or_greek_is_refused(entrant, name: str) -> None:
    _refused(entrant, name, "Cyrillic or Greek")


@pytest.mark.parametrize(
    "name", ["Zoe Chen", "李雷", "Иван Петров", "Ελένη", "Robotnik", "Wen online", "Ｚｏｅ"]
)
def test_a_name_in_one_script_passes(entrant, name: str) -> None:
    assert public_name_set(user=entrant, name=name).name == name


def test_the_account_page_says_why(entrant) -> None:
    client = Client(headers={"accept-language": "en"})
    client.force_login(entrant)
    answer = client.post(reverse("accounts:me"), {"change": "name", "name": "机器人 E"})
    assert answer.status_code == 400 and "name of the robots" in answer.content.decode()
    assert Player.objects.get(user=entrant).name == "zoe"
