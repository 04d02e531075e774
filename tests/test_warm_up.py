"""A serving process warms up before it answers (app/main.py `warm_up`): every console
template compiled, every route resolved, so the first visitor of a page or an endpoint does not
wait for what FastAPI and Jinja would otherwise do on first use. Each case runs in a process of
its own: a process's first request is what is checked."""

import json
from pathlib import Path

from tests.test_heap import last_line

# The templates compiled once the app is made, and the routes FastAPI resolves (their
# dependencies and response fields): while the app is made, then on its first requests.
CHECKS = """
from fastapi import routing
from fastapi.testclient import TestClient

resolved = []
resolve = routing._EffectiveRouteContext.from_api_route.__func__

def counted(cls, **arguments):
    resolved.append(arguments["original_route"].path)
    return resolve(cls, **arguments)

routing._EffectiveRouteContext.from_api_route = classmethod(counted)
app = make_app()
at_start = len(resolved)

from app.console._render import templates

names = templates.env.list_templates(extensions=["html"])
compiled = {key[1] for key in templates.env.cache}
with TestClient(app) as client:
    assert client.get("/console/sign-in").status_code == 200
    assert client.get("/v1/evaluations").status_code == 401
checks = [[len(names), sorted(set(names) - compiled)], [at_start, resolved[at_start:]]]
print(json.dumps(checks))
"""


def run(code: str, tmp_path: Path) -> list:
    return json.loads(last_line(f"import json\n{code}", tmp_path))


class TestWarmUp:
    def test_a_served_app_compiled_every_template_and_its_first_requests_resolve_no_route(
        self, tmp_path: Path
    ) -> None:
        make = "from app.cli.service import served_app as make_app\n"
        (count, missing), (at_start, on_requests) = run(make + CHECKS, tmp_path)
        assert count > 30 and missing == []
        assert at_start > 100
        assert on_requests == []

    def test_an_app_not_warmed_does_both_on_first_use(self, tmp_path: Path) -> None:
        make = "from app.main import create_app as make_app\n"
        (count, missing), (_, on_requests) = run(make + CHECKS, tmp_path)
        assert len(missing) == count
        assert "/v1/evaluations" in on_requests and "/console/sign-in" in on_requests
