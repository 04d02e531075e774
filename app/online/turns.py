"""A conversation's traced calls as the turns of one conversational test case. Pure.

Each chat call's input repeats the conversation so far; what a call adds is its input after
the last assistant message (the user's new message, or the results of the tools the assistant
called) and its output. `exchange_of` keeps that much of a call; `conversation_case` lays the
calls' exchanges out in time order as turns: user messages (text and images), assistant
replies with the tools they called (each with the result the next call sent back) and the
trace's retrieved documents. An assistant reply that only called tools and the reply made from
their results are one turn, as the user saw one answer.
"""

import json
from collections.abc import Sequence
from typing import Any

from app.evaluations.case_schemas import MAX_TOOL_CALLS, MAX_TURNS
from app.otlp import Image, JudgedCall, Message, Text, ToolCall, ToolResult, decode_json

# The role a conversational test case keeps (deepeval's `chatbot_role`) is the system
# instructions' text, at most this long (the field's limit).
MAX_ROLE = 4000


def exchange_of(call: JudgedCall) -> dict[str, Any]:
    """What `call` adds to its conversation, in stored form (JSON): `inputs` (user messages as
    content, tool results as {"tool_result", "id"}), `reply` (text and tool calls), the trace's
    `retrieval_context`, the `system` instructions, and where it came from."""
    last_assistant = max(
        (index for index, message in enumerate(call.input_messages) if message.role == "assistant"),
        default=-1,
    )
    inputs: list[dict[str, Any]] = []
    for message in call.input_messages[last_assistant + 1 :]:
        if message.role in ("system", "developer"):
            continue
        for part in message.parts:
            if isinstance(part, ToolResult):
                inputs.append({"tool_result": _json_safe(part.response), "id": part.id})
        content = _content(message)
        if message.role == "user" and content:
            inputs.append({"user": content})
    reply_text = "\n".join(message.text for message in call.output_messages if message.text)
    return {
        "inputs": inputs,
        "reply": {"content": reply_text, "tools_called": tools_called(call)},
        "retrieval_context": list(call.retrieval_context),
        "system": _system(call),
        "model": call.model,
        "service": call.service_name,
        "response_id": call.response_id,
    }


def tools_called(call: JudgedCall) -> list[dict[str, Any]]:
    """The tools a call's reply called, in stored form: name, the instrumentation's call id
    (to pair a later tool result; a test case drops it) and input_parameters."""
    return [
        {"name": part.name, "id": part.id, "input_parameters": _parameters(part.arguments)}
        for message in call.output_messages
        for part in message.parts
        if isinstance(part, ToolCall) and part.name
    ][:MAX_TOOL_CALLS]


def conversation_case(
    conversation_id: str, calls: Sequence[tuple[str, str, dict[str, Any]]]
) -> dict[str, Any]:
    """One test case in stored form from a conversation's calls, in time order, each as
    (trace id, span id, exchange); its `client_id` is the conversation id (cut to 256)."""
    turns: list[dict[str, Any]] = []
    role = None
    for _, _, exchange in calls:
        role = role or exchange.get("system")
        asked = False
        for item in exchange.get("inputs") or []:
            if "user" in item:
                turns.append({"role": "user", "content": item["user"]})
                asked = True
            elif "tool_result" in item:
                _answer_tool(turns, item.get("id"), item["tool_result"])
        reply = exchange.get("reply") or {}
        _reply(turns, reply, exchange.get("retrieval_context") or [], continuing=not asked)
    turns = _without_call_ids(turns[-MAX_TURNS:])
    last_trace, last_span = (calls[-1][0], calls[-1][1]) if calls else ("", "")
    first = calls[0][2] if calls else {}
    metadata = {
        "conversation_id": conversation_id,
        # The last call's span: where the conversation's scores are reported in traces.
        "trace_id": last_trace,
        "span_id": last_span,
        "response_id": calls[-1][2].get("response_id") if calls else None,
        "calls": len(calls),
        "service": first.get("service"),
        "model": first.get("model"),
        "convention": "conversation",
    }
    return {
        "client_id": conversation_id[:256],
        "input": None,
        "actual_output": None,
        "expected_output": None,
        "context": None,
        "retrieval_context": None,
        "turns": turns,
        "chatbot_role": role,
        # `calls` stays a number; the ids and names are text, cut as a case's metadata is.
        "metadata_": {
            key: value if isinstance(value, int) else str(value)[:512]
            for key, value in metadata.items()
            if value
        },
    }


