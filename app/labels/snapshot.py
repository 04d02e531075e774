"""What a label keeps of the result it was given on, when that result is gone: an exported
label imported back after its evaluation was deleted (and no result of its version holds its
item any more) is bound to its version and item as the export recorded them."""

from dataclasses import dataclass


@dataclass(frozen=True)
class ResultSnapshot:
    """The fields of a judged result a label stores, as an export recorded them (read where
    a `Result` is: `app.labels.service._store`)."""

    id: str | None
    metric_version: str
    test_case_id: str | None
    metric: str
    score: float | None
    passed: bool | None
    threshold: float | None


@dataclass(frozen=True)
class EvaluationRef:
    """The evaluation a label was given on, by id alone (it may since be gone)."""

    id: str | None
