"""Property-based tests of the API from its own OpenAPI schema (schemathesis, in-process WSGI):
generated requests to every operation, anonymous and as an organizer with a token, never get a
server error. Path parameters are generated too, so most requests meet a 401, 404 or a
validation error: the property is that nothing generated reaches a 500."""

from __future__ import annotations

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from knox.models import AuthToken
from schemathesis.checks import not_a_server_error

from ddz_site.wsgi import application
from tests.factories import duplicate_round
from tournaments.models import EventRole, Role

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

pytestmark = [pytest.mark.slow]


@pytest.fixture
def wsgi_in_test_transaction():
    # Django closes the connection at the end of each WSGI request; inside a test transaction
    # that would end the test's connection, so (as Django's test client does) not here.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def organizer_token(db, wsgi_in_test_transaction) -> str:
    event, _round, _tables, _boards = duplicate_round(tables=2, boards=2, seed="schemathesis")
    user = User.objects.create_user("schema-organizer", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return AuthToken.objects.create(user=user)[1]


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_server_error(case, organizer_token) -> None:
    case.call_and_validate(checks=[not_a_server_error])
    case.call_and_validate(
        headers={"Authorization": f"Token {organizer_token}"}, checks=[not_a_server_error]
    )
