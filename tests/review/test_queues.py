"""Review queues through the HTTP API (issue 29 item 3): routing near the threshold, fragile
items, the lowest scores and a seeded audit share; reviewers per item enforced on the server
(concurrent claims included); lapsed reservations; blind claims and the judge's verdict after
labelling; scopes and tenant isolation; audit events; labels outliving the queue."""

import json
import threading
import uuid
from collections import defaultdict
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.db import utcnow
from app.models import AuditEvent, Label, ReviewAssignment, ReviewItem
from app.review.routing import audit_draw
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span
from tests.review.helpers import G_EVAL, Scores, Team

PROBLEM_JSON = "application/problem+json"


def claimed(client: httpx.Client, queue_id: str) -> dict[str, Any] | None:
    response = client.post(f"/v1/review_queues/{queue_id}/claim")
    if response.status_code == 204:
        return None
    assert response.status_code == 200, response.text
    return response.json()


def labelled(
    client: httpx.Client, queue_id: str, item_id: str, value: Any = True, rationale: str = "ok"
) -> httpx.Response:
    return client.post(
        f"/v1/review_queues/{queue_id}/items/{item_id}/label",
        json={"value": value, "rationale": rationale},
    )


def keys_of(body: Any) -> set[str]:
    """Every key anywhere in a JSON body."""
    if isinstance(body, dict):
        return set(body) | {key for value in body.values() for key in keys_of(value)}
    if isinstance(body, list):
        return {key for value in body for key in keys_of(value)}
    return set()


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    return response.json()


def lapse(api: Api, item_id: str) -> None:
    """Move every reservation of the item into the past (no sleeping for minutes)."""
    with api.served.runtime.session() as session:
        session.execute(
            update(ReviewAssignment)
            .where(ReviewAssignment.item_id == item_id, ReviewAssignment.status == "reserved")
            .values(expires_at=utcnow() - timedelta(minutes=1))
        )
        session.commit()


class TestRouting:
    def test_routed_items_come_first_with_their_reasons_then_the_seeded_audit_share(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        scores = {
            "near": [5],
            "shaky": [2, 8, 9],
            "low": [1],
            "lowish": [2],
            **{f"high{n}": [9] for n in range(6)},
        }
        judge.script(Scores(scores))
        team = Team(api)
        evaluation_id = team.evaluate(scores, samples=3)
        queue = team.queue(
            evaluation_id,
            routing={
                "near_threshold": {"width": 0.1},
                "fragile": True,
                "lowest": {"share": 0.2},
                "audit_share": 0.5,
            },
        )
        results = team.client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"]
        by_case = {row["test_case_id"]: row for row in results}
        assert by_case["shaky"]["fragile"] is True
        audited = {
            name
            for name in scores
            if name.startswith("high") and audit_draw(queue["id"], by_case[name]["id"]) < 0.5
        }
        routed = {"near": "near_threshold", "shaky": "fragile", "low": "lowest", "lowish": "lowest"}
        assert queue["progress"]["items"] == len(routed) + len(audited)
        assert queue["progress"]["remaining"] == queue["progress"]["items"]

        reviewer = team.reviewer()
        order: list[tuple[str, str]] = []
        while (item := claimed(reviewer, queue["id"])) is not None:
            case = item["test_case"]["id"]
            answer = labelled(reviewer, queue["id"], item["id"])
            assert answer.status_code == 201, answer.text
            order.append((case, answer.json()["reason"]))
            assert answer.json()["selection"] == (
                "random" if answer.json()["reason"] == "audit" else "routed"
            )
        assert dict(order[: len(routed)]) == routed
        assert dict(order[len(routed) :]) == dict.fromkeys(audited, "audit")

        done = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert done["labelled"] == done["items"] and done["remaining"] == 0
        assert done["in_progress"] == 0
        [mine] = done["reviewers"]
        assert mine["labelled"] == done["items"] and mine["reserved"] == 0
        assert mine["actor"].startswith("key:") and mine["name"]

        # The same queue made again draws the same audit share only if seeded the same way:
        # the draw is per queue and item, so each queue's audit sample is its own but stable.
        again = team.client.get(f"/v1/review_queues/{queue['id']}").json()
        assert again["progress"]["items"] == queue["progress"]["items"]

    def test_the_claim_is_blind_and_the_label_answer_has_the_judge(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"only": [7]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"only": [7]}))
        reviewer = team.reviewer()
        item = claimed(reviewer, queue["id"])
        assert item is not None
        assert not {"score", "reason", "passed", "judge"} & keys_of(item)
        assert "The judge gives" not in json.dumps(item)
        assert item["test_case"]["input"] == "question only"
        assert item["scale"] == {"min": 0.0, "max": 1.0} and item["threshold"] == 0.5
        answer = labelled(reviewer, queue["id"], item["id"], value=0.6, rationale="fine")
        assert answer.status_code == 201, answer.text
        body = answer.json()
        assert body["judge"] == {
            "score": 0.7,
            "passed": True,
            "threshold": 0.5,
            "reason": "The judge gives only 7 of 10.",
        }
        assert body["label"]["value"] == 0.6 and body["label"]["rationale"] == "fine"
        # A value off the metric's scale is refused naming `value`, and nothing is stored.
        other = team.queue(queue["evaluation_ids"][0])
        second = team.reviewer()
        again = claimed(second, other["id"])
        assert again is not None
        refused = problem(labelled(second, other["id"], again["id"], value=3), 422)
        assert [error["pointer"] for error in refused["errors"]] == ["/value"]
        assert labelled(second, other["id"], again["id"], value=1).status_code == 201


