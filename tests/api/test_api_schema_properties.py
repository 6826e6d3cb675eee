"""Property-based tests of the API from the OpenAPI schema it serves (schemathesis): generated
requests to every operation, with every check schemathesis has (no server error; every status,
content type, header and body the one the schema documents; bad input refused and good input
taken, or refused with a 400 where only the rules can refuse it, RULED; authentication
honoured …), sent as an organizer with a token to a live server holding a world where every
door has something to show (tests.api_world). Twice: with the path's values generated (most
requests meet a 401, 404 or a refusal), then with the world's own event, tables, boards, games,
series and rated player in the paths, so that the answers of real objects are checked too.
Deterministic and bounded: a handful of examples an operation, one worker."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken

from tests.api_world import ApiWorld, build_api_world

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_EXAMPLES = 5


# A request can be well formed and still refused by the rules, which no schema can say: a
# wrong password at the token door, steps or a game the engine refuses (R-…), a ruling the
# game's state does not allow, an idempotency key sent before with another game. Those doors
# answer 400 (422 for the key), documented; every other operation takes what its schema takes.
RULED = {
    ("POST", "/api/auth/token/"): ["400"],
    ("POST", "/api/events/{slug}/tables/{table_id}/boards/{number}/entry/"): ["400"],
    ("POST", "/api/events/{slug}/tables/{table_id}/boards/{number}/games/"): ["400", "422"],
    ("POST", "/api/games/{id}/resolve/"): ["400"],
}
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]  # schemathesis' own


def _world_parameters(world: ApiWorld) -> dict[str, dict[str, object]]:
    """The world's own values of the path parameters, by path."""
    event = world.personas.event
    tables = {
        "path.slug": event.slug,
        "path.table_id": world.personas.tables[0].pk,
        "path.number": world.personas.boards[0].number,
    }
    board = {"path.slug": event.slug, "path.number": world.personas.boards[0].number}
    person = {"path.id": world.rated.pk}
    return {
        "/api/events/{slug}/": {"path.slug": event.slug},
        "/api/events/{slug}/tables/": {"path.slug": event.slug},
        "/api/events/{slug}/flagged/": {"path.slug": event.slug},
        "/api/events/{slug}/audit/": {"path.slug": event.slug},
        "/api/events/{slug}/boards/{number}/games/": board,
        "/api/events/{slug}/tables/{table_id}/boards/{number}/entry/": tables,
        "/api/events/{slug}/tables/{table_id}/boards/{number}/games/": tables,
        "/api/games/{id}/": {"path.id": world.ruled.pk},
        "/api/games/{id}/confirm/": {"path.id": world.verified.pk},
        "/api/games/{id}/resolve/": {"path.id": world.flagged.pk},
        "/api/people/{id}/": person,
        "/api/people/{id}/ratings/": person,
        "/api/ratings/{player_id}/": {"path.player_id": world.rated.pk},
        "/api/series/{slug}/standings/": {"path.slug": world.series.slug},
    }


def _config(parameters: dict[str, dict[str, object]]) -> str:
    """schemathesis.toml: one ``[[operations]]`` table per path with `parameters` (the path's
    values) and per operation of RULED (its statuses of a well-formed request). The run fails
    on a table that names no operation and, with `parameters`, on an operation that keeps
    answering 404 (the world's values did not reach it)."""
    fail_on = ["unmatched_filter", *(["missing_test_data"] if parameters else [])]
    head = f"warnings = {_toml_value({'fail-on': fail_on})}\n"
    tables = []
    for path, values in parameters.items():
        tables.append({"include-path": path, "parameters": values})
    for (method, path), statuses in RULED.items():
        accepted = {"positive_data_acceptance": {"expected-statuses": ACCEPTED + statuses}}
        tables.append({"include-path": path, "include-method": method, "checks": accepted})
    return head + "".join(f"[[operations]]\n{_toml_pairs(table)}\n" for table in tables)


def _toml_pairs(table: dict[str, object]) -> str:
    return "".join(f"{json.dumps(key)} = {_toml_value(value)}\n" for key, value in table.items())


def _toml_value(value: object) -> str:
    """A TOML value of dicts, lists, strings and integers (TOML writes the last two as JSON)."""
    if isinstance(value, dict):
        pairs = ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items())
        return f"{{ {pairs} }}"
    if isinstance(value, list):
        return f"[{', '.join(_toml_value(v) for v in value)}]"
    return json.dumps(value)


@pytest.mark.parametrize("paths", ["generated", "world"])
def test_every_check_passes_on_every_operation(live_server, tmp_path, paths) -> None:
    world = build_api_world(seed=f"schemathesis-{paths}")
    token = AuthToken.objects.create(user=world.users["organizer"])[1]
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config(_world_parameters(world) if paths == "world" else {}))
    junit = tmp_path / "junit.xml"
    run = subprocess.run(
        [
            *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"),
            f"{live_server.url}/api/schema/",
            *("--checks", "all", "--header", f"Authorization: Token {token}"),
            *("--max-examples", str(MAX_EXAMPLES), "--generation-deterministic"),
            *("--workers", "1", "--no-color", "--report", "junit"),
            *("--report-junit-path", str(junit)),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    served = Client().get(reverse("api:schema"), {"format": "json"}).json()
    operations = {f"{m.upper()} {path}" for path, item in served["paths"].items() for m in item}
    tested = {case.get("name") for case in ElementTree.parse(junit).getroot().iter("testcase")}
    assert operations <= tested, sorted(operations - tested)
