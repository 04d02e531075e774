"""Testing criteria as the SDK sends them back: echoes that re-create equal evals, refusals
naming the field the user wrote."""

from typing import Any

import openai
import pytest

from tests.evals.helpers import CRITERIA, ITEM_SCHEMA, ROWS, wait
from tests.fixtures.api import Api

CONFIG = {"type": "custom", "item_schema": ITEM_SCHEMA, "include_sample_schema": True}
# One criterion of every grader type, with every optional field a user may set.
EVERY_GRADER: list[dict[str, Any]] = [
    *CRITERIA,
    {
        **CRITERIA[2],
        "name": "label with params",
        "sampling_params": {"temperature": 0.2, "max_completion_tokens": 50, "seed": 3},
    },
    {
        **CRITERIA[3],
        "name": "score with params",
        "sampling_params": {"top_p": 0.5, "max_completions_tokens": 64, "reasoning_effort": "low"},
    },
]


def without_ids(criteria: list[Any], dump: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in getattr(c, dump)().items() if k != "id"} for c in criteria]


class TestRoundTrip:
    # to_dict: the echo's keys as sent; model_dump: every field the SDK knows, None included.
    @pytest.mark.parametrize("dump", ["to_dict", "model_dump"])
    def test_retrieved_criteria_recreate_an_equal_eval(
        self, client: openai.OpenAI, dump: str
    ) -> None:
        for criterion in EVERY_GRADER:
            first = client.evals.create(data_source_config=CONFIG, testing_criteria=[criterion])  # type: ignore[arg-type]
            retrieved = client.evals.retrieve(first.id)
            echoed = [getattr(c, dump)() for c in retrieved.testing_criteria]
            again = client.evals.create(data_source_config=CONFIG, testing_criteria=echoed)  # type: ignore[arg-type]
            assert without_ids(again.testing_criteria, dump) == without_ids(
                retrieved.testing_criteria, dump
            )
            assert again.testing_criteria[0].id != retrieved.testing_criteria[0].id


class TestEchoes:
    @pytest.mark.parametrize("grader", [CRITERIA[2], CRITERIA[3]])
    def test_model_graders_echo_max_completions_tokens(
        self, client: openai.OpenAI, grader: dict[str, Any]
    ) -> None:
        criterion = {**grader, "sampling_params": {"max_completion_tokens": 5, "seed": 1}}
        created = client.evals.create(data_source_config=CONFIG, testing_criteria=[criterion])  # type: ignore[arg-type]
        for ev in (created, client.evals.retrieve(created.id)):
            echoed = ev.testing_criteria[0].to_dict()["sampling_params"]
            assert echoed == {"max_completions_tokens": 5, "seed": 1}