class TestOnlineRules:
    def test_an_online_rules_new_results_are_taken_in_at_claim_time(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        team = Team(api)
        rule = make_rule(team.client, metrics=[G_EVAL])
        first = {"resourceSpans": [semconv_span("00f067aa0ba902b7", "app", "Capital of France?")]}
        assert team.client.post("/v1/traces", json=first).status_code == 200
        judged_results(api, team.client, rule["id"], 1)
        response = team.client.post(
            "/v1/review_queues",
            json={
                "name": "production answers",
                "online_rule_ids": [rule["id"]],
                "metric": "helpful",
                "routing": {"audit_share": 1},
            },
        )
        assert response.status_code == 201, response.text
        queue = response.json()
        assert queue["progress"]["items"] == 1
        reviewer = team.reviewer()
        item = claimed(reviewer, queue["id"])
        assert item is not None and "Capital of France?" in json.dumps(item["test_case"])
        assert labelled(reviewer, queue["id"], item["id"]).status_code == 201
        assert claimed(reviewer, queue["id"]) is None
        # The rule keeps judging production calls: the next claim takes the new one in.
        second = {"resourceSpans": [semconv_span("00f067aa0ba902b8", "app", "Capital of Peru?")]}
        assert team.client.post("/v1/traces", json=second).status_code == 200
        judged_results(api, team.client, rule["id"], 2)
        item = claimed(reviewer, queue["id"])
        assert item is not None and "Capital of Peru?" in json.dumps(item["test_case"])
        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert progress["items"] == 2 and progress["labelled"] == 1


class TestReviewersPerItem:
    def test_two_people_get_the_item_a_third_does_not_and_nobody_twice(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6]}), reviewers_per_item=2)
        first, second, third = team.reviewer(), team.reviewer(), team.reviewer()
        item = claimed(first, queue["id"])
        assert item is not None
        # Claiming again while holding it gives the same reservation back.
        assert claimed(first, queue["id"])["id"] == item["id"]
        assert claimed(second, queue["id"])["id"] == item["id"]
        assert claimed(third, queue["id"]) is None
        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert progress["in_progress"] == 1 and progress["remaining"] == 0
        assert labelled(first, queue["id"], item["id"]).status_code == 201
        # The same person never gets it twice, and the third still cannot have it.
        assert claimed(first, queue["id"]) is None
        assert claimed(third, queue["id"]) is None
        assert labelled(second, queue["id"], item["id"], value=False).status_code == 201
        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert progress["labelled"] == 1 and progress["in_progress"] == 0
        assert sorted(r["labelled"] for r in progress["reviewers"]) == [1, 1]
        problem(labelled(third, queue["id"], item["id"]), 409)

    def test_a_released_item_goes_to_another_not_back(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6]}))
        first, second = team.reviewer(), team.reviewer()
        item = claimed(first, queue["id"])
        assert item is not None and claimed(second, queue["id"]) is None
        released = first.post(f"/v1/review_queues/{queue['id']}/items/{item['id']}/release")
        assert released.status_code == 204, released.text
        assert claimed(first, queue["id"]) is None
        assert claimed(second, queue["id"])["id"] == item["id"]
        problem(first.post(f"/v1/review_queues/{queue['id']}/items/{item['id']}/release"), 409)

    def test_a_lapsed_reservation_returns_the_item(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6]}), reservation_minutes=5)
        first, second = team.reviewer(), team.reviewer()
        item = claimed(first, queue["id"])
        assert item is not None and claimed(second, queue["id"]) is None
        lapse(api, item["id"])
        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert progress["remaining"] == 1 and progress["in_progress"] == 0
        assert claimed(second, queue["id"])["id"] == item["id"]
        # Its first holder's reservation went to the second: their label is refused.
        refused = problem(labelled(first, queue["id"], item["id"]), 409)
        assert refused["errors"][0]["loc"] == "path.item_id"
        assert labelled(second, queue["id"], item["id"]).status_code == 201

    def test_concurrent_claims_never_over_assign(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"a": [6], "b": [4]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"a": [6], "b": [4]}), reviewers_per_item=2)
        reviewers = [team.reviewer() for _ in range(8)]
        got: list[dict[str, Any] | None] = [None] * len(reviewers)
        start = threading.Barrier(len(reviewers))

        def claim(index: int) -> None:
            start.wait()
            got[index] = claimed(reviewers[index], queue["id"])

        threads = [threading.Thread(target=claim, args=(n,)) for n in range(len(reviewers))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        per_item: dict[str, int] = defaultdict(int)
        for item in got:
            if item is not None:
                per_item[item["id"]] += 1
        # Two items, two people each: four claims served, none over, the rest told nothing left.
        assert sorted(per_item.values()) == [2, 2]
        assert sum(item is None for item in got) == 4
        with api.served.runtime.session() as session:
            rows = session.execute(
                select(ReviewAssignment.item_id, ReviewAssignment.slot).where(
                    ReviewAssignment.queue_id == queue["id"]
                )
            ).all()
        assert sorted(slot for _, slot in rows) == [0, 0, 1, 1]

    def test_one_person_claiming_at_once_holds_one_item(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        scores = {f"c{n}": [n % 10] for n in range(12)}
        judge.script(Scores(scores))
        team = Team(api)
        queue = team.queue(team.evaluate(scores))
        # Rounds of one person's four claims at once, each round a new person (a race needs
        # its window: several tries).
        for _ in range(6):
            reviewer = team.key(["review"])
            clients = [api.client(reviewer) for _ in range(4)]
            got: list[dict[str, Any] | None] = [None] * len(clients)
            start = threading.Barrier(len(clients))

            def claim(
                index: int,
                clients: list[httpx.Client],
                got: list[dict[str, Any] | None],
                start: threading.Barrier,
            ) -> None:
                start.wait()
                got[index] = claimed(clients[index], queue["id"])

            threads = [
                threading.Thread(target=claim, args=(n, clients, got, start))
                for n in range(len(clients))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            # Every claim gives back the one item the person holds.
            assert all(item is not None for item in got), got
            assert len({item["id"] for item in got if item is not None}) == 1, got
        with api.served.runtime.session() as session:
            held = session.scalars(
                select(ReviewAssignment.actor).where(
                    ReviewAssignment.queue_id == queue["id"], ReviewAssignment.status == "reserved"
                )
            ).all()
        assert len(held) == len(set(held)) == 6
        progress = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert progress["in_progress"] == 6 and progress["remaining"] == 6

    def test_the_database_refuses_a_second_reservation_of_one_person(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"a": [6], "b": [4]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"a": [6], "b": [4]}))
        item = claimed(team.reviewer(), queue["id"])
        assert item is not None
        with api.served.runtime.session() as session:
            first = session.scalars(
                select(ReviewAssignment).where(ReviewAssignment.queue_id == queue["id"])
            ).one()
            other = session.scalars(
                select(ReviewItem.id).where(
                    ReviewItem.queue_id == queue["id"], ReviewItem.id != first.item_id
                )
            ).one()
            session.add(
                ReviewAssignment(
                    id=f"rqa_{uuid.uuid4().hex[:20]}",
                    tenant_id=first.tenant_id,
                    queue_id=first.queue_id,
                    item_id=other,
                    actor=first.actor,
                    slot=0,
                    status="reserved",
                    expires_at=first.expires_at,
                    created_at=first.created_at,
                )
            )
            with pytest.raises(IntegrityError):
                session.flush()


class TestValidation:
    def test_every_field_at_fault_is_named(self, api: Api) -> None:
        team = Team(api)
        response = team.client.post(
            "/v1/review_queues",
            json={
                "name": "",
                "evaluation_ids": ["evn_nope"],
                "online_rule_ids": ["rule_nope"],
                "metric": "helpful",
                "routing": {"audit_share": 2},
                "reviewers_per_item": 6,
                "reservation_minutes": 0,
            },
        )
        body = problem(response, 422)
        named = {error["pointer"] for error in body["errors"]}
        assert {
            "/name",
            "/evaluation_ids/0",
            "/online_rule_ids/0",
            "/routing/audit_share",
            "/reviewers_per_item",
            "/reservation_minutes",
        } <= named, body

    def test_a_metric_no_source_has_and_routing_that_picks_nothing(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        evaluation_id = team.evaluate({"one": [6]})
        response = team.client.post(
            "/v1/review_queues",
            json={
                "name": "q",
                "evaluation_ids": [evaluation_id],
                "metric": "kindness",
                "routing": {},
            },
        )
        named = {error["pointer"] for error in problem(response, 422)["errors"]}
        assert named == {"/metric", "/routing"}
        response = team.client.post(
            "/v1/review_queues",
            json={"name": "q", "metric": "helpful", "routing": {"fragile": True}},
        )
        named = {error["pointer"] for error in problem(response, 422)["errors"]}
        assert named == {"/evaluation_ids", "/online_rule_ids"}


class TestAccess:
    def test_a_viewer_key_is_refused_naming_review(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6]}))
        viewer = team.reviewer(["read"])
        assert viewer.get(f"/v1/review_queues/{queue['id']}").status_code == 200
        for path in ("claim", "items/rqi_x/label", "items/rqi_x/release"):
            refused = problem(
                viewer.post(f"/v1/review_queues/{queue['id']}/{path}", json={"value": True}), 403
            )
            assert "`review`" in refused["detail"]
        # A reviewer may not make or delete queues.
        reviewer = team.reviewer()
        problem(reviewer.delete(f"/v1/review_queues/{queue['id']}"), 403)
        # A key with `review` alone finds its queues (the console's reviewers see them), and
        # reads no evaluation.
        blind = team.reviewer(["review"])
        listed = blind.get("/v1/review_queues")
        assert listed.status_code == 200, listed.text
        assert [row["id"] for row in listed.json()["data"]] == [queue["id"]]
        assert blind.get(f"/v1/review_queues/{queue['id']}").json()["id"] == queue["id"]
        problem(blind.get(f"/v1/evaluations/{queue['evaluation_ids'][0]}"), 403)

    def test_another_tenants_queue_and_items_are_not_found(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6]}))
        item = claimed(team.reviewer(), queue["id"])
        assert item is not None
        stranger = Team(api)
        base = f"/v1/review_queues/{queue['id']}"
        for response in (
            stranger.client.get(base),
            stranger.client.delete(base),
            stranger.client.post(f"{base}/claim"),
            labelled(stranger.client, queue["id"], item["id"]),
            stranger.client.post(f"{base}/items/{item['id']}/release"),
        ):
            problem(response, 404)
        assert stranger.client.get("/v1/review_queues").json()["data"] == []
        # Its own queue cannot reach the other tenant's item either.
        judge.script(Scores({"one": [6]}))
        own = stranger.queue(stranger.evaluate({"one": [6]}))
        problem(labelled(stranger.client, own["id"], item["id"]), 404)
        # Nor can a queue be fed another tenant's evaluation.
        response = stranger.client.post(
            "/v1/review_queues",
            json={
                "name": "q",
                "evaluation_ids": queue["evaluation_ids"],
                "metric": "helpful",
                "routing": {"audit_share": 1},
            },
        )
        assert problem(response, 422)["errors"][0]["pointer"] == "/evaluation_ids/0"


