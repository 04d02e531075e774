"""Eval runs as the SDK creates and reads them, on both backends: the run object's links and
echoes, the sample namespace graders see, and the samples output items show."""

import openai

from tests.console.helpers import signed_in
from tests.evals.helpers import CRITERIA, ROWS, create_eval, wait
from tests.fixtures.api import Api


class TestReportUrl:
    def test_it_opens_the_runs_console_page(self, api: Api, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        assert run.report_url == f"{api.base_url}/console/evaluations/{run.id}"
        wait(api, client, ev.id, run.id)
        path = run.report_url.removeprefix(api.base_url)
        with api.client() as browser:
            # Signed out, a browser is sent to sign in, then back here.
            redirect = browser.get(path)
            assert redirect.status_code in (302, 303, 307)
            assert "/console/sign-in" in redirect.headers["location"]
        browser = signed_in(api, client.api_key)
        try:
            page = browser.get(path)
        finally:
            browser.close()
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert run.id in page.text


class TestSampleNamespace:
    def test_jsonl_rows_get_output_json_from_output_text(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        criterion = {
            "type": "string_check",
            "name": "json field",
            "operation": "eq",
            "input": "{{ sample.output_json.answer }}",
            "reference": "{{ item.answer }}",
        }
        ev = create_eval(client, [criterion])
        rows = [
            {"item": ROWS[0]["item"], "sample": {"output_text": '{"answer": "Paris"}'}},
            {"item": ROWS[1]["item"], "sample": {"output_text": '{"answer": "5"}'}},
            # A row that sets output_json itself keeps it.
            {
                "item": ROWS[2]["item"],
                "sample": {"output_text": "Blue", "output_json": {"answer": "Blue"}},
            },
        ]
        source = {"type": "file_content", "content": rows}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        final = wait(api, client, ev.id, run.id)
        assert final.result_counts.model_dump() == {
            "total": 3, "errored": 0, "failed": 1, "passed": 2,
        }  # fmt: skip
        items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
        assert [i.status for i in items] == ["pass", "fail", "pass"]
