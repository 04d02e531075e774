from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.evaluation_kind import check_evaluation_kind
from ..models.evaluation_kind import EvaluationKind
from ..models.evaluation_status import check_evaluation_status
from ..models.evaluation_status import EvaluationStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.error_info import ErrorInfo
  from ..models.eval_run_origin import EvalRunOrigin
  from ..models.evaluation_metadata import EvaluationMetadata
  from ..models.evaluation_metrics_item import EvaluationMetricsItem
  from ..models.judge_used import JudgeUsed
  from ..models.metric_summary import MetricSummary
  from ..models.recovery import Recovery
  from ..models.result_counts import ResultCounts
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="Evaluation")



@_attrs_define
class Evaluation:
    """ 
        Attributes:
            cache (bool):
            cluster_by (None | str):
            completed_at (datetime.datetime | None):
            created_at (datetime.datetime):
            error (ErrorInfo | None):
            id (str):
            judge (JudgeUsed | None): The judge resolved at submit (null when no metric is judged).
            metadata (EvaluationMetadata):
            metrics (list[EvaluationMetricsItem]): The metric specs as submitted; an eval run's, made from its testing
                criteria, are named by the criteria's ids and carry `label`, the criterion's name.
            name (None | str):
            open_ (bool): Still taking batches of test cases (submitted with `open: true`, not closed yet);
                `test_case_count` says how many were appended so far.
            per_metric (list[MetricSummary]):
            result_counts (ResultCounts): Counts of results, one per test case × metric: passed + failed + errored + pending
                +
                canceled + skipped = total.
            started_at (datetime.datetime | None):
            status (EvaluationStatus):
            test_case_count (int):
            usage (UsageTotals):
            webhook_url (None | str):
            candidate_usage (UsageTotals | Unset):
            completed_with_errors (bool | Unset): `completed`, but some results errored (`result_counts.errored` > 0; every
                one of them when the judge was down): the scores cover only the rest. Default: False.
            cost_usd (float | None | Unset): Judge plus candidate cost; null when either is unknown. Default: 0.0.
            eval_run (EvalRunOrigin | None | Unset): For `kind` `eval_run`: its eval's id and name and the run's name; null
                for other kinds.
            kind (EvaluationKind | Unset): What made it: `POST /v1/evaluations` (`evaluation`) or an OpenAI Evals run
                (`eval_run`, `POST /v1/evals/{eval_id}/runs`; its metrics are the eval's testing criteria, named by their ids).
                Default: 'evaluation'.
            object_ (Literal['evaluation'] | Unset):  Default: 'evaluation'.
            recovery (None | Recovery | Unset): Set while a running evaluation waits on or runs in recovery.
     """

    cache: bool
    cluster_by: None | str
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    error: ErrorInfo | None
    id: str
    judge: JudgeUsed | None
    metadata: EvaluationMetadata
    metrics: list[EvaluationMetricsItem]
    name: None | str
    open_: bool
    per_metric: list[MetricSummary]
    result_counts: ResultCounts
    started_at: datetime.datetime | None
    status: EvaluationStatus
    test_case_count: int
    usage: UsageTotals
    webhook_url: None | str
    candidate_usage: UsageTotals | Unset = UNSET
    completed_with_errors: bool | Unset = False
    cost_usd: float | None | Unset = 0.0
    eval_run: EvalRunOrigin | None | Unset = UNSET
    kind: EvaluationKind | Unset = 'evaluation'
    object_: Literal['evaluation'] | Unset = 'evaluation'
    recovery: None | Recovery | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_info import ErrorInfo # noqa: PLC0415
        from ..models.eval_run_origin import EvalRunOrigin # noqa: PLC0415
        from ..models.evaluation_metadata import EvaluationMetadata # noqa: PLC0415
        from ..models.evaluation_metrics_item import EvaluationMetricsItem # noqa: PLC0415
        from ..models.judge_used import JudgeUsed # noqa: PLC0415
        from ..models.metric_summary import MetricSummary # noqa: PLC0415
        from ..models.recovery import Recovery # noqa: PLC0415
        from ..models.result_counts import ResultCounts # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        cache = self.cache

        cluster_by: None | str
        cluster_by = self.cluster_by

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        error: dict[str, Any] | None
        if isinstance(self.error, ErrorInfo):
            error = self.error.to_dict()
        else:
            error = self.error

        id = self.id

        judge: dict[str, Any] | None
        if isinstance(self.judge, JudgeUsed):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        metadata = self.metadata.to_dict()

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)



        name: None | str
        name = self.name

        open_ = self.open_

        per_metric = []
        for per_metric_item_data in self.per_metric:
            per_metric_item = per_metric_item_data.to_dict()
            per_metric.append(per_metric_item)



        result_counts = self.result_counts.to_dict()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: str = self.status

        test_case_count = self.test_case_count

        usage = self.usage.to_dict()

        webhook_url: None | str
        webhook_url = self.webhook_url

        candidate_usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.candidate_usage, Unset):
            candidate_usage = self.candidate_usage.to_dict()

        completed_with_errors = self.completed_with_errors

        cost_usd: float | None | Unset
        if isinstance(self.cost_usd, Unset):
            cost_usd = UNSET
        else:
            cost_usd = self.cost_usd

        eval_run: dict[str, Any] | None | Unset
        if isinstance(self.eval_run, Unset):
            eval_run = UNSET
        elif isinstance(self.eval_run, EvalRunOrigin):
            eval_run = self.eval_run.to_dict()
        else:
            eval_run = self.eval_run

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind


        object_ = self.object_

        recovery: dict[str, Any] | None | Unset
        if isinstance(self.recovery, Unset):
            recovery = UNSET
        elif isinstance(self.recovery, Recovery):
            recovery = self.recovery.to_dict()
        else:
            recovery = self.recovery


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cache": cache,
            "cluster_by": cluster_by,
            "completed_at": completed_at,
            "created_at": created_at,
            "error": error,
            "id": id,
            "judge": judge,
            "metadata": metadata,
            "metrics": metrics,
            "name": name,
            "open": open_,
            "per_metric": per_metric,
            "result_counts": result_counts,
            "started_at": started_at,
            "status": status,
            "test_case_count": test_case_count,
            "usage": usage,
            "webhook_url": webhook_url,
        })
        if candidate_usage is not UNSET:
            field_dict["candidate_usage"] = candidate_usage
        if completed_with_errors is not UNSET:
            field_dict["completed_with_errors"] = completed_with_errors
        if cost_usd is not UNSET:
            field_dict["cost_usd"] = cost_usd
        if eval_run is not UNSET:
            field_dict["eval_run"] = eval_run
        if kind is not UNSET:
            field_dict["kind"] = kind
        if object_ is not UNSET:
            field_dict["object"] = object_
        if recovery is not UNSET:
            field_dict["recovery"] = recovery

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_info import ErrorInfo # noqa: PLC0415
        from ..models.eval_run_origin import EvalRunOrigin # noqa: PLC0415
        from ..models.evaluation_metadata import EvaluationMetadata # noqa: PLC0415
        from ..models.evaluation_metrics_item import EvaluationMetricsItem # noqa: PLC0415
        from ..models.judge_used import JudgeUsed # noqa: PLC0415
        from ..models.metric_summary import MetricSummary # noqa: PLC0415
        from ..models.recovery import Recovery # noqa: PLC0415
        from ..models.result_counts import ResultCounts # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
        cache = d.pop("cache")

        def _parse_cluster_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cluster_by = _parse_cluster_by(d.pop("cluster_by"))


        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)



                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_error(data: object) -> ErrorInfo | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ErrorInfo.from_dict(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorInfo | None, data)

        error = _parse_error(d.pop("error"))


        id = d.pop("id")

        def _parse_judge(data: object) -> JudgeUsed | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                judge_type_0 = JudgeUsed.from_dict(data)



                return judge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JudgeUsed | None, data)

        judge = _parse_judge(d.pop("judge"))


        metadata = EvaluationMetadata.from_dict(d.pop("metadata"))




        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = EvaluationMetricsItem.from_dict(metrics_item_data)



            metrics.append(metrics_item)


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        open_ = d.pop("open")

        per_metric = []
        _per_metric = d.pop("per_metric")
        for per_metric_item_data in (_per_metric):
            per_metric_item = MetricSummary.from_dict(per_metric_item_data)



            per_metric.append(per_metric_item)


        result_counts = ResultCounts.from_dict(d.pop("result_counts"))




        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)



                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))


        status = check_evaluation_status(d.pop("status"))




        test_case_count = d.pop("test_case_count")

        usage = UsageTotals.from_dict(d.pop("usage"))




        def _parse_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url"))


        _candidate_usage = d.pop("candidate_usage", UNSET)
        candidate_usage: UsageTotals | Unset
        if isinstance(_candidate_usage,  Unset):
            candidate_usage = UNSET
        else:
            candidate_usage = UsageTotals.from_dict(_candidate_usage)




        completed_with_errors = d.pop("completed_with_errors", UNSET)

        def _parse_cost_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd", UNSET))


        def _parse_eval_run(data: object) -> EvalRunOrigin | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                eval_run_type_0 = EvalRunOrigin.from_dict(data)



                return eval_run_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvalRunOrigin | None | Unset, data)

        eval_run = _parse_eval_run(d.pop("eval_run", UNSET))


        _kind = d.pop("kind", UNSET)
        kind: EvaluationKind | Unset
        if isinstance(_kind,  Unset):
            kind = UNSET
        else:
            kind = check_evaluation_kind(_kind)




        object_ = cast(Literal['evaluation'] | Unset , d.pop("object", UNSET))
        if object_ != 'evaluation'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'evaluation', got '{object_}'")

        def _parse_recovery(data: object) -> None | Recovery | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recovery_type_0 = Recovery.from_dict(data)



                return recovery_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Recovery | Unset, data)

        recovery = _parse_recovery(d.pop("recovery", UNSET))


        evaluation = cls(
            cache=cache,
            cluster_by=cluster_by,
            completed_at=completed_at,
            created_at=created_at,
            error=error,
            id=id,
            judge=judge,
            metadata=metadata,
            metrics=metrics,
            name=name,
            open_=open_,
            per_metric=per_metric,
            result_counts=result_counts,
            started_at=started_at,
            status=status,
            test_case_count=test_case_count,
            usage=usage,
            webhook_url=webhook_url,
            candidate_usage=candidate_usage,
            completed_with_errors=completed_with_errors,
            cost_usd=cost_usd,
            eval_run=eval_run,
            kind=kind,
            object_=object_,
            recovery=recovery,
        )


        evaluation.additional_properties = d
        return evaluation

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