class TestLifecycle:
    def test_a_retried_create_makes_one_queue(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(Scores({"one": [6]}))
        team = Team(api)
        body = {
            "name": "retried",
            "evaluation_ids": [team.evaluate({"one": [6]})],
            "metric": "helpful",
            "routing": {"audit_share": 1},
        }
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        first = team.client.post("/v1/review_queues", json=body, headers=headers)
        again = team.client.post("/v1/review_queues", json=body, headers=headers)
        assert first.status_code == again.status_code == 201, again.text
        assert again.json()["id"] == first.json()["id"]
        assert len(team.client.get("/v1/review_queues").json()["data"]) == 1

    def test_items_of_a_deleted_evaluation_are_no_longer_offered(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6], "two": [4]}))
        team = Team(api)
        evaluations = {"one": team.evaluate({"one": [6]}), "two": team.evaluate({"two": [4]})}
        queue = team.queue("", evaluation_ids=list(evaluations.values()))
        reviewer = team.reviewer()
        held = claimed(reviewer, queue["id"])
        assert held is not None
        gone = held["test_case"]["id"]
        assert team.client.delete(f"/v1/evaluations/{evaluations[gone]}").status_code == 204
        # The held item's result is gone: the claim gives it up and offers the other one.
        item = claimed(reviewer, queue["id"])
        assert item is not None and item["test_case"]["id"] == ({"one", "two"} - {gone}).pop()
        assert labelled(reviewer, queue["id"], item["id"]).status_code == 201
        assert claimed(reviewer, queue["id"]) is None

    def test_progress_counts_no_item_whose_result_is_gone(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6], "two": [4]}))
        team = Team(api)
        evaluations = [team.evaluate({"one": [6]}), team.evaluate({"two": [4]})]
        queue = team.queue("", evaluation_ids=evaluations)
        reviewer = team.reviewer()
        assert claimed(reviewer, queue["id"]) is not None
        before = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert (before["items"], before["in_progress"], before["remaining"]) == (2, 1, 1)
        for evaluation_id in evaluations:
            assert team.client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 204
        assert claimed(reviewer, queue["id"]) is None
        after = team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]
        assert (after["items"], after["labelled"], after["in_progress"]) == (0, 0, 0)
        assert after["remaining"] == 0
        assert [r["reserved"] for r in after["reviewers"]] in ([], [0]), after

    def test_deleting_a_queue_keeps_its_labels_and_is_audited(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6], "two": [3]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6], "two": [3]}))
        listed = team.client.get("/v1/review_queues").json()
        assert [row["id"] for row in listed["data"]] == [queue["id"]]
        reviewer = team.reviewer()
        item = claimed(reviewer, queue["id"])
        assert item is not None
        answer = labelled(reviewer, queue["id"], item["id"]).json()
        assert team.client.delete(f"/v1/review_queues/{queue['id']}").status_code == 204
        problem(team.client.get(f"/v1/review_queues/{queue['id']}"), 404)
        kept = team.client.get(f"/v1/labels/{answer['label']['id']}")
        assert kept.status_code == 200
        with api.served.runtime.session() as session:
            actions = session.scalars(
                select(AuditEvent.action)
                .where(AuditEvent.object_id == queue["id"])
                .order_by(AuditEvent.id)
            ).all()
            label = session.get(Label, answer["label"]["id"])
            assert label is not None and label.selection == "random"
            assert label.queue_id == queue["id"]
        assert actions == ["review_queue.create", "review_queue.delete"]
