"""Console pages over HTTP: sessions, CSRF, headers, escaping, tenants (both backends)."""

import base64
import json
import re
import subprocess
import time
import uuid
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select, text, update

from app import runtime as runtime_module
from app.db import utcnow
from app.models import ApiKey, SignedOutSession
from tests.console.helpers import csrf_of, signed_in
from tests.evaluations.test_reading import image, png
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.fixtures.services import free_port
from tests.runs.helpers import wait_run
from tests.workers.test_worker_process import LOUPE, worker_env
from workers import jobs

distributed_only = pytest.mark.parametrize("api", ["distributed"], indirect=True)
XSS = '<script>alert(1)</script><img src=x onerror="alert(2)">'


def submit(api: Api, key: str, **overrides) -> dict:
    client = api.client(key)
    body = {
        "name": overrides.pop("name", "console"),
        "test_cases": [
            {
                "id": "picture",
                "input": ["What is shown?", image(png("red"))],
                "actual_output": overrides.pop("actual_output", "red"),
                "expected_output": "red",
            },
            {"id": "plain", "input": "2+2?", "actual_output": "5", "expected_output": "4"},
        ],
        "metrics": [{"type": "exact_match"}],
        **overrides,
    }
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


class TestSession:
    def test_sign_in_sets_a_strict_httponly_expiring_cookie(self, api: Api) -> None:
        client = api.client()
        assert client.get("/").headers["location"] == "/console/evaluations"
        redirect = client.get("/console/evaluations")
        assert redirect.status_code == 303
        assert redirect.headers["location"].startswith("/console/sign-in?next=")
        form = client.get("/console/sign-in")
        response = client.post(
            "/console/sign-in",
            data={"api_key": api.new_key(), "csrf_token": csrf_of(form.text), "next": "//evil"},
        )
        assert response.status_code == 303
        assert response.headers["location"] == "/console/evaluations"
        cookie = next(
            c for c in response.headers.get_list("set-cookie") if c.startswith("loupe_session=")
        )
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Max-Age=43200" in cookie
        assert "Secure" not in cookie  # plain http on loopback
        assert client.get("/console/evaluations").status_code == 200

    def test_bad_key_forged_cookie_and_missing_csrf(self, api: Api) -> None:
        client = api.client()
        form = client.get("/console/sign-in")
        wrong = client.post(
            "/console/sign-in", data={"api_key": "lp_nope", "csrf_token": csrf_of(form.text)}
        )
        assert wrong.status_code == 401 and "not valid" in wrong.text
        no_token = client.post("/console/sign-in", data={"api_key": api.new_key()})
        assert no_token.status_code == 403
        forged = api.client()
        forged.cookies.set("loupe_session", "e30.0000")
        assert forged.get("/console/evaluations").status_code == 303

    def test_an_expired_keys_refusal_says_when_it_expired_and_no_other_does(self, api: Api) -> None:
        from app.tenants.service import create_key, hash_key, revoke_key

        when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
        with api.served.runtime.session() as session:
            _, expired = create_key(session, f"expired-{uuid.uuid4().hex[:8]}", expires_at=when)
            _, revoked = create_key(session, f"revoked-{uuid.uuid4().hex[:8]}")
            [revoked_id] = session.scalars(
                select(ApiKey.id).where(ApiKey.key_hash == hash_key(revoked))
            )
            revoke_key(session, revoked_id)
            session.commit()

        def refusal(key: str) -> str:
            client = api.client()
            form = client.get("/console/sign-in")
            answer = client.post(
                "/console/sign-in", data={"api_key": key, "csrf_token": csrf_of(form.text)}
            )
            assert answer.status_code == 401, answer.text
            [alert] = re.findall(r'<p class="alert" role="alert">(.*?)</p>', answer.text, re.S)
            return alert

        assert refusal(expired) == (
            'That API key expired on <time datetime="2026-01-02T03:04:05+00:00">2026-01-02 '
            "03:04</time> UTC: ask your team's admin or the operator for a new one."
        )
        # An unknown key and a revoked one learn nothing of a team or a date: the same words.
        unknown = "lp_" + uuid.uuid4().hex
        assert refusal(unknown) == refusal(revoked) == refusal("not a key")
        assert "expired" not in refusal(unknown)

    def test_sign_out_needs_csrf_and_ends_the_session(self, api: Api) -> None:
        client = signed_in(api, api.new_key())
        page = client.get("/console/evaluations")
        assert client.post("/console/sign-out", data={}).status_code == 403
        cross_site = client.post(
            "/console/sign-out",
            data={"csrf_token": csrf_of(page.text)},
            headers={"Origin": "http://evil.example"},
        )
        assert cross_site.status_code == 403
        out = client.post("/console/sign-out", data={"csrf_token": csrf_of(page.text)})
        assert out.status_code == 303
        assert client.get("/console/evaluations").status_code == 303

    def test_sign_out_refuses_every_copy_of_the_cookie(self, api: Api) -> None:
        key = api.new_key()
        client = signed_in(api, key)
        saved = client.cookies["loupe_session"]
        page = client.get("/console/evaluations")
        out = client.post("/console/sign-out", data={"csrf_token": csrf_of(page.text)})
        assert out.status_code == 303
        # Someone kept the cookie (another tab, a copied header, malware): it no longer works.
        kept = api.client()
        kept.cookies.set("loupe_session", saved)
        for path in ("/console/evaluations", "/console/runs"):
            refused = kept.get(path)
            assert refused.status_code == 303, path
            assert refused.headers["location"].startswith("/console/sign-in?next=")
        # A new sign-in with the same key works: only that session ended, not the key.
        assert signed_in(api, key).get("/console/evaluations").status_code == 200

    @distributed_only
    def test_the_ticker_forgets_sign_outs_once_their_cookie_has_expired(self, api: Api) -> None:
        client = signed_in(api, api.new_key())
        saved = client.cookies["loupe_session"]
        nonce = json.loads(base64.urlsafe_b64decode(saved.split(".")[0]))["n"]
        page = client.get("/console/evaluations")
        client.post("/console/sign-out", data={"csrf_token": csrf_of(page.text)})
        with api.served.runtime.session() as session:
            assert session.get(SignedOutSession, nonce) is not None
        # jobs.tick() acts through the process's runtime: it must be this API's.
        assert runtime_module.current() is api.served.runtime
        jobs.tick()
        with api.served.runtime.session() as session:
            assert session.get(SignedOutSession, nonce) is not None  # the cookie is still live
            # The cookie's expiry has passed (by its own signed `exp`, it is refused anyway).
            session.execute(
                update(SignedOutSession)
                .where(SignedOutSession.nonce == nonce)
                .values(expires_at=utcnow() - timedelta(seconds=1))
            )
            session.commit()
        jobs.tick()
        with api.served.runtime.session() as session:
            assert session.get(SignedOutSession, nonce) is None

    def test_a_live_fragment_without_a_session_sends_the_page_to_sign_in(self, api: Api) -> None:
        page_url = f"{api.base_url}/console/evaluations/eval_x?status=failed"
        response = api.client().get(
            "/console/evaluations/eval_x/progress",
            headers={"HX-Request": "true", "HX-Current-URL": page_url},
        )
        assert response.status_code == 200
        assert response.headers["hx-redirect"] == (
            "/console/sign-in?next=/console/evaluations/eval_x%3Fstatus%3Dfailed"
        )

    def test_an_expired_session_signs_out(self, api: Api) -> None:
        from app.console import auth

        key = api.new_key()
        with api.served.runtime.session() as session:
            lasting = auth.sign_in(session, api.settings, key)
            brief = api.settings.model_copy(update={"console_session_hours": 1 / 3600})
            expiring = auth.sign_in(session, brief, key)
        time.sleep(2.1)  # the brief cookie's expiry (1 s, whole seconds) has passed
        for cookie, status in ((lasting, 200), (expiring, 303)):
            client = api.client()
            client.cookies.set("loupe_session", cookie)
            assert client.get("/console/evaluations").status_code == status


