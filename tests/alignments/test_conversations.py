"""An alignment's split keeps one conversation on one side: the items of a conversation (test
cases whose metadata names the same `conversation_id`, as an online rule's judged calls of one
chat do) are held out together or proposed together, as items sharing an image are."""

from tests.alignments.helpers import answer, cases, label_all, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import Team
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span

# Items 4-19 are the calls of four chats, four calls each.
CHATS = {number: f"chat-{(number - 4) // 4}" for number in range(4, 20)}


def test_the_calls_of_one_conversation_sit_on_one_side(api: Api, judge: ScriptedJudge) -> None:
    judge.script(answer)
    team = Team(api)
    made = cases()
    for number, chat in CHATS.items():
        made[number]["metadata"] = {"conversation_id": chat}
    evaluation_id = team.evaluate(cases=made)
    keys = label_all(team.client, evaluation_id)
    version = team.results(evaluation_id)[("c0", "helpfulness")]["metric_version"]
    for seed in range(3):
        response = team.client.post(
            "/v1/alignments", json={"metric_version": version, "seed": seed}
        )
        assert response.status_code == 202, response.text
        body = wait(api, team.client, response.json()["id"])
        held_out = set(body["split"]["held_out"])
        for chat in set(CHATS.values()):
            sides = {keys[f"c{n}"] in held_out for n, named in CHATS.items() if named == chat}
            assert len(sides) == 1, (seed, chat)


def test_a_span_rules_judged_call_names_its_conversation(api: Api, judge: ScriptedJudge) -> None:
    """The mark the split reads: a call judged alone keeps the chat it belongs to."""
    judge.script(model_and_judge)
    client = api.tenant_client()
    rule = make_rule(client)
    span = semconv_span("00f067aa0ba902b7", "app", "Capital of France?")
    attributes = span["scopeSpans"][0]["spans"][0]["attributes"]
    attributes.append({"key": "gen_ai.conversation.id", "value": {"stringValue": "chat-7"}})
    assert client.post("/v1/traces", json={"resourceSpans": [span]}).status_code == 200
    [result] = judged_results(api, client, rule["id"], 1)
    assert result["test_case"]["metadata"]["conversation_id"] == "chat-7"
