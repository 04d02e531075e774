"""Operator-set tenant limits, checked at submit, in both modes."""

import os
import subprocess
import sys
from pathlib import Path

from app.models import Tenant
from app.tenants import repository
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge

LOUPE = Path(sys.executable).with_name("loupe")


def body(cases: int = 2) -> dict:
    return {
        "metrics": [{"type": "llm_accuracy"}],
        "test_cases": [
            {"input": f"q{i}", "actual_output": "a", "expected_output": "a"} for i in range(cases)
        ],
    }


def limit(api: Api, name: str, active: int | None) -> None:
    with api.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, name)
        assert tenant is not None
        tenant.max_active_evaluations = active
        session.commit()


class TestMaxActiveEvaluations:
    def test_a_submission_over_the_limit_is_refused_until_one_finishes(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        name = "limited-tenant-" + api.mode
        key = api.new_key(name)
        limit(api, name, 2)
        # Held judge answers keep the first two evaluations active.
        judge.hold()
        other_key = api.new_key()
        try:
            with api.client(key) as client:
                first = client.post("/v1/evaluations", json=body()).json()
                client.post("/v1/evaluations", json=body())
                refused = client.post("/v1/evaluations", json=body())
                assert refused.status_code == 429, refused.text
                assert refused.headers["content-type"].startswith("application/problem+json")
                assert refused.headers["retry-after"] == "30"
                problem = refused.json()
                assert "max_active_evaluations is 2" in problem["detail"]
                assert problem["status"] == 429
                # The limit is named in errors[] as the tenant's, not as a field of the body.
                assert problem["errors"] == [
                    {
                        "loc": "tenant.max_active_evaluations",
                        "pointer": "/tenant/max_active_evaluations",
                        "msg": "2 evaluations or runs are queued or running; at most 2",
                        "type": "tenant_limit_exceeded",
                    }
                ]
                # Another tenant is not held back by this one's limit.
                with api.client(other_key) as other:
                    assert other.post("/v1/evaluations", json=body()).status_code == 202
                canceled = client.post(f"/v1/evaluations/{first['id']}/cancel")
                assert canceled.status_code == 200
                again = client.post("/v1/evaluations", json=body())
                assert again.status_code == 202, again.text
                listed = client.get("/v1/evaluations").json()["data"]
                assert len(listed) == 3
        finally:
            # Cancel what is left, so no later test's queue run scores it against the judge.
            # The hold stays: it is released after the test, once the canceled jobs have
            # stopped at their held calls (released here, one could make its next call first).
            for tenant_key in (key, other_key):
                with api.client(tenant_key) as client:
                    for row in client.get("/v1/evaluations").json()["data"]:
                        if row["status"] in ("queued", "in_progress"):
                            client.post(f"/v1/evaluations/{row['id']}/cancel")

    def test_no_limit_by_default(self, api: Api) -> None:
        name = "unlimited-" + api.mode
        api.new_key(name)
        with api.served.runtime.session() as session:
            tenant = repository.tenant_by_name(session, name)
            assert isinstance(tenant, Tenant) and tenant.max_active_evaluations is None


class TestCli:
    def test_sets_shows_and_clears_the_limit(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
        env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/loupe.db"

        def loupe(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [str(LOUPE), *args], env=env, cwd=tmp_path, capture_output=True, text=True
            )

        assert loupe("keys", "create", "--create-tenant", "--tenant", "acme").returncode == 0
        set_three = loupe("tenants", "limits", "--tenant", "acme", "--max-active-evaluations", "3")
        assert set_three.returncode == 0, set_three.stderr
        assert "max_active_evaluations=3" in set_three.stdout
        shown = loupe("tenants", "limits", "--tenant", "acme")
        assert "max_active_evaluations=3" in shown.stdout
        cleared = loupe("tenants", "limits", "--tenant", "acme", "--max-active-evaluations", "0")
        assert "max_active_evaluations=none" in cleared.stdout
        unknown = loupe("tenants", "limits", "--tenant", "nobody")
        assert unknown.returncode == 1
        assert "no tenant" in unknown.stderr
