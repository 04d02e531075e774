"""Schemathesis over the live API: no request answers 5xx, and every response is as documented.

The four phases run in one bounded, seeded pass against the app served by uvicorn on loopback
(embedded mode, one tenant's key): examples (the request examples in the spec), coverage
(boundary and invalid values per keyword), fuzzing (generated requests) and stateful (chains
that follow the spec's links, so operations needing an existing id get one). Its figures are
printed (operations reached, cases, failures); docs/fuzzing.md records a run's.
"""

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from schemathesis.engine import events, from_schema

from tests.fixtures.api import Api, served_api, sqlite_settings
from tests.fixtures.judge import ScriptedJudge

# JSON Lines bodies (POST /v1/labels/import, documented as binary): sent as raw bytes.
schemathesis.serializer.alias("application/x-ndjson", "application/octet-stream")

SEED = 23
# Per operation in the fuzzing phase; the stateful phase runs STATEFUL_SCENARIOS chains of up to
# STATEFUL_STEPS calls. Coverage's fixed set grows with the schema (every metric spec in the
# unions of evaluations, runs, estimates and online rules: about 37,700 cases after issue 30);
# the generated phases were cut from 25 examples and 200 chains, and coverage skips three
# operations that share their twins' checks (COVERED_BY_TWIN).
MAX_EXAMPLES = 15
STATEFUL_SCENARIOS = 150
STATEFUL_STEPS = 10
COVERED_BY_TWIN = (
    "POST /v1/evaluations/estimate",
    "POST /v1/runs/estimate",
    "PATCH /v1/online_rules/{rule_id}",
)
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)

# Any http(s) URL off loopback: Loupe would resolve or fetch it (images, models, webhooks),
# and tests stay on 127.0.0.0/8. Cases holding one are not sent. A URL with an `@` anywhere
# after it could name another host behind loopback-looking credentials.
_OFF_LOOPBACK_URL = re.compile(r"(?i)https?:(?!//(127\.0\.0\.1|localhost)[:/])|https?:.*@")


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, bytes | bytearray):
        yield bytes(value).decode("latin-1")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)
    elif hasattr(value, "data"):  # schemathesis' Binary
        yield from _texts(value.data)


def stays_on_loopback(context: Any, case: schemathesis.Case) -> bool:
    """False for a case naming a URL off loopback anywhere in its request."""
    parts = (case.body, case.query, case.path_parameters, case.headers, case.cookies)
    return not any(_OFF_LOOPBACK_URL.search(text) for part in parts for text in _texts(part))


_KEYS = itertools.count()


def fresh_idempotency_key(context: Any, headers: dict[str, Any] | None) -> dict[str, Any] | None:
    """A well-formed `Idempotency-Key` made unique per case: the generator repeats a few short
    values, and each repeat on another route or body is a 422 (a reuse) that would keep the
    creating operations from ever answering 2xx. Malformed keys are sent as generated.
    (Replays and reuses are tested in tests/test_idempotency_everywhere.py.)"""
    for name, value in list((headers or {}).items()):
        if name.lower() == "idempotency-key" and isinstance(value, str) and 0 < len(value) <= 200:
            headers[name] = f"{value[:40]}-{next(_KEYS)}"  # type: ignore[index]
    return headers


@dataclass
class Figures:
    """What one run did: responses per operation and status, cases, failures, engine errors."""

    operations: list[str]
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    cases: int = 0
    failures: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)

    def record(self, scenario: events.ScenarioFinished) -> None:
        recorder = scenario.recorder
        self.cases += len(recorder.cases)
        for case_id, node in recorder.cases.items():
            interaction = recorder.interactions.get(case_id)
            if interaction is not None and interaction.response is not None:
                self.statuses[node.value.operation.label][interaction.response.status_code] += 1
        for case_id, checks in recorder.checks.items():
            for check in checks:
                if check.status.value == "success" or check.failure_info is None:
                    continue
                case = recorder.cases[case_id].value
                interaction = recorder.interactions.get(case_id)
                response = interaction.response if interaction is not None else None
                answer = "" if response is None else f" -> {response.status_code} {response.text!r}"
                self.failures[case.operation.label].append(
                    f"{check.name}: {check.failure_info.failure.title}\n"
                    f"  {case.as_curl_command()}{answer[:2000]}"
                )

    @property
    def reached(self) -> list[str]:
        """Operations that answered 2xx at least once: with a real id where they take one."""
        return [
            label for label in self.operations if any(200 <= s < 300 for s in self.statuses[label])
        ]

    def summary(self) -> str:
        failed = sum(len(found) for found in self.failures.values())
        unreached = sorted(set(self.operations) - set(self.reached))
        return (
            f"schemathesis {schemathesis.__version__} (seed {SEED}, {MAX_EXAMPLES} examples, "
            f"{STATEFUL_SCENARIOS} stateful scenarios): "
            f"{len(self.reached)} of {len(self.operations)} operations reached with a 2xx, "
            f"{sum(1 for label in self.operations if self.statuses[label])} called, "
            f"{self.cases} cases, {failed} failures, {len(self.errors)} errors"
            + (f"; not reached: {', '.join(unreached)}" if unreached else "")
        )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, judge_server: ScriptedJudge) -> Iterator[Api]:
    directory = tmp_path_factory.mktemp("fuzzed")
    settings = sqlite_settings(directory, judge_base_url=judge_server.base_url)
    with served_api(settings) as app:
        yield app


