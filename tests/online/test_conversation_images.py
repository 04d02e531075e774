"""A conversation judged online with an image the media pipeline refuses in one turn: the
image is left out of its turn (which keeps its text, its metadata naming the image and why),
counted on the rule's `dropped`, and the rest of the conversation is judged. Nothing the
address policy refused is fetched."""

import json
import re

import httpx
import openai
from openinference.instrumentation import using_session

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.online.test_conversation_target import (
    FOLLOW_UP,
    TURN_RELEVANCY,
    counts,
    model_and_turns,
    sweep_past_idle,
)
from tests.online.test_receiver import judged_results, make_rule
from tests.otlp.capture import ANSWER, QUESTION, Receiver, data_url, instrumented, red_square_png

# Not an address the policy lets Loupe fetch (only http and https are), and a data URL whose
# bytes are no image.
FTP_IMAGE = "ftp://files.example.com/cat.png"
BROKEN_IMAGE = "data:image/png;base64,bm90IGFuIGltYWdl"


def ask_with_images(base_url: str, text: str, urls: list[str]) -> None:
    """One chat completion of a user message with text and these images."""
    content = [{"type": "text", "text": text}] + [
        {"type": "image_url", "image_url": {"url": url}} for url in urls
    ]
    with httpx.Client(trust_env=False, timeout=30) as http:
        client = openai.OpenAI(base_url=base_url, api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": content}]
        )


class TestRefusedImageInATurn:
    def test_the_conversation_is_judged_without_the_refused_images_which_it_names(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client,
            name="chats",
            target="conversation",
            metrics=[TURN_RELEVANCY],
            filter=[
                {"attribute": "service.name", "op": "eq", "value": "app-openinference"},
                {"attribute": "model", "op": "eq", "value": "gpt-4o-mini"},
            ],
        )
        judge.script(model_and_turns)
        with (
            instrumented(
                "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
            ),
            using_session("gallery-3"),
        ):
            ask_with_images(judge.base_url, QUESTION, [FTP_IMAGE, BROKEN_IMAGE])
            ask_with_images(judge.base_url, FOLLOW_UP, [data_url(red_square_png())])
        assert counts(client, rule)["sampled"] == 2
        assert sweep_past_idle(api) >= 1

        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None, result
        cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
        [case] = cases["data"]
        first, answer, follow_up, _ = case["turns"]
        # The first turn keeps its text; both its images are named, with why.
        assert first["content"] == QUESTION
        dropped = first["metadata"]["images_dropped"]
        assert [(drop["image"], drop["type"]) for drop in dropped] == [
            (1, "url_scheme"),
            (2, "image_type"),
        ]
        assert dropped[0]["reason"] == "only http and https URLs are fetched"
        assert answer["content"] == ANSWER
        # The later turn's image was taken in and reached the judge.
        assert FOLLOW_UP in json.dumps(follow_up["content"])
        assert re.search(r"/v1/media/[0-9a-f]{64}", json.dumps(follow_up["content"]))
        assert case["metadata"]["images_dropped"] == 2
        [asked] = judge.calls_for("turn_relevancy_verdicts")
        assert len(image_parts(asked)) == 1
        assert "ftp://" not in json.dumps(asked)

        found = counts(client, rule)
        assert (found["sent"], found["skipped"], found["dropped"]) == (
            1,
            {},
            {"image_refused": 2},
        )
        # The console says so on the rule's page and on the conversation's transcript.
        console = signed_in(api, key)
        rule_page = console.get(f"/console/online_rules/{rule['id']}").text
        case_page = console.get(
            f"/console/evaluations/{result['evaluation_id']}/cases/{result['test_case_index']}"
        ).text
        console.close()
        assert "Left out of judged conversations" in rule_page
        assert "Image 1 left out: only http and https URLs are fetched" in case_page
        assert "Image 2 left out:" in case_page
