"""An eval's item_schema can neither make Loupe fetch (SSRF, local files) nor stall it (ReDoS).

Driven through the official `openai` client. The only other server is a loopback stand-in for a
schema host, which counts the requests it gets: it must get none.
"""

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import openai
import pytest

from app.models import EvalDefinition
from tests.evals.helpers import CRITERIA
from tests.fixtures.api import Api

STRING = {"type": "string"}
# With Python's backtracking `re`, `^(a+)+$` against 40 `a`s and a `!` never finishes: these
# tests would hang on a Loupe that ran item_schema patterns on it.
CATASTROPHIC = "^(a+)+$"
EVIL = "a" * 5000 + "!"


class SchemaHost:
    """A loopback HTTP server answering every GET with a valid JSON Schema, counting requests."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        host = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                host.requests.append(self.path)
                body = json.dumps({"type": "string"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/schema+json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{path}"

    def __enter__(self) -> "SchemaHost":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def schema_host() -> Iterator[SchemaHost]:
    with SchemaHost() as host:
        yield host


def create(client: openai.OpenAI, item_schema: dict[str, Any]) -> Any:
    criterion = {**CRITERIA[0], "input": "{{ item.question }}", "reference": "yes"}
    return client.evals.create(
        name="schema",
        data_source_config={"type": "custom", "item_schema": item_schema},
        testing_criteria=[criterion],  # type: ignore[list-item]
    )


def refused(client: openai.OpenAI, item_schema: dict[str, Any]) -> openai.BadRequestError:
    with pytest.raises(openai.BadRequestError) as refusal:
        create(client, item_schema)
    return refusal.value


def run(client: openai.OpenAI, eval_id: str, items: list[Any]) -> Any:
    content = [{"item": item} for item in items]
    return client.evals.runs.create(
        eval_id,
        data_source={"type": "jsonl", "source": {"type": "file_content", "content": content}},
    )


def of_question(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"question": schema}}


class TestRemoteReferences:
    def test_a_remote_ref_is_a_400_naming_it_and_nothing_is_fetched(
        self, client: openai.OpenAI, schema_host: SchemaHost
    ) -> None:
        url = schema_host.url("/schema.json")
        cases = [
            (of_question({"$ref": url}), "properties.question.$ref"),
            (of_question({"$dynamicRef": url + "#meta"}), "properties.question.$dynamicRef"),
            # Relative to an $id on the stand-in: it would resolve to the stand-in.
            (
                {"$id": url, "properties": {"question": {"$ref": "other.json"}}},
                "properties.question.$ref",
            ),
            ({"allOf": [{"$ref": url}]}, "allOf[0].$ref"),
            ({"$defs": {"q": {"$ref": url}}}, "$defs.q.$ref"),
        ]
        for schema, where in cases:
            refusal = refused(client, schema)
            assert refusal.code == "invalid_item_schema"
            assert refusal.param == f"data_source_config.item_schema.{where}"
            assert "does not resolve inside item_schema" in refusal.message
            problem = refusal.response.json()
            assert problem["errors"][0]["loc"] == refusal.param
        assert schema_host.requests == []

    def test_in_document_references_still_work(
        self, client: openai.OpenAI, schema_host: SchemaHost
    ) -> None:
        schema = {
            "$id": schema_host.url("/root.json"),
            # An unknown dialect is ignored (2020-12 throughout), never fetched.
            "$schema": schema_host.url("/dialect.json"),
            "type": "object",
            "properties": {
                "question": {"$ref": "#/$defs/question"},
                "answer": {"$ref": "#answer"},
                "source": {"$ref": schema_host.url("/embedded.json")},
            },
            "$defs": {
                "question": {"type": "string", "minLength": 2},
                "answer": {"$anchor": "answer", "type": "string"},
                "embedded": {"$id": schema_host.url("/embedded.json"), "type": "string"},
            },
        }
        ev = create(client, schema)
        ok = run(client, ev.id, [{"question": "why?", "answer": "yes", "source": "book"}])
        assert ok.status in ("queued", "in_progress", "completed")
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, [{"question": "why?", "answer": "yes", "source": 3}])
        assert mismatch.value.code == "item_schema_mismatch"
        assert mismatch.value.param == "data_source.source.content[0].item.source"
        assert schema_host.requests == []

    def test_file_refs_answer_alike_whether_or_not_the_file_exists(
        self, client: openai.OpenAI, tmp_path: Path
    ) -> None:
        schema_file = tmp_path / "schema.json"
        schema_file.write_text(json.dumps({"type": "string"}))
        text_file = tmp_path / "notes.txt"
        text_file.write_text("not json")
        answers = []
        for target in (schema_file, text_file, tmp_path / "missing.json", Path("/etc/passwd")):
            refusal = refused(client, of_question({"$ref": target.as_uri()}))
            assert refusal.status_code == 400
            assert refusal.param == "data_source_config.item_schema.properties.question.$ref"
            answers.append((refusal.code, refusal.message.replace(target.as_uri(), "<ref>")))
        assert len(set(answers)) == 1, answers

    def test_a_remote_ref_reached_through_a_data_keyword_is_refused_at_create(
        self, client: openai.OpenAI, schema_host: SchemaHost
    ) -> None:
        # The remote $ref sits in a data keyword: only following the first $ref reaches it.
        schema = of_question({"$ref": "#/$defs/holder/default"})
        schema["$defs"] = {"holder": {"default": {"$ref": schema_host.url("/s.json")}}}
        refusal = refused(client, schema)
        assert refusal.code == "invalid_item_schema"
        assert refusal.param == "data_source_config.item_schema.$defs.holder.default.$ref"
        assert "never fetches" in refusal.message
        assert schema_host.requests == []


class TestReferenceTargets:
    AUDITED = {
        "type": "object",
        "minProperties": 1,
        "properties": {"q": {"$ref": "#/minProperties"}},
    }

    @pytest.mark.parametrize(
        ("schema", "where", "says"),
        [
            (AUDITED, "properties.q.$ref", "a number (1), not a schema"),
            (
                of_question({"$ref": "#/required"}) | {"required": ["question"]},
                "properties.question.$ref",
                "an array",
            ),
            (
                of_question({"$ref": "#/title"}) | {"title": "t"},
                "properties.question.$ref",
                "a string",
            ),
            # An object, but not a schema: properties' values must be schemas.
            (
                {"properties": {"minProperties": {}}, "$ref": "#/properties"},
                "$ref",
                "not a valid JSON Schema",
            ),
            # A schema in a data keyword whose own reference reaches a string.
            (
                of_question({"$ref": "#/$defs/holder/default"})
                | {"title": "t", "$defs": {"holder": {"default": {"items": {"$ref": "#/title"}}}}},
                "$defs.holder.default.items.$ref",
                "a string",
            ),
        ],
    )
    def test_a_ref_to_what_is_not_a_schema_is_refused_at_create_naming_it(
        self, client: openai.OpenAI, schema: dict[str, Any], where: str, says: str
    ) -> None:
        refusal = refused(client, schema)
        assert refusal.code == "invalid_item_schema"
        assert refusal.param == f"data_source_config.item_schema.{where}"
        assert says in refusal.message
        assert refusal.response.json()["errors"][0]["loc"] == refusal.param

    def test_a_schema_that_is_not_a_valid_schema_is_refused_at_create(
        self, client: openai.OpenAI
    ) -> None:
        refusal = refused(client, of_question({"minProperties": "one"}))
        assert refusal.code == "invalid_item_schema"
        assert refusal.param == "data_source_config.item_schema.properties.question.minProperties"
        assert "not a valid JSON Schema" in refusal.message

    def test_refs_to_schemas_anywhere_in_the_document_still_work(
        self, client: openai.OpenAI
    ) -> None:
        schema = of_question({"$ref": "#/$defs/holder/default"}) | {
            "$defs": {"holder": {"default": {"type": "string", "minLength": 2}}}
        }
        ev = create(client, schema)
        assert run(client, ev.id, [{"question": "why?"}]).status in (
            "queued",
            "in_progress",
            "completed",
        )
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, [{"question": "?"}])
        assert mismatch.value.code == "item_schema_mismatch"


class TestPatterns:
    @pytest.mark.parametrize(
        ("schema", "bad", "where", "good"),
        [
            (
                of_question({"type": "string", "pattern": CATASTROPHIC}),
                {"question": EVIL},
                ".question",
                {"question": "aaaa"},
            ),
            (
                {"type": "object", "patternProperties": {CATASTROPHIC: {"type": "integer"}}},
                {"a" * 60: "not an integer"},
                "." + "a" * 60,
                {"a" * 60: 1, EVIL: "not matched, not checked"},
            ),
            (
                {"type": "object", "propertyNames": {"pattern": CATASTROPHIC}},
                {EVIL: 1},
                "",
                {"aaaa": 1},
            ),
            (
                {
                    "type": "object",
                    "patternProperties": {CATASTROPHIC: {}},
                    "additionalProperties": False,
                },
                {EVIL: 1},
                "",
                {"aaaa": 1},
            ),
            (
                {
                    "type": "object",
                    "patternProperties": {CATASTROPHIC: {}},
                    "unevaluatedProperties": False,
                },
                {EVIL: 1},
                "",
                {"aaaa": 1},
            ),
            # A known dialect in a subschema must not switch validation to Python's `re`.
            (
                {
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "properties": {"question": {"$ref": "#/$defs/q"}},
                    "$defs": {
                        "q": {
                            "$schema": "http://json-schema.org/draft-07/schema#",
                            "pattern": CATASTROPHIC,
                        }
                    },
                },
                {"question": EVIL},
                ".question",
                {"question": "aaaa"},
            ),
        ],
    )
    def test_a_catastrophic_pattern_answers_in_linear_time(
        self, client: openai.OpenAI, schema: dict[str, Any], bad: Any, where: str, good: Any
    ) -> None:
        ev = create(client, schema)
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, [bad])
        assert mismatch.value.code == "item_schema_mismatch"
        assert mismatch.value.param == "data_source.source.content[0].item" + where
        assert run(client, ev.id, [good]).status in ("queued", "in_progress", "completed")

    def test_patterns_re2_cannot_run_are_refused_naming_them(self, client: openai.OpenAI) -> None:
        cases = [
            (of_question({"pattern": r"^(a)\1$"}), "properties.question.pattern"),
            (of_question({"pattern": "^(?=a)a+$"}), "properties.question.pattern"),
            ({"patternProperties": {"(?<!x)y": {}}}, "patternProperties.(?<!x)y"),
            (
                of_question({"propertyNames": {"pattern": "(?!a)"}}),
                "properties.question.propertyNames.pattern",
            ),
        ]
        for schema, where in cases:
            refusal = refused(client, schema)
            assert refusal.code == "invalid_item_schema"
            assert refusal.param == f"data_source_config.item_schema.{where}"
            assert "backreferences and lookarounds" in refusal.message
            assert "RE2" in refusal.message


class TestReferenceFanOut:
    def test_an_exponential_schema_is_refused_at_run(self, client: openai.OpenAI) -> None:
        # Each level checks the next twice: 2^40 checks of one item.
        defs: dict[str, Any] = {
            f"d{level}": {"allOf": [{"$ref": f"#/$defs/d{level + 1}"}] * 2} for level in range(40)
        }
        defs["d40"] = STRING
        ev = create(client, of_question({"$ref": "#/$defs/d0"}) | {"$defs": defs})
        with pytest.raises(openai.BadRequestError) as refusal:
            run(client, ev.id, [{"question": "why?"}])
        assert refusal.value.code == "invalid_item_schema"
        assert refusal.value.param == "data_source.source.content[0].item"

    def test_a_reference_loop_is_a_400_not_a_500(self, client: openai.OpenAI) -> None:
        ev = create(client, {"$ref": "#/$defs/loop", "$defs": {"loop": {"$ref": "#"}}})
        with pytest.raises(openai.BadRequestError) as refusal:
            run(client, ev.id, [{"question": "why?"}])
        assert refusal.value.code == "invalid_item_schema"
        assert "refers to itself" in refusal.value.message


class TestKeywordCost:
    def test_nested_unevaluated_properties_are_refused_at_run_not_a_stall(
        self, client: openai.OpenAI
    ) -> None:
        # Each level checks the item again inside unevaluatedProperties: about 2.6^25 checks.
        schema: dict[str, Any] = {"type": "object"}
        for _ in range(25):
            schema = {"allOf": [schema], "unevaluatedProperties": False}
        ev = create(client, schema)
        with pytest.raises(openai.BadRequestError) as refusal:
            run(client, ev.id, [{}])
        assert refusal.value.code == "invalid_item_schema"
        assert refusal.value.param == "data_source.source.content[0].item"
        assert "keywords" in refusal.value.message

    def test_many_patterns_against_many_keys_are_refused_not_a_stall(
        self, client: openai.OpenAI
    ) -> None:
        # 2,000 patterns times 2,000 keys: 4 million searches, each compiling its pattern again
        # once the schema has more patterns than the compiled-pattern cache holds.
        patterns = {f"^x{index}$": STRING for index in range(2_000)}
        ev = create(client, {"type": "object", "patternProperties": patterns})
        item = {"question": "why?"} | {f"k{index}": 1 for index in range(2_000)}
        with pytest.raises(openai.BadRequestError) as refusal:
            run(client, ev.id, [item])
        assert refusal.value.code == "invalid_item_schema"
        assert "patternProperties" in refusal.value.message

    def test_a_wide_schema_checks_each_row_by_its_own_keys(self, client: openai.OpenAI) -> None:
        # jsonschema walked all 3,000 properties (and dependencies) for every row.
        wide = {f"p{index}": STRING for index in range(3_000)}
        schema = {
            "type": "object",
            "properties": {"question": STRING, **wide},
            "dependentRequired": {name: ["question"] for name in wide},
            "dependentSchemas": {name: {"required": ["question"]} for name in wide},
        }
        ev = create(client, schema)
        rows = [{"question": "why?", "p7": "x"}] * 2_000
        assert run(client, ev.id, rows).status in ("queued", "in_progress", "completed")
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, [*rows, {"question": "why?", "p7": 7}])
        assert mismatch.value.code == "item_schema_mismatch"
        assert mismatch.value.param == "data_source.source.content[2000].item.p7"
        with pytest.raises(openai.BadRequestError) as missing:
            run(client, ev.id, [{"question": "why?"}, {"p7": "x"}])
        assert missing.value.code == "item_schema_mismatch"
        detail = missing.value.response.json()["detail"]
        assert "content[1].item does not match item_schema" in detail
        assert "'question' is a" in detail  # a dependency of 'p7', a required property

    def test_a_schema_too_big_to_check_is_refused_at_create(self, client: openai.OpenAI) -> None:
        wide = {f"p{index}": {"type": "string", "minLength": 1} for index in range(20_000)}
        refusal = refused(client, {"type": "object", "properties": wide})
        assert refusal.code == "invalid_item_schema"
        assert refusal.param == "data_source_config.item_schema"
        assert "more than 50000 JSON values" in refusal.message


class TestUniqueItems:
    SCHEMA = {
        "type": "object",
        "properties": {"question": STRING, "answers": {"type": "array", "uniqueItems": True}},
    }

    def test_twenty_thousand_distinct_objects_are_checked(self, client: openai.OpenAI) -> None:
        # jsonschema compared unhashable elements pairwise: 2 * 10^8 comparisons, minutes of CPU.
        ev = create(client, self.SCHEMA)
        answers = [{"x": index} for index in range(20_000)]
        accepted = run(client, ev.id, [{"question": "why?", "answers": answers}])
        assert accepted.status in ("queued", "in_progress", "completed")
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, [{"question": "why?", "answers": [*answers, {"x": 19_999}]}])
        assert mismatch.value.code == "item_schema_mismatch"
        assert mismatch.value.param == "data_source.source.content[0].item.answers"
        assert "has non-unique elements" in mismatch.value.message
        # The 20,001 elements are not all repeated in the answer.
        assert len(mismatch.value.message) < 1_000

    @pytest.mark.parametrize(
        ("answers", "unique"),
        [
            ([1, 1.0], False),
            ([{"a": 1, "b": [1, {"c": None}]}, {"b": [1.0, {"c": None}], "a": 1}], False),
            ([[1, 2], [1, 2]], False),
            (["1", "1"], False),
            ([True, 1], True),
            ([False, 0], True),
            ([[True], [1]], True),
            ([{"a": False}, {"a": 0}], True),
            ([None, False, 0, "", [], {}], True),
            ([[1, 2], [2, 1]], True),
            (["1", 1], True),
        ],
    )
    def test_equality_is_json_schema_equality(
        self, client: openai.OpenAI, answers: list[Any], unique: bool
    ) -> None:
        ev = create(client, self.SCHEMA)
        item = {"question": "why?", "answers": answers}
        if unique:
            assert run(client, ev.id, [item]).status in ("queued", "in_progress", "completed")
            return
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, [item])
        assert mismatch.value.code == "item_schema_mismatch"
        assert "has non-unique elements" in mismatch.value.message

    @pytest.mark.parametrize(
        ("value", "member"),
        [(1.0, True), (True, False), ([1.0, {"b": 2, "a": 1}], True), ([True], False)],
    )
    def test_enum_membership_is_json_schema_equality(
        self, client: openai.OpenAI, value: Any, member: bool
    ) -> None:
        members = [1, [1, {"a": 1, "b": 2}], *range(2, 5_000)]
        schema = of_question(STRING)
        schema["properties"]["choice"] = {"enum": members}
        ev = create(client, schema)
        # Many rows against a long enum: each row is one set look-up, not 5,000 comparisons.
        items = [{"question": "why?", "choice": 4_999}] * 2_000 + [
            {"question": "why?", "choice": value}
        ]
        if member:
            assert run(client, ev.id, items).status in ("queued", "in_progress", "completed")
            return
        with pytest.raises(openai.BadRequestError) as mismatch:
            run(client, ev.id, items)
        assert mismatch.value.code == "item_schema_mismatch"
        assert mismatch.value.param == "data_source.source.content[2000].item.choice"


class TestStoredEvals:
    def test_an_eval_stored_with_a_remote_ref_is_refused_at_run_naming_the_eval(
        self, api: Api, client: openai.OpenAI, schema_host: SchemaHost
    ) -> None:
        ev = create(client, of_question(STRING))
        # As an eval created before Loupe refused remote references would hold it.
        with api.served.runtime.session() as session:
            definition = session.get(EvalDefinition, ev.id)
            assert definition is not None
            config = dict(definition.data_source_config)
            config["item_schema"] = of_question({"$ref": schema_host.url("/s.json")})
            definition.data_source_config = config
            session.commit()
        with pytest.raises(openai.BadRequestError) as refusal:
            run(client, ev.id, [{"question": "why?"}])
        assert refusal.value.code == "invalid_item_schema"
        assert refusal.value.param == "path.eval_id"
        assert "/properties/question/$ref" in refusal.value.message
        assert schema_host.requests == []

    def test_an_eval_stored_with_a_ref_to_a_number_is_a_400_not_a_500(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        ev = create(client, of_question(STRING))
        with api.served.runtime.session() as session:
            definition = session.get(EvalDefinition, ev.id)
            assert definition is not None
            config = dict(definition.data_source_config)
            config["item_schema"] = TestReferenceTargets.AUDITED
            definition.data_source_config = config
            session.commit()
        with pytest.raises(openai.BadRequestError) as refusal:
            run(client, ev.id, [{"q": "why?", "question": "why?"}])
        assert refusal.value.code == "invalid_item_schema"
        assert refusal.value.param == "path.eval_id"
        assert "/properties/q/$ref" in refusal.value.message
