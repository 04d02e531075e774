"""Grader templates and rows built to stall or crash Loupe: each is graded (or refused) at once.

Driven through the official `openai` client against the live API and in-process workers.
"""

from typing import Any

import openai
import pytest

from app.metrics._templates import MAX_TEMPLATE_CHARS, MAX_TEMPLATE_PLACEHOLDERS
from tests.evals.helpers import ROWS, create_eval, wait
from tests.fixtures.api import Api

# A lazy `{{(.*?)}}` regex rescans to the end for every `{{`: on this many it would not finish
# in a test's lifetime (30,000 held a worker 65 s and every other request of the API with it).
UNCLOSED = "{{" * 200_000
# JSON nested far past Python's recursion limit (and Loupe's depth limit of 64).
DEEP = "[" * 3000 + "]" * 3000


def string_check(**fields: str) -> dict:
    return {"type": "string_check", "name": "c", "operation": "eq", "reference": "a", **fields}


def jsonl_run(client: openai.OpenAI, eval_id: str, rows: list[dict]) -> Any:
    source = {"type": "file_content", "content": rows}
    return client.evals.runs.create(eval_id, data_source={"type": "jsonl", "source": source})  # type: ignore[arg-type]


class TestUnclosedBraces:
    def test_a_run_of_unclosed_braces_is_graded_as_text(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        ev = create_eval(client, [string_check(input=UNCLOSED)])
        assert ev.testing_criteria[0].input == UNCLOSED  # type: ignore[union-attr]
        rows = [{"item": row["item"], "sample": row["sample"]} for row in ROWS[:3]]
        run = jsonl_run(client, ev.id, rows)
        final = wait(api, client, ev.id, run.id)
        assert final.status == "completed"
        assert final.result_counts.model_dump() == {
            "total": 3, "errored": 0, "failed": 3, "passed": 0,
        }  # fmt: skip
        items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
        assert [item.status for item in items] == ["fail"] * 3

    def test_unclosed_braces_after_a_placeholder_are_left_alone(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        criterion = string_check(
            input="{{ item.answer }}" + UNCLOSED, operation="like", reference="Paris{{{{"
        )
        ev = create_eval(client, [criterion])
        run = jsonl_run(client, ev.id, [{"item": ROWS[0]["item"]}])
        final = wait(api, client, ev.id, run.id)
        assert final.result_counts.passed == 1


class TestTemplateBounds:
    @pytest.mark.parametrize(
        ("criterion", "param"),
        [
            (string_check(input="x" * (MAX_TEMPLATE_CHARS + 1)), "testing_criteria[0].input"),
            (
                string_check(input="ok", reference="{{ item.answer }}" * 257),
                "testing_criteria[0].reference",
            ),
        ],
    )
    def test_a_template_too_long_or_with_too_many_placeholders_is_a_400(
        self, client: openai.OpenAI, criterion: dict, param: str
    ) -> None:
        assert MAX_TEMPLATE_PLACEHOLDERS == 256
        with pytest.raises(openai.BadRequestError) as refusal:
            create_eval(client, [criterion])
        assert refusal.value.param == param
        assert refusal.value.response.json()["errors"][0]["loc"] == param
        assert list(client.evals.list()) == []

    def test_a_message_template_is_bounded_too(self, client: openai.OpenAI) -> None:
        criterion = {
            "type": "score_model",
            "name": "quality",
            "model": "judge-model",
            "range": [0, 10],
            "input": [{"role": "user", "content": "x" * (MAX_TEMPLATE_CHARS + 1)}],
        }
        with pytest.raises(openai.BadRequestError) as refusal:
            create_eval(client, [criterion])
        assert refusal.value.param == "testing_criteria[0].input[0].content"

    def test_the_bounds_hold_for_a_whole_message_list(self, client: openai.OpenAI) -> None:
        """Many strings under the bounds each would multiply a row as one long string."""
        messages = [{"role": "user", "content": "{{ item.question }}" * 2} for _ in range(200)]
        criterion = {
            "type": "score_model",
            "name": "quality",
            "model": "judge-model",
            "range": [0, 10],
            "input": messages,
        }
        with pytest.raises(openai.BadRequestError) as refusal:
            create_eval(client, [criterion])
        assert refusal.value.param == "testing_criteria[0].input"
        assert "placeholders in all" in refusal.value.message
        ev = create_eval(client, [string_check(name="c", input="{{ sample.output_text }}")])
        with pytest.raises(openai.BadRequestError) as refusal:
            client.evals.runs.create(
                ev.id,
                data_source={
                    "type": "completions",
                    "model": "judge-model",
                    "source": {"type": "file_content", "content": [{"item": ROWS[0]["item"]}]},
                    "input_messages": {"type": "template", "template": messages},
                },
            )
        assert refusal.value.param == "data_source.input_messages.template"
        assert "placeholders in all" in refusal.value.message

    @pytest.mark.parametrize(
        ("content", "param"),
        [
            ("x" * (MAX_TEMPLATE_CHARS + 1), "data_source.input_messages.template[0].content"),
            (
                [{"type": "input_text", "text": "{{ item.question }}" * 300}],
                "data_source.input_messages.template[0].content[0].text",
            ),
        ],
    )
    def test_a_completions_runs_messages_are_bounded_too(
        self, client: openai.OpenAI, content: Any, param: str
    ) -> None:
        ev = create_eval(client, [string_check(name="c", input="{{ sample.output_text }}")])
        with pytest.raises(openai.BadRequestError) as refusal:
            client.evals.runs.create(
                ev.id,
                data_source={
                    "type": "completions",
                    "model": "judge-model",
                    "source": {"type": "file_content", "content": [{"item": ROWS[0]["item"]}]},
                    "input_messages": {
                        "type": "template",
                        "template": [{"role": "user", "content": content}],
                    },
                },
            )
        assert refusal.value.param == param


class TestDeepOutputText:
    def test_output_text_nested_past_the_limit_is_not_json(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        criteria = [
            string_check(name="text", input="{{ sample.output_text }}", reference=DEEP),
            string_check(name="json", input="{{ sample.output_json }}"),
        ]
        ev = create_eval(client, criteria)
        rows = [{"item": ROWS[0]["item"], "sample": {"output_text": DEEP}}]
        run = jsonl_run(client, ev.id, rows)
        final = wait(api, client, ev.id, run.id)
        assert final.status == "completed"
        [item] = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
        results = {r["name"].split("-")[0]: r for r in item.model_dump()["results"]}
        assert results["text"]["passed"] is True
        # No output_json: the template naming it is missing, as for any text that is not JSON.
        assert results["json"]["error"]["type"] == "template_variable_missing"
        assert "no key 'output_json'" in results["json"]["error"]["message"]
