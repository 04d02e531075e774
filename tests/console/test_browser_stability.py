"""The console shows how stable a judge is (issue 27 item 3), in a real browser (Debian's Chromium
via Playwright), loopback only: an evaluation judged twice per item by a panel of two registered
judges shows each metric's fragile results, pass^k beside the pass rate, the panel's alpha
and each judge's with itself (flagged when low); its results filter to the fragile ones; a
test case's page shows each panel member's score and reason and every judgment with its own,
escaped. Takes
docs/screenshots/stability.png and stability-case.png. A comparison counts each side's fragile
items and, asked from the compare form, sets them aside."""

import json
import re
import threading
from collections import defaultdict
from typing import Any

from playwright.sync_api import Page, expect

from tests.comparisons.fragile_helpers import (
    BASELINE_FRAGILE,
    CANDIDATE_FRAGILE,
    METRIC,
    both_sides,
)
from tests.console.test_browser import SHOTS, sign_in, submit, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of

XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
# Scores out of 10 per judge and case, one per sample in turn: "shaky" splits judge-a's own
# samples, "split" splits the two judges; both are fragile.
PLANNED = {
    "judge-a": {"steady": [8, 8], "shaky": [2, 9], "split": [3, 3], "poor": [2, 2]},
    "judge-b": {"steady": [7, 7], "shaky": [8, 8], "split": [8, 8], "poor": [1, 1]},
}
FRAGILE = ["shaky", "split"]


class Panel:
    """Answers g_eval's scoring calls with PLANNED's scores for the calling judge and the case
    named in the output; a reason carrying markup for judge-a's first sample of "shaky"."""

    def __init__(self) -> None:
        self.calls: dict[tuple[str, str], int] = defaultdict(int)
        self.lock = threading.Lock()

    def __call__(self, request: dict) -> Any:
        if task_of(request) != "g_eval_score":
            return plausible_answer(request)
        found = re.search(r"answer (\w+)", json.dumps(request))
        assert found is not None
        model, case = request["model"], found.group(1)
        with self.lock:
            made = self.calls[(model, case)]
            self.calls[(model, case)] += 1
        score = PLANNED[model][case][made % 2]
        reason = f"{model} sample {made + 1}: {case} scores {score}."
        if (model, case, made) == ("judge-a", "shaky", 0):
            reason += f" {XSS}"
        return {"reason": reason, "score": score}


