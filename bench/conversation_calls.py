"""Judge calls per conversation: Loupe's conversational metrics and agent checks beside deepeval
4.3.1's on the same conversations, both against the same loopback stand-in judge.

Three fixed conversations (4, 8 and 12 turns; an image in a user turn of the second; tool calls
on assistant turns; retrieval context on some; a chatbot role, scenario, expected outcome and
expected tools on each). The stand-in (tests/fixtures/judge.py's scripted server) answers every
request with a reply fitting the JSON schema the request asks for (deepeval sends its pydantic
schemas as OpenAI structured outputs, Loupe its own), logprobs included where asked:

- deepeval 4.3.1, installed in its own virtualenv (not a Loupe dependency), runs its own
  `evaluate()` with each metric on each conversation alone (bench/deepeval_conversation_calls.py),
  its GPTModel("gpt-4.1") pointed at the stand-in; requests are counted by a header it sends.
- Loupe, embedded (`tests/fixtures/api.py`'s side app on SQLite, its judge the stand-in), gets
  one `POST /v1/evaluations` per metric and conversation with `"cache": false`; the requests
  the stand-in received while it ran are counted, beside `POST /v1/evaluations/estimate`'s
  planned calls. A metric not in app/metrics' registry is printed as "not registered".

Loupe refuses a reply that leaves out a turn it asked about (one repair request). The stand-in
cannot know which turns each prompt asks about, so each Loupe run is repeated until it makes no
repair request: the repair message names the missing and extra turns, the stand-in remembers the
corrected answer for that prompt, and the counted run is the one without repairs (the calls a
judge answering in full costs, as deepeval's counts are).

    python3 -m venv /tmp/deepeval-venv && /tmp/deepeval-venv/bin/pip install deepeval==4.3.1
    .venv/bin/python bench/conversation_calls.py --deepeval-python /tmp/deepeval-venv/bin/python
    .venv/bin/python bench/conversation_calls.py            # Loupe's side only
    .venv/bin/python bench/conversation_calls.py --metrics turn_relevancy,role_adherence
"""

import argparse
import base64
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import metrics as loupe_metrics  # noqa: E402
from tests.fixtures.api import side_app  # noqa: E402
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, logprob_tokens  # noqa: E402

GEVAL_CRITERIA = "Does the assistant resolve what the user asked for, within its role?"


def png() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (196, 170, 40)).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def tool(name: str, arguments: dict, output: Any = None) -> dict:
    call: dict[str, Any] = {"name": name, "input_parameters": arguments}
    if output is not None:
        call["output"] = output
    return call


def user(content: Any) -> dict:
    return {"role": "user", "content": content}


def assistant(content: str, tools: list[dict] | None = None, context: list | None = None) -> dict:
    turn: dict[str, Any] = {"role": "assistant", "content": content}
    if tools:
        turn["tools_called"] = tools
    if context:
        turn["retrieval_context"] = context
    return turn


ORDER = {"order_id": "5521"}
REFUND = [
    user("Hi, I bought a Nimbus kettle on 2 March and it stopped heating. Order 5521."),
    assistant(
        "I found order 5521, a Nimbus K2 kettle delivered on 2 March. It is past the 30-day "
        "return window, but the two-year warranty covers a fault, so we can replace it.",
        [tool("lookup_order", ORDER, {"item": "Nimbus K2 kettle", "delivered": "2026-03-02"})],
        [
            "Items can be returned within 30 days of delivery for a full refund.",
            "Faulty items are covered by a two-year warranty: repair or replacement.",
        ],
    ),
    user("A replacement is fine. Can you send it to the same address?"),
    assistant(
        "Done: replacement R-907 ships on 30 November to the address on order 5521.",
        [
            tool(
                "create_replacement",
                {**ORDER, "reason": "does not heat"},
                {"replacement_id": "R-907", "ships": "2026-11-30"},
            )
        ],
        ["Replacements ship to the order's delivery address unless the customer gives another."],
    ),
]

