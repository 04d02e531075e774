"""A submitted test case in the form it is stored in (images still as the client sent them)."""

from typing import Any

from app.evaluations.schemas import TestCaseCreate


def stored_case(index: int, test_case: TestCaseCreate) -> dict[str, Any]:
    """A test case in the form it is stored in (images still as the client sent them)."""
    return {
        "index": index,
        "client_id": str(test_case.id) if test_case.id is not None else str(index),
        "input": _content_json(test_case.input),
        "actual_output": _content_json(test_case.actual_output),
        "expected_output": _content_json(test_case.expected_output),
        "context": _nodes_json(test_case.context),
        "retrieval_context": _nodes_json(test_case.retrieval_context),
        "tools_called": _tools_json(test_case.tools_called),
        "expected_tools": _tools_json(test_case.expected_tools),
        "turns": None if test_case.turns is None else [_turn_json(t) for t in test_case.turns],
        "scenario": _content_json(test_case.scenario),
        "expected_outcome": _content_json(test_case.expected_outcome),
        "chatbot_role": test_case.chatbot_role,
        "user_description": test_case.user_description,
        "metadata_": test_case.metadata,
    }


def _tools_json(calls: list[Any] | None) -> Any:
    if calls is None:
        return None
    return [call.model_dump(mode="json", exclude_none=True) for call in calls]


def _turn_json(turn: Any) -> dict[str, Any]:
    stored: dict[str, Any] = {"role": turn.role, "content": _content_json(turn.content)}
    if turn.tools_called is not None:
        stored["tools_called"] = _tools_json(turn.tools_called)
    if turn.retrieval_context is not None:
        stored["retrieval_context"] = _nodes_json(turn.retrieval_context)
    if turn.metadata is not None:
        stored["metadata"] = turn.metadata
    return stored


def _content_json(content: Any) -> Any:
    if content is None or isinstance(content, str):
        return content
    return [
        part if isinstance(part, str) else part.model_dump(mode="json", exclude_none=True)
        for part in content
    ]


def _nodes_json(nodes: list[Any] | None) -> Any:
    return None if nodes is None else [_content_json(node) for node in nodes]
