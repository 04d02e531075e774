"""A candidate's guidance from labelled disagreements: people's verdicts and rationales as
worked examples, and rubric notes the judge model writes once from them."""

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import judging
from app.judges import JudgeError, JudgeUsage, get_client, run_on_judge_loop
from app.metrics import MetricSpecBase
from app.models import Label, TestCase
from app.problems import ProblemError
from app.stats import HumanAgreement
from app.usage.pricing import cost_usd
from app.usage.schemas import UsageTotals

# The worst disagreements shown to the candidate as examples, and to the judge for its notes.
MAX_EXAMPLES = 6
MAX_NOTES_DISAGREEMENTS = 20
# How much of an item's text an example or the notes request quotes.
QUOTE_CHARS = 1_500
NOTES_CHARS = 4_000
CURRENT, CANDIDATE = "current", "candidate"


class PaidRefusal(ProblemError):
    """A refusal that came after the rubric-notes call: the call was made and is paid for, so
    what it used (`model`, `used`) is counted in a transaction of its own, not rolled back with
    the refused request's (`alignments.service.count_paid`)."""

    def __init__(self, problem: ProblemError, model: str | None, used: UsageTotals) -> None:
        super().__init__(
            problem.status,
            problem.title,
            problem.detail,
            slug=problem.slug,
            errors=problem.errors,
            headers=problem.headers,
            required_scope=problem.required_scope,
        )
        self.model = model
        self.used = used


@contextmanager
def paid_for(model: str | None, used: UsageTotals) -> Iterator[None]:
    """Run what follows the rubric-notes call: a problem it raises is a PaidRefusal."""
    try:
        yield
    except PaidRefusal:
        raise
    except ProblemError as problem:
        raise PaidRefusal(problem, model, used) from problem


class RubricNotes(BaseModel):
    """The judge's summary of where people disagreed with it."""

    model_config = ConfigDict(title="rubric_notes")

    notes: str


NOTES_INSTRUCTIONS = (
    "Loupe task: rubric_notes\n"
    "You grade test cases for a check described below. People reviewed some of your earlier "
    "verdicts and disagreed with them; each disagreement shows the test case, your verdict, "
    "theirs and their reasons. Write short rubric notes (at most eight bullet points, plain "
    "text) that tell a grader what these people weigh that the verdicts missed, stated as "
    "general rules rather than about these cases.\n"
    "Check: {check}\n"
    'Answer with JSON only: {{"notes": "..."}}'
)


def quoted(value: Any) -> str | None:
    """Content as plain text (images as `[image]`), cut to QUOTE_CHARS."""
    if value is None:
        return None
    if isinstance(value, str):
        words = value
    else:
        pieces = []
        for part in value:
            if isinstance(part, str):
                pieces.append(part)
            elif isinstance(part, dict) and part.get("type") == "text":
                pieces.append(str(part.get("text", "")))
            elif isinstance(part, list):
                pieces.append(quoted(part) or "")
            else:
                pieces.append("[image]")
        words = " ".join(pieces)
    return words if len(words) <= QUOTE_CHARS else words[: QUOTE_CHARS - 1] + "…"


def verdict(value: float, passed: bool, label_kind: str) -> str:
    verdict = "pass" if passed else "fail"
    return verdict if label_kind == "pass_fail" else f"{verdict} ({value:.2f})"


def examples(
    agreement: HumanAgreement, cases: Mapping[str, TestCase], labels: Mapping[str, Sequence[Label]]
) -> list[dict[str, Any]]:
    """The worst disagreements as the candidate's examples: the people's verdict and reasons."""
    examples = []
    for disagreement in agreement.disagreements[:MAX_EXAMPLES]:
        case = cases[disagreement.key]
        reasons = [label.rationale for label in labels[disagreement.key] if label.rationale]
        example: dict[str, Any] = {
            "input": quoted(case.input),
            "actual_output": quoted(case.actual_output),
            "verdict": verdict(
                disagreement.people, disagreement.people_passed, agreement.label_kind
            ),
        }
        if reasons:
            example["rationale"] = quoted(" / ".join(reasons))
        examples.append({key: value for key, value in example.items() if value is not None})
    return examples


def notes_messages(
    spec: MetricSpecBase,
    agreement: HumanAgreement,
    cases: Mapping[str, TestCase],
    labels: Mapping[str, Sequence[Label]],
) -> list[dict[str, Any]]:
    check = getattr(spec, "criteria", None) or getattr(spec, "evaluation_steps", None) or ""
    if isinstance(check, list):
        check = " ".join(str(step) for step in check)
    described = f"{spec.type} ({spec.display_name}) {check}".strip()  # type: ignore[attr-defined]
    lines = []
    for number, disagreement in enumerate(
        agreement.disagreements[:MAX_NOTES_DISAGREEMENTS], start=1
    ):
        case = cases[disagreement.key]
        reasons = [label.rationale for label in labels[disagreement.key] if label.rationale]
        lines += [
            f"Disagreement {number}:",
            f"Input: {quoted(case.input) or '-'}",
            f"Actual Output: {quoted(case.actual_output) or '-'}",
            "Your verdict: "
            + verdict(disagreement.score, disagreement.judge_passed, agreement.label_kind),
            "People's verdict: "
            + verdict(disagreement.people, disagreement.people_passed, agreement.label_kind),
            f"Their reasons: {quoted(' / '.join(reasons)) or '-'}",
        ]
    return [
        {"role": "system", "content": NOTES_INSTRUCTIONS.format(check=described)},
        {"role": "user", "content": "\n".join(lines)},
    ]


def ask_notes(
    session: Session,
    tenant_id: str,
    settings: Settings,
    chosen: dict[str, Any] | None,
    messages: list[dict[str, Any]],
) -> tuple[str, UsageTotals, str | None]:
    """The judge's rubric notes, asked once through the client every judge call uses (the
    judge `chosen` is the version's, as its evaluation resolved it), what the call used, and
    the model that made it."""
    endpoint, missing = judging.endpoint_for(session, tenant_id, settings, chosen)
    if endpoint is None:
        raise ProblemError(
            409,
            "Conflict",
            missing or "no judge",
            slug="judge-unavailable",
            field=["metric_version"],
        )
    model = (chosen or {}).get("model")

    async def ask() -> Any:
        return await get_client(endpoint).call(messages, RubricNotes, model=model)

    try:
        reply = run_on_judge_loop(ask())
    except JudgeError as error:
        problem = ProblemError(
            502,
            "Bad Gateway",
            f"the judge did not write the rubric notes: {error.message}",
            slug="judge-error",
        )
        # Requests sent and not answered, or an answer (and its repair) that was no notes.
        if error.usage.calls or error.usage.failed_calls:
            model = model or endpoint.default_model
            raise PaidRefusal(problem, model, usage_totals(settings, model, error.usage)) from error
        raise problem from error
    model = model or endpoint.default_model
    return (
        str(reply.data["notes"])[:NOTES_CHARS],
        usage_totals(settings, model, reply.usage),
        model,
    )


def usage_totals(settings: Settings, model: str | None, usage: JudgeUsage) -> UsageTotals:
    return UsageTotals(
        calls=usage.calls,
        failed_calls=usage.failed_calls,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cached_prompt_tokens=usage.cached_prompt_tokens,
        cost_usd=cost_usd(
            settings.model_prices,
            model,
            calls=usage.calls,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cached_prompt_tokens=usage.cached_prompt_tokens,
        ),
    )
