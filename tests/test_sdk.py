"""The Python SDK that openapi-python-client makes from the served spec drives an evaluation."""

import importlib
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.fixtures.api import TERMINAL, Api

SDK_CONFIG = Path(__file__).resolve().parent.parent / "sdk" / "config.yml"
PACKAGE = "loupe_client"


@dataclass
class Sdk:
    """The generated package's pieces a client program uses."""

    package: ModuleType
    models: ModuleType
    create_evaluation: ModuleType
    get_evaluation: ModuleType
    list_evaluation_results: ModuleType

    def client(self, api: Api, key: str) -> Any:
        return self.package.AuthenticatedClient(
            base_url=api.base_url,
            token=key,
            timeout=httpx.Timeout(30),
            raise_on_unexpected_status=True,
            httpx_args={"trust_env": False},
        )


def _forget_package() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@pytest.fixture(scope="session")
def sdk(api: Api, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sdk]:
    """`loupe_client`, generated as `make sdk` does from the spec `api` serves, and imported."""
    workdir = tmp_path_factory.mktemp(f"sdk-{api.mode}")
    spec = workdir / "openapi.json"
    with httpx.Client(base_url=api.base_url, trust_env=False, timeout=30) as http:
        response = http.get("/openapi.json")
    assert response.status_code == 200, response.text
    spec.write_bytes(response.content)

    project = workdir / "loupe-client"
    generated = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(project),
            "--meta",
            "setup",
            "--config",
            str(SDK_CONFIG),
            # A schema the generator cannot express is a warning; for us it is a failure.
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr

    _forget_package()
    sys.path.insert(0, str(project))
    try:
        yield Sdk(
            package=importlib.import_module(PACKAGE),
            models=importlib.import_module(f"{PACKAGE}.models"),
            create_evaluation=importlib.import_module(
                f"{PACKAGE}.api.evaluations.create_evaluation"
            ),
            get_evaluation=importlib.import_module(f"{PACKAGE}.api.evaluations.get_evaluation"),
            list_evaluation_results=importlib.import_module(
                f"{PACKAGE}.api.evaluations.list_evaluation_results"
            ),
        )
    finally:
        sys.path.remove(str(project))
        _forget_package()


class TestGeneratedClient:
    def test_submit_and_poll_to_completion(self, api: Api, sdk: Sdk) -> None:
        models = sdk.models
        payload = models.EvaluationCreate(
            name="sdk smoke",
            test_cases=[
                models.TestCaseCreate(input_="2+2?", actual_output="4", expected_output="4"),
                models.TestCaseCreate(
                    id="capital",
                    input_="capital of France?",
                    actual_output=[models.TextPart(type_="text", text="Lyon")],
                    expected_output="Paris",
                ),
            ],
            metrics=[models.ExactMatchSpec(type_="exact_match")],
        )
        with sdk.client(api, api.new_key()) as client:
            response = sdk.create_evaluation.sync_detailed(client=client, body=payload)
            assert response.status_code == 202, response.content
            created = response.parsed
            assert isinstance(created, models.Evaluation)
            assert response.headers["location"] == f"/v1/evaluations/{created.id}"
            assert created.status == models.EvaluationStatus.QUEUED
            assert created.result_counts.total == 2 and created.result_counts.pending == 2

            deadline = time.monotonic() + 60
            while True:
                api.run_queue()
                current = sdk.get_evaluation.sync(evaluation_id=created.id, client=client)
                assert isinstance(current, models.Evaluation), current
                if current.status in TERMINAL:
                    break
                assert time.monotonic() < deadline, f"evaluation still {current.status}"
                time.sleep(0.05)

            assert current.status == models.EvaluationStatus.COMPLETED
            assert current.result_counts.to_dict() == {
                "total": 2,
                "passed": 1,
                "failed": 1,
                "errored": 0,
                "pending": 0,
            }
            [summary] = current.per_metric
            assert (summary.metric, summary.mean_score, summary.pass_rate) == (
                "exact_match",
                0.5,
                0.5,
            )
            assert current.completed_at is not None and current.completed_at >= current.created_at

            page = sdk.list_evaluation_results.sync(evaluation_id=created.id, client=client)
            assert isinstance(page, models.EvaluationResultList)
            assert [(r.test_case_id, r.passed) for r in page.data] == [
                ("0", True),
                ("capital", False),
            ]
            assert page.has_more is False

    def test_problems_parse_as_problem(self, api: Api, sdk: Sdk) -> None:
        with sdk.client(api, api.new_key()) as client:
            missing = sdk.get_evaluation.sync(evaluation_id="eval_missing", client=client)
            assert isinstance(missing, sdk.models.Problem)
            assert missing.status == 404

            invalid = sdk.create_evaluation.sync(
                client=client,
                body=sdk.models.EvaluationCreate(
                    test_cases=[sdk.models.TestCaseCreate(input_="q", actual_output="a")],
                    metrics=[sdk.models.ExactMatchSpec(type_="exact_match")],
                ),
            )
            assert isinstance(invalid, sdk.models.Problem)
            assert invalid.status == 422
            assert [e.loc for e in invalid.errors] == ["test_cases[0].expected_output"]
