"""The phone-first entry pages, without a browser.

- Every engine error carries a stable code and its parameters (games.engine.errors.ERROR_CODES);
  the Django layer (games.steps) has a sentence for each code in English and in Simplified
  Chinese, so a refusal, a stored error and a claim read wholly in the referee's language.
- The round clock (tournaments.events.clock) shows on the live entry page and on the pages a table's
  private link opens.
- The quick result's errors stand under their own field; after a submission the game page
  offers the next board.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

import games.engine
from games import messages, quick_result
from games import steps as entry_steps
from games.engine import ERROR_CODES, EngineError, RuleSet
from games.engine.play import GameState
from tests.entry_personas import build_world
from tests.factories import bot_record
from tests.games.test_steps import deal
from tournaments.events import clock
from tournaments.links import tokens
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

# Rule ids (R-CMP, R-BID-AUCTION) and card notation (TJQKA, BR) are allowed in a Chinese
# sentence; any other run of two or more ASCII letters is an English word.
RULE_ID = re.compile(r"R-[A-Z0-9]+(?:-[A-Z0-9]+)*")
CARDS = re.compile(r"(?<![A-Za-z])[3-9TJQKA2BR]+(?![A-Za-z])")
WORD = re.compile(r"[A-Za-z]{2,}")
HAN = re.compile(r"[\u4e00-\u9fff]")


def english_words(text: str) -> list[str]:
    return WORD.findall(CARDS.sub(" ", RULE_ID.sub(" ", text)))


# One example value per parameter name of ERROR_CODES (texts, numbers, lists, score maps).
SAMPLES: dict[str, object] = {
    "text": "33x?",
    "position": 4,
    "char": "?",
    "over": ["3×5"],
    "seats": ["S", "E", "W"],
    "given": ["S", "E"],
    "seat": "E",
    "n": 16,
    "size": 17,
    "extra": ["3×1"],
    "missing": ["4×1"],
    "card": "H7a",
    "call": "rob",
    "expected": "S",
    "allowed": ["pass", "2", "3"],
    "landlord": "N",
    "bid": 7,
    "marked": "S",
    "partner": "N",
    "cards": "55",
    "joker": "B",
    "winner": "W",
    "hand": "33456",
    "reading": "trio_with_solo",
    "readings": ["airplane_with_solos"],
    "owner": "S",
    "last": "44",
    "kind": "claim",
    "decks": 1,
    "max": 20,
    "side": "landlord",
    "budget": 50000,
    "declared": {"S": 2, "E": -1, "W": -1},
    "score": {"S": 4, "E": -2, "W": -2},
    "field": "hands",
    "digits": 4300,
    "option": "base",
    "options": ["all_pass", "base"],
    "value": "NaN",
    "low": 1,
    "high": 1000,
    "choices": ["zero", "redeal"],
    "preset": "classic",
    "presets": ["classic", "rob"],
    "bidding": "call",
    "scoring": "two_player",
}
# Parameters a sentence names as typed (a record's field, a rule option, its value, a preset,
# a bidding or scoring system): identifiers, not words to translate.
VERBATIM = (
    "field",
    "option",
    "options",
    "value",
    "choices",
    "preset",
    "presets",
    "bidding",
    "scoring",
)


def test_the_samples_cover_every_parameter() -> None:
    names = {name for params in ERROR_CODES.values() for name in params}
    assert names <= set(SAMPLES)


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_every_engine_error_code_has_a_sentence_in_english_and_in_chinese(code: str) -> None:
    params = {name: SAMPLES[name] for name in ERROR_CODES[code]}
    assert code in messages.ENGINE_SENTENCES, f"{code} has no sentence in games.steps"
    with translation.override("en"):
        english = messages.error_message(code, params)
    with translation.override("zh-hans"):
        chinese = messages.error_message(code, params)
    assert english and not HAN.search(english)
    assert HAN.search(chinese) and chinese != english
    for name in set(VERBATIM) & set(params):
        for value in SAMPLES[name] if isinstance(SAMPLES[name], list) else [SAMPLES[name]]:
            chinese = chinese.replace(str(value), " ")
    chinese = chinese.replace("JSON", " ")  # the format's name, as every Chinese page writes it
    assert not english_words(chinese), f"{code}: {chinese}"


def test_every_code_the_engine_raises_is_registered() -> None:
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in Path(games.engine.__file__).parent.glob("*.py")
    )
    families = "|".join(sorted({code.split(".")[0] for code in ERROR_CODES}))
    used = set(re.findall(rf'"((?:{families})\.[a-z_]+)"', source))
    assert used and used <= set(ERROR_CODES)
    assert set(ERROR_CODES) <= used  # no code left unused


def test_engine_errors_carry_their_code_and_parameters() -> None:
    # test_entry's deal: S is landlord at 3 and leads 4; E holds no 4 but 55 beats it.
    rules = RuleSet.from_spec("classic")
    d = deal()
    state = GameState.start(rules, dict(d.hands), d.bottom, "S")
    state = state.apply("S", "4")
    with pytest.raises(EngineError) as caught:
        state.apply("E", "BR4")  # not a combination (R-KICK: a rocket takes no kicker)
    assert caught.value.code.startswith("combo.") and caught.value.params["cards"] == "4BR"
    with pytest.raises(EngineError) as caught:
        state.apply("E", "3")  # E holds no 3 (R-VERIFY)
    assert caught.value.code == "play.not_held"
    assert caught.value.params == {"seat": "E", "cards": "3", "hand": d.hands["E"]}
    state = state.apply("E", "5")
    with pytest.raises(EngineError) as caught:
        state.apply("W", "4")  # R-CMP: 4 does not beat E's 5
    assert caught.value.code == "play.does_not_beat"
    assert caught.value.params == {"seat": "W", "cards": "4", "owner": "E", "last": "5"}
    assert caught.value.to_dict()["code"] == "play.does_not_beat"


@pytest.mark.parametrize(
    "steps, step, words",
    [
        (["1", "2", "p", "3"], "p", "必须出牌"),  # R-LEAD
        (["1", "2", "p", "3"], "BR", "没有"),  # R-VERIFY
        (["1", "2", "p", "3"], "3456", "顺子"),  # R-T6: a chain of solos needs five
        (["1", "2", "p", "3", "4"], "4", "管不住"),  # R-CMP
        (["1"], "1", "可以"),  # R-BID-AUCTION: allowed calls, in Chinese
        (["1", "2", "p", "3"], "3z", "第 2 个字符"),  # R-NOTE
        (["1", "2", "p", "3"], "4@bomb", "不能"),  # R-AMBIG
    ],
)
def test_a_refusal_reads_wholly_in_chinese(steps, step, words) -> None:
    position = entry_steps.rebuild(deal(), steps)
    with translation.override("zh-hans"), pytest.raises(entry_steps.EntryError) as caught:
        entry_steps.apply_step(position, step)
    message = caught.value.message
    assert words in message and HAN.search(message), message
    assert not english_words(message), message
    assert caught.value.error_code in ERROR_CODES


def test_a_claim_not_proven_reads_in_chinese_on_the_entry_page() -> None:
    # S, landlord with 20 cards, claims at once: the farmers' 17 cards each can beat him.
    position = entry_steps.rebuild(deal(), ["1", "2", "p", "3", "claim"])
    with translation.override("zh-hans"):
        result = entry_steps.view(position)["result"]
    assert result["status"] == "flagged" and result["error"]["code"].startswith("claim.")
    text = result["error"]["text"]
    assert HAN.search(text) and not english_words(text), text
    assert HAN.search(result["status_label"])


@pytest.mark.django_db
def test_a_stored_error_reads_in_chinese_on_the_game_page() -> None:
    world = build_world(seed="phone-stored", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    record["plays"][0][1] = "pass"  # R-LEAD: the landlord leads and may not pass
    game = game_submit(table=table, board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "illegal" and game.error["code"] == "play.must_lead"
    client = Client()
    client.force_login(world.users["referee1"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    html = client.get(reverse("referee:game", args=[world.event.slug, game.pk])).content.decode()
    box = re.search(r'<div class="error" id="engine-error">(.*?)</div>', html, re.S)
    assert box, "the stored error box"
    text = unescape(re.sub(r"<[^>]+>", " ", box.group(1)))
    assert "必须出牌" in text and not english_words(text), text


@pytest.mark.parametrize("code", sorted(messages.QUICK_SENTENCES))
def test_every_quick_result_refusal_has_a_sentence_in_english_and_in_chinese(code: str) -> None:
    params = {
        "seats": ["S", "E", "W"],
        "bid": "7",
        "seat": "S",
        "rank": "9",
        "n": 1,
        "low": 1,
        "high": 3,
    }
    with translation.override("en"):
        english = messages.error_message(code, params)
    with translation.override("zh-hans"):
        chinese = messages.error_message(code, params)
    assert english and HAN.search(chinese) and not english_words(chinese), (code, chinese)


@pytest.mark.django_db
def test_a_stored_quick_result_error_reads_in_chinese() -> None:
    world = build_world(seed="phone-quick-stored", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    d = entry_steps.EntryDeal.from_board(board)
    hands = {s: d.hands[s] for s in d.rules.seats}
    no_bomb = next(r for r in "3456789TJQKA2" if all(h.count(r) < 4 for h in hands.values()))
    quick = quick_result.QuickResult(landlord="S", bid=1, winner="landlord")
    record = quick_result.quick_record(d, quick, record_id="R1-B1-T1")
    record["quick"]["bombs"] = [no_bomb]  # a bomb no hand holds (R-T11), written in afterwards
    game = game_submit(table=table, board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "illegal" and game.error["code"] == "quick.no_bomb"
    with translation.override("zh-hans"):
        text = messages.stored_error_message(game.error, status=game.status, record=game.record)
    assert no_bomb in text and "炸弹" in text and not english_words(text), text


# --- the round clock on the referee's entry pages ----------------------------------------------


def _clock_of(html: str) -> dict[str, object]:
    found = re.search(r'class="round-clock" data-clock="([^"]*)"', html)
    assert found, "no round clock on the page"
    return json.loads(unescape(found.group(1)))


@pytest.mark.django_db
def test_the_live_entry_page_and_the_table_link_pages_show_the_round_clock() -> None:
    world = build_world(seed="phone-clock", tables=2, boards=2)
    table, board = world.tables[0], world.boards[0]
    round_ = table.round
    clock.clock_start(round_=round_, minutes=45, actor=world.users["chief"], at=timezone.now())
    clock.clock_extra_time(table=table, minutes=5, actor=world.users["chief"])
    referee = Client()
    referee.force_login(world.users["referee1"])
    live = reverse("referee:live", args=[world.event.slug, table.pk, board.number])
    html = referee.get(live).content.decode()
    data = _clock_of(html)
    assert data["minutes"] == 45 and data["state"] == "running" and data["tables"] == {"1": 5}
    assert f'data-table="{table.number}"' in html  # this table's own time, with its 5 minutes
    made = tokens.table_links_make(event=world.event, round_=round_, actor=world.users["organizer"])
    url = next(m.url for m in made if m.table == table.number)
    token = url.rstrip("/").rsplit("/", 1)[-1]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    anyone = Client()
    for page in (
        url,
        reverse("links:live", args=[token, board.number]),
        reverse("links:quick", args=[token, board.number]),
        reverse("links:game", args=[token, game.pk]),
    ):
        response = anyone.get(page)
        assert response.status_code == 200, page
        assert _clock_of(response.content.decode())["minutes"] == 45, page


# --- the quick result's errors, the next board -------------------------------------------------


@pytest.mark.django_db
def test_a_quick_result_error_stands_under_its_own_field() -> None:
    world = build_world(seed="phone-quick", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    hands = {s: "".join(sorted(c)) for s, c in board.hands.items()}
    no_bomb = next(r for r in "3456789TJQKA2" if all(h.count(r) < 4 for h in hands.values()))
    client = Client()
    client.force_login(world.users["referee1"])
    url = reverse("referee:quick", args=[world.event.slug, table.pk, board.number])
    response = client.post(
        url,
        {"landlord": "S", "bid": "3", "winner": "landlord", "bombs": no_bomb, "rockets": "0"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    bombs = html.index('name="bombs"')
    error = html.index('id="id_bombs_error"')
    rockets = html.index('for="id_rockets"')
    assert bombs < error < rockets, "the bombs' error stands under the bombs' field"
    assert 'aria-describedby="id_bombs_error"' in html
    assert 'id="form-errors"' not in html


@pytest.mark.django_db
def test_after_a_submission_the_game_page_offers_the_next_board() -> None:
    world = build_world(seed="phone-next", tables=1, boards=2)
    table, first, second = world.tables[0], world.boards[0], world.boards[1]
    game = game_submit(table=table, board=first, record=bot_record(first, table))
    client = Client()
    client.force_login(world.users["referee1"])
    html = client.get(reverse("referee:game", args=[world.event.slug, game.pk])).content.decode()
    nxt = reverse("referee:live", args=[world.event.slug, table.pk, second.number])
    assert re.search(rf'<a href="{re.escape(nxt)}"[^>]*id="next-board"', html)
    last = game_submit(table=table, board=second, record=bot_record(second, table))
    html = client.get(reverse("referee:game", args=[world.event.slug, last.pk])).content.decode()
    assert 'id="next-board"' not in html  # the last board of the round
