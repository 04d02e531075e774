"""The OpenAI Evals API driven by the official, unmodified `openai` client, on both backends.

The only stand-in is the model provider: the scripted loopback judge answers the graders and,
under the model name `candidate-vlm`, the completions runs' candidate.
"""

import json
from datetime import datetime

import httpx
import openai
import pytest
from rapidfuzz import fuzz, utils
from standardwebhooks import Webhook

from app.evaluations import tasks
from tests.evals import helpers
from tests.evals.helpers import (
    CRITERIA,
    ITEM_SCHEMA,
    RED,
    ROWS,
    create_eval,
    expected_grades,
    grading,
    texts,
    wait,
)
from tests.evaluations.test_tasks import age
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts
from tests.fixtures.receiver import WebhookReceiver
from tests.runs.helpers import CANDIDATE, register_model
from tests.webhooks.test_delivery import wait_deliveries


class TestEvals:
    def test_create_echoes_schema_and_criteria_with_ids(self, client: openai.OpenAI) -> None:
        created = create_eval(client)
        assert created.id.startswith("eval_") and created.object == "eval"
        schema = created.data_source_config.schema_
        assert schema["properties"]["item"] == ITEM_SCHEMA
        assert schema["required"] == ["item", "sample"]
        ids = [criterion.id for criterion in created.testing_criteria]
        assert [i.rsplit("-", 5)[0] for i in ids] == ["exact", "fuzzy", "judge", "quality"]
        label = created.testing_criteria[2]
        # Messages come back typed, string content as an input_text part.
        assert label.input[0].type == "message"
        assert label.input[0].content.type == "input_text"
        assert created.metadata == {"team": "vision"}

    def test_retrieve_update_list_delete(self, client: openai.OpenAI) -> None:
        first, second = create_eval(client), create_eval(client)
        assert client.evals.retrieve(first.id).name == "chart qa"
        updated = client.evals.update(first.id, name="renamed", metadata={"v": "2"})
        assert (updated.name, updated.metadata) == ("renamed", {"v": "2"})
        listed = [e.id for e in client.evals.list(limit=1)]
        assert listed == [first.id, second.id]
        newest = client.evals.list(order="desc", order_by="updated_at", limit=1)
        assert newest.data[0].id == first.id
        deleted = client.evals.delete(second.id)
        assert (deleted.deleted, deleted.eval_id) == (True, second.id)
        with pytest.raises(openai.NotFoundError):
            client.evals.retrieve(second.id)

    def test_refusals_are_the_documented_exceptions(self, api: Api, client: openai.OpenAI) -> None:
        with pytest.raises(openai.BadRequestError) as bad:
            create_eval(client, [{"type": "python", "name": "p", "source": "def grade(s, i): 1"}])
        assert bad.value.code == "unsupported_grader"
        assert bad.value.param == "testing_criteria[0].type"
        with pytest.raises(openai.BadRequestError) as logs:
            client.evals.create(data_source_config={"type": "logs"}, testing_criteria=CRITERIA)  # type: ignore[arg-type]
        assert logs.value.param == "data_source_config.type"
        # Beside a fault the schema finds, the unsupported source is named in the same answer.
        with pytest.raises(openai.BadRequestError) as both:
            client.evals.create(data_source_config={"type": "logs"}, testing_criteria=[])  # type: ignore[arg-type]
        named = sorted(error["loc"] for error in both.value.response.json()["errors"])
        assert named == ["data_source_config.type", "testing_criteria"]
        with pytest.raises(openai.BadRequestError) as op:
            create_eval(client, [{**CRITERIA[0], "operation": "contains"}])
        assert op.value.param.startswith("testing_criteria[0]")
        with pytest.raises(openai.BadRequestError):
            create_eval(client, [{**CRITERIA[2], "passing_labels": ["maybe"]}])
        with pytest.raises(openai.NotFoundError):
            client.evals.retrieve("eval_missing")
        stranger = openai.OpenAI(
            base_url=f"{api.base_url}/v1",
            api_key="lp_not-a-key",
            http_client=httpx.Client(trust_env=False),
            max_retries=0,
        )
        with pytest.raises(openai.AuthenticationError) as auth:
            stranger.evals.list()
        assert auth.value.body["type"] == "authentication_error"
        # Another tenant's eval is not found, not forbidden.
        theirs = create_eval(client)
        other = openai.OpenAI(
            base_url=f"{api.base_url}/v1",
            api_key=api.new_key(),
            http_client=httpx.Client(trust_env=False),
            max_retries=0,
        )
        with pytest.raises(openai.NotFoundError):
            other.evals.retrieve(theirs.id)