MONSTERA = {"plant": "monstera"}
GUIDE = {"water": "when the top 5 cm of soil is dry", "light": "bright indirect"}
PLANT = [
    user(
        [
            {"type": "text", "text": "My monstera's leaves look like this. What is wrong?"},
            {"type": "image_url", "image_url": {"url": png()}},
        ]
    ),
    assistant(
        "The yellow lower leaves in your photo point to overwatering. How often do you water it?",
        context=[
            "Yellowing lower leaves on a monstera usually mean overwatering.",
            "Brown, crispy leaf edges usually mean low humidity.",
        ],
    ),
    user("Every two days. It is in a north-facing room. I'm Ana, by the way."),
    assistant(
        "Thanks, Ana. Every two days is too often: water when the top 5 cm of soil is dry, "
        "about every 7 to 10 days.",
        [tool("lookup_care_guide", MONSTERA, GUIDE)],
        ["Monstera: water when the top 5 cm of soil is dry, usually every 7 to 10 days."],
    ),
    user("Should I repot it too?"),
    assistant(
        "Only if roots circle the pot or grow out of the drainage holes; otherwise let the soil "
        "dry out first.",
        context=["Repot a monstera only when roots circle the pot or leave the drainage holes."],
    ),
    user("OK. What light does it need, given my north-facing room?"),
    assistant(
        "Bright indirect light. A north-facing room is dim, so put it close to the window, Ana.",
        [tool("lookup_care_guide", MONSTERA, GUIDE)],
    ),
]

TRIP = [
    user("I need a flight from Lisbon to Oslo on 12 December, one adult, economy."),
    assistant(
        "Two direct flights that day: TP 1234 at 07:10 for 189 euros and SK 577 at 14:35 for "
        "232 euros.",
        [
            tool(
                "search_flights",
                {"from": "LIS", "to": "OSL", "date": "2026-12-12", "cabin": "economy"},
                [{"flight": "TP 1234", "price": 189}, {"flight": "SK 577", "price": 232}],
            )
        ],
        ["Fares include one cabin bag of 8 kg; checked bags cost 35 euros each way."],
    ),
    user("The morning one. Does it include a checked bag?"),
    assistant(
        "TP 1234 includes one 8 kg cabin bag; a checked bag is 35 euros extra. Shall I add one?",
        context=["Fares include one cabin bag of 8 kg; checked bags cost 35 euros each way."],
    ),
    user("Yes, add one bag and book it. My name is Rui Costa."),
    assistant(
        "Booked: TP 1234 on 12 December for Rui Costa with one checked bag, 224 euros. "
        "Booking reference QX7P2L.",
        [
            tool(
                "book_flight",
                {"flight": "TP 1234", "passenger": "Rui Costa", "bags": 1},
                {"reference": "QX7P2L", "total": 224},
            )
        ],
    ),
    user("Now a hotel near Oslo central station for 12 to 15 December, under 150 a night."),
    assistant(
        "Citybox Oslo is 300 m from the station at 119 euros a night; Thon Hotel Opera is 100 m "
        "away at 148 euros.",
        [
            tool(
                "search_hotels",
                {"near": "Oslo S", "check_in": "2026-12-12", "check_out": "2026-12-15"},
                [{"hotel": "Citybox Oslo", "price": 119}, {"hotel": "Thon Opera", "price": 148}],
            )
        ],
        [
            "Citybox Oslo: 300 m from Oslo S, from 119 euros a night.",
            "Thon Hotel Opera: 100 m from Oslo S, from 148 euros a night.",
        ],
    ),
    user("Citybox, please. Same name as the flight."),
    assistant(
        "Booked Citybox Oslo for Rui Costa, 12 to 15 December, 357 euros in total. "
        "Reference CB-4410.",
        [
            tool(
                "book_hotel",
                {"hotel": "Citybox Oslo", "guest": "Rui Costa", "nights": 3},
                {"reference": "CB-4410", "total": 357},
            )
        ],
    ),
    user("What time should I be at Lisbon airport?"),
    assistant(
        "TP 1234 leaves at 07:10, so be at Lisbon airport by 05:10 with a checked bag, Rui.",
        context=["Arrive two hours before a European flight when checking a bag."],
    ),
]

