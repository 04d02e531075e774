"""A label given through a review queue is final for its reviewer with respect to its
blindness: no other route replaces it with one given after the judge was shown while it keeps
counting as blind (routed or random). `POST /v1/labels` answers the same label again as it
stands and refuses another (409 `already-labelled`); deleting it is allowed and gives the item
back to the queue, blind again, and the label goes from agreement and the calibrated mean."""

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.review.helpers import Scores, Team

PROBLEM_JSON = "application/problem+json"


def _claim(client: httpx.Client, queue_id: str) -> dict[str, Any]:
    claimed = client.post(f"/v1/review_queues/{queue_id}/claim")
    assert claimed.status_code == 200, claimed.text
    return claimed.json()


def _label(client: httpx.Client, queue_id: str, item_id: str, **body: Any) -> httpx.Response:
    return client.post(f"/v1/review_queues/{queue_id}/items/{item_id}/label", json=body)


def _given(team: Team) -> list[tuple[Any, ...]]:
    labels = team.client.get("/v1/labels").json()["data"]
    return [(label["value"], label["rationale"], label["selection"]) for label in labels]


def _refused(response: httpx.Response, *fields: str) -> None:
    assert response.status_code == 409, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    problem = response.json()
    assert problem["type"].endswith("/already-labelled"), problem
    assert sorted(error["loc"] for error in problem["errors"]) == sorted(fields), problem


class TestPostingOverAQueueLabel:
    def test_the_same_label_is_answered_and_another_is_refused(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [9]}))
        team = Team(api)
        evaluation_id = team.evaluate({"one": [9]})
        queue = team.queue(evaluation_id)
        reviewer = team.reviewer(["review"])
        item = _claim(reviewer, queue["id"])
        labelled = _label(reviewer, queue["id"], item["id"], value=0.2, rationale="wrong")
        assert labelled.status_code == 201, labelled.text
        result_id, first = labelled.json()["result_id"], labelled.json()["label"]

        # The same label again, by result or by test case: the label as it stands.
        for named in (
            {"result_id": result_id},
            {"evaluation_id": evaluation_id, "test_case_id": "one", "metric": "helpful"},
        ):
            again = reviewer.post("/v1/labels", json={**named, "value": 0.2, "rationale": "wrong"})
            assert again.status_code == 200, again.text
            assert again.json()["id"] == first["id"]
            assert again.json()["selection"] == "random"
            assert again.json()["queue_id"] == queue["id"]
            assert again.json()["updated_at"] == first["updated_at"]

        # Moved towards the judge's 0.9, which the queue has shown since: refused.
        moved = reviewer.post(
            "/v1/labels", json={"result_id": result_id, "value": 0.9, "rationale": "as the judge"}
        )
        _refused(moved, "result_id")
        by_case = reviewer.post(
            "/v1/labels",
            json={
                "evaluation_id": evaluation_id,
                "test_case_id": "one",
                "metric": "helpful",
                "value": 0.2,
                "rationale": "on second thought",
            },
        )
        _refused(by_case, "test_case_id", "metric")
        assert _given(team) == [(0.2, "wrong", "random")]

    def test_an_import_of_ones_own_line_cannot_change_it_and_an_admin_restores_as_given(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [9]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [9]}))
        reviewer = team.reviewer(["review"])
        item = _claim(reviewer, queue["id"])
        result_id = _label(reviewer, queue["id"], item["id"], value=0.2).json()["result_id"]
        export = team.client.get("/v1/labels/export").text

        def imported(client: httpx.Client, body: str) -> httpx.Response:
            return client.post(
                "/v1/labels/import",
                content=body.encode(),
                headers={"Content-Type": "application/x-ndjson"},
            )

        changed = imported(reviewer, f'{{"result_id": "{result_id}", "value": 0.9}}\n')
        assert changed.status_code == 422, changed.text
        assert [error["loc"] for error in changed.json()["errors"]] == ["lines[1].result_id"]
        same = imported(reviewer, f'{{"result_id": "{result_id}", "value": 0.2}}\n')
        assert same.status_code == 200, same.text
        assert _given(team) == [(0.2, None, "random")]
        # A team admin restores an export over the labels it came from, as given.
        restored = imported(team.client, export)
        assert restored.status_code == 200, restored.text
        assert (restored.json()["created"], restored.json()["updated"]) == (0, 1)
        assert _given(team) == [(0.2, None, "random")]