class TestRuns:
    def test_inline_jsonl_run_grades_every_row_with_reasons(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        ev = create_eval(client)
        run = client.evals.runs.create(
            ev.id,
            name="byo",
            data_source={"type": "jsonl", "source": {"type": "file_content", "content": ROWS}},
            metadata={"commit": "abc"},
        )
        assert (run.status, run.object, run.model) == ("queued", "eval.run", None)
        # Every criterion is listed from the start, with nothing counted yet.
        assert [(c.passed, c.failed) for c in run.per_testing_criteria_results] == [(0, 0)] * 4
        final = wait(api, client, ev.id, run.id)
        assert final.status == "completed"
        expected = [expected_grades(row) for row in ROWS]
        statuses = ["pass" if all(g) else "fail" for g in expected]
        assert final.result_counts.model_dump() == {
            "total": 5,
            "errored": 0,
            "failed": statuses.count("fail"),
            "passed": statuses.count("pass"),
        }
        ids = [c.id for c in ev.testing_criteria]
        assert [c.model_dump() for c in final.per_testing_criteria_results] == [
            {
                "testing_criteria": ids[k],
                "passed": sum(g[k] for g in expected),
                "failed": sum(not g[k] for g in expected),
            }
            for k in range(4)
        ]
        # Two model graders called once per row each, reported under their model.
        usage = {u.model_name: u.invocation_count for u in final.per_model_usage}
        assert usage == {"judge-model": 10}
        # The label grader saw each row's image, as ingested (a data URL of a PNG).
        label_calls = [r for r in judge.requests if "LABEL-GRADER" in texts(r)]
        assert len(label_calls) == 5
        assert all(
            image_parts(r) and image_parts(r)[0].startswith("data:image/png") for r in label_calls
        )

        # Auto-pagination walks every page through has_more and after.
        items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id, limit=2))
        assert [i.datasource_item_id for i in items] == [0, 1, 2, 3, 4]
        assert [i.status for i in items] == statuses
        for item, row, grades in zip(items, ROWS, expected, strict=True):
            assert item.datasource_item == row["item"]
            assert [r.passed for r in item.results] == grades
            assert [r.name for r in item.results] == ids
            assert item.sample.output[0].content == row["sample"]["output_text"]
            judged = item.results[2]
            assert judged.label == ("correct" if grades[2] else "incorrect")
            assert judged.reason  # Loupe's addition: every grade says why
            fuzzy = item.results[1].score
            answer, output = row["item"]["answer"], row["sample"]["output_text"]
            assert fuzzy == pytest.approx(
                fuzz.WRatio(output, answer, processor=utils.default_process) / 100
            )
            assert item.results[3].score == (9 if grades[3] else 2)
        failed = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id, status="fail"))
        assert [i.datasource_item_id for i in failed] == [
            i for i, s in enumerate(statuses) if s == "fail"
        ]
        one = client.evals.runs.output_items.retrieve(items[1].id, eval_id=ev.id, run_id=run.id)
        assert one.id == items[1].id and one.to_dict() == items[1].to_dict()
        with pytest.raises(openai.NotFoundError):
            client.evals.runs.output_items.retrieve(
                items[1].id[:-1] + "f", eval_id=ev.id, run_id=run.id
            )
        listed = client.evals.runs.list(ev.id, status="completed")
        assert [r.id for r in listed] == [run.id]

    def test_uploaded_file_runs_and_bad_lines_are_named(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        ev = create_eval(client, CRITERIA[:2])
        content = "\n".join(json.dumps(row) for row in ROWS[:3]) + "\n\n"
        uploaded = client.files.create(file=("rows.jsonl", content.encode()), purpose="evals")  # type: ignore[arg-type]
        assert (uploaded.purpose, uploaded.bytes) == ("evals", len(content.encode()))
        assert client.files.retrieve(uploaded.id).filename == "rows.jsonl"
        assert client.files.content(uploaded.id).content == content.encode()
        assert uploaded.id in [f.id for f in client.files.list(purpose="evals")]
        run = client.evals.runs.create(
            ev.id, data_source={"type": "jsonl", "source": {"type": "file_id", "id": uploaded.id}}
        )
        final = wait(api, client, ev.id, run.id)
        assert final.result_counts.total == 3
        assert final.result_counts.passed == sum(all(expected_grades(r)[:2]) for r in ROWS[:3])

        with pytest.raises(openai.BadRequestError) as broken:
            client.files.create(
                file=("bad.jsonl", b'{"item": {}}\n\n{"item": 1\n'), purpose="evals"
            )  # type: ignore[arg-type]
        assert "line 3" in broken.value.message
        with pytest.raises(openai.BadRequestError):
            client.files.create(file=("rows.jsonl", content.encode()), purpose="fine-tune")  # type: ignore[arg-type]
        mismatched = json.dumps(ROWS[0]) + "\n" + json.dumps({"item": {"question": "no answer"}})
        bad_file = client.files.create(file=("m.jsonl", mismatched.encode()), purpose="evals")  # type: ignore[arg-type]
        with pytest.raises(openai.BadRequestError) as schema:
            client.evals.runs.create(
                ev.id,
                data_source={"type": "jsonl", "source": {"type": "file_id", "id": bad_file.id}},
            )
        assert "line 2" in schema.value.message and schema.value.code == "item_schema_mismatch"
        with pytest.raises(openai.BadRequestError) as inline:
            client.evals.runs.create(
                ev.id,
                data_source={
                    "type": "jsonl",
                    "source": {"type": "file_content", "content": [{"item": {"question": 1}}]},
                },
            )
        assert inline.value.param.startswith("data_source.source.content[0].item")
        assert client.files.delete(uploaded.id).deleted
        with pytest.raises(openai.NotFoundError):
            client.files.retrieve(uploaded.id)

    def test_completions_run_samples_the_registered_model(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        def cached(request: dict) -> Reply:
            # The provider served part of each prompt from its cache: 4 of the candidate's 10
            # prompt tokens, 3 of a grader's.
            answer = grading(request)
            reply = answer if isinstance(answer, Reply) else Reply(content=json.dumps(answer))
            reply.cached_tokens = 4 if request.get("model") == CANDIDATE else 3
            return reply

        judge.script(cached)
        auth = {"Authorization": f"Bearer {client.api_key}"}
        with httpx.Client(base_url=api.base_url, headers=auth, trust_env=False) as loupe:
            register_model(loupe, judge.base_url)
        ev = create_eval(client, [CRITERIA[0], CRITERIA[2]])
        rows = [{"item": row["item"]} for row in ROWS[:3]]
        run = client.evals.runs.create(
            ev.id,
            data_source={
                "type": "completions",
                "model": CANDIDATE,
                "source": {"type": "file_content", "content": rows},
                "input_messages": {
                    "type": "template",
                    "template": [
                        {"role": "developer", "content": "Answer in one word."},
                        {
                            "role": "user",
                            "content": [
                                {"type": "input_text", "text": "{{ item.question }}"},
                                {
                                    "type": "input_image",
                                    "image_url": "{{item.image}}",
                                    "detail": "low",
                                },
                            ],
                        },
                    ],
                },
                "sampling_params": {"temperature": 0, "max_completions_tokens": 20, "seed": 7},
            },
        )
        assert run.model == CANDIDATE
        final = wait(api, client, ev.id, run.id)
        assert final.status == "completed"
        # Only France is answered right: one row passes both criteria.
        assert final.result_counts.model_dump() == {
            "total": 3, "errored": 0, "failed": 2, "passed": 1,
        }  # fmt: skip
        usage = {u.model_name: u.invocation_count for u in final.per_model_usage}
        assert usage == {CANDIDATE: 3, "judge-model": 3}
        cached_tokens = {u.model_name: u.cached_tokens for u in final.per_model_usage}
        assert cached_tokens == {CANDIDATE: 3 * 4, "judge-model": 3 * 3}
        sampled = [r for r in judge.requests if r.get("model") == CANDIDATE]
        assert len(sampled) == 3
        assert all(
            r["temperature"] == 0 and r["max_tokens"] == 20 and r["seed"] == 7 for r in sampled
        )
        assert all(image_parts(r)[0].startswith("data:image/png") for r in sampled)
        assert sampled[0]["messages"][0] == {"role": "system", "content": "Answer in one word."}
        items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
        first = items[0]
        assert first.sample.output[0].content == "Paris"
        assert first.sample.model == CANDIDATE
        assert first.sample.usage.total_tokens == 15
        assert first.sample.input[1].content.startswith("Capital of France?")
        assert [i.status for i in items] == ["pass", "fail", "fail"]

    def test_an_unknown_model_fails_the_run_with_a_clear_error(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        run = client.evals.runs.create(
            ev.id,
            data_source={
                "type": "completions",
                "model": "gpt-unknown",
                "source": {"type": "file_content", "content": [{"item": ROWS[0]["item"]}]},
                "input_messages": {
                    "type": "template",
                    "template": [{"role": "user", "content": "{{item.question}}"}],
                },
            },
        )
        assert run.status == "failed"
        assert run.error.code == "model_not_found" and "gpt-unknown" in run.error.message
        with pytest.raises(openai.BadRequestError) as responses:
            client.evals.runs.create(
                ev.id,
                data_source={
                    "type": "responses",
                    "source": {"type": "file_content", "content": []},
                },
            )
        assert responses.value.param == "data_source.type"

    def test_cancel_on_both_paths_then_delete(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        judge.hold()
        try:
            ev = create_eval(client, CRITERIA[2:3])
            source = {"type": "file_content", "content": ROWS}
            run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
            canceled = client.evals.runs.cancel(run.id, eval_id=ev.id)
            assert canceled.status == "canceled"
            # SDKs before 3.23 post an empty body to the run itself: the same cancel.
            legacy = httpx.post(
                f"{api.base_url}/v1/evals/{ev.id}/runs/{run.id}",
                headers={"Authorization": f"Bearer {client.api_key}"},
            )
            assert legacy.status_code == 200 and legacy.json()["status"] == "canceled"
        finally:
            judge.release()
        api.run_queue()
        done = create_eval(client, CRITERIA[:1])
        finished = client.evals.runs.create(
            done.id,
            data_source={"type": "jsonl", "source": {"type": "file_content", "content": ROWS[:1]}},
        )
        wait(api, client, done.id, finished.id)
        with pytest.raises(openai.BadRequestError) as late:
            client.evals.runs.cancel(finished.id, eval_id=done.id)
        assert late.value.code == "run_not_cancelable"
        deleted = client.evals.runs.delete(finished.id, eval_id=done.id)
        assert (deleted.deleted, deleted.run_id) == (True, finished.id)
        with pytest.raises(openai.NotFoundError):
            client.evals.runs.retrieve(finished.id, eval_id=done.id)
        # Deleting the eval takes its runs with it.
        client.evals.delete(ev.id)
        with pytest.raises(openai.NotFoundError):
            client.evals.runs.retrieve(run.id, eval_id=ev.id)


class TestRecovery:
    def test_retrieve_shows_a_stalled_run_beside_openais_fields(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        first = wait(api, client, ev.id, run.id)
        assert first.model_extra == {"recovery": None}
        # Its job stored every result, then its worker died before it could finish the run:
        # three beats missed, not yet LOUPE_STUCK_AFTER_SECONDS (the ticker has not acted).
        stalled_after = 3 * api.settings.heartbeat_seconds
        assert stalled_after + 2 < api.settings.stuck_after_seconds
        beat = age(api, run.id, stalled_after + 1, status="in_progress", completed_at=None)
        stalled = client.evals.runs.retrieve(run.id, eval_id=ev.id)
        # Loupe's own field: the SDK keeps it as an extra, its own fields parse as ever.
        assert stalled.status == "in_progress"
        assert stalled.result_counts.model_dump() == first.result_counts.model_dump()
        recovery = (stalled.model_extra or {})["recovery"]
        assert recovery["state"] == "stalled" and recovery["dispatch_attempts"] == 1
        assert datetime.fromisoformat(recovery["last_heartbeat_at"]) == beat
        # What the ticker's re-enqueue leaves: a fresh heartbeat and a second attempt.
        age(api, run.id, 0, dispatch_attempts=2)
        recovering = client.evals.runs.retrieve(run.id, eval_id=ev.id)
        assert (recovering.model_extra or {})["recovery"]["state"] == "recovering"
        # The new job finds every result stored and finishes the run.
        tasks.score_slice(api.served.runtime, run.id, 0, 2)
        final = client.evals.runs.retrieve(run.id, eval_id=ev.id)
        assert (final.status, final.model_extra) == ("completed", {"recovery": None})


class TestWebhooks:
    def test_a_finished_run_sends_a_signed_eval_run_succeeded(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        auth = {"Authorization": f"Bearer {client.api_key}"}
        with (
            WebhookReceiver() as receiver,
            httpx.Client(base_url=api.base_url, headers=auth, trust_env=False) as loupe,
        ):
            endpoint = loupe.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            ev = create_eval(client, CRITERIA[:1])
            run = client.evals.runs.create(
                ev.id,
                data_source={"type": "jsonl", "source": {"type": "file_content", "content": ROWS}},
                extra_body={"webhook_url": receiver.url},
            )
            final = wait(api, client, ev.id, run.id)
            wait_deliveries(api, loupe, endpoint["id"], lambda h: any(d["succeeded"] for d in h))
            payload = Webhook(endpoint["secret"]).verify(
                receiver.received[0].body, receiver.received[0].headers
            )
        assert payload["type"] == "eval.run.succeeded"
        assert payload["data"]["id"] == run.id and payload["data"]["eval_id"] == ev.id
        assert payload["data"]["result_counts"] == final.result_counts.model_dump()
        with pytest.raises(openai.BadRequestError) as unregistered:
            client.evals.runs.create(
                ev.id,
                data_source={"type": "jsonl", "source": {"type": "file_content", "content": ROWS}},
                extra_body={"webhook_url": "http://127.0.0.1:9/unregistered"},
            )
        assert unregistered.value.param == "webhook_url"


class TestComparisons:
    def test_two_runs_of_an_eval_compare_row_by_row(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        rows = [helpers.row(f"q{i}", "yes", RED, "yes") for i in range(12)]
        # The candidate run gets the last eight rows wrong: pass -> fail on exact match.
        worse = [helpers.row(f"q{i}", "yes", RED, "yes" if i < 4 else "no") for i in range(12)]
        runs = []
        for content in (rows, worse):
            source = {"type": "file_content", "content": content}
            run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
            wait(api, client, ev.id, run.id)
            runs.append(run.id)
        auth = {"Authorization": f"Bearer {client.api_key}"}
        with httpx.Client(base_url=api.base_url, headers=auth, trust_env=False) as loupe:
            response = loupe.post(
                "/v1/comparisons", json={"baseline_id": runs[0], "candidate_id": runs[1]}
            )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["kind"] == "eval_run"
        (exact,) = body["metrics"]
        assert exact["metric"] == ev.testing_criteria[0].id
        assert (exact["n"], exact["regressed_items"], exact["improved_items"]) == (12, 8, 0)
        assert exact["mean_difference"] == pytest.approx(-8 / 12)
        assert exact["verdict"] == "regressed"


class TestErroredRows:
    def test_a_missing_template_variable_errors_the_row_not_the_run(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        criteria = [CRITERIA[0], {**CRITERIA[0], "name": "typo", "input": "{{ sample.outptu }}"}]
        ev = create_eval(client, criteria)
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        final = wait(api, client, ev.id, run.id)
        assert final.status == "completed"
        assert final.result_counts.model_dump() == {
            "total": 2, "errored": 2, "failed": 0, "passed": 0,
        }  # fmt: skip
        # Errored rows count toward no criterion.
        assert [(c.passed, c.failed) for c in final.per_testing_criteria_results] == [(0, 0)] * 2
        items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
        assert [i.status for i in items] == ["error", "error"]
        typo = items[0].results[1]
        assert typo.error["type"] == "template_variable_missing"
        assert "outptu" in typo.error["message"]
        # The item says so too, as OpenAI's does.
        assert items[0].sample.error.code == "template_variable_missing"
        assert "outptu" in items[0].sample.error.message
        # The criterion that could grade still says what it found.
        assert items[0].results[0].passed is True
        assert list(client.evals.runs.output_items.list(run.id, eval_id=ev.id, status="pass")) == []
