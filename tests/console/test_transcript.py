"""A conversation as the console shows it (pure functions of app/console/transcript.py), and
the test case template rendering a transcript with its pinned verdicts, escaped."""

from types import SimpleNamespace
from typing import Any

from app.console import transcript
from app.console._render import templates

DIGEST = "b" * 64
IMAGE = {
    "type": "image_url",
    "image_url": {"url": f"blob:sha256:{DIGEST}"},
    "blob": {"sent": {"width": 160, "height": 120, "format": "PNG"}},
}
INJECTED = "<script>window.__pwned=1</script>"


def conversation(**fields: Any) -> SimpleNamespace:
    stored = {
        "client_id": "chat-1",
        "index": 0,
        "metadata_": None,
        "input": None,
        "actual_output": None,
        "expected_output": None,
        "context": None,
        "retrieval_context": None,
        "tools_called": None,
        "expected_tools": None,
        "turns": [
            {"role": "user", "content": [{"type": "text", "text": "What is this?"}, IMAGE]},
            {
                "role": "assistant",
                "content": "",
                "tools_called": [
                    {"name": "vision", "input_parameters": {"q": INJECTED}, "output": {"a": 1}}
                ],
            },
            {"role": "assistant", "content": "A red circle.", "retrieval_context": ["a doc"]},
            {"role": "user", "content": "Thanks"},
        ],
        "scenario": "A user asks about a logo.",
        "expected_outcome": None,
        "chatbot_role": "A patient helper",
        "user_description": None,
    }
    return SimpleNamespace(**{**stored, **fields})


def result(metric: str, pins: Any, **fields: Any) -> SimpleNamespace:
    return SimpleNamespace(
        **{
            "metric": metric,
            "type": "turn_relevancy",
            "passed": True,
            "error": None,
            "score": 1.0,
            "threshold": 0.5,
            "fragile": False,
            "metric_version": None,
            "reason": "turn 3: relevant",
            "stability": None,
            "logs": {"turns": pins},
            "usage": SimpleNamespace(calls=1, failed_calls=0, prompt_tokens=1, completion_tokens=1),
            "agreement": None,
            **fields,
        }
    )


class TestTurns:
    def test_turns_are_numbered_from_one_with_their_tool_calls_as_json(self) -> None:
        turns = transcript.turns(conversation())
        assert [(t["number"], t["role"]) for t in turns] == [
            (1, "user"),
            (2, "assistant"),
            (3, "assistant"),
            (4, "user"),
        ]
        call = turns[1]["tools"][0]
        assert call["name"] == "vision"
        assert '"q": "<script>' in call["arguments"]
        assert call["output"] == '{\n  "a": 1\n}'
        assert turns[2]["retrieval_context"] == ["a doc"]

    def test_a_call_without_output_or_arguments(self) -> None:
        assert transcript.tool_call({"name": "ping"}) == {
            "name": "ping",
            "arguments": "{}",
            "output": None,
            "description": None,
            "reasoning": None,
        }


