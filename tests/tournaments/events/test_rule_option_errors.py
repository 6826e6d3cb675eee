"""Rule options refused when an event is opened are said in the reader's language, from the
engine's error code and parameters, without Python reprs; a control character in a value is
never echoed.
"""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def staff(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("doors-staff", password="x", is_staff=True)


def _event_error(staff, options: str, headers=None) -> str:
    client = Client(**(headers or {}))
    client.force_login(staff)
    answer = client.post(
        "/organizer/events/new/", {"name": "Options", "preset": "classic", "options": options}
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    return html.split('id="event-error"', 1)[1].split(">", 1)[1].split("</", 1)[0]


@pytest.mark.parametrize(
    ("options", "english", "chinese"),
    [
        (
            "base=NaN",
            "The rule option base is a whole number, not “NaN”.",
            "规则选项 base 应为整数，不能是“NaN”。",
        ),
        (
            "base=1.5",
            "The rule option base is a whole number, not “1.5”.",
            "规则选项 base 应为整数，不能是“1.5”。",
        ),
        (
            "nonsense=1",
            "There is no rule option “nonsense”; the options are: all_pass,",
            "没有“nonsense”这个规则选项；可用的选项为：all_pass,",
        ),
        (
            "all_pass=maybe",
            "The rule option all_pass is one of zero, redeal, not “maybe”.",
            "规则选项 all_pass 应为 zero, redeal 之一，不能是“maybe”。",
        ),
    ],
)
def test_rule_option_errors_are_said_in_the_readers_language(
    staff, options, english, chinese
) -> None:
    assert english in _event_error(staff, options)
    zh = _event_error(staff, options, ZH)
    assert chinese in zh and "option" not in zh and "must" not in zh


def test_a_control_character_in_an_option_value_is_never_echoed(staff) -> None:
    from games.engine import RuleSet
    from games.engine.errors import RulesError

    with pytest.raises(RulesError) as caught:
        RuleSet.from_spec({"preset": "classic", "options": {"base": "\x00\n"}})
    assert caught.value.code == "rules.option_whole"
    value = caught.value.params["value"]
    assert value and all(c.isprintable() for c in value)
    message = _event_error(staff, "base=1\x002")
    assert message == "The rule option base is a whole number, not “1\ufffd2”."
