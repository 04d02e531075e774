"""A conversation's test case in a real browser (Debian's Chromium via Playwright), loopback
only (issue 30 item 4): submitted through the HTTP API with an image in a user turn and a tool
call in an assistant turn, scored by turn_contextual_relevancy (the scripted judge) and
tool_correctness, its page shows the turns as a transcript (the image loaded, the tool call
folded until opened) with each metric's verdict beside the turn it judges; the results list
names the conversation by its turns; at 420 px each verdict goes under its turn. Retakes
docs/screenshots/transcript.png.
"""

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.console.test_browser import (
    SHOTS,
    XSS,
    image,
    image_loaded,
    picture,
    sign_in,
    submit,
    wait,
)
from tests.console.test_browser_narrow import NARROW, on_screen, page_fits
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of

NODE_REASON = "Opening hours say nothing about the logo."
CONVERSATION = {
    "id": "logo-chat",
    "scenario": "A customer sends a photo of a logo and asks what it shows.",
    "expected_outcome": "The assistant identifies the red circle.",
    "chatbot_role": "A patient brand assistant",
    "user_description": "A designer checking a logo",
    "turns": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What does this logo show?"},
                image(picture("red", "circle")),
            ],
        },
        {
            "role": "assistant",
            "content": "Let me look at the picture.",
            "tools_called": [
                {
                    "name": "describe_image",
                    "input_parameters": {"image": 1, "detail": "high"},
                    "output": {"shapes": ["red circle"]},
                    # Markup a page must show as text (the fold holds it; nothing runs).
                    "reasoning": XSS,
                }
            ],
        },
        {
            "role": "assistant",
            "content": "It shows a red circle.",
            "retrieval_context": ["The logo is a red circle.", "The shop opens at nine."],
        },
        {"role": "user", "content": "Thanks!"},
    ],
    "expected_tools": [{"name": "describe_image"}],
}


def judge_answer(request: dict) -> Any:
    """turn_contextual_relevancy on turn 3: the first node relevant, the second not."""
    if task_of(request) == "turn_contextual_relevancy_verdicts":
        return {
            "nodes": [
                {"node": 1, "verdict": "yes"},
                {"node": 2, "verdict": "no", "reason": NODE_REASON},
            ]
        }
    return plausible_answer(request)


class TestTranscript:
    def test_turns_image_folded_tool_call_and_verdicts_beside_their_turns(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(judge_answer)
        key = console.new_key("acme")
        client = console.client(key)
        evaluation_id = submit(
            client,
            {
                "name": "logo chats",
                "test_cases": [CONVERSATION],
                "metrics": [
                    {"type": "turn_contextual_relevancy", "name": "context"},
                    {"type": "tool_correctness", "name": "tools"},
                ],
            },
        )
        done = wait(console, client, f"/v1/evaluations/{evaluation_id}")
        assert done["status"] == "completed", done
        # The judge saw the user's image (the media pipeline stored and sent it).
        asked = [r for r in judge.requests if task_of(r) == "turn_contextual_relevancy_verdicts"]
        assert len(asked) == 1 and "image_url" in str(asked[0]["messages"])

        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
        case_cell = page.locator("th.case-cell")
        expect(case_cell).to_contain_text("4 turns")
        expect(case_cell).to_contain_text("What does this logo show?")
        case_cell.get_by_role("link", name="logo-chat").click()
        expect(page.get_by_role("heading", name="Test case logo-chat")).to_be_visible()

        turns = page.locator("ol.transcript > li.turn")
        expect(turns).to_have_count(4)
        expect(turns.locator(".speaker")).to_have_text(
            ["Turn 1 · User", "Turn 2 · Assistant", "Turn 3 · Assistant", "Turn 4 · User"]
        )
        expect(page.locator("#turn-3 .bubble")).to_contain_text("It shows a red circle.")
        expect(page.get_by_text("A patient brand assistant")).to_be_visible()
        expect(page.get_by_text("A designer checking a logo")).to_be_visible()

        # The user's image, as a thumbnail from the media route, decoded.
        thumb = page.locator("#turn-1 .turn-image img")
        expect(thumb).to_have_attribute("alt", "Image 1 of turn 1")
        image_loaded(page, "#turn-1 .turn-image img")

        # The tool call folded: its name shown, its arguments (escaped) only once opened.
        call = page.locator("#turn-2 details.tool-call")
        expect(call.locator("summary")).to_have_text("Tool call describe_image")
        arguments = call.locator("pre.json").first
        expect(arguments).to_be_hidden()
        call.locator("summary").click()
        expect(arguments).to_be_visible()
        expect(arguments).to_contain_text('"detail": "high"')
        expect(call).to_contain_text("red circle")
        expect(call.locator(".reason")).to_have_text(XSS)

        # Each metric's verdict beside the turn it is about, linking to the metric's card.
        on_three = page.locator("#turn-3 .turn-verdicts .pin")
        expect(on_three).to_have_count(1)
        expect(on_three.get_by_role("link", name="context")).to_be_visible()
        expect(on_three.locator(".verdict")).to_have_text("score 0.5")
        expect(on_three).to_contain_text(NODE_REASON)
        on_two = page.locator("#turn-2 .turn-verdicts .pin")
        expect(on_two.get_by_role("link", name="tools")).to_be_visible()
        expect(on_two.locator(".verdict")).to_have_text("expected")
        expect(page.locator("#turn-1 .turn-verdicts")).to_contain_text("No verdict on this turn")
        # Turn 3's retrieval context, folded like its tool calls.
        context = page.locator("#turn-3 details.turn-context")
        expect(context.locator("summary")).to_contain_text("2 passages")
        expect(context.get_by_text("The shop opens at nine.")).to_be_hidden()
        # From the verdict to its metric's card, and from the card's by-turn table back.
        on_three.get_by_role("link", name="context").click()
        card = page.locator("article.result-card", has_text="turn_contextual_relevancy")
        expect(card.locator(".score")).to_contain_text("score 0.5")
        card.locator("table.turn-pins").get_by_role("link", name="turn 3").click()
        expect(page).to_have_url(re.compile("#turn-3$"))

        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}/cases/0")
        image_loaded(page, "#turn-1 .turn-image img")
        page.screenshot(path=SHOTS / "transcript.png", full_page=True)

        # At 420 px each verdict goes under its turn and nothing runs past the window's edge.
        page.set_viewport_size(NARROW)
        page_fits(page)
        on_screen(page, "ol.transcript .bubble", 4)
        on_screen(page, "ol.transcript .turn-verdicts", 4)
        bubble = page.locator("#turn-3 .bubble").bounding_box()
        verdicts = page.locator("#turn-3 .turn-verdicts").bounding_box()
        assert bubble and verdicts and verdicts["y"] >= bubble["y"] + bubble["height"]
        assert page.evaluate("window.__pwned") is None
        assert errors == [] and off_loopback == []
