"""The OpenAPI schema, the interactive docs, and a bounded schema-driven fuzz of the API."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import signals
from django.db import close_old_connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_schema_is_openapi_3_and_lists_the_record_endpoints(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/records/"])
    assert "/api/v1/records/{id}/" in paths
    assert "/api/v1/records/{id}/download/" in paths
    upload = paths["/api/v1/records/"]["post"]
    assert {"application/json", "multipart/form-data"} <= set(upload["requestBody"]["content"])
    assert {"201", "200", "400", "401", "413", "415", "429"} <= set(upload["responses"])
    params = {p["name"] for p in paths["/api/v1/records/"]["get"]["parameters"]}
    assert {"player", "event", "date_from", "date_to", "status", "players", "page"} <= params


def test_schema_generates_without_warnings() -> None:
    from django.core.management import call_command

    # --fail-on-warn: an undocumented view or an ambiguous type fails here, not in a client.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", os.devnull)


def test_docs_page_serves_its_assets_locally(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "cdn." not in html and "https://" not in html.split("<body")[0]
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    asset = anon_client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert asset.status_code == 200


# --- Schemathesis: every operation, bounded examples, no server errors --------------------------


@pytest.fixture
def in_process_wsgi() -> Iterator[None]:
    """Call the WSGI app directly inside the test's transaction.

    Django closes database connections at the end of every request; the test client turns that off,
    and so must a direct WSGI call, or the test's own connection is closed under it.
    """
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_token(db: None) -> str:
    user = User.objects.create_user(username="fuzzer", password="a-long-test-password")
    return Token.objects.create(user=user).key


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_schema_fuzz_finds_no_server_errors(
    in_process_wsgi: None,
    fuzz_token: str,
    make_record: Any,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
) -> None:
    """Every operation, valid and invalid inputs, a bounded number of examples each."""
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle
    from schemathesis import GenerationMode

    from fivehundred.wsgi import application
    from replays.services import record_ingest

    # The fuzzer sends far more requests than a person; throttling would only hide responses.
    for throttle in (AnonRateThrottle, UserRateThrottle, ScopedRateThrottle):
        monkeypatch.setattr(throttle, "allow_request", lambda self, request, view: True)
    record_ingest(data=make_record(4, "fuzz-1", name="Fuzz night", date="2026-11-01"))

    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8
    failures: list[str] = []
    checked = 0

    def fuzz(operation: Any) -> None:
        @settings(
            max_examples=12,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
            database=None,
            derandomize=True,
        )
        @given(case=operation.as_strategy(generation_mode=GenerationMode(mode)))
        def check(case: Any) -> None:
            nonlocal checked
            checked += 1
            response = case.call(headers={"Authorization": f"Token {fuzz_token}"})
            where = f"{operation.method.upper()} {operation.path}"
            if response.status_code >= 500:
                failures.append(f"{where}: {response.status_code}")
            elif response.status_code >= 400:
                # Every API error is JSON in the one shape.
                assert "errors" in response.json(), f"{where}: {response.text}"

        check()

    fuzzed = 0
    for operation in operations:
        has_input = any(True for _ in operation.iter_parameters()) or bool(operation.body)
        if mode == "negative" and not has_input:
            continue  # nothing to make invalid
        fuzz(operation)
        fuzzed += 1

    assert fuzzed >= 4 and checked >= fuzzed
    assert failures == []
