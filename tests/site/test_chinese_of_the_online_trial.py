"""The Simplified Chinese a new user of the online robot duplicate reads is one voice and one
set of words: 你 throughout, never 您 (the site's own strings and the account mails and pages
of django-allauth it sends); the scorecard is 记分卡 everywhere (its title and its CSV link); a
trick is 墩 ("第 1 墩"), 轮 staying the round's; the sign-up confirmation mail and page read
as Chinese ("你好！这里是复式斗地主。", "请确认你的电子邮件地址", "验证你的电子邮件地址"),
not "来自复式斗地主的 Hello!" nor "Email"; and a seat the robot took over is said of the
seat, not of "his" seat.

Found by a new-user trial of the online robot duplicate.
"""

from __future__ import annotations

import re
from datetime import timedelta

import polib
import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tests.paths import ROOT_DIR
from tournaments.models import OutgoingMail, Player
from tournaments.online.close import CLOSED, online_window_close

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

HANS = ROOT_DIR / "ddz_site" / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
ADDRESS = "xia.newcomer@example.org"
STRONG = "a-strong-password-42"


def _visible(page: str) -> str:
    """The page's text without its styles and scripts."""
    return re.sub(r"<(style|script)\b.*?</\1>", "", page, flags=re.S)


def test_the_catalogue_says_ni_and_jifenka_and_dun() -> None:
    entries = [e for e in polib.pofile(str(HANS)) if not e.obsolete]
    texts = {e.msgid: e.msgstr for e in entries}
    assert not [m for m, s in texts.items() if "您" in s]
    assert not [m for m, s in texts.items() if "计分卡" in s]
    assert texts["Scorecard"] == "记分卡" and "记分卡" in texts["Scorecard as CSV"]
    assert texts["Trick %(number)s"] == "第 %(number)s 墩"
    assert "轮" not in texts["Current trick"]
    assert "轮" in texts["Round %(number)s"]


def test_the_online_pages_say_ni_and_the_scorecard_is_jifenka() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    game = online_board_play(event, ann, 1)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(ann)
    online = client.get(reverse("online:home", args=[event.slug])).content.decode()
    assert "你" in online and "您" not in _visible(online)
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    me = Player.objects.get(user=ann)
    card = client.get(reverse("public:scorecard", args=[event.slug, me.pk])).content.decode()
    assert "记分卡" in re.search(r"<h1>(.*?)</h1>", card).group(1)
    assert "记分卡（CSV）" in card and "计分卡" not in card
    page = _visible(client.get(reverse("public:game", args=[game.pk])).content.decode())
    assert "第 1 墩" in page and "第 1 轮" not in page


def test_the_sign_up_mail_and_page_read_as_chinese() -> None:
    visitor = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    answer = visitor.post(
        reverse("account_signup"), {"email": ADDRESS, "password1": STRONG, "password2": STRONG}
    )
    assert answer.status_code == 302
    mail = OutgoingMail.objects.get(to=ADDRESS)
    assert mail.subject == "请确认你的电子邮件地址"
    assert mail.body.startswith("你好！这里是复式斗地主。")
    for foreign in ("Hello", "您", "Email"):
        assert foreign not in mail.body and foreign not in mail.subject, foreign
    link = re.search(r"https?://[^\s/]+(/accounts/confirm-email/\S*)", mail.body)
    assert link, mail.body
    sent = _visible(visitor.get(answer["Location"]).content.decode())
    assert "<h1>验证你的电子邮件地址</h1>" in sent
    assert "您" not in sent and "Email" not in sent
    confirm = _visible(visitor.get(link.group(1)).content.decode())
    assert "<h1>确认电子邮件地址</h1>" in confirm and "您" not in confirm
    assert re.search(r'<form[^>]*action="/accounts/confirm-email/', confirm)


def test_a_seat_taken_over_is_said_of_the_seat() -> None:
    from tournaments.web.devices import _take_over_text

    for why in ("left", "timeout"):
        text = _take_over_text(why, "Carol", 7)
        assert " his " not in text and "that seat from move 7" in text
