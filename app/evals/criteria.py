"""Testing criteria: validated once at eval create, echoed with ids, turned into metric specs.

Each criterion is one of Loupe's grader metrics (`app/metrics/string_check.py`, ...), so a run
grades rows with the same job, judge client, cache and limits as every evaluation.
"""

import uuid
from typing import Any

from pydantic import ValidationError

from app.evals import placeholders
from app.metrics import MetricSpecBase, parse_spec
from app.models import Result
from app.problems import (
    Collected,
    ProblemError,
    bad_request,
    field_error,
    format_loc,
    located_errors,
)

GRADERS = ("string_check", "text_similarity", "label_model", "score_model")
# Graders that ask a model, and the fields that hold their messages.
MODEL_GRADERS = ("label_model", "score_model")
# Results are stored under the criterion id, `<name>-<uuid4>`, in a column this long.
_MAX_ID = Result.__table__.c.metric.type.length
MAX_NAME = _MAX_ID - len(f"-{uuid.UUID(int=0)}")
_GRADERS_SEE = "a grader sees a row's item and its sample, nothing else, so no row could fill it"
_REFUSED = {
    "python": "Loupe does not run user code: python graders are not supported",
    "multi": "multi graders belong to fine-tuning, not to eval testing_criteria",
}


def echo_message(message: Any) -> Any:
    """A message as OpenAI echoes it: typed, with string content as an `input_text` part."""
    if not isinstance(message, dict):
        return message
    echoed = {"type": "message", **message}
    if isinstance(message.get("content"), str):
        echoed["content"] = {"type": "input_text", "text": message["content"]}
    return echoed


_TOKEN_SPELLINGS = ("max_completion_tokens", "max_completions_tokens")


def echo_tokens(sampling: Any, spelling: str) -> Any:
    """`sampling_params` with the max-tokens field under the SDK's `spelling` for this place
    (`max_completions_tokens` on graders, `max_completion_tokens` on runs); both are taken."""
    if not isinstance(sampling, dict):
        return sampling
    (other,) = [name for name in _TOKEN_SPELLINGS if name != spelling]
    if other not in sampling:
        return sampling
    echoed = {key: value for key, value in sampling.items() if key != other}
    if echoed.get(spelling) is None:
        echoed[spelling] = sampling[other]
    return echoed


def spec_of(criterion: dict[str, Any]) -> dict[str, Any]:
    """The metric spec that grades a criterion; results are reported under its id."""
    spec = {key: value for key, value in criterion.items() if key != "id"}
    spec["name"] = criterion["id"]
    return spec


def validate(criteria: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The criteria as echoed (each with an `id`) and the metric specs that grade them.

    Raises one 400 naming every bad field of every criterion.
    """
    echoed, specs = [], []
    problems = Collected()
    for index, criterion in enumerate(criteria):
        with problems.catch():
            with_id, spec = _criterion(index, criterion)
            echoed.append(with_id)
            # Stored as evaluations store validated specs: a run copies them as its metrics.
            specs.append(spec.model_dump(mode="json", exclude_none=True))
    problems.raise_if_any()
    return echoed, specs


def _check_name(index: int, name: Any) -> None:
    """Raise a 400 when a criterion's name is missing or too long for its id."""
    if not isinstance(name, str) or not name:
        raise bad_request(
            "every testing criterion needs a name", ["testing_criteria", index, "name"]
        )
    if len(name) > MAX_NAME:
        raise bad_request(
            f"testing_criteria[{index}].name has {len(name)} characters; at most {MAX_NAME}, "
            f"as the criterion's id (its name, '-' and a UUID) holds at most {_MAX_ID}",
            ["testing_criteria", index, "name"],
            "string_too_long",
        )


def _criterion(index: int, criterion: dict[str, Any]) -> tuple[dict[str, Any], MetricSpecBase]:
    """One criterion as echoed, and its grader's spec; raises a 400 naming its bad fields."""
    kind = criterion.get("type")
    if kind in _REFUSED:
        raise bad_request(_REFUSED[kind], ["testing_criteria", index, "type"], "unsupported_grader")
    if kind not in GRADERS:
        raise bad_request(
            f"testing_criteria[{index}].type must be one of {', '.join(GRADERS)}",
            ["testing_criteria", index, "type"],
            "unsupported_grader",
        )
    # Every fault of the criterion in one answer: its name, its grader's fields, its templates.
    problems = Collected()
    name = criterion.get("name")
    with problems.catch():
        _check_name(index, name)
    named = isinstance(name, str) and 0 < len(name) <= MAX_NAME
    # A bad name is named above; the spec is checked under a stand-in, not blamed for it again.
    with_id = {**criterion, "id": f"{name if named else 'criterion'}-{uuid.uuid4()}"}
    spec_faults: list[str] = []
    with problems.catch():
        try:
            spec = parse_spec(spec_of(with_id))
        except ValidationError as exc:
            errors = [
                field_error(["testing_criteria", index, *path], message, kind)
                for path, message, kind, _ in located_errors(exc.errors(), with_id)
            ]
            spec_faults = [error.loc for error in errors]
            raise ProblemError(
                400,
                "Bad Request",
                f"testing_criteria[{index}]: {errors[0].msg}",
                slug="invalid-value",
                errors=errors,
            ) from exc
    base: list[str | int] = ["testing_criteria", index]
    if kind in MODEL_GRADERS:
        templates = placeholders.message_strings(criterion.get("input"), [*base, "input"])
    else:
        templates = [
            ([*base, field], criterion[field])
            for field in ("input", "reference")
            if isinstance(criterion.get(field), str)
        ]
    # A template the grader's own schema refused is named once, by that.
    templates = [
        (path, template)
        for path, template in templates
        if not any(format_loc(path).startswith(fault) for fault in spec_faults)
    ]
    with problems.catch():
        placeholders.check(templates, ("item", "sample"), _GRADERS_SEE)
    problems.raise_if_any()
    if kind in MODEL_GRADERS:
        with_id["input"] = [echo_message(message) for message in criterion.get("input") or []]
        with_id["sampling_params"] = echo_tokens(
            criterion.get("sampling_params"), "max_completions_tokens"
        )
    return with_id, spec
