"""A conversation's pages over HTTP (both backends; tests/console/test_browser_transcript.py
has the browser): the results list names it by its turns, the test case page shows its turns
with the verdicts pinned beside them, the review page shows the turns blind until the label,
and a comparison shows each side's turns folded."""

from html import unescape
from typing import Any

from tests.console.helpers import csrf_of, signed_in
from tests.console.test_browser import XSS
from tests.console.test_browser_transcript import CONVERSATION, NODE_REASON, judge_answer
from tests.console.test_detail_pages import compared
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.review.helpers import REVIEWER, Team, claimed_page

CONTEXT = {"type": "turn_contextual_relevancy", "name": "context"}
TOOLS = {"type": "tool_correctness", "name": "tools"}


def evaluate(client: Any, api: Api, name: str, case: dict[str, Any]) -> str:
    body = {"name": name, "test_cases": [case], "metrics": [CONTEXT, TOOLS]}
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed", final
    return final["id"]


def between(html: str, start: str, end: str) -> str:
    found = html[html.index(start) :]
    return found[: found.index(end)]


class TestConversationPages:
    def test_list_line_transcript_and_verdicts_beside_their_turns(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_answer)
        key = api.new_key()
        evaluation_id = evaluate(api.client(key), api, "chats", CONVERSATION)
        console = signed_in(api, key)

        listed = console.get(f"/console/evaluations/{evaluation_id}").text
        cell = between(listed, '<th scope="rowgroup"', "</th>")
        assert "4 turns" in cell and "What does this logo show?" in unescape(cell)
        assert 'class="thumb" src="/console/media/' in cell

        page = console.get(f"/console/evaluations/{evaluation_id}/cases/0")
        assert page.status_code == 200, page.text
        html = page.text
        assert html.count('<li class="turn turn-') == 4
        # The tool call's reasoning is markup, shown as text.
        assert XSS not in html and "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in html
        assert '"detail": "high"' in unescape(html)
        first = between(html, 'id="turn-1"', 'id="turn-2"')
        assert 'alt="Image 1 of turn 1"' in first and "No verdict on this turn" in first
        second = between(html, 'id="turn-2"', 'id="turn-3"')
        assert '<summary>Tool call <span class="mono tool-name">describe_image</span>' in second
        assert ">tools</a>" in second and "verdict-yes" in second
        third = between(html, 'id="turn-3"', 'id="turn-4"')
        assert ">context</a>" in third and "score 0.5" in third
        assert NODE_REASON in unescape(third) and "2 passages" in third
        for said in ("A patient brand assistant", "A designer checking a logo", "Expected tools"):
            assert said in unescape(html)
        # A single-turn case's page has no transcript.
        single = api.client(key).post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "hi", "actual_output": "hi", "expected_output": "hi"}],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert single.status_code == 202, single.text
        api.wait(api.client(key), single.json()["id"])
        plain = console.get(f"/console/evaluations/{single.json()['id']}/cases/0").text
        assert 'class="transcript' not in plain and "<h2>Input</h2>" in plain

    def test_the_review_page_shows_the_turns_blind_until_the_label(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_answer)
        team = Team(api)
        evaluation_id = evaluate(team.client, api, "chats to review", CONVERSATION)
        queue = team.queue(evaluation_id, metric="context")
        reviewer = signed_in(api, team.key(REVIEWER))
        page = claimed_page(reviewer, queue["id"])
        assert page.status_code == 200, page.text
        html = page.text
        assert html.count('<li class="turn turn-') == 4
        assert 'alt="Image 1 of turn 1"' in html and "describe_image" in html
        assert "turn-verdicts" not in html and NODE_REASON not in unescape(html)
        assert "score 0.5" not in html
        done = reviewer.post(
            _label_action(html), data={"csrf_token": csrf_of(html), "choice": "pass"}
        )
        assert done.status_code == 303, done.text
        judged = reviewer.get(done.headers["location"]).text
        assert judged.count('<li class="turn turn-') == 4
        assert NODE_REASON in unescape(judged)

    def test_a_comparison_shows_each_sides_turns_folded(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_answer)
        key = api.new_key()
        client = api.client(key)
        before = evaluate(client, api, "before", CONVERSATION)
        # The candidate calls no tool: tool_correctness moves from 1 to 0.
        turns = [dict(turn) for turn in CONVERSATION["turns"]]
        turns[1] = {"role": "assistant", "content": "A red circle, I think."}
        after = evaluate(client, api, "after", {**CONVERSATION, "turns": turns})
        html = compared(api, key, before, after)
        article = between(html, 'data-test-case="logo-chat"', "</article>")
        assert "A conversation of 4 turns" in article
        assert article.count('<details class="side-transcript">') == 2
        assert 'id="item-1-baseline-turn-2"' in article
        assert 'id="item-1-candidate-turn-2"' in article
        assert "A red circle, I think." in article and "<h4>Input</h4>" not in article


def _label_action(html: str) -> str:
    start = html.index('action="/console/review/') + len('action="')
    return html[start : html.index('"', start)]
