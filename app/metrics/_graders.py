"""What OpenAI Evals graders share: spec base, message shapes, and the row a case carries.

A grader spec is built from an OpenAI `testing_criteria` entry as `{**criterion_without_id,
"name": criterion_id}`: OpenAI's own field names (`pass_threshold`, `range`, `input`), with
`threshold` derived from them rather than set.

The test-case contract (the eval-run job builds these cases):
- `metadata["item"]`: the row's item; `metadata["sample"]`: the sample namespace or None.
- `metadata["image_urls"]`: the rendered image URLs of the row, and `input`: the ingested
  image parts (`{"type": "image_url", "image_url": {"url": "data:..."}}`) in the same order.
"""

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AliasChoices, BaseModel, ConfigDict, Field, model_validator

from app.judges import JudgeUsage
from app.metrics._templates import RenderError, check_template, check_templates, render_template
from app.metrics._types import MetricError, MetricResult, MetricSpecBase, MetricTestCase

# A `{{ path }}` template, bounded in length and placeholders when the spec is validated.
Template = Annotated[str, AfterValidator(check_template)]


class GraderSpecBase(MetricSpecBase):
    """An OpenAI grader; `name` is the criterion id its results are reported under."""

    # The criterion id results are stored under (a 128-character column).
    name: str | None = Field(default=None, min_length=1, max_length=128)
    # Derived from the grader's own fields (pass_threshold, range): never given.
    threshold: float = Field(default=1.0, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _no_threshold(cls, data: Any) -> Any:
        if isinstance(data, dict) and "threshold" in data:
            raise ValueError("OpenAI graders take no threshold (it follows from pass_threshold)")
        return data


class _Part(BaseModel):
    # OpenAI adds optional fields to parts over time (prompt_cache_breakpoint): ignored.
    model_config = ConfigDict(extra="ignore")


class InputText(_Part):
    type: Literal["input_text"]
    text: Template


class OutputText(_Part):
    type: Literal["output_text"]
    text: Template


class InputImage(_Part):
    type: Literal["input_image"]
    image_url: Template = Field(
        min_length=1, description="An https or data URL; may be a template."
    )
    detail: Literal["high", "low", "auto"] | None = None


class AudioData(_Part):
    data: str
    format: Literal["mp3", "wav"]


class InputAudio(_Part):
    type: Literal["input_audio"]
    input_audio: AudioData


ContentPart = Annotated[
    InputText | OutputText | InputImage | InputAudio, Field(discriminator="type")
]


class GraderMessage(BaseModel):
    """OpenAI's EvalItem: a role and templated content (a string, a part, or a list)."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant", "system", "developer"]
    content: Template | ContentPart | list[Template | ContentPart]
    type: Literal["message"] | None = None


def _template_strings(messages: list[GraderMessage]) -> Iterator[str]:
    for message in messages:
        content = message.content if isinstance(message.content, list) else [message.content]
        for part in content:
            if isinstance(part, str):
                yield part
            elif isinstance(part, InputText | OutputText):
                yield part.text
            elif isinstance(part, InputImage):
                yield part.image_url


def _bounded(messages: list[GraderMessage]) -> list[GraderMessage]:
    check_templates(_template_strings(messages), "a grader's input")
    return messages


# A model grader's messages, bounded as a whole: each row renders every one of them.
GraderInput = Annotated[list[GraderMessage], Field(min_length=1), AfterValidator(_bounded)]


def wire(messages: list[GraderMessage]) -> list[dict[str, Any]]:
    return [message.model_dump(exclude_none=True) for message in messages]


class SamplingParams(BaseModel):
    """A model grader's `sampling_params` (score_model's, which label_model takes too)."""

    model_config = ConfigDict(extra="forbid")

    seed: int | None = None
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_completions_tokens: int | None = Field(
        default=None,
        ge=1,
        validation_alias=AliasChoices("max_completions_tokens", "max_completion_tokens"),
    )
    reasoning_effort: str | None = None

    def request_fields(self) -> dict[str, Any]:
        """The chat-completion body fields these stand for (unset ones left out)."""
        fields = {
            "seed": self.seed,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_completion_tokens": self.max_completions_tokens,
            "reasoning_effort": self.reasoning_effort,
        }
        return {name: value for name, value in fields.items() if value is not None}


class Step(BaseModel):
    description: str
    conclusion: str


def namespaces(case: MetricTestCase) -> dict[str, Any]:
    """The template namespaces of a case's row; `sample` only when the row has one."""
    metadata = case.metadata or {}
    found = {"item": metadata.get("item")}
    if metadata.get("sample") is not None:
        found["sample"] = metadata["sample"]
    return found


def images(case: MetricTestCase) -> dict[str, Any]:
    """Rendered image URL -> the ingested image part the judge gets instead."""
    urls = (case.metadata or {}).get("image_urls") or []
    parts = case.input if isinstance(case.input, list) else []
    if len(urls) != len(parts):
        raise RenderError(
            f"the case lists {len(urls)} image URLs but carries {len(parts)} image parts"
        )
    return dict(zip(urls, parts, strict=True))


def rendered_pair(input: str, reference: str, case: MetricTestCase) -> tuple[str, str]:
    """A string grader's `input` and `reference` templates rendered with the case's row;
    raises RenderError."""
    found = namespaces(case)
    return render_template(input, found), render_template(reference, found)


def render_failure(threshold: float, error: RenderError) -> MetricResult:
    return MetricResult.failure(threshold, MetricError(error.type, error.message))


def reason_of(steps: list[dict[str, Any]]) -> str | None:
    """The judge's conclusions, in order, as one reason."""
    conclusions = [step["conclusion"].strip() for step in steps if step["conclusion"].strip()]
    return " ".join(conclusions) or None


def grader_sample(
    model: str | None, flat_input: list[dict[str, str]], output: str | None, usage: JudgeUsage
) -> dict[str, Any]:
    """The grader's own model call, as an output item result's `sample` shows it."""
    return {
        "model": model,
        "input": flat_input,
        "output": [] if output is None else [{"role": "assistant", "content": output}],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
            "cached_tokens": usage.cached_prompt_tokens,
        },
    }