class TestSignOutAcrossProcesses:
    def test_a_cookie_signed_out_here_is_refused_by_another_api_process(
        self, tmp_path: Path
    ) -> None:
        with side_app(tmp_path) as here:
            log_path = tmp_path / "serve.log"
            port = free_port()
            with log_path.open("wb") as log:
                other = subprocess.Popen(
                    [str(LOUPE), "serve"],
                    env=worker_env(here.settings, host="127.0.0.1", port=port),
                    cwd=tmp_path,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            try:
                there = f"http://127.0.0.1:{port}"
                while not ready(there):
                    assert other.poll() is None, log_path.read_text()
                    time.sleep(0.1)
                client = signed_in(here, here.new_key())
                saved = client.cookies["loupe_session"]

                def there_with_the_cookie() -> int:
                    with httpx.Client(base_url=there, trust_env=False) as kept:
                        kept.cookies.set("loupe_session", saved)
                        return kept.get("/console/evaluations").status_code

                assert there_with_the_cookie() == 200
                page = client.get("/console/evaluations")
                out = client.post("/console/sign-out", data={"csrf_token": csrf_of(page.text)})
                assert out.status_code == 303
                assert there_with_the_cookie() == 303
            finally:
                other.terminate()
                other.wait()


def ready(base_url: str) -> bool:
    try:
        return httpx.get(f"{base_url}/readyz", trust_env=False).status_code == 200
    except httpx.TransportError:
        return False


class TestPages:
    def test_pages_are_escaped_and_locked_down(self, api: Api) -> None:
        key = api.new_key()
        evaluation = submit(api, key, name=XSS, actual_output=XSS)
        client = signed_in(api, key)
        for path in (
            "/console/evaluations",
            f"/console/evaluations/{evaluation['id']}",
            f"/console/evaluations/{evaluation['id']}/cases/0",
        ):
            response = client.get(path)
            assert response.status_code == 200, path
            policy = response.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy
            assert response.headers["x-frame-options"] == "DENY"
            assert "<script>alert" not in response.text and "<img src=x" not in response.text
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text, path

    def test_metadata_and_logs_read_as_written_and_stay_escaped(self, api: Api) -> None:
        key = api.new_key()
        response = api.client(key).post(
            "/v1/evaluations",
            json={
                "test_cases": [
                    {
                        "id": "dessert",
                        "input": "Dessert?",
                        "actual_output": "crème brûlée",
                        "expected_output": "crème <i>brûlée</i>",
                        "metadata": {"chef": "Zoë", "note": "</pre><script>alert(1)</script>"},
                    }
                ],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert response.status_code == 202, response.text
        evaluation_id = api.wait(api.client(key), response.json()["id"])["id"]
        page = signed_in(api, key).get(f"/console/evaluations/{evaluation_id}/cases/0").text
        assert "\\u00" not in page and "<script>alert" not in page
        metadata = re.search(r"<h2>Metadata</h2><pre class=\"text\">(.*?)</pre>", page, re.S)
        logs = re.search(r"<summary>All logs \(JSON\)</summary><pre>(.*?)</pre>", page, re.S)
        assert metadata is not None and logs is not None
        # Escaped as HTML (no markup inside the <pre>), read as written once the browser
        # has decoded the entities.
        assert "<" not in metadata.group(1) and "<" not in logs.group(1)
        shown = unescape(metadata.group(1))
        assert '"chef": "Zoë"' in shown
        assert '"note": "</pre><script>alert(1)</script>"' in shown
        assert '"expected": "crème <i>brûlée</i>"' in unescape(logs.group(1))

    def test_a_case_page_shows_its_image_and_the_media_route_serves_it(self, api: Api) -> None:
        key = api.new_key()
        evaluation = submit(api, key)
        client = signed_in(api, key)
        html = client.get(f"/console/evaluations/{evaluation['id']}/cases/0").text
        (src,) = re.findall(r'<img src="(/console/media/[0-9a-f]{64})"', html)
        assert 'alt="Image 1 of the input"' in html  # the only image, after a text part
        media = client.get(src)
        assert media.status_code == 200 and media.headers["content-type"] == "image/png"
        assert client.get(src, headers={"If-None-Match": media.headers["etag"]}).status_code == 304
        weak = "W/" + media.headers["etag"]  # as a cache may send it back
        assert client.get(src, headers={"If-None-Match": weak}).status_code == 304

    def test_filters_and_order(self, api: Api) -> None:
        key = api.new_key()
        evaluation = submit(api, key)
        client = signed_in(api, key)
        url = f"/console/evaluations/{evaluation['id']}"
        failed = client.get(url, params={"status": "failed", "order": "score_desc"}).text
        assert ">plain<" in failed and ">picture<" not in failed
        assert client.get(url, params={"status": "nope"}).status_code == 400
        download = client.get(f"{url}/export", params={"format": "csv", "status": "failed"})
        assert download.headers["content-type"].startswith("text/csv")
        assert [line.split(",")[1] for line in download.text.splitlines()[1:]] == ["plain"]
        listed = client.get("/console/evaluations", params={"status": "completed", "name": "cons"})
        assert evaluation["id"] in listed.text
        assert (
            evaluation["id"]
            not in client.get("/console/evaluations", params={"status": "failed"}).text
        )

    def test_another_tenants_pages_and_media_are_404(self, api: Api) -> None:
        owner_key = api.new_key()
        evaluation = submit(api, owner_key)
        owner = signed_in(api, owner_key)
        html = owner.get(f"/console/evaluations/{evaluation['id']}/cases/0").text
        (src,) = re.findall(r'<img src="(/console/media/[0-9a-f]{64})"', html)
        stranger = signed_in(api, api.new_key())
        for path in (
            f"/console/evaluations/{evaluation['id']}",
            f"/console/evaluations/{evaluation['id']}/cases/0",
            f"/console/evaluations/{evaluation['id']}/progress",
            src,
            "/console/runs/eval_nope",
            "/console/datasets/ds_nope",
        ):
            response = stranger.get(path)
            assert response.status_code == 404, path
            assert response.headers["content-type"].startswith("text/html")
            assert "belongs to another account" in response.text

    def test_cancel_from_the_page(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(plausible_answer)
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        key = api.new_key()
        response = api.client(key).post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "q", "actual_output": "a"}],
                "metrics": [
                    {
                        "type": "g_eval",
                        "name": "right",
                        "criteria": "Is it right?",
                        "evaluation_params": ["input", "actual_output"],
                    }
                ],
            },
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        client = signed_in(api, key)
        page = client.get(f"/console/evaluations/{evaluation_id}")
        assert "Cancel evaluation" in page.text and 'hx-trigger="every 1s"' in page.text
        cancel = client.post(
            f"/console/evaluations/{evaluation_id}/cancel",
            data={"csrf_token": csrf_of(page.text)},
        )
        assert cancel.status_code == 303
        assert cancel.headers["location"] == f"/console/evaluations/{evaluation_id}"
        body = api.client(key).get(f"/v1/evaluations/{evaluation_id}").json()
        assert body["status"] == "canceled"
        assert "Cancel evaluation" not in client.get(cancel.headers["location"]).text


def assert_html_error_page(response: httpx.Response, status: int) -> None:
    """An HTML error page of the console, with its security headers."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "same-origin"


class TestBadAddresses:
    def test_numbers_beyond_a_database_integer_are_400_pages(self, api: Api) -> None:
        key = api.new_key()
        evaluation = submit(api, key)
        client = api.client(key)
        dataset = client.post(
            "/v1/datasets",
            files={"file": ("d.jsonl", b'{"messages": [{"role": "user", "content": "q"}]}')},
            data={"format": "general_vqa"},
        ).json()
        run = client.post(
            "/v1/runs",
            json={"dataset_id": dataset["id"], "predictions": [{"index": 0, "prediction": "a"}]},
        ).json()
        console = signed_in(api, key)
        for path in (
            f"/console/evaluations/{evaluation['id']}/cases/9223372036854775808",
            f"/console/evaluations/{evaluation['id']}/cases/2147483648",
            f"/console/evaluations/{evaluation['id']}/cases/-1",
            f"/console/runs/{run['id']}?after=99999999999999999999999",
            f"/console/runs/{run['id']}?after=2147483648",
            f"/console/datasets/{dataset['id']}?after=99999999999999999999999",
            f"/console/datasets/{dataset['id']}?after=%C2%B2",  # a superscript two
        ):
            assert_html_error_page(console.get(path), 400)
        beyond = console.get(f"/console/evaluations/{evaluation['id']}/cases/2147483648")
        assert "test case number in the address must be at most 2147483647" in beyond.text
        largest = f"/console/evaluations/{evaluation['id']}/cases/2147483647"
        assert_html_error_page(console.get(largest), 404)
        assert console.get(f"/console/runs/{run['id']}?after=2147483647").status_code == 200

    def test_an_unexpected_error_is_an_html_page_with_the_security_headers(
        self, tmp_path: Path
    ) -> None:
        with side_app(tmp_path) as broken:
            key = broken.new_key()
            console = signed_in(broken, key)
            # The database loses a table under the running app (a bad restore, a botched
            # manual migration): the page's query fails.
            with broken.served.runtime.session() as session:
                session.execute(text("ALTER TABLE evaluation RENAME TO evaluation_away"))
                session.commit()
            try:
                page = console.get("/console/evaluations")
                api_answer = broken.client(key).get("/v1/evaluations")
            finally:
                with broken.served.runtime.session() as session:
                    session.execute(text("ALTER TABLE evaluation_away RENAME TO evaluation"))
                    session.commit()
        assert_html_error_page(page, 500)
        assert "Something went wrong on Loupe" in page.text
        assert "evaluation_away" not in page.text and "Traceback" not in page.text
        # The API keeps answering problem+json.
        assert api_answer.status_code == 500
        assert api_answer.headers["content-type"] == "application/problem+json"


class TestRedirects:
    def test_every_redirect_carries_the_pages_headers(self, api: Api) -> None:
        # The sign-in redirect, the home redirects and a form's redirect all leave with no-store
        # and the pages' policy (some left with neither: a shared cache could keep them).
        anonymous, console = api.client(), signed_in(api, api.new_key())
        answers = [
            anonymous.get("/"),
            anonymous.get("/console/evaluations"),
            console.get("/console"),
            console.post(
                "/console/sign-out",
                data={"csrf_token": csrf_of(console.get("/console/evaluations").text)},
            ),
        ]
        for answer in answers:
            assert answer.status_code == 303, answer.request.url
            assert answer.headers["cache-control"] == "no-store", answer.request.url
            assert "default-src" in answer.headers["content-security-policy"]


class TestCompare:
    def test_needs_csrf_and_is_the_tenants_own(self, api: Api) -> None:
        key = api.new_key()
        first, second = submit(api, key), submit(api, key, actual_output="blue")
        client = signed_in(api, key)
        form = client.get("/console/compare", params={"baseline": first["id"]})
        assert f'<option value="{first["id"]}" selected>' in form.text
        data = {"baseline_id": first["id"], "candidate_id": second["id"]}
        assert client.post("/console/compare", data=data).status_code == 403
        created = client.post("/console/compare", data={**data, "csrf_token": csrf_of(form.text)})
        assert created.status_code == 303
        location = created.headers["location"]
        page = client.get(location)
        assert page.status_code == 200 and 'data-test-case="picture"' in page.text
        assert 'data-metric="exact_match"' in page.text
        assert f'href="/console/evaluations/{second["id"]}"' in page.text
        stranger = signed_in(api, api.new_key())
        assert stranger.get(location).status_code == 404
        refused = stranger.post(
            "/console/compare",
            data={**data, "csrf_token": csrf_of(stranger.get("/console/compare").text)},
        )
        assert refused.status_code == 404

    def test_a_form_field_out_of_bounds_is_named_on_the_error_page(self, api: Api) -> None:
        key = api.new_key()
        client = signed_in(api, key)
        form = client.get("/console/compare")
        response = client.post(
            "/console/compare",
            data={"baseline_id": "x" * 41, "candidate_id": "y", "csrf_token": csrf_of(form.text)},
        )
        assert_html_error_page(response, 400)
        said = unescape(response.text)
        assert "The form's Baseline field is longer than 40 characters." in said
        assert "address" not in said


class TestDatasetPage:
    def test_rows_show_images_audio_and_warnings(self, api: Api) -> None:
        import base64
        import json
        from pathlib import Path

        wav = (
            Path(__file__).parents[1] / "data/evalscope_examples/audio/beep_440hz.wav"
        ).read_bytes()
        clip = "data:audio/wav;base64," + base64.b64encode(wav).decode()
        row = {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is heard and shown?"},
                        image(png("navy")),
                        {"type": "input_audio", "input_audio": {"data": clip, "format": "wav"}},
                    ],
                }
            ],
            "answer": "a beep",
        }
        key = api.new_key()
        response = api.client(key).post(
            "/v1/datasets",
            files={"file": ("sounds.jsonl", json.dumps(row).encode())},
            data={"format": "general_vqa"},
        )
        assert response.status_code == 201, response.text
        client = signed_in(api, key)
        html = client.get(f"/console/datasets/{response.json()['id']}").text
        (audio_src,) = re.findall(r'<audio controls preload="none" src="([^"]+)"', html)
        (image_src,) = re.findall(r'<img src="(/console/media/[0-9a-f]{64})"', html)
        assert client.get(audio_src).headers["content-type"] == "audio/wav"
        assert client.get(image_src).headers["content-type"] == "image/png"
        assert "a beep" in html


class TestRunPage:
    def test_judge_verdicts_read_as_words(self, api: Api, judge: ScriptedJudge) -> None:
        def grade(request: dict) -> dict | Reply:
            assert task_of(request) == "llm_accuracy"
            if "Spain" in json.dumps(request):
                return Reply(content="{no json")  # a judge failure: an errored sample
            right = "Paris" in json.dumps(request["messages"][-1])
            return {"reasoning": "Compared.", "verdict": "A" if right else "B"}

        judge.script(grade)
        key = api.new_key()
        client = api.client(key)
        rows = [
            {"messages": [{"role": "user", "content": "Capital of France?"}], "answer": "Paris"},
            {"messages": [{"role": "user", "content": "Capital of Italy?"}], "answer": "Rome"},
            {"messages": [{"role": "user", "content": "Capital of Spain?"}], "answer": "Madrid"},
        ]
        dataset = client.post(
            "/v1/datasets",
            files={"file": ("capitals.jsonl", "\n".join(map(json.dumps, rows)).encode())},
            data={"format": "general_vqa"},
        ).json()
        run = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset["id"],
                "judge": {"strategy": "llm"},
                "predictions": [
                    {"index": 0, "prediction": "Paris"},
                    {"index": 1, "prediction": "Milan"},
                    {"index": 2, "prediction": "Madrid"},
                ],
            },
        )
        assert run.status_code == 202, run.text
        wait_run(api, client, run.json()["id"])
        page = signed_in(api, key).get(f"/console/runs/{run.json()['id']}").text
        verdicts = re.findall(r'<p class="verdict-line">(.*?)</p>', page)
        assert [re.sub(r"<[^>]+>", "", line) for line in verdicts] == [
            "Judge verdict: correct (A)",
            "Judge verdict: incorrect (B)",
        ]
        errored = page[page.index('id="sample-2"') :]
        assert "The judge model answered with something Loupe could not use" in errored

    def test_a_finished_run_page_asks_a_poller_to_reload(self, api: Api) -> None:
        import json

        key = api.new_key()
        row = {"messages": [{"role": "user", "content": "Capital of France?"}], "answer": "Paris"}
        client = api.client(key)
        dataset = client.post(
            "/v1/datasets",
            files={"file": ("capitals.jsonl", json.dumps(row).encode())},
            data={"format": "general_vqa"},
        ).json()
        response = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset["id"],
                "predictions": [{"index": 0, "prediction": "Paris"}],
            },
        )
        assert response.status_code == 202, response.text
        run_id = response.json()["id"]
        console = signed_in(api, key)
        deadline = time.monotonic() + 60
        while client.get(f"/v1/runs/{run_id}").json()["status"] != "completed":
            api.run_queue()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        page = console.get(f"/console/runs/{run_id}")
        assert "hx-trigger" not in page.text and "hx-refresh" not in page.headers
        polled = console.get(f"/console/runs/{run_id}", headers={"HX-Request": "true"})
        assert polled.headers["hx-refresh"] == "true"
