"""A reviewer without `read` loads the images of the items they hold or labelled, through the
API (the claim's media URLs) and the console, and no other image of the team's."""

import io
from typing import Any

import httpx
from PIL import Image

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.otlp.capture import data_url
from tests.review.helpers import G_EVAL, Scores, Team
from tests.tenants.test_every_route_is_scoped import unique_quiz_dataset


def png(color: str) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(buffer, format="PNG")
    return data_url(buffer.getvalue())


def image_url(case: dict[str, Any]) -> str:
    [_, part] = case["input"]
    return str(part["image_url"]["url"])


def path_of(url: str) -> str:
    return httpx.URL(url).path


class TestReviewerMedia:
    def test_a_reviewer_loads_the_images_of_the_items_they_hold_and_no_other(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"red": [7], "blue": [3]}))
        team = Team(api)
        cases = [
            {
                "id": name,
                "input": [
                    f"question {name}",
                    {"type": "image_url", "image_url": {"url": png(name)}},
                ],
                "actual_output": f"answer {name}",
            }
            for name in ("red", "blue")
        ]
        created = team.client.post(
            "/v1/evaluations", json={"test_cases": cases, "metrics": [G_EVAL]}
        )
        assert created.status_code == 202, created.text
        evaluation = api.wait(team.client, created.json()["id"])
        assert evaluation["status"] == "completed", evaluation
        listed = team.client.get(f"/v1/evaluations/{evaluation['id']}/test_cases").json()
        images = {case["id"]: path_of(image_url(case)) for case in listed["data"]}
        queue = team.queue(evaluation["id"])

        reviewer_key = team.key(["review"])
        reviewer = api.client(reviewer_key)
        item = reviewer.post(f"/v1/review_queues/{queue['id']}/claim").json()
        held = path_of(image_url(item["test_case"]))
        [other] = set(images.values()) - {held}
        # The claim's own link loads, with the image's bytes; the team's other image does not.
        loaded = reviewer.get(held)
        assert loaded.status_code == 200, loaded.text
        assert loaded.headers["content-type"] == "image/png"
        assert loaded.content == team.client.get(held).content
        refused = reviewer.get(other)
        assert refused.status_code == 404, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert team.client.get(other).status_code == 200

        # The console answers a reviewer's session the same.
        console = signed_in(api, reviewer_key)
        assert console.get(held.replace("/v1/", "/console/")).status_code == 200
        assert console.get(other.replace("/v1/", "/console/")).status_code == 404

        # Labelled, the item's image still loads; a reviewer who holds nothing loads none.
        answer = reviewer.post(
            f"/v1/review_queues/{queue['id']}/items/{item['id']}/label",
            json={"value": True, "rationale": "ok"},
        )
        assert answer.status_code == 201, answer.text
        assert reviewer.get(held).status_code == 200
        newcomer = team.reviewer(["review"])
        assert [newcomer.get(path).status_code for path in images.values()] == [404, 404]
        # Another tenant's reviewer holding an item of its own loads none of these.
        judge.script(Scores({"red": [7]}))
        stranger = Team(api)
        strangers_queue = stranger.queue(stranger.evaluate({"red": [7]}))
        outsider = stranger.reviewer(["review"])
        assert outsider.post(f"/v1/review_queues/{strangers_queue['id']}/claim").status_code == 200
        assert [outsider.get(path).status_code for path in images.values()] == [404, 404]

    def test_a_reviewer_cannot_reach_other_media_of_the_team_however_asked(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Another reviewer's item's image, an image of the same evaluation no item routes, a
        dataset's image: each is the 404 of a digest nobody stored, in any case of its hex, with
        If-None-Match naming its ETag or `*` (never a 304 saying it exists), on the API and the
        console; a HEAD learns no more than a GET. A released item's image is refused again."""
        # Near the threshold (0.5 ± 0.1): red and green are routed, blue is not.
        judge.script(Scores({"red": [5], "blue": [9], "green": [5]}))
        team = Team(api)
        cases = [
            {
                "id": name,
                "input": [name, {"type": "image_url", "image_url": {"url": png(name)}}],
                "actual_output": f"answer {name}",
            }
            for name in ("red", "blue", "green")
        ]
        created = team.client.post(
            "/v1/evaluations", json={"test_cases": cases, "metrics": [G_EVAL]}
        )
        assert created.status_code == 202, created.text
        evaluation = api.wait(team.client, created.json()["id"])
        listed = team.client.get(f"/v1/evaluations/{evaluation['id']}/test_cases").json()
        images = {case["id"]: path_of(image_url(case)) for case in listed["data"]}
        queue = team.queue(evaluation["id"], routing={"near_threshold": {"width": 0.1}})
        _, dataset_image = unique_quiz_dataset(team.client, rows=1)

        first_key = team.key(["review"])
        first, second = api.client(first_key), team.reviewer(["review"])
        mine = first.post(f"/v1/review_queues/{queue['id']}/claim").json()
        theirs = second.post(f"/v1/review_queues/{queue['id']}/claim").json()
        held = path_of(image_url(mine["test_case"]))
        refused = {
            "another reviewer's item": path_of(image_url(theirs["test_case"])),
            "an unrouted case": images["blue"],
            "a dataset row": f"/v1/media/{dataset_image}",
        }
        assert {held, refused["another reviewer's item"]} == {images["red"], images["green"]}
        # Each exists: the team's read key loads it.
        for path in [held, *refused.values()]:
            assert team.client.get(path).status_code == 200, path
        nobodys = "/v1/media/" + "d" * 64
        console = signed_in(api, first_key)
        for what, path in refused.items():
            digest = path.rsplit("/", 1)[1]
            for asked in (path, path.replace(digest, digest.upper())):
                for headers in ({}, {"If-None-Match": f'"{digest}"'}, {"If-None-Match": "*"}):
                    answer = first.get(asked, headers=headers)
                    assert answer.status_code == 404, (what, asked, headers, answer.status_code)
                    assert "etag" not in answer.headers, what
                    paged = console.get(asked.replace("/v1/", "/console/"), headers=headers)
                    assert paged.status_code == 404, (what, asked, headers, paged.status_code)
            assert first.head(path).status_code == first.head(nobodys).status_code, what
        # The held image loads in either case, and its ETag gives a 304.
        assert first.get(held.replace(held[-64:], held[-64:].upper())).status_code == 200
        assert first.get(held, headers={"If-None-Match": f'"{held[-64:]}"'}).status_code == 304
        released = first.post(f"/v1/review_queues/{queue['id']}/items/{mine['id']}/release")
        assert released.status_code == 204, released.text
        assert first.get(held).status_code == 404
        assert first.get(held, headers={"If-None-Match": "*"}).status_code == 404
