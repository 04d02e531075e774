"""The TypeScript client (sdk/typescript) built with tsc and run under Node against a live
Loupe (the embedded backend) with the scripted judge (test/live.test.ts, and test/append.test.ts
for an open evaluation appended in batches, test/in_progress.test.ts for a batch sent again while
its first send is still stored); `make test` installs it with `npm ci`."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from app.tenants import limits
from app.tenants import repository as tenants_repository
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, plausible_answer
from tests.fixtures.receiver import WebhookReceiver
from tests.sdk.conftest import TYPESCRIPT
from tests.sdk.helpers import BLUE, RED, HeldImage


def slow_for_marked_cases(request: dict) -> Reply | dict:
    if "SLOW-CASE" in json.dumps(request):
        return Reply(content="{}", delay=3)
    return plausible_answer(request)


def limited_key(app: Api) -> str:
    """A key of a tenant allowed one active evaluation at a time."""
    key = app.new_key("typescript-limited")
    with app.served.runtime.session() as session:
        tenant = tenants_repository.tenant_by_name(session, "typescript-limited")
        assert tenant is not None
        tenant.max_active_evaluations = 1
        session.commit()
    return key


class TestTypeScriptClient:
    def test_node_drives_a_live_loupe(
        self, built: Path, judge: ScriptedJudge, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        judge.script(slow_for_marked_cases)
        with (
            side_app(tmp_path_factory.mktemp("ts"), judge_base_url=judge.base_url) as app,
            WebhookReceiver() as receiver,
        ):
            env = {
                **os.environ,
                "LOUPE_URL": app.base_url,
                "LOUPE_API_KEY": app.new_key(),
                "LOUPE_READ_API_KEY": app.new_key(scopes=["read"]),
                "LOUPE_LIMITED_API_KEY": limited_key(app),
                "LOUPE_RESOURCES_API_KEY": app.new_key(),
                "LOUPE_APPEND_API_KEY": app.new_key(),
                "JUDGE_URL": judge.base_url,
                "WEBHOOK_URL": receiver.url,
                "RED_PNG": RED,
                "BLUE_PNG": BLUE,
            }
            ran = subprocess.run(
                ["node", "--test", str(built), str(built.parent / "append.test.js")],
                cwd=TYPESCRIPT,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "# pass 13" in ran.stdout and "# fail 0" in ran.stdout, ran.stdout
        # The judge saw the images the Node client sent, as data URIs.
        score_calls = [
            call for call in judge.calls_for("g_eval_score") if "SLOW-CASE" not in json.dumps(call)
        ]
        assert len(score_calls) == 5 and all(
            [url.startswith("data:image/png") for url in image_parts(call)] == [True]
            for call in score_calls
        )

    def test_a_batch_meeting_its_first_send_in_progress_waits_for_it(
        self, built: Path, judge: ScriptedJudge, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        with (
            side_app(tmp_path_factory.mktemp("ts-held"), judge_base_url=judge.base_url) as app,
            HeldImage() as image,
        ):
            env = {
                **os.environ,
                "LOUPE_URL": app.base_url,
                "LOUPE_API_KEY": app.new_key(),
                "HELD_URL": image.base_url,
            }
            ran = subprocess.run(
                ["node", "--test", str(built.parent / "in_progress.test.js")],
                cwd=TYPESCRIPT,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "# pass 1" in ran.stdout and "# fail 0" in ran.stdout, ran.stdout
        # Loupe fetched the image once: the batch was stored by its first send alone.
        assert image.fetches == 1


def budget_spent(app: Api) -> tuple[str, str]:
    """A key of a tenant whose daily budget is spent, and an open evaluation it made before."""
    key = app.new_key("typescript-budget")
    with app.client(key) as client:
        opened = client.post(
            "/v1/evaluations", json={"open": True, "metrics": [{"type": "exact_match"}]}
        )
        assert opened.status_code == 202, opened.text
    with app.served.runtime.session() as session:
        tenant = tenants_repository.tenant_by_name(session, "typescript-budget")
        assert tenant is not None
        limits.set_limits(session, tenant, daily_usd=0)
        session.commit()
    return key, opened.json()["id"]


class TestRetries:
    def test_sent_again_only_when_safe_bounded_and_as_retry_after_asks(
        self, built: Path, judge: ScriptedJudge, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        judge.script(slow_for_marked_cases)
        with (
            side_app(tmp_path_factory.mktemp("ts-retries"), judge_base_url=judge.base_url) as app,
            HeldImage() as held,
        ):
            budget_key, budget_evaluation = budget_spent(app)
            env = {
                **os.environ,
                "LOUPE_URL": app.base_url,
                "LOUPE_API_KEY": app.new_key(),
                "LOUPE_LIMITED_API_KEY": limited_key(app),
                "LOUPE_BUDGET_API_KEY": budget_key,
                "BUDGET_EVALUATION_ID": budget_evaluation,
                "HELD_URL": held.base_url,
                "JUDGE_URL": judge.base_url,
            }
            ran = subprocess.run(
                ["node", "--test", str(built.parent / "retries.test.js")],
                cwd=TYPESCRIPT,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "# pass 7" in ran.stdout and "# fail 0" in ran.stdout, ran.stdout
