"""The compare form over HTTP (no script involved; both backends): its pickers tell apart two
evaluations of the same name (short id, creation time) and say a run's model and dataset; a
comparison the API refuses (an evaluation with itself, an evaluation with a run, an unknown id)
comes back to the form with the problem in words and the choices kept, escaped, with a fresh
form token, instead of a bare error page."""

import re
from html import unescape

import httpx

from app.console.compare_pages import short_id
from tests.comparisons.helpers import quiz_dataset, run
from tests.console.helpers import csrf_of, signed_in
from tests.console.test_pages import XSS, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import CANDIDATE, wait_run


def options(html: str, field: str) -> dict[str, str]:
    """A picker's choices: value -> the words shown."""
    start = html.index(f'name="{field}"')
    picker = html[start : html.index("</select>", start)]
    return {
        value: unescape(words)
        for value, words in re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', picker)
    }


def selected(html: str, field: str) -> list[str]:
    start = html.index(f'name="{field}"')
    picker = html[start : html.index("</select>", start)]
    return re.findall(r'<option value="([^"]+)" selected>', picker)


def problems_of(html: str) -> list[str]:
    found = re.search(r'<div class="alert form-errors" id="compare-problems".*?</div>', html, re.S)
    assert found, "no problems on the form"
    return [unescape(item) for item in re.findall(r"<li>(.*?)</li>", found.group(0), re.S)]


def model_run(api: Api, client: httpx.Client, judge: ScriptedJudge, dataset_id: str) -> str:
    """A completed run whose candidate, a named model, answers every sample."""
    model = client.post(
        "/v1/models",
        json={
            "base_url": judge.base_url,
            "model": CANDIDATE,
            "name": "vision candidate",
            "api_key": "sk-candidate",
        },
    )
    assert model.status_code == 201, model.text
    response = client.post(
        "/v1/runs", json={"dataset_id": dataset_id, "model_id": model.json()["id"], "limit": 2}
    )
    assert response.status_code == 202, response.text
    final = wait_run(api, client, response.json()["id"])
    assert final["status"] == "completed", final
    return final["id"]


class TestPickers:
    def test_same_names_told_apart_and_runs_by_model_and_dataset(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        first = submit(api, key, name="nightly")
        second = submit(api, key, name="nightly")
        named = submit(api, key, name=XSS)
        dataset = quiz_dataset(client, rows=2)
        dataset_name = client.get(f"/v1/datasets/{dataset}").json()["name"]
        given = run(api, client, dataset, set(), rows=2)
        answered = model_run(api, client, judge, dataset)
        console = signed_in(api, key)
        try:
            form = console.get("/console/compare")
        finally:
            console.close()
        assert form.status_code == 200
        shown = options(form.text, "baseline_id")
        for evaluation in (first, second):
            created = evaluation["created_at"][:19].replace("T", " ")
            assert shown[evaluation["id"]] == f"nightly · {short_id(evaluation['id'])} · {created}"
        assert shown[first["id"]] != shown[second["id"]]
        assert shown[named["id"]].startswith(f"{XSS} · ")
        assert XSS not in form.text  # escaped
        assert shown[given].startswith(f"{short_id(given)} · ")
        assert shown[given].endswith(f" · given predictions on {dataset_name}")
        assert shown[answered].endswith(f" · vision candidate on {dataset_name}")
        assert options(form.text, "candidate_id") == shown


class TestRefused:
    def test_problems_come_back_to_the_form_with_the_choices_kept(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        evaluation = submit(api, key, name="monday")["id"]
        given = run(api, client, quiz_dataset(client, rows=2), set(), rows=2)
        console = signed_in(api, key)
        try:
            form = console.get("/console/compare")
            token = csrf_of(form.text)

            def post(**fields: str) -> httpx.Response:
                return console.post("/console/compare", data={"csrf_token": token, **fields})

            itself = post(baseline_id=evaluation, candidate_id=evaluation, fragile="exclude")
            mixed = post(baseline_id=evaluation, candidate_id=given)
            unknown = post(baseline_id=XSS[:40], candidate_id=evaluation)
            missing = post(candidate_id=evaluation)
        finally:
            console.close()

        assert itself.status_code == 422
        assert "Back to evaluations" not in itself.text
        assert problems_of(itself.text) == [
            f"Candidate: {evaluation!r} is the baseline itself; compare two evaluations or runs."
        ]
        assert selected(itself.text, "baseline_id") == [evaluation]
        assert selected(itself.text, "candidate_id") == [evaluation]
        assert 'name="fragile" value="exclude" checked' in itself.text
        assert csrf_of(itself.text)
        assert re.search(r'name="candidate_id" required aria-invalid="true"', itself.text)

        assert mixed.status_code == 422
        assert problems_of(mixed.text) == [
            "Candidate: a run, but the baseline is an evaluation; compare two "
            "evaluations or two runs."
        ]
        assert selected(mixed.text, "baseline_id") == [evaluation]
        assert selected(mixed.text, "candidate_id") == [given]
        assert 'name="fragile" value="exclude" checked' not in mixed.text

        # An id nobody has, posted by hand: said as text, never as markup.
        assert unknown.status_code == 404
        assert problems_of(unknown.text) == [f"Baseline: no evaluation or run {XSS[:40]!r}."]
        assert XSS[:40] not in unknown.text
        assert selected(unknown.text, "candidate_id") == [evaluation]
        assert re.search(r'name="baseline_id" required aria-invalid="true"', unknown.text)

        assert missing.status_code == 400
        assert problems_of(missing.text) == ["Baseline: pick one."]
        assert selected(missing.text, "candidate_id") == [evaluation]
