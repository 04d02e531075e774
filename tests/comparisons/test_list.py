"""GET /v1/comparisons on both backends: the tenant's comparisons newest first in keyset pages
(`limit`, `after`), never another tenant's (not even past its id as a cursor), and a cursor
that is not a comparison's id refused as a problem naming `after`."""

from typing import Any

import httpx

from tests.comparisons.helpers import compare, outcomes
from tests.fixtures.api import Api
from tests.test_problems import locs, problem


def compared(api: Api, client: httpx.Client, count: int) -> list[str]:
    """Ids of `count` comparisons of two completed evaluations, newest first."""
    baseline = outcomes(api, client, [True, True])
    candidate = outcomes(api, client, [True, False])
    made = []
    for alpha in (0.05, 0.01, 0.1, 0.2)[:count]:
        response = compare(client, baseline, candidate, alpha=alpha)
        assert response.status_code == 200, response.text
        made.append(response.json()["id"])
    return sorted(made, reverse=True)


def listed(client: httpx.Client, **params: Any) -> dict[str, Any]:
    response = client.get("/v1/comparisons", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def ids(page: dict[str, Any]) -> list[str]:
    return [comparison["id"] for comparison in page["data"]]


class TestList:
    def test_newest_first_in_pages(self, api: Api) -> None:
        client = api.tenant_client()
        assert listed(client) == {
            "object": "list",
            "data": [],
            "first_id": None,
            "last_id": None,
            "has_more": False,
        }
        made = compared(api, client, 3)

        whole = listed(client)
        assert ids(whole) == made and whole["has_more"] is False
        # Each as its own GET reads it.
        assert whole["data"][0] == client.get(f"/v1/comparisons/{made[0]}").json()

        first = listed(client, limit=2)
        assert ids(first) == made[:2] and first["has_more"] is True
        assert (first["first_id"], first["last_id"]) == (made[0], made[1])
        rest = listed(client, limit=2, after=first["last_id"])
        assert ids(rest) == made[2:] and rest["has_more"] is False
        assert listed(client, after=made[2])["data"] == []

        # A deleted comparison leaves the list; a cursor naming it still has its place.
        assert client.delete(f"/v1/comparisons/{made[1]}").status_code == 204
        assert ids(listed(client)) == [made[0], made[2]]
        assert ids(listed(client, after=made[1])) == [made[2]]

    def test_another_tenants_are_never_listed(self, api: Api) -> None:
        mine, theirs = api.tenant_client(), api.tenant_client()
        own = compared(api, mine, 2)
        other = compared(api, theirs, 1)
        assert ids(listed(mine)) == own
        assert ids(listed(theirs)) == other
        # Their id as a cursor pages through my comparisons older than it: none of theirs.
        assert ids(listed(mine, after=other[0])) == [i for i in own if i < other[0]]
        assert ids(listed(theirs, after="cmp_zzzz")) == other

    def test_a_bad_cursor_is_a_problem_naming_after(self, api: Api) -> None:
        client = api.tenant_client()
        for after in ("nope", "ds_01a2", "evn_01a2"):
            body = problem(client.get("/v1/comparisons", params={"after": after}), 400)
            assert body["type"].endswith("/bad-cursor") and body["detail"].startswith("after: ")
            assert locs(body) == ["query.after"]
        # Named with the other parameters' faults in one answer.
        body = problem(client.get("/v1/comparisons", params={"after": "nope", "limit": 0}), 422)
        assert sorted(locs(body)) == ["query.after", "query.limit"]
        body = problem(client.get("/v1/comparisons", params={"limit": 101}), 422)
        assert locs(body) == ["query.limit"]
