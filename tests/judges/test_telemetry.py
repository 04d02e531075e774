"""Each judge request is counted once under the outcome that ended it."""

import asyncio
from typing import Any

import pytest
from prometheus_client import REGISTRY

from app.judges import JudgeClient, JudgeError
from app.judges._telemetry import OTHER, EndpointMeter, LabelBudget
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint
from tests.fixtures.services import free_port


def count(outcome: str, model: str = "judge-model", role: str = "candidate") -> float:
    labels = {"role": role, "host": "127.0.0.1", "model": model, "outcome": outcome}
    return REGISTRY.get_sample_value("loupe_provider_requests_total", labels) or 0.0


def generate(judge_endpoint: Any) -> None:
    async def go() -> None:
        client = JudgeClient(judge_endpoint)
        try:
            await client.generate([{"role": "user", "content": "hi"}])
        finally:
            await client.close()

    asyncio.run(go())


class TestOutcomes:
    def test_unreachable(self, judge: ScriptedJudge) -> None:
        before = count("unreachable")
        closed = f"http://127.0.0.1:{free_port()}/v1"
        with pytest.raises(JudgeError):
            generate(endpoint(judge, base_url=closed, role="candidate"))
        assert count("unreachable") - before == 3

    def test_timeout(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(content="late", delay=1.0))
        before = count("timeout")
        with pytest.raises(JudgeError):
            generate(endpoint(judge, timeout_seconds=0.2, role="candidate"))
        assert count("timeout") - before == 3

    def test_refused_then_malformed_then_ok(self, judge: ScriptedJudge) -> None:
        before = {name: count(name) for name in ("refused", "malformed", "ok")}
        judge.sequence(Reply(status=401, content="bad key"))
        with pytest.raises(JudgeError):
            generate(endpoint(judge, role="candidate"))
        judge.sequence(Reply(raw_body=b"<html>not a completion</html>"))
        with pytest.raises(JudgeError):
            generate(endpoint(judge, role="candidate"))
        judge.sequence(Reply(content="an answer"))
        generate(endpoint(judge, role="candidate"))
        grown = {name: count(name) - before[name] for name in before}
        assert grown == {"refused": 1, "malformed": 1, "ok": 1}


class TestLabelBudget:
    def test_model_names_are_bounded_per_host(self) -> None:
        budget = LabelBudget(max_hosts=4, max_models=3)
        names = [budget.labels("a.example", f"model-{i}") for i in range(5)]
        assert names == [("a.example", f"model-{i}") for i in range(3)] + [("a.example", OTHER)] * 2
        assert budget.labels("a.example", "model-0") == ("a.example", "model-0")
        # Another host has a budget of its own.
        assert budget.labels("b.example", "model-4") == ("b.example", "model-4")

    def test_hosts_are_bounded(self) -> None:
        budget = LabelBudget(max_hosts=2, max_models=3)
        assert budget.labels("a.example", "m") == ("a.example", "m")
        assert budget.labels("b.example", "m") == ("b.example", "m")
        assert budget.labels("c.example", "m") == (OTHER, OTHER)
        assert budget.labels("a.example", "n") == ("a.example", "n")

    def test_meters_of_one_host_share_it(self) -> None:
        budget = LabelBudget(max_hosts=2, max_models=2)
        known = frozenset(f"model-{i}" for i in range(3))
        meters = [
            EndpointMeter("judge", f"http://judge.example/v{i}", budget, labelled_models=known)
            for i in range(3)
        ]
        labels = [meter._labels(f"model-{i}") for i, meter in enumerate(meters)]
        assert labels[-1] == ("judge", "judge.example", OTHER)
        assert meters[0].host == "judge.example"

    def test_a_name_the_operator_did_not_configure_is_other(self) -> None:
        meter = EndpointMeter(
            "judge", "http://judge.example/v1", LabelBudget(), labelled_models=frozenset({"m"})
        )
        assert meter._labels("m") == ("judge", "judge.example", "m")
        assert meter._labels("a-tenants-secret-name") == ("judge", "judge.example", OTHER)
