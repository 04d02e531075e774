"""A form Starlette cannot parse is a problem naming `body`, in the route's own dialect."""

from tests.fixtures.api import Api

# Starlette refuses a form part past 1 MB while it parses the form, before any route sees it.
TOO_LONG = "x" * (1024 * 1024 + 1)


class TestFormFaults:
    def test_a_form_part_past_starlettes_limit_names_body(self, api: Api) -> None:
        response = api.tenant_client().post(
            "/v1/datasets", data={"format": TOO_LONG}, files={"file": ("a.jsonl", b"{}\n")}
        )
        assert response.status_code == 400, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        problem = response.json()
        assert problem["type"] == "https://loupe.dev/problems/malformed-body"
        assert [(e["loc"], e["type"]) for e in problem["errors"]] == [("body", "malformed_body")]
        assert "1024KB" in problem["errors"][0]["msg"]

    def test_on_an_openai_route_it_names_body_as_param(self, api: Api) -> None:
        response = api.tenant_client().post(
            "/v1/files", data={"purpose": TOO_LONG}, files={"file": ("a.jsonl", b"{}\n")}
        )
        assert response.status_code == 400, response.text
        assert response.json()["error"]["param"] == "body"