def _reply(
    turns: list[dict[str, Any]],
    reply: dict[str, Any],
    documents: list[Any],
    continuing: bool,
) -> None:
    """Add a call's reply: to the assistant turn it continues (the call only sent back tool
    results), else as a new assistant turn."""
    content = reply.get("content") or ""
    tools = [
        {key: value for key, value in tool.items() if value is not None}
        for tool in reply.get("tools_called") or []
    ]
    if not content and not tools:
        return
    last = turns[-1] if turns else None
    if continuing and last is not None and last["role"] == "assistant":
        if content:
            last["content"] = f"{last['content']}\n{content}" if last["content"] else content
        if tools:
            last.setdefault("tools_called", []).extend(tools)
            del last["tools_called"][MAX_TOOL_CALLS:]
        if documents:
            known = last.setdefault("retrieval_context", [])
            known.extend(document for document in documents if document not in known)
        return
    turn: dict[str, Any] = {"role": "assistant", "content": content}
    if tools:
        turn["tools_called"] = tools[:MAX_TOOL_CALLS]
    if documents:
        turn["retrieval_context"] = list(documents)
    turns.append(turn)


def _answer_tool(turns: list[dict[str, Any]], call_id: str | None, output: Any) -> None:
    """Give the last assistant turn's tool call `call_id` (else its first unanswered) `output`."""
    last = next((turn for turn in reversed(turns) if turn["role"] == "assistant"), None)
    if last is None:
        return
    waiting = [tool for tool in last.get("tools_called") or [] if "output" not in tool]
    named = [tool for tool in waiting if call_id and tool.get("id") == call_id]
    target = (named or waiting or [None])[0]
    if target is not None:
        target["output"] = output


def _without_call_ids(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The turns with each tool call as a test case holds it (name, input_parameters, output:
    the instrumentation's call id, used to pair results, dropped)."""
    for turn in turns:
        for tool in turn.get("tools_called") or []:
            tool.pop("id", None)
    return turns


def _system(call: JudgedCall) -> str | None:
    """The call's system instructions (`gen_ai.system_instructions`, else its system or
    developer messages: OpenInference and OpenLLMetry keep them among the input), cut."""
    texts = list(call.system_instructions) or [
        message.text for message in call.input_messages if message.role in ("system", "developer")
    ]
    return "\n".join(text for text in texts if text)[:MAX_ROLE] or None


def _content(message: Message) -> Any:
    """A message's text and images as test-case content: a string, or parts."""
    parts: list[Any] = []
    for part in message.parts:
        if isinstance(part, Text) and part.text:
            parts.append(part.text)
        elif isinstance(part, Image):
            parts.append({"type": "image_url", "image_url": {"url": part.url}})
    if not parts:
        return ""
    if len(parts) == 1 and isinstance(parts[0], str):
        return parts[0]
    return [{"type": "text", "text": part} if isinstance(part, str) else part for part in parts]


def _parameters(arguments: Any) -> dict[str, Any] | None:
    """A tool call's arguments as a test case holds them (an object; OpenAI sends a JSON
    string, read as any JSON in telemetry is: nested at most `Limits.max_depth` deep)."""
    if isinstance(arguments, str):
        try:
            arguments, _ = decode_json(arguments)
        except ValueError:
            return {"arguments": arguments}
    if arguments is None or isinstance(arguments, dict):
        return arguments
    return {"arguments": arguments}


def _json_safe(value: Any) -> Any:
    """A tool's result as JSON stores it (a JSON string decoded, anything else as text)."""
    if isinstance(value, str):
        try:
            return decode_json(value)[0]
        except ValueError:
            return value
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
