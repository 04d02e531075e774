"""The console calls services and names no kind (issue 25 items 1 and 5): its pages read rows
through the domains' services, never a repository, and every kind-specific word on them (a
kind's label, an eval run's title, its criteria's names, whether its items are test cases)
comes from the kind (`app.evaluations.kinds`), so a fourth kind shows up with no console edit.
The run pages (`run_pages.py` and their templates) are the `run` kind's own pages.
"""

import json
import re
from configparser import ConfigParser
from html import unescape
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from sqlalchemy import update

from app.evaluations import kinds
from app.evaluations.kinds import Naming
from app.evaluations.plain import EvaluationKind
from app.models import Evaluation
from tests.console.helpers import csrf_of, signed_in
from tests.console.test_pages import submit
from tests.console.test_pages_lists import eval_run
from tests.fixtures.api import Api
from tests.runs.helpers import wait_run

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / "app" / "console"
# The `run` kind's own pages (its `console_path`), as /v1/runs is its own API.
RUN_PAGES = {"run_pages.py", "templates/run.html", "templates/runs.html"}
# A kind's stored name as a literal, an import of a kind's package, or a kind's own words.
# (`Naming.eval_run`, the origin every kind's naming may fill, is the generic layer's field.)
NAMING = re.compile(
    r"""(["'])(?:run|eval_run)\1|\bapp\.(?:runs|evals)\b|\bEVAL_RUN\b|(?<!\.)\beval_runs?\b"""
    r"""|OpenAI eval run|run_labels|RunLabels"""
)


def console_sources() -> list[Path]:
    return sorted(
        path
        for path in CONSOLE.rglob("*")
        if path.suffix in (".py", ".html") and path.relative_to(CONSOLE).as_posix() not in RUN_PAGES
    )


class TestLayers:
    def test_no_console_module_or_template_names_a_kind(self) -> None:
        found = [
            f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for path in console_sources()
            for number, line in enumerate(path.read_text().splitlines(), 1)
            if NAMING.search(line)
        ]
        assert found == []

    def test_the_search_finds_what_it_looks_for(self) -> None:
        for line in (
            'SHOWN_KINDS = ("evaluation", EVAL_RUN)',
            "from app.evals.labels import run_labels",
            "from app.runs.repository import RunRepository",
            "{% set run = eval_runs.get(e.id) %}",
            "{'run': '/console/runs/', 'evaluation': '/console/evaluations/'}",
            '<span class="chip">OpenAI eval run</span>',
        ):
            assert NAMING.search(line), line
        assert not NAMING.search("{{ shown.chip }} status running")

    def test_no_console_page_is_let_read_a_repository(self) -> None:
        # The services contract forbids app.console importing any app.*.repository; an ignored
        # import would let a page read one again.
        contracts = ConfigParser()
        contracts.read(ROOT / ".importlinter")
        ignored = contracts["importlinter:contract:services"]["ignore_imports"]
        assert "app.console" in contracts["importlinter:contract:services"]["source_modules"]
        assert [line for line in ignored.splitlines() if "app.console" in line] == []
        for path in CONSOLE.rglob("*.py"):
            assert not re.search(r"\brepository\b|Repository\b", path.read_text()), path


def groups_of(html: str) -> list[tuple[str, list[str]]]:
    """The compare form's baseline picker: each group's heading and its options' values."""
    picker = html[html.index('name="baseline_id"') : html.index("</select>")]
    return [
        (unescape(label), re.findall(r'<option value="([^"]+)"', body))
        for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', picker, re.S)
    ]


def finished_run(api: Api, client: httpx.Client) -> str:
    row = {"messages": [{"role": "user", "content": "Capital of France?"}], "answer": "Paris"}
    dataset = client.post(
        "/v1/datasets",
        files={"file": ("capitals.jsonl", json.dumps(row).encode())},
        data={"format": "general_vqa"},
    ).json()
    response = client.post(
        "/v1/runs",
        json={"dataset_id": dataset["id"], "predictions": [{"index": 0, "prediction": "Paris"}]},
    )
    assert response.status_code == 202, response.text
    return wait_run(api, client, response.json()["id"])["id"]


@pytest.fixture
def openai_client(api: Api) -> Any:
    http = httpx.Client(trust_env=False, timeout=30)
    yield openai.OpenAI(
        base_url=f"{api.base_url}/v1", api_key=api.new_key(), http_client=http, max_retries=0
    )
    http.close()


class TestCompareForm:
    def test_finished_ones_are_grouped_by_their_kinds_labels(
        self, api: Api, openai_client: openai.OpenAI
    ) -> None:
        key = openai_client.api_key
        evaluation = submit(api, key)["id"]
        _, run_of_eval = eval_run(api, openai_client)
        with api.client(key) as client:
            run = finished_run(api, client)
        console = signed_in(api, key)
        try:
            form = console.get("/console/compare")
        finally:
            console.close()
        assert form.status_code == 200
        # Kinds listed beside evaluations first, then the others, each under its label.
        assert groups_of(form.text) == [
            ("Evaluations", [evaluation]),
            ("OpenAI eval runs", [run_of_eval]),
            ("Dataset runs", [run]),
        ]
        # An eval run named as its page names it (through its kind's naming).
        assert re.search(rf'<option value="{run_of_eval}">chart qa · nightly · ', form.text)


class ReviewKind(EvaluationKind):
    """A kind the console has never heard of: unlisted, titled by its own naming."""

    label = "human review"
    listed = False

    def naming(self, session: Any, evaluation: Evaluation) -> Naming:
        return Naming(
            metric_labels={"exact_match": "agrees with the reviewer"},
            title=f"Review of {evaluation.name}",
        )


@pytest.fixture
def fourth_kind() -> Any:
    """The process's kinds plus `review` (the registry's kinds are put back afterwards)."""
    before = {name: kinds.by_name(name) for name in kinds.names()}
    kinds.use({**before, "review": ReviewKind()})
    yield
    kinds.use(before)


class TestAFourthKind:
    def test_it_is_offered_compared_and_named_with_no_console_edit(
        self, api: Api, fourth_kind: None
    ) -> None:
        key = api.new_key()
        first = submit(api, key, name="monday")["id"]
        second = submit(api, key, name="tuesday", actual_output="blue")["id"]
        # No API makes one yet: the two evaluations become reviews where the kind is stored.
        with api.served.runtime.session() as session:
            session.execute(
                update(Evaluation).where(Evaluation.id.in_([first, second])).values(kind="review")
            )
            session.commit()
        console = signed_in(api, key)
        try:
            form = console.get("/console/compare")
            assert groups_of(form.text) == [("Human reviews", [second, first])]
            assert re.search(rf'<option value="{first}">Review of monday · ', form.text)
            created = console.post(
                "/console/compare",
                data={
                    "baseline_id": first,
                    "candidate_id": second,
                    "csrf_token": csrf_of(form.text),
                },
            )
            assert created.status_code == 303, created.text
            page = console.get(created.headers["location"])
        finally:
            console.close()
        assert page.status_code == 200
        # Both sides by the kind's titles, linked to the kind's pages; metrics by its labels;
        # its items are test cases, shown once with their inputs.
        assert f'<a href="/console/evaluations/{first}">Review of monday</a>' in page.text
        assert f'<a href="/console/evaluations/{second}">Review of tuesday</a>' in page.text
        assert "agrees with the reviewer" in page.text
        assert "What is shown?" in page.text
