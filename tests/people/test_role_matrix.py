"""Role × console route: each role, signed in through the real provider, on every console route
the app has (read from the app itself, so a new page or action cannot be left out). Every page
is read by viewers, members and admins (the Audit and Keys pages by admins only, the Operator
page by operators only, the Review list by people with `review`); a reviewer holds `review`
alone (issue 29: blind), so every page needing `read` is a 403 for them, the evaluations (the
console's landing) send them on to the Review list, and their navigation links only to Review
and Teams; a form's action is refused (403 page naming `write`) for viewers and reviewers and
reaches the action for members and admins; the Members and Keys pages' actions need `admin`.
People's roles apply to the console; the API is called with keys and their scopes."""

import re

import httpx
import pytest
from fastapi.routing import iter_route_contexts

from app.main import create_app
from app.people.roles import ROLE_SCOPES
from tests.fixtures.api import Api, fast_settings
from tests.people.provider import Provider, csrf_of, signed_in

CONTEXTS = list(iter_route_contexts(create_app(fast_settings()).routes))
# Routes any signed-in person (or nobody) may use: signing in and out, and picking a team.
OPEN = {"/console/sign-in", "/console/sign-out", "/console/teams", "/console/oidc/start"}
OPEN |= {"/console/oidc/callback"}
ADMIN_ONLY = {
    "/console/members",
    "/console/members/remove",
    "/console/members/invitations/withdraw",
    "/console/keys",
    "/console/keys/revoke",
    # A team's online rules are changed by its admins (app/console/online_admin_pages.py).
    "/console/online_rules",
    "/console/online_rules/{rule_id}/settings",
    "/console/online_rules/{rule_id}/enable",
    "/console/online_rules/{rule_id}/disable",
    "/console/online_rules/{rule_id}/delete",
}
# Review items are claimed, labelled and given back by people with `review`: reviewers,
# members, admins (app/console/review_pages.py).
REVIEW_ACTIONS = {
    "/console/review/{queue_id}/claim",
    "/console/review/{queue_id}/items/{item_id}/label",
    "/console/review/{queue_id}/items/{item_id}/release",
}
# Pages for a team's admins alone (who did what, the keys), and the operator's (none of these
# roles is an operator).
ADMIN_PAGES = {"/console/keys", "/console/audit", "/console/limits"}
# Pages for people with `review` (reviewers, members, admins), not viewers.
REVIEW_PAGES = {"/console/review"}
# The console's landing (and `/console/`, which leads there): a reviewer is sent on to Review.
LANDING = {"/console/", "/console/evaluations"}
OPERATOR_PAGES = {"/console/operator"}
GROUPS = {"viewer": "ml-read", "reviewer": "ml-review", "member": "ml", "admin": "ml-admins"}


def console_routes(method: str) -> list[str]:
    return sorted(
        {
            context.path
            for context in CONTEXTS
            if (context.path or "").startswith("/console/")
            and method in (context.methods or set())
            and context.path not in OPEN
        }
    )


def fill(path: str) -> str:
    """A path with made-up ids: the role is checked before any object is looked up."""
    return re.sub(r"\{index\}", "0", re.sub(r"\{[a-z_0-9]+\}", "missing", path))


@pytest.fixture(scope="module")
def people(loupe: Api, idp: Provider) -> dict[str, tuple[httpx.Client, str]]:
    found = {}
    for role, group in GROUPS.items():
        client, _ = signed_in(loupe, idp, group)
        found[role] = (client, csrf_of(client.get("/console/teams").text))
    return found


