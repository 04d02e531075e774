"""A metric version's agreement with people in a real browser (Debian's Chromium via Playwright),
loopback only (issue 29 items 4 and 5): the evaluation page's summary says a judged metric is
"not checked against people" until its version has labels, then shows "κ … [… , …], N labels"
and the calibrated mean; the line leads to the version's agreement page (every statistic, the
confusion matrix, the disagreements worst first), whose worst disagreement links to its test
case, where the result card shows the same line. Takes docs/screenshots/agreement.png,
agreement-evaluation.png and agreement-case.png."""

from playwright.sync_api import Page, expect

from tests.console.test_browser import SHOTS, sign_in, submit, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.metric_versions.test_agreement import METRIC, N, cases, planted, scored_by_question


def kappa_line(brief: dict) -> str:
    kappa = brief["cohen_kappa"]
    low, high = kappa["ci95"]
    return f"κ {kappa['value']:.2f} [{low:.2f}, {high:.2f}], {brief['n_labels']} labels"


class TestAgreementPages:
    def test_summary_line_leads_to_the_agreement_page_and_its_test_cases(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(scored_by_question)
        key = console.new_key("agreement")
        client = console.client(key)
        evaluation_id = submit(
            client,
            {
                "name": "answers checked against people",
                "test_cases": [
                    {**case, "expected_output": case["actual_output"]} for case in cases()
                ],
                "metrics": [METRIC, {"type": "exact_match"}],
            },
        )
        final = wait(console, client, f"/v1/evaluations/{evaluation_id}")
        assert final["status"] == "completed", final

        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
        row = page.locator("table.summary tbody tr", has_text="helpfulness")
        expect(row.locator("a.agreement-line")).to_have_text("not checked against people")
        once = page.locator("table.summary tbody tr", has_text="exact_match")
        expect(once.locator("a.agreement-line")).to_have_count(0)

        listed = client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100})
        judged = [row for row in listed.json()["data"] if row["metric"] == "helpfulness"]
        # Half the results labelled: the other half is the calibrated mean's unlabelled set.
        for result in judged[::2]:
            i = int(result["test_case_id"][1:])
            body = {"result_id": result["id"], "value": planted(i), "rationale": f"case {i}"}
            assert client.post("/v1/labels", json=body).status_code == 201
        summary = client.get(f"/v1/evaluations/{evaluation_id}").json()["per_metric"][0]
        line = kappa_line(summary["agreement"])
        assert summary["agreement"]["n_labels"] == N // 2

        page.reload()
        link = row.locator("a.agreement-line")
        expect(link).to_have_text(line)
        expect(row.locator(".calibrated")).to_contain_text(f"{N // 2} labelled results, ppi++")
        page.screenshot(path=SHOTS / "agreement-evaluation.png", full_page=True)

        link.click()
        version = summary["metric_version"]
        expect(page).to_have_url(f"{console.base_url}/console/metric_versions/{version}")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Agreement with people")
        found = client.get(f"/v1/metric_versions/{version}/agreement").json()
        expect(page.locator(".n-labels")).to_contain_text(f"{N // 2} from 1 person")
        kappa = page.locator("tr.stat-cohen_kappa td.num")
        expect(kappa).to_contain_text(f"{found['cohen_kappa']['value']:.3f}")
        expect(page.locator("tr.stat-weighted_kappa")).to_be_visible()
        expect(page.locator("tr.stat-krippendorff_alpha_people td.muted")).to_contain_text(
            "at least two"
        )
        cells = page.locator("table.confusion td.num")
        matrix = found["confusion_matrix"]["matrix"]
        expect(cells).to_have_text([str(n) for row_ in matrix for n in row_])
        rows = page.locator("tr.disagreement")
        expect(rows).to_have_count(len(found["disagreements"]))
        worst = found["disagreements"][0]
        expect(rows.first).to_contain_text(worst["test_case_id"])
        expect(rows.first).to_contain_text(f"“case {worst['test_case_id'][1:]}”")
        page.screenshot(path=SHOTS / "agreement.png", full_page=True)

        rows.first.get_by_role("link", name=worst["test_case_id"]).click()
        expect(page).to_have_url(
            f"{console.base_url}/console/evaluations/{evaluation_id}/cases/"
            f"{worst['test_case_index']}"
        )
        card = page.locator("article.result-card", has_text="helpfulness")
        expect(card.locator("a.agreement-line")).to_have_text(line)
        page.screenshot(path=SHOTS / "agreement-case.png", full_page=True)
        assert errors == [] and off_loopback == []
