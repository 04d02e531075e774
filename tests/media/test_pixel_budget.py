"""LOUPE_MAX_REQUEST_IMAGE_PIXELS through the API, in both modes: a request's distinct images are
counted by the pixels their headers state, in the order the body has them, before any is
decoded; past the budget each image's every field is named and nothing is stored."""

import hashlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from redis import Redis

from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api, postgres_settings, served_api, side_app
from tests.fixtures.services import PostgresServer, RedisServer
from tests.media.loopback import LoopbackServer, Route, data_url, png
from tests.media.test_images import png_header
from tests.media.test_ingest import blob_count, case, image

BUDGET = 25_000  # two and a half 100 x 100 images
EXACT = [{"type": "exact_match"}]


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def budgeted(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Api]:
    """An app whose requests may hold BUDGET pixels of images."""
    if request.param == "embedded":
        directory = tmp_path_factory.mktemp("pixels")
        with side_app(directory, max_request_image_pixels=BUDGET) as app:
            yield app
        return
    postgres: PostgresServer = request.getfixturevalue("postgres_server")
    redis_server: RedisServer = request.getfixturevalue("redis_server")
    redis = Redis.from_url(redis_server.url)
    settings = postgres_settings(postgres, redis_server, max_request_image_pixels=BUDGET)
    try:
        with served_api(settings, redis) as app:
            yield app
    finally:
        redis.close()


def picture(color: str, size: tuple[int, int] = (100, 100)) -> bytes:
    return png(size, color=color)


def submit(api: Api, client: httpx.Client, *contents: list[Any]) -> httpx.Response:
    body = {"test_cases": [case(actual_output=content) for content in contents], "metrics": EXACT}
    return client.post("/v1/evaluations", json=body)


def digests(*images: bytes) -> set[str]:
    # Images within the judge's limits are stored byte for byte, under their own digest.
    return {hashlib.sha256(data).hexdigest() for data in images}


class TestPixelBudget:
    def test_images_past_the_budget_are_each_named_and_nothing_is_stored(
        self, budgeted: Api
    ) -> None:
        first, second, third, fourth = (picture(c) for c in ("red", "green", "blue", "white"))
        client = budgeted.tenant_client()
        response = submit(
            budgeted,
            client,
            [image(data_url(first)), image(data_url(second))],
            [image(data_url(third))],
            # Used twice: counted once, refused at both places.
            [image(data_url(fourth)), "and again", image(data_url(fourth))],
        )
        found = problem(response, 422)
        assert [(e["loc"], e["type"]) for e in found["errors"]] == [
            ("test_cases[1].actual_output[0].image_url.url", "image_request_pixels"),
            ("test_cases[2].actual_output[0].image_url.url", "image_request_pixels"),
            ("test_cases[2].actual_output[2].image_url.url", "image_request_pixels"),
        ]
        assert found["errors"][0]["msg"] == (
            f"the request's images total more than {BUDGET} pixels (LOUPE_MAX_REQUEST_IMAGE_PIXELS)"
        )
        assert client.get("/v1/evaluations").json()["data"] == []
        assert blob_count(budgeted, digests(first, second, third, fourth)) == 0

    def test_up_to_the_budget_is_accepted(self, budgeted: Api) -> None:
        whole, half = picture("navy"), picture("olive", (50, 100))
        other = picture("teal")
        client = budgeted.tenant_client()
        # 10,000 + 10,000 + 5,000: the budget exactly; a repeated image counts once.
        response = submit(
            budgeted,
            client,
            [image(data_url(whole)), image(data_url(other))],
            [image(data_url(half)), image(data_url(whole))],
        )
        assert response.status_code == 202, response.text
        assert blob_count(budgeted, digests(whole, half, other)) == 3
        # One pixel more is past it.
        wider = picture("maroon", (51, 100))
        response = submit(
            budgeted,
            client,
            [image(data_url(whole)), image(data_url(other))],
            [image(data_url(wider))],
        )
        assert [(e["loc"], e["type"]) for e in problem(response, 422)["errors"]] == [
            ("test_cases[1].actual_output[0].image_url.url", "image_request_pixels")
        ]

    def test_counted_from_the_header_before_decoding(self, budgeted: Api) -> None:
        # Claims 200 x 200 pixels (under LOUPE_MAX_IMAGE_PIXELS) but holds no image data: had it
        # been decoded it would be image_unreadable.
        response = submit(
            budgeted, budgeted.tenant_client(), [image(data_url(png_header(200, 200)))]
        )
        assert [(e["loc"], e["type"]) for e in problem(response, 422)["errors"]] == [
            ("test_cases[0].actual_output[0].image_url.url", "image_request_pixels")
        ]

    def test_fetched_images_count_in_the_order_of_the_body(self, budgeted: Api) -> None:
        first, second, third = picture("purple"), picture("silver"), picture("lime")
        with LoopbackServer() as server:
            # The first URL answers last: the count still follows the body.
            server.routes["/first.png"] = Route(body=first, delay_before=0.3)
            server.routes["/second.png"] = Route(body=second)
            server.routes["/third.png"] = Route(body=third)
            response = submit(
                budgeted,
                budgeted.tenant_client(),
                [image(server.url("/first.png"))],
                [image(data_url(picture("yellow")))],
                [image(server.url("/second.png")), image(server.url("/third.png"))],
            )
        # The data URL is counted first (10,000), then the URLs in order: 20,000, then past.
        assert [(e["loc"], e["type"]) for e in problem(response, 422)["errors"]] == [
            ("test_cases[2].actual_output[0].image_url.url", "image_request_pixels"),
            ("test_cases[2].actual_output[1].image_url.url", "image_request_pixels"),
        ]