@pytest.mark.parametrize("role", list(GROUPS))
def test_every_page_is_read_by_every_role(
    people: dict[str, tuple[httpx.Client, str]], role: str
) -> None:
    client, _ = people[role]
    pages = [path for path in console_routes("GET") if "{" not in path]
    assert "/console/members" in pages and "/console/evaluations" in pages
    for path in pages:
        answer = client.get(path, follow_redirects=True)
        refused = path in ADMIN_PAGES and role != "admin"
        refused |= path in OPERATOR_PAGES
        refused |= path in REVIEW_PAGES and role == "viewer"
        # A reviewer reads nothing but the Review pages (the landing sends them there).
        refused |= role == "reviewer" and path not in REVIEW_PAGES | LANDING
        assert answer.status_code == (403 if refused else 200), f"{role} {path}"
        if refused and role == "reviewer" and path not in ADMIN_PAGES | OPERATOR_PAGES:
            assert "needs the `read` scope" in answer.text, f"{role} {path}"
    landing = client.get("/console/evaluations")
    if role == "reviewer":
        assert landing.status_code == 303 and landing.headers["location"] == "/console/review"
        assert client.get("/console", follow_redirects=True).url.path == "/console/review"
    else:
        assert landing.status_code == 200, f"{role}"
    # The navigation links only to the pages a role may open.
    nav = client.get("/console/teams").text.split("</nav>")[0]
    for path in ADMIN_PAGES:
        assert (f'href="{path}"' in nav) == (role == "admin"), f"{role} {path}"
    for path in ("/console/evaluations", "/console/members", "/console/datasets"):
        assert (f'href="{path}"' in nav) == (role != "reviewer"), f"{role} {path}"
    assert ('href="/console/review"' in nav) == (role != "viewer"), f"{role}"
    assert 'href="/console/teams"' in nav


# Pages of one object for people with `review` (the queue and its items); the images and audio
# of test cases load with `read` or `review` (a reviewer's only those of items they hold, else
# 404, as for an image nobody stored).
REVIEW_OBJECT_PAGES = {"/console/review/{queue_id}", "/console/review/{queue_id}/items/{item_id}"}
MEDIA = {"/console/media/{sha256}"}
# Pages of one object for a team's admins alone: deleting an online rule asks first.
ADMIN_OBJECT_PAGES = {"/console/online_rules/{rule_id}/delete"}


def _needs(path: str) -> str | None:
    """The scope a page of one object needs (None: `read` or `review`)."""
    if path in MEDIA:
        return None
    if path in ADMIN_OBJECT_PAGES:
        return "admin"
    return "review" if path in REVIEW_OBJECT_PAGES else "read"


@pytest.mark.parametrize("role", list(GROUPS))
def test_every_page_of_an_object_checks_the_role_first(
    people: dict[str, tuple[httpx.Client, str]], role: str
) -> None:
    """Each page showing one object (every GET route of the app with a parameter, so a new one
    cannot be left out) is the 403 page naming its scope for a role without it, before the
    made-up id is looked up, and reaches the lookup (a 4xx that is not a 403) for one with it."""
    client, _ = people[role]
    pages = [path for path in console_routes("GET") if "{" in path]
    assert set(pages) >= REVIEW_OBJECT_PAGES | MEDIA | ADMIN_OBJECT_PAGES
    for path in pages:
        needs = _needs(path)
        answer = client.get(fill(path))
        if needs is None or needs in ROLE_SCOPES[role]:
            assert answer.status_code != 403, f"{role} {path}: {answer.text[:300]}"
        else:
            assert answer.status_code == 403, f"{role} {path}: {answer.status_code}"
            assert f"needs the `{needs}` scope" in answer.text, f"{role} {path}"


@pytest.mark.parametrize(
    "path",
    [
        "/console/evaluations/missing",
        "/console/evaluations/missing/export",
        "/console/runs/missing",
    ],
)
def test_a_reviewer_reads_no_judged_result(
    people: dict[str, tuple[httpx.Client, str]], path: str
) -> None:
    """Blind: the pages (and exports) that show a judge's score need `read`, which a reviewer
    lacks; the role is checked before the object is looked up."""
    client, _ = people["reviewer"]
    answer = client.get(path)
    assert answer.status_code == 403 and "needs the `read` scope" in answer.text, answer.text


@pytest.mark.parametrize("role", list(GROUPS))
def test_every_action_checks_the_role(
    people: dict[str, tuple[httpx.Client, str]], role: str
) -> None:
    client, token = people[role]
    actions = console_routes("POST")
    assert "/console/evaluations/{evaluation_id}/cancel" in actions
    for path in actions:
        needs = "admin" if path in ADMIN_ONLY else "review" if path in REVIEW_ACTIONS else "write"
        allowed = role == "admin" or (needs == "write" and role == "member")
        allowed |= needs == "review" and role != "viewer"
        answer = client.post(fill(path), data={"csrf_token": token})
        if allowed:
            assert answer.status_code != 403, f"{role} {path}: {answer.text[:300]}"
        else:
            assert answer.status_code == 403, f"{role} {path}: {answer.status_code}"
            assert f"needs the `{needs}` scope" in answer.text, answer.text[:300]