class TestDeletingAQueueLabel:
    def test_the_item_returns_to_the_queue_for_others_never_to_its_reviewer(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [9]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [9]}))
        reviewer = team.reviewer(["review"])
        item = _claim(reviewer, queue["id"])
        given = _label(reviewer, queue["id"], item["id"], value=0.2).json()["label"]
        assert reviewer.delete(f"/v1/labels/{given['id']}").status_code == 204

        # The reservation went with the label: no label through it after the judge was shown.
        again = _label(reviewer, queue["id"], item["id"], value=0.9)
        assert again.status_code == 409, again.text
        assert again.json()["type"].endswith("/not-reserved")
        assert _given(team) == []
        # They have seen the judge's verdict: the item is never offered to them again (a
        # label through the queue now would be anchored on it and counted as random).
        assert reviewer.post(f"/v1/review_queues/{queue['id']}/claim").status_code == 204
        # It is back in the queue for everyone else, blind.
        other = team.reviewer(["review"])
        reclaimed = _claim(other, queue["id"])
        assert reclaimed["id"] == item["id"] and "score" not in reclaimed
        relabelled = _label(other, queue["id"], item["id"], value=0.3)
        assert relabelled.status_code == 201, relabelled.text
        assert _given(team) == [(0.3, None, "random")]

    def test_another_queue_over_the_same_results_does_not_offer_it_either(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [9]}))
        team = Team(api)
        evaluation_id = team.evaluate({"one": [9]})
        first, second = team.queue(evaluation_id), team.queue(evaluation_id)
        reviewer = team.reviewer(["review"])
        item = _claim(reviewer, first["id"])
        given = _label(reviewer, first["id"], item["id"], value=0.2).json()["label"]
        # While the label stands, the other queue offers them nothing (they labelled it).
        assert reviewer.post(f"/v1/review_queues/{second['id']}/claim").status_code == 204
        assert reviewer.delete(f"/v1/labels/{given['id']}").status_code == 204
        # Deleted after the judge was shown: still nothing, in any queue.
        assert reviewer.post(f"/v1/review_queues/{second['id']}/claim").status_code == 204
        assert _claim(team.reviewer(["review"]), second["id"])["test_case"]["id"] == "one"

    def test_the_slot_is_freed_for_another_reviewer(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"one": [9]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [9]}))
        first, second = team.reviewer(["review"]), team.reviewer(["review"])
        item = _claim(first, queue["id"])
        given = _label(first, queue["id"], item["id"], value=0.2).json()["label"]
        assert second.post(f"/v1/review_queues/{queue['id']}/claim").status_code == 204
        assert first.delete(f"/v1/labels/{given['id']}").status_code == 204

        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert (progress["labelled"], progress["remaining"]) == (0, 1), progress
        assert progress["reviewers"] == [], progress
        assert _claim(second, queue["id"])["id"] == item["id"]
        # The first reviewer's label of it now is given directly, and counted as such.
        posted = first.post(
            "/v1/labels",
            json={
                "evaluation_id": queue["evaluation_ids"][0],
                "test_case_id": "one",
                "metric": "helpful",
                "value": 0.9,
            },
        )
        assert posted.status_code == 201, posted.text
        assert (posted.json()["selection"], posted.json()["queue_id"]) == ("direct", None)


