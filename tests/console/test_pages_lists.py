"""Console lists over HTTP (both backends): OpenAI eval runs listed and named by their eval and
criteria; the results table grouped by test case, with each case's first image."""

import re
from collections.abc import Iterator
from html import unescape

import httpx
import openai
import pytest

from tests.console.helpers import signed_in
from tests.evals.helpers import CRITERIA, ROWS, create_eval, wait
from tests.evaluations.test_reading import image, png
from tests.fixtures.api import Api


@pytest.fixture
def client(api: Api) -> Iterator[openai.OpenAI]:
    """The official `openai` client of a new tenant (as tests/fixtures/openai_client.py)."""
    http = httpx.Client(trust_env=False, timeout=30)
    yield openai.OpenAI(
        base_url=f"{api.base_url}/v1", api_key=api.new_key(), http_client=http, max_retries=0
    )
    http.close()


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def visible_text(html: str) -> str:
    """The page's text as read: no tags, attributes, scripts or styles."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def title_of(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    assert match
    return unescape(" ".join(match.group(1).split()))


def eval_run(api: Api, client: openai.OpenAI, name: str = "nightly") -> tuple[str, str]:
    """A completed run of the eval "chart qa" (criteria `exact` and `fuzzy`): (eval id, run id)."""
    ev = create_eval(client, CRITERIA[:2])
    source = {"type": "file_content", "content": ROWS[:3]}
    run = client.evals.runs.create(
        ev.id, name=name, data_source={"type": "jsonl", "source": source}
    )
    wait(api, client, ev.id, run.id)
    return ev.id, run.id


def plain_evaluation(api: Api, key: str) -> str:
    with api.client(key) as http:
        response = http.post(
            "/v1/evaluations",
            json={
                "name": "pictures",
                "test_cases": [
                    {
                        "id": "picture",
                        "input": ["What is shown?", image(png("red")), image(png("blue"))],
                        "actual_output": "red",
                        "expected_output": "red",
                    },
                    {"id": "plain", "input": "2+2?", "actual_output": "5", "expected_output": "4"},
                ],
                # One metric named as its type, one named otherwise.
                "metrics": [{"type": "exact_match"}, {"type": "exact_match", "name": "strict"}],
            },
        )
        assert response.status_code == 202, response.text
        return api.wait(http, response.json()["id"])["id"]


class TestEvalRunsListed:
    def test_the_list_shows_eval_runs_by_eval_and_criteria_names_and_filters_by_kind(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        key = client.api_key
        evaluation_id = plain_evaluation(api, key)
        eval_id, run_id = eval_run(api, client)
        browser = signed_in(api, key)
        try:
            listed = browser.get("/console/evaluations")
            only_runs = browser.get("/console/evaluations", params={"kind": "eval_run"})
            only_plain = browser.get("/console/evaluations", params={"kind": "evaluation"})
            unknown = browser.get("/console/evaluations", params={"kind": "run"})
        finally:
            browser.close()
        assert listed.status_code == 200
        text = visible_text(listed.text)
        assert f'href="/console/evaluations/{run_id}"' in listed.text
        assert f'href="/console/evaluations/{evaluation_id}"' in listed.text
        # Newest first across kinds: the run was made after the evaluation.
        assert listed.text.index(run_id) < listed.text.index(evaluation_id)
        assert "OpenAI eval run chart qa · nightly" in text
        assert re.search(r"\bexact \d+%", text) and re.search(r"\bfuzzy \d+%", text)
        assert not UUID.search(text), "a criterion's id is shown instead of its name"

        assert run_id in only_runs.text and evaluation_id not in only_runs.text
        assert evaluation_id in only_plain.text and run_id not in only_plain.text
        assert re.search(r'<option value="eval_run" selected>', only_runs.text)
        assert unknown.status_code == 400

    def test_an_eval_runs_pages_are_titled_by_eval_and_run_and_name_its_criteria(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        eval_id, run_id = eval_run(api, client)
        browser = signed_in(api, client.api_key)
        try:
            page = browser.get(f"/console/evaluations/{run_id}")
            progress = browser.get(f"/console/evaluations/{run_id}/progress")
            case = browser.get(f"/console/evaluations/{run_id}/cases/0")
            criterion_id = re.search(r'<option value="(exact-[^"]+)"', page.text)
            assert criterion_id
            filtered = browser.get(
                f"/console/evaluations/{run_id}", params={"metric": criterion_id.group(1)}
            )
        finally:
            browser.close()
        assert page.status_code == 200
        assert title_of(page.text) == "chart qa · nightly · Loupe"
        assert re.search(r"<h1>\s*chart qa · nightly\s*</h1>", page.text)
        for html in (page.text, progress.text, case.text, filtered.text):
            text = visible_text(html)
            assert not UUID.search(text), "a criterion's id is shown instead of its name"
        text = visible_text(page.text)
        # Summary rows, the results table and the metric filter: the names, types beside them.
        assert text.count("exact string_check") >= 2 and text.count("fuzzy text_similarity") >= 2
        assert eval_id in text
        assert "exact string_check" in visible_text(progress.text)
        assert re.search(r"<h3>\s*exact\b", case.text) and re.search(r"<h3>\s*fuzzy\b", case.text)
        # Filtering by a criterion still goes by its id, and shows only its results.
        assert visible_text(filtered.text).count("fuzzy text_similarity") == 1  # the summary


class TestResultsTable:
    def test_one_group_per_case_with_its_first_image_and_each_metric_named_once(
        self, api: Api
    ) -> None:
        key = api.new_key()
        evaluation_id = plain_evaluation(api, key)
        browser = signed_in(api, key)
        other = signed_in(api, api.new_key())
        try:
            html = browser.get(f"/console/evaluations/{evaluation_id}").text
            thumbs = re.findall(r"<img class=\"thumb\"[^>]*>", html)
            assert len(thumbs) == 1, thumbs  # the second case has no image
            thumb = thumbs[0]
            src = re.search(r'src="(/console/media/[0-9a-f]{64})"', thumb)
            assert src
            served = browser.get(src.group(1))
            refused = other.get(src.group(1))
        finally:
            browser.close()
            other.close()
        groups = re.findall(r'<tbody class="case-group".*?</tbody>', html, re.S)
        assert len(groups) == 2
        for index, group in enumerate(groups):
            links = re.findall(r'href="/console/evaluations/[^"]+/cases/(\d+)"', group)
            assert links == [str(index)], "the case's link must appear once per group"
            assert group.count('<tr class="result">') == 2
        assert "First image of test case picture" in thumb
        assert 'loading="lazy"' in thumb
        assert re.search(r'width="\d+"', thumb) and re.search(r'height="\d+"', thumb)
        assert groups[0].count('class="thumb"') == 1 and "thumb" not in groups[1]
        # The first of the case's two images, through the tenant-scoped media route.
        assert served.status_code == 200 and served.headers["content-type"] == "image/png"
        assert refused.status_code == 404
        with api.client(key) as http:
            case = http.get(f"/v1/evaluations/{evaluation_id}/test_cases").json()["data"][0]
        first = case["input"][1]["image_url"]["url"]
        assert first.rsplit("/", 1)[1] == src.group(1).rsplit("/", 1)[1]

        text = visible_text(html)
        # A metric named as its type is named once; another has its type beside it.
        assert "exact_match exact_match" not in text
        assert text.count("strict exact_match") == 3  # the summary, one row per case
        summary = re.search(r'<div class="table-scroll"[^>]*>\s*<table class="summary">', html)
        assert summary, "the summary table scrolls in its own box"