CONVERSATIONS: list[dict[str, Any]] = [
    {
        "name": "refund (4 turns)",
        "turns": REFUND,
        "chatbot_role": "A polite support agent for Nimbus, a kitchen-appliance shop, who never "
        "promises refunds outside the 30-day policy.",
        "scenario": "A customer whose kettle broke after the return window asks for help.",
        "expected_outcome": "A warranty replacement is shipped to the customer's address.",
        "expected_tools": [tool("lookup_order", ORDER), tool("create_replacement", ORDER)],
    },
    {
        "name": "plant photo (8 turns)",
        "turns": PLANT,
        "chatbot_role": "A gardening assistant for the Greenleaf nursery who gives plant-care "
        "advice only.",
        "scenario": "A customer sends a photo of a monstera with yellow leaves.",
        "expected_outcome": "The customer learns the cause and a watering and light routine.",
        "expected_tools": [tool("lookup_care_guide", MONSTERA)],
    },
    {
        "name": "trip (12 turns)",
        "turns": TRIP,
        "chatbot_role": "A travel agent who books flights and hotels and confirms every booking "
        "with its reference.",
        "scenario": "A traveller books a flight and a hotel for a trip to Oslo.",
        "expected_outcome": "A flight with a checked bag and a hotel near Oslo S are booked.",
        "user_description": "Rui Costa, travelling alone from Lisbon.",
        "expected_tools": [
            tool("search_flights", {"from": "LIS", "to": "OSL", "date": "2026-12-12"}),
            tool("book_flight", {"flight": "TP 1234", "passenger": "Rui Costa"}),
            tool("search_hotels", {"near": "Oslo S"}),
            tool("book_hotel", {"hotel": "Citybox Oslo", "guest": "Rui Costa"}),
        ],
    },
]

METRICS = [
    "conversational_g_eval",
    "turn_relevancy",
    "knowledge_retention",
    "role_adherence",
    "conversation_completeness",
    "turn_faithfulness",
    "turn_contextual_relevancy",
    "tool_correctness",
    "argument_correctness",
    "task_completion",
]
SPECS: dict[str, dict[str, Any]] = {
    "conversational_g_eval": {
        "name": "resolution",
        "criteria": GEVAL_CRITERIA,
        # deepeval's are the same (it adds role and content itself).
        "evaluation_params": ["role", "content", "tools_called", "scenario", "expected_outcome"],
    },
}


def loupe_case(conversation: dict) -> dict:
    return {key: value for key, value in conversation.items() if key != "name"}


# --- the stand-in: a reply fitting whatever JSON schema a request asks for -------------------

LIST_LENGTH = 2  # free lists (steps, claims, truths, intentions, statements) get two items
TEXT = "The assistant's reply is consistent with the conversation."
REPAIR = re.compile(r"^Your reply (does not fit the question|could not be used)")
TURN_HEADING = re.compile(r"Turn (\d+) \((user|assistant)\)")


def texts_of(messages: list[dict]) -> str:
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            out.append(content)
        else:
            out += [p.get("text", "") for p in content or [] if p.get("type") == "text"]
    return "\n".join(out)


def key_property(items: dict, defs: dict) -> str | None:
    """The integer property that keys a list's items to what they judge (turn, intention...)."""
    items = resolve(items, defs)
    for name, prop in (items.get("properties") or {}).items():
        prop = resolve(prop, defs)
        if prop.get("type") == "integer" and name not in ("score", "index"):
            return name
    return None


def resolve(schema: dict, defs: dict) -> dict:
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return resolve(schema["allOf"][0], defs)
    return schema


