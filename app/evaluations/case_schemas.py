"""A test case as submitted and as stored: one input and output, or a conversation (`turns`)."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.media.parts import Content, ContextNode

# Bounds on one case's conversation: a transcript judges read whole.
MAX_TURNS = 200
MAX_TOOL_CALLS = 64
_Text = Annotated[str, StringConstraints(max_length=4000)]


class ToolCall(BaseModel):
    """A tool call an assistant made (or is expected to make)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, StringConstraints(min_length=1, max_length=256)]
    input_parameters: dict[str, Any] | None = Field(
        default=None, description="The arguments, as the tool was called with them."
    )
    output: Any = Field(default=None, description="What the tool returned.")
    description: _Text | None = None
    reasoning: _Text | None = Field(
        default=None, description="Why the assistant called it (shown, never scored)."
    )


class Turn(BaseModel):
    """One message of a conversation."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: Content = Field(
        default="",
        description="Text, or content parts with images (any turn may hold images); an "
        "assistant turn that only calls tools may leave it empty.",
    )
    tools_called: list[ToolCall] | None = Field(
        default=None,
        max_length=MAX_TOOL_CALLS,
        description="Assistant turns only: the tools called while answering, in order.",
    )
    retrieval_context: list[ContextNode] | None = Field(
        default=None,
        description="Assistant turns only: what was retrieved for this answer "
        "(turn_faithfulness, turn_contextual_relevancy).",
    )
    metadata: dict[str, Any] | None = None


class TestCaseCreate(BaseModel):
    """A single-turn case (`input`, `actual_output`, ...) or a conversation (`turns` and the
    fields about it); each metric says which it judges, and a case of the other shape is a 422
    naming the case and the field."""

    model_config = ConfigDict(extra="forbid")

    # What a read of a case carries besides its fields: a case read back (GET .../test_cases)
    # is sent again as it reads (its images by their /v1/media URLs).
    object: Literal["evaluation.test_case"] | None = Field(
        default=None, description="Ignored: a case read back may be sent again as it reads."
    )
    index: int | None = Field(
        default=None,
        description="Ignored (a case's index is its place in `test_cases`): a case read back "
        "may be sent again as it reads.",
    )
    id: Annotated[str, StringConstraints(min_length=1, max_length=256)] | int | None = Field(
        default=None, description="Your id for the case; defaults to its index in `test_cases`."
    )
    input: Content | None = Field(
        default=None, description="The request; every single-turn case has one."
    )
    # Optional like the rest: a metric that reads it lists it in its required fields (a 422
    # naming the case's field otherwise); contextual_precision/recall never read it.
    actual_output: Content | None = Field(
        default=None,
        description="The answer under test; needed by every metric that reads it (not "
        "contextual_precision, contextual_recall or contextual_relevancy).",
    )
    expected_output: Content | None = None
    context: list[ContextNode] | None = None
    retrieval_context: list[ContextNode] | None = None
    tools_called: list[ToolCall] | None = Field(
        default=None,
        max_length=MAX_TOOL_CALLS,
        description="A single-turn case's tool calls (tool_correctness, argument_correctness, "
        "task_completion); a conversation's are on its assistant turns.",
    )
    expected_tools: list[ToolCall] | None = Field(
        default=None,
        max_length=MAX_TOOL_CALLS,
        description="The tool calls the case (or the whole conversation) should make "
        "(tool_correctness).",
    )
    turns: list[Turn] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_TURNS,
        description="A conversation, in order; a case with turns has no input, actual_output, "
        "expected_output, context, retrieval_context or tools_called of its own.",
    )
    scenario: Content | None = Field(
        default=None, description="A conversation's situation (conversational_g_eval)."
    )
    expected_outcome: Content | None = Field(
        default=None,
        description="What the conversation should achieve (conversational_g_eval, "
        "task_completion).",
    )
    chatbot_role: _Text | None = Field(
        default=None, description="The role the assistant must keep (role_adherence)."
    )
    user_description: _Text | None = Field(
        default=None, description="Who the user is (shown to conversational_g_eval)."
    )
    metadata: dict[str, Any] | None = None


# The fields only a single-turn case has, and those only a conversation has.
SINGLE_TURN_FIELDS = (
    "input",
    "actual_output",
    "expected_output",
    "context",
    "retrieval_context",
    "tools_called",
)
CONVERSATION_FIELDS = ("turns", "scenario", "expected_outcome", "chatbot_role", "user_description")


class TestCase(BaseModel):
    """A submitted test case as stored: images are `image_url` parts whose URL is
    `GET /v1/media/{sha256}` (send the API key), with what was done to them under `blob`."""

    object: Literal["evaluation.test_case"] = "evaluation.test_case"
    id: str = Field(description="The id given at submission, else the case's index.")
    index: int
    input: Any
    actual_output: Any
    expected_output: Any | None
    context: list[Any] | None
    retrieval_context: list[Any] | None
    metadata: dict[str, Any] | None
    tools_called: list[Any] | None = None
    expected_tools: list[Any] | None = None
    turns: list[Any] | None = Field(default=None, description="A conversation's turns.")
    scenario: Any | None = None
    expected_outcome: Any | None = None
    chatbot_role: str | None = None
    user_description: str | None = None