class TestStability:
    def test_fragile_counts_pass_hat_k_agreement_filter_and_every_judgment(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(Panel())
        key = console.new_key("stability")
        client = console.client(key)
        members = []
        for model in PLANNED:
            registered = client.post(
                "/v1/models",
                json={"base_url": judge.base_url, "model": model, "api_key": "sk-x"},
            )
            assert registered.status_code == 201, registered.text
            members.append(registered.json()["id"])
        helpful = {
            "type": "g_eval",
            "name": "helpful",
            "evaluation_steps": ["Check the answer."],
            "evaluation_params": ["input", "actual_output"],
            "judge": {
                "samples": 2,
                "panel": [{"model_id": members[0]}, {"model_id": members[1], "weight": 2}],
            },
        }
        cases = [
            {
                "id": case,
                "input": f"question {case}",
                "actual_output": f"answer {case}",
                "expected_output": f"answer {case}",
            }
            for case in PLANNED["judge-a"]
        ]
        evaluation_id = submit(
            client,
            {
                "name": "answers judged by a panel",
                "test_cases": cases,
                "metrics": [helpful, {"type": "exact_match"}],
            },
        )
        final = wait(console, client, f"/v1/evaluations/{evaluation_id}")
        assert final["status"] == "completed", final
        stability = final["per_metric"][0]["stability"]
        assert stability["fragile"] == len(FRAGILE)
        alpha = stability["agreement"]["alpha"]

        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
        summary = page.locator("table.summary")
        expect(summary.locator("thead")).to_contain_text("Fragile")
        expect(summary.locator("thead")).to_contain_text("Agreement (α)")
        row = summary.locator("tbody tr", has_text="helpful")
        expect(row.locator("td.fragile-count")).to_have_text(str(len(FRAGILE)))
        # pass^k beside the pass rate: k = 2 samples × 2 judges; only "steady" passed all 4.
        expect(row.locator(".pass-hat-k")).to_have_text(
            f"pass^4 {stability['pass_hat_k'] * 100:.0f}%"
        )
        expect(row.locator("td.agreement")).to_contain_text(f"{alpha:.2f}")
        expect(row.locator("td.agreement")).to_contain_text("2 judges, 4 items")
        expect(row.locator("td.agreement > .chip-low")).to_have_count(
            1 if stability["agreement"]["low"] else 0
        )
        # Beneath it, how far each judge agrees with itself over its two samples per case.
        own = stability["self_agreement"]
        itself = row.locator(".self-agreement")
        expect(itself).to_contain_text(f"with itself {own['alpha']:.2f}")
        expect(itself).to_contain_text("2 samples, 8 items")
        expect(itself.locator(".chip-low")).to_have_count(1 if own["low"] else 0)
        # A metric judged once has no fragile results or agreement to show.
        once = summary.locator("tbody tr", has_text="exact_match")
        expect(once.locator("td.fragile-count")).to_have_text("–")
        expect(once.locator(".pass-hat-k")).to_have_count(0)
        results = page.locator("tr.result")
        expect(results).to_have_count(8)
        expect(page.locator("tr.result .chip-fragile")).to_have_count(len(FRAGILE))
        page.screenshot(path=SHOTS / "stability.png", full_page=True)

        # The results filter to the fragile ones, and the next page keeps the filter.
        page.get_by_label("Judgments").select_option("fragile")
        page.get_by_role("button", name="Apply").click()
        expect(page).to_have_url(re.compile(r"fragile=true"))
        expect(results).to_have_count(len(FRAGILE))
        expect(page.locator("tbody.case-group th a")).to_have_text(FRAGILE)
        page.get_by_label("Judgments").select_option("steady")
        page.get_by_role("button", name="Apply").click()
        expect(page.locator("tbody.case-group th a")).to_have_text(["steady", "poor"])

        # A fragile test case: each judge's verdict and reason, then every judgment's.
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}/cases/1")
        expect(page.get_by_role("heading", name="Test case shaky")).to_be_visible()
        card = page.locator("article.result-card", has_text="helpful")
        expect(card.locator(".chip-fragile")).to_have_text("fragile")
        members_shown = card.locator("table.panel tbody tr")
        expect(members_shown).to_have_count(2)
        expect(members_shown.nth(0)).to_contain_text("judge-a")
        expect(members_shown.nth(1)).to_contain_text("judge-b sample")
        expect(members_shown.nth(1).locator(".badge")).to_have_text("passed")
        judgments = card.locator("table.judgments tbody tr")
        expect(judgments).to_have_count(4)
        expect(judgments.locator(".badge")).to_have_text(["failed", "passed", "passed", "passed"])
        expect(judgments.nth(0)).to_contain_text("judge-a sample 1: shaky scores 2.")
        # The judge's markup is shown as text, and nothing in it ran.
        expect(judgments.nth(0)).to_contain_text("<script>window.__pwned=1</script>")
        expect(judgments.nth(3)).to_contain_text("judge-b sample 2: shaky scores 8.")
        assert page.evaluate("window.__pwned") is None
        page.screenshot(path=SHOTS / "stability-case.png", full_page=True)
        assert errors == [] and off_loopback == []


class TestCompare:
    def test_fragile_items_counted_and_set_aside_from_the_compare_form(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        key = console.new_key("stability-compare")
        baseline, candidate = both_sides(console, console.client(key), judge)
        sign_in(page, console, key)
        both = len(BASELINE_FRAGILE | CANDIDATE_FRAGILE)
        for set_aside in (False, True):
            page.goto(
                f"{console.base_url}/console/compare?baseline={baseline}&candidate={candidate}"
            )
            if set_aside:
                page.get_by_label("Set aside fragile items").check()
            page.get_by_role("button", name="Compare").click()
            expect(page.get_by_role("heading", name="Candidate vs baseline")).to_be_visible()
            row = page.locator("table.comparison tbody tr", has_text=METRIC)
            counted = f"{len(BASELINE_FRAGILE)} → {len(CANDIDATE_FRAGILE)}"
            if set_aside:
                counted += f" ({both} set aside)"
            expect(row.locator("td.fragile-items")).to_have_text(counted)
            expect(page.locator(".set-aside")).to_have_count(int(set_aside))
            notes = page.locator("section.notes")
            expect(notes).to_contain_text(
                f"{both} test cases were set aside as fragile on either side"
                if set_aside
                else f"{len(BASELINE_FRAGILE)} test case on the baseline and "
                f"{len(CANDIDATE_FRAGILE)} on the candidate are fragile"
            )
        # Set aside, only the steady move is among the items that moved on the judged metric.
        moved = page.locator("article.compare-item")
        expect(moved.filter(has_text=METRIC)).to_have_count(1)
        expect(page.locator("article.compare-item[data-test-case='c5']")).to_have_count(1)
        assert errors == [] and off_loopback == []