def example(schema: dict, defs: dict, prompt: str, name: str | None = None) -> Any:
    """A value fitting `schema`: every property present, lists of LIST_LENGTH, keyed lists one
    item per assistant turn the prompt shows."""
    schema = resolve(schema, defs)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            options = [s for s in schema[union] if resolve(s, defs).get("type") != "null"]
            return example(options[0], defs, prompt, name)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        if not properties and isinstance(schema.get("additionalProperties"), dict):
            return {"name": example(schema["additionalProperties"], defs, prompt)}
        return {key: example(prop, defs, prompt, key) for key, prop in properties.items()}
    if kind == "array":
        items = schema.get("items") or {"type": "string"}
        key = key_property(items, defs)
        if key is not None:
            numbers = [int(n) for n, role in TURN_HEADING.findall(prompt) if role == "assistant"]
            keys = sorted(set(numbers)) if key == "turn" and numbers else [1, 2]
            return [{**example(items, defs, prompt), key: k} for k in keys]
        count = max(schema.get("minItems", 0), LIST_LENGTH)
        count = min(count, schema.get("maxItems", count))
        return [example(items, defs, prompt, name) for _ in range(count)]
    if kind == "integer":
        low, high = schema.get("minimum", 0), schema.get("maximum", 10)
        if name != "score":
            # A turn number (met_in, turn...): the last assistant turn the prompt shows.
            shown = [int(n) for n, role in TURN_HEADING.findall(prompt) if role == "assistant"]
            return shown[-1] if shown else max(low, 1)
        return max(low, min(high, 8))
    if kind == "number":
        # A score on a scale (G-Eval's 0-10) is 8; any other number (a 0-1 verdict) is 1.
        return min(8 if name == "score" else 1.0, schema.get("maximum", 10))
    if kind == "boolean":
        return True
    if name == "verdict":
        return "yes"
    return TEXT


def fix(previous: dict, problem: str) -> dict | None:
    """The previous answer with its keyed list corrected as a Loupe repair message asks (`no
    verdict for turn 2, 4`, `no facts entry for user turn 1`, `node 3 was not asked about`,
    `judged more than once`); None when the message says something else."""
    missing = re.search(r"\bno [a-z ]+? for [a-z ]*?(\d[\d, ]*)(?:;|$|\.)", problem)
    extra = re.search(r"(\d[\d, ]*) was not asked about", problem)
    twice = "more than once" in problem
    if not (missing or extra or twice):
        return None

    def numbers(match: re.Match | None) -> list[int]:
        return [int(n) for n in re.findall(r"\d+", match.group(1))] if match else []

    for field, value in previous.items():
        if not (isinstance(value, list) and value and isinstance(value[0], dict)):
            continue
        key = next((k for k, v in value[0].items() if isinstance(v, int) and k != "score"), None)
        if key is None:
            continue
        template = value[0]
        kept, seen = [], set()
        for item in value:
            if item[key] in numbers(extra) or (twice and item[key] in seen):
                continue
            seen.add(item[key])
            kept.append(item)
        kept += [{**template, key: n} for n in numbers(missing) if n not in seen]
        return {**previous, field: sorted(kept, key=lambda item: item[key])}
    return None


