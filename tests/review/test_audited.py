"""Claiming and giving back a review item are on the audit trail; a reservation that lapses by
itself is not (nobody acted), and answering a held item again changes nothing."""

from tests.audit.helpers import events, key_actor
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.review.helpers import Scores, Team
from tests.review.test_queues import claimed, labelled, lapse


class TestReservationsAudited:
    def test_a_claim_and_a_release_each_leave_an_event_naming_the_item_and_queue(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [6], "two": [3], "three": [8]}))
        team = Team(api)
        queue = team.queue(team.evaluate({"one": [6], "two": [3], "three": [8]}))
        key = team.key(["read", "review"])
        reviewer = api.client(key)
        first = claimed(reviewer, queue["id"])
        assert first is not None
        # The same item answered again is no new reservation.
        assert claimed(reviewer, queue["id"])["id"] == first["id"]  # type: ignore[index]
        released = reviewer.post(f"/v1/review_queues/{queue['id']}/items/{first['id']}/release")
        assert released.status_code == 204, released.text
        second = claimed(reviewer, queue["id"])
        assert second is not None and second["id"] != first["id"]
        # A reservation left to lapse goes without an event; the next claim is one.
        lapse(api, second["id"])
        third = claimed(reviewer, queue["id"])
        assert third is not None
        answer = labelled(reviewer, queue["id"], third["id"])
        assert answer.status_code == 201, answer.text
        found = list(reversed(events(team.client, object_type="review_item")))
        assert [(e["action"], e["object_id"]) for e in found] == [
            ("review_item.claim", first["id"]),
            ("review_item.release", first["id"]),
            ("review_item.claim", second["id"]),
            ("review_item.claim", third["id"]),
        ], found
        assert {e["actor"] for e in found} == {key_actor(api, key)}
        assert {e["details"]["queue_id"] for e in found} == {queue["id"]}
        assert found[3]["details"]["result_id"] == answer.json()["result_id"]
        assert "expires_at" in found[0]["details"]
        # Another team's admin reads none of them.
        assert events(api.client(api.new_key()), object_type="review_item") == []
