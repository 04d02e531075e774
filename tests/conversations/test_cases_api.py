"""A conversation as a test case: what a submission may hold, and every misfit in one 422."""

import re

from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_judged import all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import user_text
from tests.media.loopback import LoopbackServer, Route, data_url, png


def test_every_misfit_of_shape_is_named_in_one_answer(api: Api) -> None:
    body = {
        "test_cases": [
            # A conversation given to a single-turn metric.
            {"turns": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]},
            # Neither shape.
            {"actual_output": "an answer without its request"},
            # Both shapes at once, and a user turn that calls tools.
            {
                "actual_output": "x",
                "turns": [
                    {"role": "user", "content": "q", "tools_called": [{"name": "search"}]},
                    {"role": "assistant", "content": "a"},
                ],
            },
            # A conversation's field on a single-turn case.
            {"input": "q", "actual_output": "a", "expected_output": "a", "chatbot_role": "pirate"},
        ],
        "metrics": [{"type": "exact_match"}],
    }
    response = api.tenant_client().post("/v1/evaluations", json=body)
    locs = error_locs(problem(response, 422))
    assert "test_cases[0].turns" in locs
    assert "test_cases[1].input" in locs
    assert "test_cases[2].actual_output" in locs
    assert "test_cases[2].turns[0].tools_called" in locs
    assert "test_cases[3].chatbot_role" in locs
    # A conversation refused for its shape is not also told it lacks input and outputs.
    assert "test_cases[0].actual_output" not in locs


def test_a_turn_must_have_a_known_role(api: Api) -> None:
    body = {
        "test_cases": [{"turns": [{"role": "system", "content": "be nice"}]}],
        "metrics": [{"type": "exact_match"}],
    }
    response = api.tenant_client().post("/v1/evaluations", json=body)
    assert "test_cases[0].turns[0].role" in error_locs(problem(response, 422))


def test_images_from_every_source_in_any_turn_reach_the_judge(
    api: Api, judge: ScriptedJudge
) -> None:
    """A user turn that is only an image (a data URL), an assistant turn that is only an image
    fetched by URL, a stored image named by its `blob:sha256:` reference and by its /v1/media
    URL: each is taken in, stored by content and sent to the judge as an image."""
    client = api.tenant_client()
    with LoopbackServer() as server:
        server.routes["/drawing.png"] = Route(body=png((20, 20), "blue"))
        first = submit(
            api,
            client,
            {
                "test_cases": [
                    {"input": [image(data_url(png((16, 16), "green")))], "expected_tools": []}
                ],
                "metrics": [{"type": "tool_correctness"}],
            },
        )
        (stored,) = client.get(f"/v1/evaluations/{first['id']}/test_cases").json()["data"]
        media_url = stored["input"][0]["image_url"]["url"]
        digest = stored["input"][0]["blob"]["sha256"]
        judge.script(
            lambda request: {
                "verdicts": [
                    {"turn": int(n), "verdict": "yes"}
                    for n in re.findall(r"\d+", user_text(request).split("to judge: ")[1])
                ]
            }
        )
        case = {
            "chatbot_role": "A drawing tutor.",
            "turns": [
                {"role": "user", "content": [image(data_url(png((8, 8), "red")))]},
                {"role": "assistant", "content": [image(server.url("/drawing.png"))]},
                {"role": "user", "content": ["And this one?", image(f"blob:sha256:{digest}")]},
                {"role": "assistant", "content": ["The same again:", image(media_url)]},
            ],
        }
        final = submit(api, client, {"test_cases": [case], "metrics": [{"type": "role_adherence"}]})
    assert final["result_counts"]["passed"] == 1, all_results(client, final["id"])
    (request,) = judge.calls_for("role_adherence_verdicts")
    sent = image_parts(request)
    assert len(sent) == 4 and all(url.startswith("data:image/png;base64,") for url in sent)
    assert sent[2] == sent[3]  # the stored image, named two ways, is the same image
    (read,) = client.get(f"/v1/evaluations/{final['id']}/test_cases").json()["data"]
    blobs = [turn["content"][-1]["blob"] for turn in read["turns"]]
    assert [blob["source"] for blob in blobs[:2]] == ["data_url", server.url("/drawing.png")]
    assert blobs[2]["sha256"] == blobs[3]["sha256"] == digest
