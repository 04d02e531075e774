"""An app's ticker tends its own database: apps served side by side in one process (the test
suite's session apps and a test's own) each keep their upkeep, and none reaches into another's
database, whichever app the process's current runtime is (the job functions' default)."""

import time
from pathlib import Path

from app import runtime as runtime_module
from tests.fixtures.api import side_app
from tests.online.test_joining import bare_span, counts
from tests.online.test_receiver import make_rule


class TestTickerRuntime:
    def test_an_apps_ticker_ticks_its_own_database_when_another_app_is_current(
        self, tmp_path: Path
    ) -> None:
        # Served second, the other app is the process's current runtime.
        with (
            side_app(tmp_path / "first", otlp_join_seconds=0.2) as first,
            side_app(tmp_path / "second") as second,
            first.tenant_client() as client,
        ):
            assert runtime_module._current is second.served.runtime
            rule = make_rule(client, metrics=[{"type": "answer_relevancy"}])
            assert client.post("/v1/traces", json=bare_span()).status_code == 200
            # Only the first app's ticker expires the span its log records never joined
            # (counted then, without content): nothing else here calls the upkeep.
            deadline = time.monotonic() + 30
            while counts(client, rule)["received"] == 0:
                assert time.monotonic() < deadline, "the first app's ticker never tended it"
                time.sleep(0.05)
            assert counts(client, rule)["skipped"] == {"no_content": 1}