class TestRefusalsNameTheField:
    @pytest.mark.parametrize(
        ("change", "param"),
        [
            ({**CRITERIA[2], "passing_labels": ["maybe"]}, "testing_criteria[0].passing_labels"),
            (
                {**CRITERIA[2], "labels": ["a", "a"], "passing_labels": ["a"]},
                "testing_criteria[0].labels",
            ),
            ({**CRITERIA[3], "range": [10, 0]}, "testing_criteria[0].range"),
        ],
    )
    def test_grader_rules_name_the_field_not_the_grader(
        self, client: openai.OpenAI, change: dict[str, Any], param: str
    ) -> None:
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.create(data_source_config=CONFIG, testing_criteria=[change])  # type: ignore[arg-type]
        assert refused.value.param == param

    @pytest.mark.parametrize(
        ("part", "field", "says"),
        [
            ({"type": "input_text"}, "content[1].text", "Field required"),
            ({"type": "input_audio"}, "content[1].input_audio", "Field required"),
            (5, "content[1]", "must be a string or an object"),
        ],
    )
    def test_a_grader_messages_bad_part_is_named_itself(
        self, client: openai.OpenAI, part: Any, field: str, says: str
    ) -> None:
        """A part inside content's list is the field at fault, not the whole content (which
        was "must be a valid value": content is a string, a part or a list of them)."""
        message = {"role": "user", "content": [{"type": "input_text", "text": "Hi"}, part]}
        criterion = {**CRITERIA[2], "input": [CRITERIA[2]["input"][0], message]}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.create(data_source_config=CONFIG, testing_criteria=[criterion])  # type: ignore[list-item]
        assert refused.value.param == f"testing_criteria[0].input[1].{field}"
        assert refused.value.body["message"] == f"testing_criteria[0]: {says}"

    @pytest.mark.parametrize(
        ("criterion", "param"),
        [
            ({**CRITERIA[0], "reference": "{{ answer }}"}, "testing_criteria[0].reference"),
            ({**CRITERIA[1], "input": "{{ samples.output_text }}"}, "testing_criteria[0].input"),
            (
                {
                    **CRITERIA[3],
                    "input": [
                        CRITERIA[3]["input"][0],
                        {"role": "user", "content": "{{ item.answer }} or {{ output_text }}?"},
                    ],
                },
                "testing_criteria[0].input[1].content",
            ),
            (
                {
                    **CRITERIA[2],
                    "input": [
                        CRITERIA[2]["input"][0],
                        {"role": "user", "content": [{"type": "input_text", "text": "{{ }}"}]},
                    ],
                },
                "testing_criteria[0].input[1].content[0].text",
            ),
        ],
    )
    def test_a_placeholder_no_row_can_fill_is_refused_at_create(
        self, client: openai.OpenAI, criterion: dict[str, Any], param: str
    ) -> None:
        # Every row would fail on it (template_variable_missing): one 400 instead.
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.create(
                data_source_config=CONFIG,
                testing_criteria=[CRITERIA[0], criterion],  # type: ignore[list-item]
            )
        assert refused.value.param == param.replace("[0]", "[1]", 1)
        assert "item" in refused.value.body["message"] and "sample" in refused.value.body["message"]


class TestEveryFaultOfACriterion:
    @pytest.mark.parametrize(
        ("criterion", "named"),
        [
            (
                {**CRITERIA[0], "operation": "zz", "reference": "{{ answer }}"},
                ["testing_criteria[0].operation", "testing_criteria[0].reference"],
            ),
            (
                {**CRITERIA[3], "range": [1, 0], "input": [{"role": "user", "content": "{{ x }}"}]},
                ["testing_criteria[0].range", "testing_criteria[0].input[0].content"],
            ),
            (
                {**CRITERIA[0], "name": "", "operation": "zz"},
                ["testing_criteria[0].name", "testing_criteria[0].operation"],
            ),
        ],
    )
    def test_a_bad_field_does_not_hide_the_others(
        self, client: openai.OpenAI, criterion: dict[str, Any], named: list[str]
    ) -> None:
        """The grader's own fields, its name and its templates are named in one answer, not
        one kind of fault per attempt."""
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.create(data_source_config=CONFIG, testing_criteria=[criterion])  # type: ignore[list-item]
        errors = refused.value.response.json()["errors"]
        assert sorted(error["loc"] for error in errors) == sorted(named)


class TestNames:
    def test_the_longest_name_grades_end_to_end(self, api: Api, client: openai.OpenAI) -> None:
        # Results are stored under `<name>-<uuid4>`: PostgreSQL holds it to its column's size.
        name = "n" * 91
        ev = client.evals.create(
            data_source_config=CONFIG, testing_criteria=[{**CRITERIA[0], "name": name}]
        )  # type: ignore[arg-type]
        assert ev.testing_criteria[0].name == name
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        final = wait(api, client, ev.id, run.id)
        assert final.status == "completed" and final.result_counts.total == 2
        assert final.per_testing_criteria_results[0].testing_criteria == ev.testing_criteria[0].id

    def test_a_longer_name_is_refused_with_the_limit(self, client: openai.OpenAI) -> None:
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.create(
                data_source_config=CONFIG, testing_criteria=[{**CRITERIA[0], "name": "n" * 92}]
            )  # type: ignore[arg-type]
        assert refused.value.param == "testing_criteria[0].name"
        assert refused.value.code == "string_too_long"
        assert "at most 91" in refused.value.body["message"]
