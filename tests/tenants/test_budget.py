"""A tenant's daily budget (`daily_usd`): refused at submit once spent, and a running
evaluation stops calling models when it runs out (judge-model: 2 / 8 USD per million tokens,
one scripted call 0.004 USD; tests/usage/test_costs.py)."""

import math
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from app.models import UsageDay
from app.tenants import limits, repository
from app.tenants import service as tenants_service
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.usage.test_costs import GRADE, JUDGE_CALL_USD, cases, judge_reply

LOUPE = Path(sys.executable).with_name("loupe")


def budget(api: Api, name: str, usd: float | None) -> None:
    with api.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, name)
        assert tenant is not None
        limits.set_limits(session, tenant, daily_usd=usd)
        session.commit()


def submit(client, metrics: list[dict], count: int):
    return client.post("/v1/evaluations", json={"metrics": metrics, "test_cases": cases(count)})


def seconds_to_midnight() -> float:
    now = datetime.now(UTC)
    return (
        datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC) - now
    ).total_seconds()


class TestDailyBudget:
    def test_a_submission_once_the_budget_is_spent_is_refused_until_raised(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_reply)
        name = f"budget-{api.mode}-{os.urandom(3).hex()}"
        key = api.new_key(name)
        budget(api, name, 2.5 * JUDGE_CALL_USD)
        with api.client(key) as client, api.tenant_client() as other:
            # Three calls start at once with nothing spent yet: all three are made.
            first = submit(client, [{"type": "llm_accuracy"}], 3)
            assert first.status_code == 202, first.text
            done = api.wait(client, first.json()["id"])
            assert done["cost_usd"] == pytest.approx(3 * JUDGE_CALL_USD, abs=1e-12)

            refused = submit(client, [{"type": "llm_accuracy"}], 1)
            assert refused.status_code == 429, refused.text
            assert refused.headers["content-type"].startswith("application/problem+json")
            problem = refused.json()
            assert problem["status"] == 429
            assert "daily_usd is 0.01 USD and 0.012000 USD was spent today" in problem["detail"]
            # Named in errors[] too, with what was spent and the limit.
            assert problem["errors"] == [
                {
                    "loc": "tenant.daily_usd",
                    "pointer": "/tenant/daily_usd",
                    "msg": "0.012000 USD was spent today (UTC); the daily budget is 0.01 USD",
                    "type": "tenant_limit_exceeded",
                }
            ]
            retry = int(refused.headers["retry-after"])
            assert 1 <= retry <= 86400
            assert abs(retry - seconds_to_midnight()) < 120
            # Other tenants are not held back.
            elsewhere = submit(other, [{"type": "llm_accuracy"}], 1)
            assert elsewhere.status_code == 202
            assert api.wait(other, elsewhere.json()["id"])["status"] == "completed"

            budget(api, name, 1.0)
            again = submit(client, [{"type": "exact_match"}], 1)
            assert again.status_code == 202
            assert api.wait(client, again.json()["id"])["status"] == "completed"

    def test_deleting_what_spent_it_gives_nothing_back(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # The calls were made and billed: deleting their evaluation keeps them in the
        # tenant's usage and in what today's budget counts as spent.
        judge.script(judge_reply)
        name = f"deleted-{api.mode}-{os.urandom(3).hex()}"
        key = api.new_key(name)
        budget(api, name, 2.5 * JUDGE_CALL_USD)
        with api.client(key) as client:
            first = submit(client, [{"type": "llm_accuracy"}], 3)
            assert first.status_code == 202, first.text
            assert api.wait(client, first.json()["id"])["status"] == "completed"
            before = client.get("/v1/usage").json()
            assert before["judge"]["calls"] == 3
            assert client.delete(f"/v1/evaluations/{first.json()['id']}").status_code == 204
            after = client.get("/v1/usage").json()
            assert after == before
            refused = submit(client, [{"type": "llm_accuracy"}], 1)
            assert refused.status_code == 429, refused.text
            assert "0.012000 USD was spent today" in refused.json()["detail"]
        # They go with their tenant.
        with api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, name)
            assert tenant is not None
            tenant_id = tenant.id
            assert session.scalars(select(UsageDay).where(UsageDay.tenant_id == tenant_id)).all()
            tenants_service.delete_tenant(session, tenant)
            session.commit()
            assert not session.scalars(
                select(UsageDay).where(UsageDay.tenant_id == tenant_id)
            ).all()

    def test_a_budget_spent_mid_evaluation_stops_its_calls_and_it_finishes(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_reply)
        name = f"midway-{api.mode}-{os.urandom(3).hex()}"
        key = api.new_key(name)
        budget(api, name, 1.5 * JUDGE_CALL_USD)
        # More than the job's LOUPE_WORKER_CONCURRENCY (256) items in flight: the rest wait.
        count = 400
        with api.client(key) as client:
            submitted = submit(client, [{"type": "llm_accuracy"}], count)
            assert submitted.status_code == 202, submitted.text
            final = api.wait(client, submitted.json()["id"], timeout=120)
            assert final["status"] == "completed"
            assert final["result_counts"]["pending"] == 0
            results = []
            url = f"/v1/evaluations/{final['id']}/results"
            params: dict = {"limit": 100}
            while True:
                page = client.get(url, params=params).json()
                results += page["data"]
                if not page["has_more"]:
                    break
                params["after"] = page["last_id"]
            assert len(results) == count
            stopped = [r for r in results if r["error"] and r["error"]["type"] == "budget_exceeded"]
            made = [r for r in results if r["usage"]["calls"]]
            assert len(stopped) + len(made) == count
            # 256 items could start at once, but each in flight counts against the budget at
            # what it is expected to cost (the estimate's, until one is priced): items are let
            # in only while that leaves room, so the last passes it by about one call.
            per_item = client.post(
                "/v1/evaluations/estimate",
                json={"metrics": [{"type": "llm_accuracy"}], "test_cases": cases(1)},
            ).json()["usd"]
            assert per_item > 0
            limit = 1.5 * JUDGE_CALL_USD
            # (The scripted judge bills more tokens than the estimate counts in its prompt.)
            assert len(made) <= math.ceil(limit / min(per_item, JUDGE_CALL_USD)) + 1
            for result in stopped:
                assert result["usage"]["calls"] == 0 and result["cost_usd"] == 0.0
                assert "daily budget" in result["error"]["message"]
            # Nothing spent is lost: every call made is stored and priced.
            assert final["usage"]["calls"] == len(made) == len(judge.calls_for("llm_accuracy"))
            assert final["cost_usd"] == pytest.approx(len(made) * JUDGE_CALL_USD, abs=1e-12)
            assert submit(client, [{"type": "llm_accuracy"}], 1).status_code == 429

    def test_items_waiting_on_calls_in_flight_are_not_refused_with_the_budget_unspent(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Each call bills far less than the estimate expects: 10 prompt tokens, 5 completion.
        judge.script(lambda request: Reply(content=GRADE, prompt_tokens=10, completion_tokens=5))
        call_usd = (10 * 2 + 5 * 8) / 1e6
        name = f"in-flight-{api.mode}-{os.urandom(3).hex()}"
        key = api.new_key(name)
        count = 20
        with api.client(key) as client:
            per_item = client.post(
                "/v1/evaluations/estimate",
                json={"metrics": [{"type": "llm_accuracy"}], "test_cases": cases(1)},
            ).json()["usd"]
            # Room for two items at the estimate's cost, and for every item at the real one.
            limit = 2.5 * per_item
            assert count * call_usd < limit
            budget(api, name, limit)
            submitted = submit(client, [{"type": "llm_accuracy"}], count)
            assert submitted.status_code == 202, submitted.text
            final = api.wait(client, submitted.json()["id"], timeout=120)
            # The items past the first two wait for those in flight, whose cost then leaves
            # room: none is refused while the budget is unspent.
            assert final["result_counts"]["errored"] == 0, final["result_counts"]
            assert final["usage"]["calls"] == count == len(judge.calls_for("llm_accuracy"))
            assert final["cost_usd"] == pytest.approx(count * call_usd, abs=1e-12)

    def test_one_call_at_a_time_stops_exactly_at_the_budget(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_reply)
        with side_app(tmp_path, judge_base_url=judge.base_url, worker_concurrency=1) as app:
            key = app.new_key("sequential")
            budget(app, "sequential", 2.5 * JUDGE_CALL_USD)
            with app.client(key) as client:
                submitted = submit(client, [{"type": "llm_accuracy"}, {"type": "exact_match"}], 6)
                final = app.wait(client, submitted.json()["id"])
                assert final["status"] == "completed"
                # Calls 1-3 are made (0.004, 0.008 < 0.01 before each); then none.
                assert final["usage"]["calls"] == 3
                assert final["per_metric"][0]["errored"] == 3
                # A metric that calls no model still scores every case.
                assert final["per_metric"][1]["errored"] == 0
                assert final["per_metric"][1]["pending"] == 0


class TestCli:
    def test_sets_shows_and_clears_the_daily_budget(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
        env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/loupe.db"

        def loupe(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [str(LOUPE), *args], env=env, cwd=tmp_path, capture_output=True, text=True
            )

        assert loupe("keys", "create", "--create-tenant", "--tenant", "acme").returncode == 0
        set_it = loupe("tenants", "limits", "--tenant", "acme", "--daily-usd", "50")
        assert set_it.returncode == 0, set_it.stderr
        assert "daily_usd=50" in set_it.stdout
        both = loupe("tenants", "limits", "--tenant", "acme", "--max-active-evaluations", "3")
        assert "max_active_evaluations=3 daily_usd=50" in both.stdout
        cleared = loupe("tenants", "limits", "--tenant", "acme", "--daily-usd", "0")
        assert "daily_usd=none" in cleared.stdout and "max_active_evaluations=3" in cleared.stdout
        # Read as an infinity or NaN, it was stored: no budget at all, or one never reached.
        for number in ("1e400", "inf", "nan"):
            refused = loupe("tenants", "limits", "--tenant", "acme", "--daily-usd", number)
            assert refused.returncode == 2, (number, refused.stdout)
            assert "--daily-usd" in refused.stderr and "not a finite number" in refused.stderr
        shown = loupe("tenants", "limits", "--tenant", "acme")
        assert "daily_usd=none" in shown.stdout, shown.stdout