class TestPinned:
    def test_pins_go_beside_their_turns_and_the_others_elsewhere(self) -> None:
        first = result("relevancy", [{"turn": 3, "verdict": "no", "reason": "off topic"}])
        second = result(
            "retention",
            [
                {"turn": 4, "verdict": True, "reason": None, "window": [1, 2]},
                {"turn": None, "verdict": 0.25, "reason": "overall"},
                {"turn": 9, "verdict": "yes", "reason": "beyond the end"},
                {"turn": True, "verdict": "yes"},
                "not a pin",
            ],
        )
        pinned = transcript.pinned([first, second], turn_count=4)
        assert sorted(pinned["by_turn"]) == [3, 4]
        (on_three,) = pinned["by_turn"][3]
        assert (on_three["metric"], on_three["anchor"], on_three["verdict"], on_three["tone"]) == (
            "relevancy",
            "metric-1",
            "no",
            "no",
        )
        (on_four,) = pinned["by_turn"][4]
        assert (on_four["anchor"], on_four["verdict"], on_four["tone"]) == (
            "metric-2",
            "yes",
            "yes",
        )
        assert on_four["extra"] == [{"key": "window", "value": "[\n  1,\n  2\n]", "folded": True}]
        assert [(v["turn"], v["verdict"]) for v in pinned["elsewhere"]] == [
            (None, "score 0.25"),
            (9, "yes"),
            (None, "yes"),
        ]

    def test_a_turn_score_is_coloured_by_the_threshold_and_tool_words_by_meaning(self) -> None:
        scored = result(
            "rag",
            [{"turn": 1, "verdict": 0.4}, {"turn": 2, "verdict": 0.75, "nodes": [{"node": 1}]}],
            threshold=0.5,
        )
        low, high = transcript.pins_of(scored)
        assert (low["verdict"], low["tone"], high["tone"]) == ("score 0.4", "no", "yes")
        assert high["extra"][0]["folded"] is True
        calls = result(
            "tools",
            [
                {"turn": 2, "verdict": "expected", "call": 1, "expected": 1},
                {"turn": 2, "verdict": "out_of_order", "call": 2, "expected": None},
                {"turn": 2, "verdict": "extra", "call": 3},
            ],
        )
        shown = transcript.pins_of(calls)
        assert [(v["verdict"], v["tone"]) for v in shown] == [
            ("expected", "yes"),
            ("out of order", "idk"),
            ("extra", "no"),
        ]
        # None is left out: "expected None" says nothing.
        assert [e["key"] for e in shown[1]["extra"]] == ["call"]

    def test_a_result_without_pins(self) -> None:
        assert transcript.pins_of(SimpleNamespace(logs={"verdicts": []})) == []
        assert transcript.pins_of(SimpleNamespace(logs=None)) == []
        assert transcript.pinned([SimpleNamespace(logs={"turns": "x"})], 3)["by_turn"] == {}


class TestSummary:
    def test_a_conversation_by_its_turns_and_first_user_words(self) -> None:
        assert transcript.summary(conversation()) == {"turns": 4, "first_user": "What is this?"}

    def test_a_single_turn_case_has_none(self) -> None:
        assert transcript.summary(conversation(turns=None, input="hi")) is None


class TestTemplate:
    def render(self, case: SimpleNamespace, results: list[Any]) -> str:
        evaluation = SimpleNamespace(id="ev_1", name="chat", total_test_cases=1)
        return templates.env.get_template("test_case.html").render(
            evaluation=evaluation, case=case, results=results, specs={}
        )

    def test_a_transcript_with_images_folded_calls_and_pinned_verdicts(self) -> None:
        pins = [{"turn": 3, "verdict": "no", "reason": f"turn 3: {INJECTED}"}]
        html = self.render(conversation(), [result("relevancy", pins)])
        assert html.count('<li class="turn turn-') == 4
        assert f'<img src="/console/media/{DIGEST}" alt="Image 1 of turn 1"' in html
        assert '<summary>Tool call <span class="mono tool-name">vision</span></summary>' in html
        assert INJECTED not in html and "&lt;script&gt;" in html
        turn_three = html[html.index('id="turn-3"') : html.index('id="turn-4"')]
        assert '<a href="#metric-1">relevancy</a>' in turn_three
        assert "verdict-no" in turn_three
        assert "Retrieval context" in turn_three
        assert "A patient helper" in html and "A user asks about a logo." in html
        assert '<a href="#turn-3">turn 3</a>' in html

    def test_a_single_turn_case_has_no_transcript(self) -> None:
        case = conversation(turns=None, input="hi", actual_output="hello", scenario=None)
        html = self.render(case, [])
        assert "Transcript" not in html and "<h2>Input</h2>" in html
        assert "Tool call" not in html

    def test_a_review_item_shows_the_turns_and_no_verdict(self) -> None:
        shown = SimpleNamespace(
            test_case=conversation(),
            metric="relevancy",
            metric_type="turn_relevancy",
            item=SimpleNamespace(id="ri_1"),
            status="reserved",
            expires_at=__import__("datetime").datetime(2026, 1, 1),
            scale=(0, 1),
        )
        html = templates.env.get_template("review_item.html").render(
            queue=SimpleNamespace(id="rq_1", name="chats"),
            progress=SimpleNamespace(items=1, labelled=0, in_progress=1, remaining=0, reviewers=[]),
            shown=shown,
            now=__import__("datetime").datetime(2025, 12, 31),
        )
        assert html.count('<li class="turn turn-') == 4
        assert "turn-verdicts" not in html and 'class="verdict' not in html
