"""An imported label named by its metric version and item rather than by a live result: an
exported line whose result is gone (its evaluation deleted), or a line written by hand naming
`metric_version` with `item_key` or `test_case_id`.

It is bound to a result of the version holding the same item when one exists (a re-run of the
same version: the judge's verdict is that result's, as a label posted on it would take). When
none does, a team admin's import restores it without a result, its judge score, verdict and
threshold as the export's line recorded them (the label's own snapshot, which agreement
reads); anyone else is refused at the line, since the judge's side of agreement would then come
from a file rather than from a judge.
"""

import math
import re
from typing import Any

from app.labels.items import item_key
from app.labels.repository import LabelRepository
from app.labels.schemas import LabelCreate, LabelImportLine
from app.labels.service import Path, _Refusal, _Target, _target, score_bounds
from app.labels.snapshot import EvaluationRef, ResultSnapshot
from app.models import Result
from app.problems import FieldError, field_error

# How many of the version's newest results (on the line's test case id, then on any) are
# hashed to find the line's item.
CANDIDATES = 200
_ITEM_KEY = re.compile(r"[0-9a-f]{64}")


class Searches:
    """The candidate results one import has read, each with its item's key, by search (version,
    metric, test case id): read and hashed once however many lines ask, where each of an
    import's 5,000 lines read and hashed up to 400 test cases."""

    def __init__(self, repo: LabelRepository) -> None:
        self.repo = repo
        self._found: dict[tuple[str, str | None, str | None], list[tuple[Result, str]]] = {}

    def of(
        self, version_id: str, metric: str | None, test_case_id: str | None
    ) -> list[tuple[Result, str]]:
        """The version's newest CANDIDATES scored results of the search, with item keys."""
        search = (version_id, metric, test_case_id)
        if search not in self._found:
            found = self.repo.results_of_version(version_id, metric, test_case_id, CANDIDATES)
            self._found[search] = [(result, item_key(case)) for result, case in found]
        return self._found[search]


def resolve(searches: Searches, line: LabelImportLine, at: Path, admin: bool) -> _Target | _Refusal:
    """What the line's label is bound to: a result of its version holding its item, else (for
    a team admin) the version and item alone; or why it cannot be bound."""
    repo = searches.repo
    version_id = line.metric_version
    version = repo.metric_version(version_id) if isinstance(version_id, str) else None
    if version is None:
        message = f"no metric version {version_id!r} in this team"
        return _Refusal([field_error([*at, "metric_version"], message, "not_found")])
    key = line.item_key
    if key is not None and not (isinstance(key, str) and _ITEM_KEY.fullmatch(key)):
        message = "an item key is 64 lowercase hex digits (sha256), as an export gives it"
        return _Refusal([field_error([*at, "item_key"], message, "item_key")])
    # On the line's test case id first; then (the content under another id) on any.
    case_ids = [line.test_case_id] if key is None else [line.test_case_id, None]
    for test_case_id in dict.fromkeys(case_ids):
        for result, found_key in searches.of(version.id, line.metric, test_case_id):
            if key is None or found_key == key:
                body = LabelCreate(result_id=result.id, value=line.value, rationale=line.rationale)
                return _target(repo, body, at)
    where = [*at, "result_id" if line.result_id is not None else "metric_version"]
    if key is None:
        message = (
            f"no result of metric version {version.id} has test case {line.test_case_id!r}: "
            "give the label's item_key (as its export does) to restore it without a result"
        )
        return _Refusal([field_error(where, message, "not_found")])
    if not admin:
        message = (
            f"no result of metric version {version.id} holds this item any more (its "
            "evaluation was deleted and not run again): only a team admin (the `admin` scope) "
            "restores a label without its result, whose judge score then comes from the line; "
            "run the evaluation again to import it as yours"
        )
        return _Refusal([field_error(where, message, "result_gone")])
    definition = version.definition or {}
    bounds = score_bounds(
        {"type": version.type, "name": version.name, **(definition.get("options") or {})}
    )
    errors = _snapshot_problems(line, bounds, at)
    if errors:
        return _Refusal(errors)
    snapshot = ResultSnapshot(
        id=line.result_id,
        metric_version=version.id,
        test_case_id=line.test_case_id,
        metric=line.metric or version.name,
        score=line.judge_score,
        passed=line.judge_passed,
        threshold=line.threshold,
    )
    return _Target(snapshot, EvaluationRef(line.evaluation_id), key, bounds)


def _on_scale(value: Any, bounds: tuple[float, float]) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and bounds[0] <= value <= bounds[1]
    )


def _snapshot_problems(
    line: LabelImportLine, bounds: tuple[float, float], at: Path
) -> list[FieldError]:
    """The line's value and judge snapshot checked against the version's scale."""
    low, high = (f"{bound:g}" for bound in bounds)
    scale = f"the metric version's scale, from {low} to {high}"
    errors = []
    if not isinstance(line.value, bool) and not _on_scale(line.value, bounds):
        message = f"{line.value!r} is outside {scale}, or true / false for pass / fail"
        errors.append(field_error([*at, "value"], message, "out_of_range"))
    for name in ("judge_score", "threshold"):
        given = getattr(line, name)
        if given is not None and not _on_scale(given, bounds):
            message = f"{given!r} is not a number on {scale}"
            errors.append(field_error([*at, name], message, "out_of_range"))
    if line.judge_passed is not None and not isinstance(line.judge_passed, bool):
        message = f"{line.judge_passed!r} is not true or false"
        errors.append(field_error([*at, "judge_passed"], message, "bool_type"))
    return errors
