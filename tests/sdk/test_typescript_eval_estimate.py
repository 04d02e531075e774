"""The TypeScript client's `evals.runs.estimate` (issue 27's audit), built with tsc and run under
Node against a live Loupe (sdk/typescript/test/eval_estimate.test.ts)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.api import side_app
from tests.sdk.conftest import TYPESCRIPT
from tests.sdk.test_eval_run_estimate import SOURCE, created_eval


class TestTypeScriptEvalRunEstimate:
    def test_node_prices_an_eval_run(
        self, built: Path, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        with side_app(tmp_path_factory.mktemp("ts-eval-estimate")) as app:
            key = app.new_key()
            eval_id = created_eval(app, key)
            with app.client(key) as http:
                answer = http.post(
                    f"/v1/evals/{eval_id}/runs/estimate", json={"data_source": SOURCE}
                )
                assert answer.status_code == 200, answer.text
            env = {
                **os.environ,
                "LOUPE_URL": app.base_url,
                "LOUPE_API_KEY": key,
                "EVAL_ID": eval_id,
                "DATA_SOURCE": json.dumps(SOURCE),
                "EXPECTED": answer.text,
            }
            ran = subprocess.run(
                ["node", "--test", str(built.parent / "eval_estimate.test.js")],
                cwd=TYPESCRIPT,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "# pass 1" in ran.stdout and "# fail 0" in ran.stdout, ran.stdout