class TestAgreement:
    def test_only_labels_given_blind_count_as_routed(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"one": [5]}))
        team = Team(api)
        evaluation_id = team.evaluate({"one": [5]})
        queue = team.queue(evaluation_id, routing={"near_threshold": {"width": 0.1}})
        reviewer = team.reviewer(["review"])
        item = _claim(reviewer, queue["id"])
        labelled = _label(reviewer, queue["id"], item["id"], value=0.1, rationale="blind")
        assert labelled.status_code == 201, labelled.text
        result_id, given = labelled.json()["result_id"], labelled.json()["label"]
        version = given["metric_version"]

        def counted() -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
            agreement = team.client.get(f"/v1/metric_versions/{version}/agreement").json()
            people = [
                (label["value"], label["rationale"], label["selection"])
                for found in agreement["disagreements"]
                for label in found["labels"]
            ]
            summary = team.client.get(f"/v1/evaluations/{evaluation_id}").json()["per_metric"][0]
            return people, summary["calibrated"]

        moved = reviewer.post("/v1/labels", json={"result_id": result_id, "value": 0.5})
        _refused(moved, "result_id")
        people, calibrated = counted()
        assert people == [(0.1, "blind", "routed")]
        assert calibrated is None or calibrated["n_labels"] == 0, calibrated

        # Deleted, then given again after the judge was shown: never as routed.
        assert reviewer.delete(f"/v1/labels/{given['id']}").status_code == 204
        assert _label(reviewer, queue["id"], item["id"], value=0.9).status_code == 409
        posted = reviewer.post(
            "/v1/labels", json={"result_id": result_id, "value": 0.9, "rationale": "seen"}
        )
        assert posted.status_code == 201, posted.text
        assert (posted.json()["selection"], posted.json()["queue_id"]) == ("direct", None)
        people, calibrated = counted()
        assert people == [(0.9, "seen", "direct")]
        assert calibrated is not None and calibrated["n_labels"] == 1, calibrated


def _at_once(*requests: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Each request sent from its own thread, released together."""
    answers: list[httpx.Response | None] = [None] * len(requests)
    start = threading.Barrier(len(requests))

    def send(index: int) -> None:
        start.wait()
        answers[index] = requests[index]()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


class TestRaces:
    """Each round a reviewer holding an item sends two different labels of it at once: one is
    stored and the other refused, whichever comes first (a race needs its window: several
    rounds, each a new reviewer and item)."""

    ROUNDS = 6

    def _rounds(self, api: Api, judge: ScriptedJudge) -> tuple[Team, dict[str, Any]]:
        scores = {f"c{n}": [n % 10] for n in range(self.ROUNDS)}
        judge.script(Scores(scores))
        team = Team(api)
        return team, team.queue(team.evaluate(scores))

    def _stored(self, team: Team, case_id: str) -> dict[str, Any]:
        labels = team.client.get("/v1/labels", params={"limit": 100}).json()["data"]
        (stored,) = [label for label in labels if label["test_case_id"] == case_id]
        return stored

    def test_a_queue_label_and_a_posted_one(self, api: Api, judge: ScriptedJudge) -> None:
        team, queue = self._rounds(api, judge)
        for _ in range(self.ROUNDS):
            key = team.key(["review"])
            by_queue, by_post = api.client(key), api.client(key)
            item = _claim(by_queue, queue["id"])
            case_id = item["test_case"]["id"]
            body = {
                "evaluation_id": queue["evaluation_ids"][0],
                "test_case_id": case_id,
                "metric": "helpful",
                "value": 0.8,
            }
            queued, posted = _at_once(
                partial(_label, by_queue, queue["id"], item["id"], value=0.1),
                partial(by_post.post, "/v1/labels", json=body),
            )
            codes = sorted([queued.status_code, posted.status_code])
            assert codes in ([200, 409], [201, 409]), (queued.text, posted.text)
            stored = self._stored(team, case_id)
            if queued.status_code == 201:
                assert (stored["value"], stored["selection"]) == (0.1, "random")
            else:
                assert (stored["value"], stored["selection"]) == (0.8, "direct")

    def test_two_queue_labels(self, api: Api, judge: ScriptedJudge) -> None:
        team, queue = self._rounds(api, judge)
        for _ in range(self.ROUNDS):
            key = team.key(["review"])
            first, second = api.client(key), api.client(key)
            item = _claim(first, queue["id"])
            answers = _at_once(
                partial(_label, first, queue["id"], item["id"], value=0.1),
                partial(_label, second, queue["id"], item["id"], value=0.7),
            )
            codes = sorted(answer.status_code for answer in answers)
            assert codes == [201, 409], [answer.text for answer in answers]
            (won,) = [answer.json() for answer in answers if answer.status_code == 201]
            stored = self._stored(team, item["test_case"]["id"])
            assert stored["value"] == won["label"]["value"]
        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert progress["labelled"] == self.ROUNDS, progress