class StandIn:
    """Answers deepeval's and Loupe's requests; remembers Loupe's repaired answers per prompt."""

    def __init__(self) -> None:
        self.learned: dict[str, Any] = {}
        self.repairs: list[str] = []
        self.unfixable: list[str] = []

    @staticmethod
    def prompt_key(messages: list[dict], schema_name: str | None) -> str:
        raw = json.dumps([schema_name, messages], sort_keys=True)
        return hashlib.sha256(raw.encode()).hexdigest()

    def __call__(self, request: dict) -> Reply:
        messages = request.get("messages") or []
        fmt = (request.get("response_format") or {}).get("json_schema") or {}
        schema, name = fmt.get("schema"), fmt.get("name")
        last = messages[-1].get("content") if messages else None
        if isinstance(last, str) and REPAIR.match(last) and len(messages) >= 3:
            self.repairs.append(last)
            original = self.prompt_key(messages[:-2], name)
            try:
                previous = json.loads(messages[-2].get("content") or "{}")
            except ValueError:
                previous = None
            fixed = fix(previous, last) if isinstance(previous, dict) else None
            if fixed is None:
                self.unfixable.append(f"{name}: {last}")
                fixed = previous or {}
            self.learned[original] = fixed
            return self.reply(request, fixed)
        learned = self.learned.get(self.prompt_key(messages, name))
        if learned is not None:
            return self.reply(request, learned)
        if schema is None:
            # deepeval's G-Eval score call: plain text with logprobs, read as {"reason","score"}.
            answer: Any = {"reason": TEXT, "score": 8}
        else:
            answer = example(schema, schema.get("$defs") or {}, texts_of(messages))
        return self.reply(request, answer)

    @staticmethod
    def reply(request: dict, answer: Any) -> Reply:
        content = json.dumps(answer)
        if request.get("logprobs"):
            return Reply(content=content, logprobs=logprob_tokens(content))
        return Reply(content=content)


# --- the two sides ---------------------------------------------------------------------------


