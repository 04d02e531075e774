"""Alignments in a real browser (Debian's Chromium via Playwright), loopback only (issue 29): a
labelled metric version's page proposes an alignment through its form; the alignment's page
shows the judging, then κ before and after as GET /v1/alignments/{id} reports them, the notes
the candidate adds and every held-out item; Activate makes the candidate active and is
audited; the parent's spec submitted again is marked superseded, leading to the candidate's
page; the list shows the alignment decided. Takes docs/screenshots/alignment.png."""

from playwright.sync_api import Page, expect

from tests.alignments.helpers import HELPFULNESS, NOTES, aligned, answer, cases, label_all
from tests.console.test_browser import SHOTS, sign_in, submit, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge


def three(statistic: dict) -> str:
    return f"{statistic['value']:.3f}"


class TestAlignmentPages:
    def test_proposed_from_the_version_page_read_and_activated(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(answer)
        key = console.new_key("alignment-pages")
        client = console.client(key)
        evaluation_id = submit(client, {"test_cases": cases(20), "metrics": [HELPFULNESS]})
        assert wait(console, client, f"/v1/evaluations/{evaluation_id}")["status"] == "completed"
        label_all(client, evaluation_id, 20)
        version = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"][0][
            "metric_version"
        ]

        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/metric_versions/{version}")
        form = page.locator("form.align-form")
        form.get_by_label("Share held out").fill("0.5")
        form.get_by_role("button", name="Propose an aligned version").click()
        page.wait_for_url(f"{console.base_url}/console/alignments/aln_*")
        alignment_id = page.url.rsplit("/", 1)[1]
        found = wait(console, client, f"/v1/alignments/{alignment_id}")
        assert found["status"] == "completed" and found["report"] is not None, found

        page.reload()
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_contain_text("Alignment of helpfulness")
        expect(heading).to_contain_text("completed")
        report = found["report"]
        expect(page.locator("tr.stat-cohen_kappa td.before")).to_contain_text(
            three(report["before"]["cohen_kappa"])
        )
        expect(page.locator("tr.stat-cohen_kappa td.after")).to_contain_text(
            three(report["after"]["cohen_kappa"])
        )
        expect(page.locator("p.difference")).to_contain_text(three(report["kappa_difference"]))
        expect(page.locator("blockquote.guidance-notes")).to_have_text(NOTES)
        expect(page.locator("tr.held-out-item")).to_have_count(len(report["items"]))
        expect(page.locator(".split")).to_contain_text(
            f"{len(found['split']['held_out'])} held out"
        )
        expect(page.locator(".decision")).to_have_text("undecided")
        page.screenshot(path=SHOTS / "alignment.png", full_page=True)

        page.get_by_role("button", name="Activate the candidate").click()
        expect(page.locator(".decision")).to_contain_text("activated by")
        expect(page.get_by_role("button", name="Activate the candidate")).to_have_count(0)
        decided = client.get(f"/v1/alignments/{alignment_id}").json()
        assert decided["decision"] == "activated"
        assert decided["active_version"] == decided["candidate_version"]
        trail = client.get("/v1/audit_events", params={"action": "alignment.activate"})
        assert [e["object_id"] for e in trail.json()["data"]] == [alignment_id]

        # The parent's spec submitted again says an aligned version is active, and leads to it.
        again = submit(client, {"test_cases": cases(2), "metrics": [HELPFULNESS]})
        assert wait(console, client, f"/v1/evaluations/{again}")["status"] == "completed"
        page.goto(f"{console.base_url}/console/evaluations/{again}")
        page.locator("table.summary a.superseded").click()
        candidate = decided["candidate_version"]
        expect(page).to_have_url(f"{console.base_url}/console/metric_versions/{candidate}")
        expect(page.locator(".version-status")).to_have_text(f"active, aligned from {version}")

        page.goto(f"{console.base_url}/console/metric_versions/{version}")
        page.locator("a.alignments-link").click()
        row = page.locator(f"tr[data-alignment='{alignment_id}']")
        expect(row).to_contain_text("activated")
        expect(row).to_contain_text(three(report["after"]["cohen_kappa"]))
        assert errors == [] and off_loopback == []

    def test_a_reader_sees_no_forms_and_cannot_decide(
        self, console: Api, judge: ScriptedJudge, page: Page, errors: list[str]
    ) -> None:
        key = console.new_key("alignment-reader")
        alignment_id = aligned(console, console.client(key), judge)
        reader = console.new_key("alignment-reader", scopes=["read"])
        sign_in(page, console, reader)
        page.goto(f"{console.base_url}/console/alignments/{alignment_id}")
        expect(page.locator("tr.stat-cohen_kappa")).to_be_visible()
        expect(page.locator("form[action^='/console/alignments/']")).to_have_count(0)
        response = page.request.post(
            f"{console.base_url}/console/alignments/{alignment_id}/activate",
            form={"csrf_token": "x"},
        )
        assert response.status == 403
        body = console.client(key).get(f"/v1/alignments/{alignment_id}").json()
        assert body["decision"] is None
        assert errors == []

    def test_too_few_labels_says_so_on_the_error_page(
        self, console: Api, judge: ScriptedJudge, page: Page
    ) -> None:
        judge.script(answer)
        key = console.new_key("alignment-few")
        client = console.client(key)
        evaluation_id = submit(client, {"test_cases": cases(6), "metrics": [HELPFULNESS]})
        assert wait(console, client, f"/v1/evaluations/{evaluation_id}")["status"] == "completed"
        label_all(client, evaluation_id, 6)
        version = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"][0][
            "metric_version"
        ]
        calls = len(judge.requests)
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/metric_versions/{version}")
        page.get_by_role("button", name="Propose an aligned version").click()
        expect(page.locator("main")).to_contain_text("at least 10 are needed")
        assert client.get("/v1/alignments").json()["data"] == []
        assert len(judge.requests) == calls  # no notes call for a refused proposal