def fuzz(app: Api) -> Figures:
    """Run every phase once over `app` and gather its figures."""
    config = schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "headers": {"Authorization": f"Bearer {app.new_key()}"},
            "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
            "phases": {
                "examples": {"enabled": True},
                "coverage": {"enabled": True},
                "fuzzing": {"enabled": True},
                # Only the spec's links: inferred ones would spend the chains on guesses.
                "stateful": {
                    "enabled": True,
                    "generation": {"max-examples": STATEFUL_SCENARIOS},
                    "max-steps": STATEFUL_STEPS,
                    "inference": {"algorithms": []},
                },
            },
            # Coverage's fixed set is about 5,800 cases for each operation whose body holds the
            # metric union; these three read theirs through the same checks as their twins
            # (POST /v1/evaluations, POST /v1/runs, POST /v1/online_rules), so their boundary
            # cases are sent once, there. Every other phase still runs on them.
            "operations": [
                {"include-name": name, "phases": {"coverage": {"enabled": False}}}
                for name in COVERED_BY_TWIN
            ],
            # Derandomized: the same cases on every run, and no example database written.
            "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
            "cache": {"enabled": False},
        }
    )
    schema = schemathesis.openapi.from_url(f"{app.base_url}/openapi.json", config=config)
    schema.hook("filter_case")(stays_on_loopback)
    schema.hook("map_headers")(fresh_idempotency_key)
    figures = Figures(operations=[operation.label for operation in _operations(schema)])
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            figures.record(event)
        elif isinstance(event, events.NonFatalError):
            figures.errors.append(f"{event.label}: {event.info.title}: {event.info.message}")
        elif isinstance(event, events.FatalError):
            raise event.exception
    return figures


def _operations(schema: Any) -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


def test_no_server_errors_and_responses_as_documented(
    served: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = fuzz(served)
    with capsys.disabled():
        print("\n" + figures.summary())
    found = "\n".join(f"{label}:\n" + "\n".join(items) for label, items in figures.failures.items())
    assert not figures.failures, f"schemathesis found:\n{found}"
    assert not figures.errors, "\n".join(figures.errors)
    assert figures.cases > 0 and all(figures.statuses[label] for label in figures.operations)


def test_the_spec_links_every_operation_that_needs_an_id() -> None:
    from app.main import create_app

    spec = create_app().openapi()
    linked = {
        link["operationId"]
        for item in spec["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
        for link in response.get("links", {}).values()
    }
    needing_an_id = {
        operation["operationId"]
        for path, item in spec["paths"].items()
        if "{" in path
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    # A blob's digest appears only inside media URLs, which no link expression can cut out.
    assert needing_an_id - linked == {"get_media"}


def test_problems_from_the_app_are_documented_on_every_route(served: Api) -> None:
    with served.tenant_client() as client:
        spec = client.get("/openapi.json").json()
        unknown_query = client.get("/v1/usage", params={"colour": "red"})
        not_json = client.post(
            "/v1/comparisons", content=b"x", headers={"Content-Type": "text/plain"}
        )
    with served.client() as anonymous:
        no_key = anonymous.delete("/v1/evaluations/eval_x")
    assert (unknown_query.status_code, not_json.status_code, no_key.status_code) == (400, 415, 401)
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if not path.startswith("/v1/"):
                continue
            statuses = operation["responses"].keys()
            assert {"400", "401"} <= statuses, f"{method} {path}: {sorted(statuses)}"
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                assert "415" in statuses, f"{method} {path}: {sorted(statuses)}"
