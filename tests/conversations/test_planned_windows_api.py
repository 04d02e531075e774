"""The windows of earlier turns one submission's conversations would show the judge, bounded
(LOUPE_MAX_PLANNED_WINDOW_CHARS) through the HTTP API in both modes: past the cap a submission,
its estimate and a batch of an open evaluation answer 422 naming `test_cases` (and the windowed
metrics, where the request holds them) with what they would show and the cap, and store
nothing; within it the same conversations are taken and scored."""

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conversations.test_window_bound_api import answer
from tests.evaluations.test_batches import append
from tests.evaluations.test_endpoints import problem
from tests.evaluations.test_judged import all_results, submit
from tests.fixtures.api import Api, app_in_mode
from tests.fixtures.judge import ScriptedJudge

CAP = 50_000
SETTING = "LOUPE_MAX_PLANNED_WINDOW_CHARS"
METRICS = [{"type": "turn_faithfulness"}, {"type": "turn_contextual_relevancy"}]
EXCHANGES = 4
TURN_CHARS = 1_000


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def capped(request: pytest.FixtureRequest) -> Iterator[Api]:
    """An app whose submissions may plan CAP characters of windows."""
    judge: ScriptedJudge = request.getfixturevalue("judge_server")
    overrides: dict[str, Any] = {
        "judge_base_url": judge.base_url,
        "max_planned_window_chars": CAP,
    }
    with app_in_mode(request, "planned", **overrides) as app:
        yield app


def conversation(case_id: str) -> dict[str, Any]:
    """EXCHANGES exchanges of TURN_CHARS-character turns, every reply judged (it has a
    retrieval context)."""
    turns: list[dict[str, Any]] = []
    for _ in range(EXCHANGES):
        turns.append({"role": "user", "content": "q" * TURN_CHARS})
        turns.append(
            {
                "role": "assistant",
                "content": "a" * TURN_CHARS,
                "retrieval_context": ["The dose is 12 mg."],
            }
        )
    return {"id": case_id, "turns": turns}


def shown(number: int, role: str) -> int:
    """A turn's characters as a window shows it: its heading line, then its text."""
    return len(f"Turn {number} ({role}):\n") + TURN_CHARS


# Per metric and conversation: the reply of exchange e (turn 2e) is shown with turns 1 to 2e - 1
# (turn_contextual_relevancy's window ends at the request, turn 2e - 1, too); the default
# window_size (10 exchanges) and LOUPE_MAX_WINDOW_CHARS leave out none of them.
PER_METRIC = sum(
    shown(number, "user" if number % 2 else "assistant")
    for exchange in range(1, EXCHANGES + 1)
    for number in range(1, 2 * exchange)
)


def body(conversations: int) -> dict[str, Any]:
    return {
        "test_cases": [conversation(f"chat-{n}") for n in range(conversations)],
        "metrics": METRICS,
    }


def refused(response: httpx.Response) -> dict[str, dict[str, Any]]:
    """The 422's errors by where they are, each of the cap's type."""
    found = problem(response, 422)
    errors = {error["loc"]: error for error in found["errors"]}
    assert {error["type"] for error in errors.values()} == {"planned_window_chars"}, errors
    return errors


def assert_names_the_cap(errors: dict[str, dict[str, Any]]) -> None:
    # One conversation plans about 33,000 characters, under the cap; two pass it, so counting
    # stops at the second of three.
    assert 2 * PER_METRIC < CAP < 4 * PER_METRIC
    total = 4 * PER_METRIC
    cases = errors["test_cases"]["msg"]
    assert f"{total:,} characters of earlier turns" in cases, cases
    assert "test_cases[0] to test_cases[1] alone" in cases, cases
    assert f"at most {CAP:,} per submission ({SETTING})" in cases, cases
    assert "'turn_faithfulness' (metrics[0])" in cases, cases
    assert "'turn_contextual_relevancy' (metrics[1])" in cases, cases
    for where in ("metrics[0]", "metrics[1]"):
        said = errors[where]["msg"]
        assert f"{2 * PER_METRIC:,} characters of earlier turns" in said, said
        assert f"{total:,} with the submission's other windowed metrics" in said, said
        assert f"at most {CAP:,} per submission ({SETTING})" in said, said


class TestPastTheCap:
    def test_a_submission_is_refused_naming_its_cases_and_metrics_and_nothing_is_stored(
        self, capped: Api, judge: ScriptedJudge
    ) -> None:
        client = capped.tenant_client()
        errors = refused(client.post("/v1/evaluations", json=body(3)))
        assert list(errors) == ["test_cases", "metrics[0]", "metrics[1]"]
        assert errors["metrics[1]"]["pointer"] == "/metrics/1"
        assert_names_the_cap(errors)
        assert client.get("/v1/evaluations").json()["data"] == []
        assert judge.requests == []

    def test_its_estimate_is_refused_the_same_without_counting_tokens(self, capped: Api) -> None:
        client = capped.tenant_client()
        estimated = refused(client.post("/v1/evaluations/estimate", json=body(3)))
        submitted = refused(client.post("/v1/evaluations", json=body(3)))
        assert estimated == submitted

    def test_a_batch_of_an_open_evaluation_is_refused_naming_its_cases(
        self, capped: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        client = capped.tenant_client()
        opened = client.post("/v1/evaluations", json={**body(0), "open": True})
        assert opened.status_code == 202, opened.text
        evaluation_id = opened.json()["id"]
        # The batch's request holds no metrics: its cases alone are named.
        errors = refused(append(client, evaluation_id, body(3)["test_cases"]))
        assert list(errors) == ["test_cases"]
        assert f"{4 * PER_METRIC:,} characters of earlier turns" in errors["test_cases"]["msg"]
        assert client.get(f"/v1/evaluations/{evaluation_id}").json()["test_case_count"] == 0
        # A batch within it is taken.
        taken = append(client, evaluation_id, body(1)["test_cases"])
        assert taken.status_code == 202, taken.text
        closed = client.post(f"/v1/evaluations/{evaluation_id}/close")
        assert closed.status_code == 200, closed.text
        final = capped.wait(client, evaluation_id)
        assert final["test_case_count"] == 1 and final["result_counts"]["errored"] == 0


class TestWithinTheCap:
    def test_a_conversation_within_it_is_estimated_and_scored(
        self, capped: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        client = capped.tenant_client()
        estimated = client.post("/v1/evaluations/estimate", json=body(1))
        assert estimated.status_code == 200, estimated.text
        final = submit(capped, client, body(1))
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        assert estimated.json()["calls"] == len(judge.requests)

    def test_the_refused_body_is_taken_under_the_default_cap(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        client = api.tenant_client()
        estimated = client.post("/v1/evaluations/estimate", json=body(3))
        assert estimated.status_code == 200, estimated.text
        final = submit(api, client, body(3))
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        assert len(all_results(client, final["id"])) == 6
