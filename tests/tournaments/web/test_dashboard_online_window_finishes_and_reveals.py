"""While the window of an online robot duplicate is open its dashboard offers neither "Finish
the event" nor "Reveal the seed": its rounds cannot be closed by hand, and the window's close
closes them, reveals the seed and finishes the event. Each button is disabled with that reason,
the finish one pointing to "End the window now"; posted all the same, each is refused and
nothing changes. An ordinary event's seed is still revealed once its rounds are closed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import dashboard_page, online_board_play, online_event, signed_in_client
from tournaments.models import Event, EventStatus
from tournaments.online.close import online_window_end_now

pytestmark = pytest.mark.django_db


def _button(page: str, words: str) -> str:
    """The opening tag of the button that reads `words`."""
    found = re.search(r"<button[^>]*>" + re.escape(words) + "</button>", page)
    assert found is not None, words
    return found.group(0)


def test_finish_is_disabled_with_the_windows_close_and_end_the_window_now() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=2)
    online_board_play(event, ann, 1)
    page = dashboard_page(event, td)
    assert "disabled" in _button(page, "Finish the event")
    reason = page[page.index('id="finish-refusal"') :].split("</span>")[0]
    assert "window" in reason and "End the window now" in reason
    assert "publish every round first" not in page


def test_reveal_the_seed_is_disabled_with_the_reason_while_the_window_is_open() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=2)
    online_board_play(event, ann, 1)
    page = dashboard_page(event, td)
    button = _button(page, "Reveal the seed")
    assert "disabled" in button and 'aria-describedby="reveal-refusal"' in button
    reason = page[page.index('id="reveal-refusal"') :].split("</span>")[0]
    assert "window" in reason and "close" in reason


def test_finish_and_reveal_posted_during_the_window_are_refused_and_change_nothing() -> None:
    event, td, _entrants = online_event(entrants=1, boards=1)
    client = signed_in_client(td)
    for name in ("prizes:event_finish", "organizer:seed_reveal"):
        answer = client.post(reverse(name, args=[event.slug]), follow=True)
        levels = [m.level_tag for m in answer.context["messages"]]
        assert levels == ["error"], name
    stored = Event.objects.get(pk=event.pk)
    assert stored.status != EventStatus.FINISHED and not stored.seed_revealed


def test_after_the_close_the_event_is_finished_and_its_seed_shown() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    online_window_end_now(event=event, actor=td)
    page = dashboard_page(event, td)
    assert 'id="event-reopen"' in page and 'id="finish-refusal"' not in page
    assert "Seed revealed:" in page and 'id="reveal-refusal"' not in page