def run_deepeval(
    judge: ScriptedJudge, python: str, metrics: list[str]
) -> dict[tuple[str, str], dict]:
    """deepeval's calls, images sent and error per (metric, conversation)."""
    judge.reset()
    judge.script(StandIn())
    scratch = Path(tempfile.mkdtemp(prefix="deepeval-conversations-"))
    (scratch / "conversations.json").write_text(json.dumps(CONVERSATIONS))
    env = {**os.environ, "DEEPEVAL_TELEMETRY_OPT_OUT": "YES", "OPENAI_API_KEY": "sk-bench"}
    done = subprocess.run(
        [
            python,
            str(ROOT / "bench" / "deepeval_conversation_calls.py"),
            judge.base_url,
            str(scratch / "conversations.json"),
            ",".join(metrics),
        ],
        env=env,
        cwd=scratch,  # deepeval writes .deepeval/ here
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(f"deepeval failed:\n{done.stderr[-3000:]}")
    calls: Counter[str] = Counter()
    images: Counter[str] = Counter()
    for request, headers in zip(judge.requests, judge.request_headers, strict=True):
        label = headers.get("x-bench-call", "?")
        calls[label] += 1
        images[label] += len(image_parts(request))
    found = {}
    for line in done.stdout.splitlines():
        if line.startswith('{"call"'):
            row = json.loads(line)
            metric, conversation = row["call"].split("/", 1)
            found[metric, conversation] = {
                "calls": calls[row["call"]],
                "images": images[row["call"]],
                "error": row["error"],
            }
    return found


TOGETHER = "all three"


def run_loupe(
    judge: ScriptedJudge, metrics: list[str], attempts: int = 4
) -> dict[tuple[str, str], dict]:
    """Loupe's calls, planned calls, images sent and error per (metric, conversation), and per
    (metric, "all three") for the three conversations in one evaluation."""
    registered = set(loupe_metrics._REGISTRY)
    stand_in = StandIn()
    found: dict[tuple[str, str], dict] = {}
    with (
        tempfile.TemporaryDirectory() as directory,
        side_app(Path(directory), judge_base_url=judge.base_url) as app,
    ):
        client = app.tenant_client()
        for metric in metrics:
            runs = [(c["name"], [c]) for c in CONVERSATIONS] + [(TOGETHER, CONVERSATIONS)]
            for name, conversations in runs:
                if metric not in registered:
                    found[metric, name] = {"calls": None}
                    continue
                body = {
                    "test_cases": [loupe_case(c) for c in conversations],
                    "metrics": [{"type": metric, **SPECS.get(metric, {})}],
                    "cache": False,
                }
                found[metric, name] = measure_loupe(app, client, judge, stand_in, body, attempts)
    if stand_in.unfixable:
        print("repair messages the stand-in could not follow:", file=sys.stderr)
        for message in dict.fromkeys(stand_in.unfixable):
            print(f"  {message}", file=sys.stderr)
    return found


def measure_loupe(
    app: Any, client: Any, judge: ScriptedJudge, stand_in: StandIn, body: dict, attempts: int
) -> dict:
    """One evaluation's judge requests, run until it makes no repair request (see above)."""
    estimate = client.post("/v1/evaluations/estimate", json=body)
    planned = estimate.json()["metrics"][0]["calls"] if estimate.status_code == 200 else None
    for attempt in range(1, attempts + 1):
        judge.reset()
        judge.script(stand_in)
        repairs_before = len(stand_in.repairs)
        row = submit(app, client, body)
        row["planned"] = planned
        row["calls"] = len(judge.requests)
        row["images"] = sum(len(image_parts(r)) for r in judge.requests)
        row["repairs"] = len(stand_in.repairs) - repairs_before
        row["attempts"] = attempt
        if row["repairs"] == 0:
            break
    return row


def submit(app: Any, client: Any, body: dict) -> dict:
    response = client.post("/v1/evaluations", json=body)
    if response.status_code != 202:
        return {"error": f"HTTP {response.status_code}: {response.text[:300]}"}
    final = app.wait(client, response.json()["id"], timeout=120)
    results = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
    error = next((r["error"] for r in results if r.get("error")), None)
    usage = sum((r.get("usage") or {}).get("calls", 0) for r in results)
    return {"error": error, "usage_calls": usage, "scores": [r.get("score") for r in results]}


def cell(row: dict | None, key: str = "calls") -> str:
    if row is None:
        return "-"
    if row.get("calls") is None:
        return "not registered"
    text = "-" if row.get(key) is None else str(row[key])
    if key == "calls" and row.get("error"):
        text += " (error)"
    if key == "calls" and row.get("usage_calls") not in (None, row["calls"]):
        text += f" (results' usage: {row['usage_calls']})"
    if key == "calls" and row.get("repairs"):
        text += f" (+{row['repairs']} repair)"
    return text


def total(side: dict, metrics: list[str], conversation: str, key: str) -> str:
    """The sum of `key` over the metrics measured on `conversation` ("-": none)."""
    values = [
        row[key]
        for metric in metrics
        if (row := side.get((metric, conversation))) and row.get(key) is not None
    ]
    return str(sum(values)) if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--deepeval-python",
        help="a python with deepeval 4.3.1 installed (a separate venv): runs its side too",
    )
    parser.add_argument("--metrics", default=",".join(METRICS), help="comma-separated")
    parser.add_argument("--no-loupe", action="store_true", help="deepeval's side only")
    args = parser.parse_args()
    metrics = args.metrics.split(",")
    with ScriptedJudge() as judge:
        deepeval = (
            run_deepeval(judge, args.deepeval_python, metrics) if args.deepeval_python else {}
        )
        loupe = {} if args.no_loupe else run_loupe(judge, metrics)
    print("| metric | conversation | deepeval 4.3.1 calls | Loupe calls | Loupe planned |")
    print("| --- | --- | ---: | ---: | ---: |")
    names = [c["name"] for c in CONVERSATIONS] + [TOGETHER]
    for metric in metrics:
        for name in names:
            theirs = deepeval.get((metric, name))
            ours = loupe.get((metric, name))
            print(
                f"| `{metric}` | {name} | {cell(theirs)} | {cell(ours)} | "
                f"{cell(ours, 'planned') if ours and ours.get('calls') is not None else '-'} |"
            )
    for key, label in (("calls", "calls"), ("images", "images sent")):
        for name in names:
            sums = [total(side, metrics, name, key) for side in (deepeval, loupe)]
            print(f"| all, {label} | {name} | {sums[0]} | {sums[1]} | |")
    rows = [
        {
            "metric": m,
            "conversation": c,
            "deepeval": deepeval.get((m, c)),
            "loupe": loupe.get((m, c)),
        }
        for m, c in sorted(set(deepeval) | set(loupe))
    ]
    print(json.dumps(rows, default=str))


if __name__ == "__main__":
    main()
