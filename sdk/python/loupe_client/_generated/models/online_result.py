from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.agreement_brief import AgreementBrief
  from ..models.error_info import ErrorInfo
  from ..models.label_summary import LabelSummary
  from ..models.online_result_logs import OnlineResultLogs
  from ..models.stability import Stability
  from ..models.test_case import TestCase
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="OnlineResult")



@_attrs_define
class OnlineResult:
    """ A result of a judged production call, with where the call was traced.

        Attributes:
            cost_usd (float | None): Judge plus candidate cost in USD; null when a model used has no price.
            created_at (datetime.datetime):
            day (None | str): The UTC day it was judged on (`YYYY-MM-DD`).
            error (ErrorInfo | None):
            evaluation_id (str): The rule's evaluation of that day, readable as any evaluation (`GET
                /v1/evaluations/{evaluation_id}`, its `test_cases` and `results`).
            id (str):
            logs (OnlineResultLogs):
            metric (str):
            passed (bool | None):
            reason (None | str):
            score (float | None):
            span_id (None | str): The judged span's id (16 hex digits); a conversation's last call's.
            test_case_id (str):
            test_case_index (int):
            threshold (float | None):
            trace_id (None | str): The judged span's trace id (32 hex digits); a conversation's last call's.
            type_ (str):
            usage (UsageTotals):
            agreement (AgreementBrief | None | Unset): Whether the result's metric version agrees with people (Cohen's κ,
                its interval, how many labels); null: not checked against people. Filled on GET /v1/evaluations/{id}/results.
            candidate_usage (UsageTotals | Unset):
            fragile (bool | None | Unset): The judgments straddle the threshold (`?fragile=true` lists these); null for a
                metric judged once.
            labels (LabelSummary | None | Unset): What people's labels (POST /v1/labels) say about this item for this metric
                version, given on this result or on any other of the same content and version (a re-run's); null when it has
                none. Filled on GET /v1/evaluations/{id}/results.
            metric_version (None | str | Unset): The version of the judged metric that scored it (GET
                /v1/metric_versions/{id}); null for a metric with no judge.
            object_ (Literal['evaluation.result'] | Unset):  Default: 'evaluation.result'.
            stability (None | Stability | Unset): A metric judged more than once: every judgment with its reason, their
                spread, and `fragile`; null for a metric judged once.
            test_case (None | TestCase | Unset): The judged call as its test case (`test_case_id` is the span id): the last
                user message as `input` (images as `GET /v1/media/{sha256}` URLs), the answer as `actual_output`, the tools it
                called as `tools_called`, the trace's retrieved documents as `retrieval_context`; `metadata` names the trace,
                span, service, model, convention, `response_id` and `warnings` of content lost on the way.
     """

    cost_usd: float | None
    created_at: datetime.datetime
    day: None | str
    error: ErrorInfo | None
    evaluation_id: str
    id: str
    logs: OnlineResultLogs
    metric: str
    passed: bool | None
    reason: None | str
    score: float | None
    span_id: None | str
    test_case_id: str
    test_case_index: int
    threshold: float | None
    trace_id: None | str
    type_: str
    usage: UsageTotals
    agreement: AgreementBrief | None | Unset = UNSET
    candidate_usage: UsageTotals | Unset = UNSET
    fragile: bool | None | Unset = UNSET
    labels: LabelSummary | None | Unset = UNSET
    metric_version: None | str | Unset = UNSET
    object_: Literal['evaluation.result'] | Unset = 'evaluation.result'
    stability: None | Stability | Unset = UNSET
    test_case: None | TestCase | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agreement_brief import AgreementBrief # noqa: PLC0415
        from ..models.error_info import ErrorInfo # noqa: PLC0415
        from ..models.label_summary import LabelSummary # noqa: PLC0415
        from ..models.online_result_logs import OnlineResultLogs # noqa: PLC0415
        from ..models.stability import Stability # noqa: PLC0415
        from ..models.test_case import TestCase # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        cost_usd: float | None
        cost_usd = self.cost_usd

        created_at = self.created_at.isoformat()

        day: None | str
        day = self.day

        error: dict[str, Any] | None
        if isinstance(self.error, ErrorInfo):
            error = self.error.to_dict()
        else:
            error = self.error

        evaluation_id = self.evaluation_id

        id = self.id

        logs = self.logs.to_dict()

        metric = self.metric

        passed: bool | None
        passed = self.passed

        reason: None | str
        reason = self.reason

        score: float | None
        score = self.score

        span_id: None | str
        span_id = self.span_id

        test_case_id = self.test_case_id

        test_case_index = self.test_case_index

        threshold: float | None
        threshold = self.threshold

        trace_id: None | str
        trace_id = self.trace_id

        type_ = self.type_

        usage = self.usage.to_dict()

        agreement: dict[str, Any] | None | Unset
        if isinstance(self.agreement, Unset):
            agreement = UNSET
        elif isinstance(self.agreement, AgreementBrief):
            agreement = self.agreement.to_dict()
        else:
            agreement = self.agreement

        candidate_usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.candidate_usage, Unset):
            candidate_usage = self.candidate_usage.to_dict()

        fragile: bool | None | Unset
        if isinstance(self.fragile, Unset):
            fragile = UNSET
        else:
            fragile = self.fragile

        labels: dict[str, Any] | None | Unset
        if isinstance(self.labels, Unset):
            labels = UNSET
        elif isinstance(self.labels, LabelSummary):
            labels = self.labels.to_dict()
        else:
            labels = self.labels

        metric_version: None | str | Unset
        if isinstance(self.metric_version, Unset):
            metric_version = UNSET
        else:
            metric_version = self.metric_version

        object_ = self.object_

        stability: dict[str, Any] | None | Unset
        if isinstance(self.stability, Unset):
            stability = UNSET
        elif isinstance(self.stability, Stability):
            stability = self.stability.to_dict()
        else:
            stability = self.stability

        test_case: dict[str, Any] | None | Unset
        if isinstance(self.test_case, Unset):
            test_case = UNSET
        elif isinstance(self.test_case, TestCase):
            test_case = self.test_case.to_dict()
        else:
            test_case = self.test_case


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cost_usd": cost_usd,
            "created_at": created_at,
            "day": day,
            "error": error,
            "evaluation_id": evaluation_id,
            "id": id,
            "logs": logs,
            "metric": metric,
            "passed": passed,
            "reason": reason,
            "score": score,
            "span_id": span_id,
            "test_case_id": test_case_id,
            "test_case_index": test_case_index,
            "threshold": threshold,
            "trace_id": trace_id,
            "type": type_,
            "usage": usage,
        })
        if agreement is not UNSET:
            field_dict["agreement"] = agreement
        if candidate_usage is not UNSET:
            field_dict["candidate_usage"] = candidate_usage
        if fragile is not UNSET:
            field_dict["fragile"] = fragile
        if labels is not UNSET:
            field_dict["labels"] = labels
        if metric_version is not UNSET:
            field_dict["metric_version"] = metric_version
        if object_ is not UNSET:
            field_dict["object"] = object_
        if stability is not UNSET:
            field_dict["stability"] = stability
        if test_case is not UNSET:
            field_dict["test_case"] = test_case

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agreement_brief import AgreementBrief # noqa: PLC0415
        from ..models.error_info import ErrorInfo # noqa: PLC0415
        from ..models.label_summary import LabelSummary # noqa: PLC0415
        from ..models.online_result_logs import OnlineResultLogs # noqa: PLC0415
        from ..models.stability import Stability # noqa: PLC0415
        from ..models.test_case import TestCase # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
        def _parse_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_day(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        day = _parse_day(d.pop("day"))


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


        evaluation_id = d.pop("evaluation_id")

        id = d.pop("id")

        logs = OnlineResultLogs.from_dict(d.pop("logs"))




        metric = d.pop("metric")

        def _parse_passed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        passed = _parse_passed(d.pop("passed"))


        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        def _parse_span_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        span_id = _parse_span_id(d.pop("span_id"))


        test_case_id = d.pop("test_case_id")

        test_case_index = d.pop("test_case_index")

        def _parse_threshold(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        threshold = _parse_threshold(d.pop("threshold"))


        def _parse_trace_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        trace_id = _parse_trace_id(d.pop("trace_id"))


        type_ = d.pop("type")

        usage = UsageTotals.from_dict(d.pop("usage"))




        def _parse_agreement(data: object) -> AgreementBrief | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                agreement_type_0 = AgreementBrief.from_dict(data)



                return agreement_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgreementBrief | None | Unset, data)

        agreement = _parse_agreement(d.pop("agreement", UNSET))


        _candidate_usage = d.pop("candidate_usage", UNSET)
        candidate_usage: UsageTotals | Unset
        if isinstance(_candidate_usage,  Unset):
            candidate_usage = UNSET
        else:
            candidate_usage = UsageTotals.from_dict(_candidate_usage)




        def _parse_fragile(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        fragile = _parse_fragile(d.pop("fragile", UNSET))


        def _parse_labels(data: object) -> LabelSummary | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                labels_type_0 = LabelSummary.from_dict(data)



                return labels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LabelSummary | None | Unset, data)

        labels = _parse_labels(d.pop("labels", UNSET))


        def _parse_metric_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        metric_version = _parse_metric_version(d.pop("metric_version", UNSET))


        object_ = cast(Literal['evaluation.result'] | Unset , d.pop("object", UNSET))
        if object_ != 'evaluation.result'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'evaluation.result', got '{object_}'")

        def _parse_stability(data: object) -> None | Stability | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                stability_type_0 = Stability.from_dict(data)



                return stability_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Stability | Unset, data)

        stability = _parse_stability(d.pop("stability", UNSET))


        def _parse_test_case(data: object) -> None | TestCase | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                test_case_type_0 = TestCase.from_dict(data)



                return test_case_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TestCase | Unset, data)

        test_case = _parse_test_case(d.pop("test_case", UNSET))


        online_result = cls(
            cost_usd=cost_usd,
            created_at=created_at,
            day=day,
            error=error,
            evaluation_id=evaluation_id,
            id=id,
            logs=logs,
            metric=metric,
            passed=passed,
            reason=reason,
            score=score,
            span_id=span_id,
            test_case_id=test_case_id,
            test_case_index=test_case_index,
            threshold=threshold,
            trace_id=trace_id,
            type_=type_,
            usage=usage,
            agreement=agreement,
            candidate_usage=candidate_usage,
            fragile=fragile,
            labels=labels,
            metric_version=metric_version,
            object_=object_,
            stability=stability,
            test_case=test_case,
        )


        online_result.additional_properties = d
        return online_result

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
