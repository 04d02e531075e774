"""A route's error dialect is its router's declaration, never a guess from the URL."""

from fastapi.routing import iter_route_contexts

from app.main import create_app
from tests.fixtures.api import Api


class TestErrorDialect:
    def test_the_openai_compatible_routers_declare_it(self) -> None:
        routes = [context for context in iter_route_contexts(create_app().routes) if context.path]
        openai = {
            context.path
            for context in routes
            if getattr(context.route, "error_dialect", "problem") == "openai"
        }
        assert "/v1/evals/{eval_id}/runs/{run_id}/cancel" in openai and "/v1/files" in openai
        assert openai == {
            context.path
            for context in routes
            if context.path in ("/v1/evals", "/v1/files")
            or context.path.startswith(("/v1/evals/", "/v1/files/"))
        }

    def test_a_bad_body_on_an_openai_route_is_a_400_with_its_error_member(self, api: Api) -> None:
        response = api.tenant_client().post("/v1/evals", json={"testing_criteria": "nope"})
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["status"] == 400 and body["error"]["type"] == "invalid_request_error"

    def test_a_path_no_route_takes_answers_a_plain_problem(self, api: Api) -> None:
        # It only begins like an OpenAI route: a URL prefix used to give it OpenAI's member.
        response = api.tenant_client().get("/v1/evalsx")
        assert response.status_code == 404
        assert "error" not in response.json()

    def test_a_loupe_route_keeps_its_422(self, api: Api) -> None:
        response = api.tenant_client().post("/v1/evaluations", json={"test_cases": "nope"})
        assert response.status_code == 422
        assert "error" not in response.json()
