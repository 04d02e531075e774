from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_status import check_run_status
from ..models.run_status import RunStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.error_info import ErrorInfo
  from ..models.recovery import Recovery
  from ..models.report_row import ReportRow
  from ..models.result_counts import ResultCounts
  from ..models.run_generation import RunGeneration
  from ..models.run_judge import RunJudge
  from ..models.run_metadata import RunMetadata
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="Run")



@_attrs_define
class Run:
    """ 
        Attributes:
            cluster_by (None | str):
            completed_at (datetime.datetime | None):
            created_at (datetime.datetime):
            dataset_id (str):
            error (ErrorInfo | None):
            generation (RunGeneration):
            id (str):
            judge (RunJudge):
            limit (float | int | None):
            metadata (RunMetadata):
            model_id (None | str):
            name (None | str):
            report (list[ReportRow]):
            result_counts (ResultCounts): Counts of results, one per test case × metric: passed + failed + errored + pending
                +
                canceled + skipped = total.
            sample_count (int):
            started_at (datetime.datetime | None):
            status (RunStatus):
            subsets (list[str]):
            usage (UsageTotals):
            webhook_url (None | str):
            candidate_usage (UsageTotals | Unset):
            completed_with_errors (bool | Unset): `completed`, but some results errored (`result_counts.errored` > 0): the
                report covers only the rest. Default: False.
            cost_usd (float | None | Unset): Judge plus candidate cost; null when either is unknown. Default: 0.0.
            object_ (Literal['run'] | Unset):  Default: 'run'.
            recovery (None | Recovery | Unset): Set while a running run waits on or runs in recovery.
     """

    cluster_by: None | str
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    dataset_id: str
    error: ErrorInfo | None
    generation: RunGeneration
    id: str
    judge: RunJudge
    limit: float | int | None
    metadata: RunMetadata
    model_id: None | str
    name: None | str
    report: list[ReportRow]
    result_counts: ResultCounts
    sample_count: int
    started_at: datetime.datetime | None
    status: RunStatus
    subsets: list[str]
    usage: UsageTotals
    webhook_url: None | str
    candidate_usage: UsageTotals | Unset = UNSET
    completed_with_errors: bool | Unset = False
    cost_usd: float | None | Unset = 0.0
    object_: Literal['run'] | Unset = 'run'
    recovery: None | Recovery | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_info import ErrorInfo # noqa: PLC0415
        from ..models.recovery import Recovery # noqa: PLC0415
        from ..models.report_row import ReportRow # noqa: PLC0415
        from ..models.result_counts import ResultCounts # noqa: PLC0415
        from ..models.run_generation import RunGeneration # noqa: PLC0415
        from ..models.run_judge import RunJudge # noqa: PLC0415
        from ..models.run_metadata import RunMetadata # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        cluster_by: None | str
        cluster_by = self.cluster_by

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        dataset_id = self.dataset_id

        error: dict[str, Any] | None
        if isinstance(self.error, ErrorInfo):
            error = self.error.to_dict()
        else:
            error = self.error

        generation = self.generation.to_dict()

        id = self.id

        judge = self.judge.to_dict()

        limit: float | int | None
        limit = self.limit

        metadata = self.metadata.to_dict()

        model_id: None | str
        model_id = self.model_id

        name: None | str
        name = self.name

        report = []
        for report_item_data in self.report:
            report_item = report_item_data.to_dict()
            report.append(report_item)



        result_counts = self.result_counts.to_dict()

        sample_count = self.sample_count

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: str = self.status

        subsets = self.subsets



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
            "cluster_by": cluster_by,
            "completed_at": completed_at,
            "created_at": created_at,
            "dataset_id": dataset_id,
            "error": error,
            "generation": generation,
            "id": id,
            "judge": judge,
            "limit": limit,
            "metadata": metadata,
            "model_id": model_id,
            "name": name,
            "report": report,
            "result_counts": result_counts,
            "sample_count": sample_count,
            "started_at": started_at,
            "status": status,
            "subsets": subsets,
            "usage": usage,
            "webhook_url": webhook_url,
        })
        if candidate_usage is not UNSET:
            field_dict["candidate_usage"] = candidate_usage
        if completed_with_errors is not UNSET:
            field_dict["completed_with_errors"] = completed_with_errors
        if cost_usd is not UNSET:
            field_dict["cost_usd"] = cost_usd
        if object_ is not UNSET:
            field_dict["object"] = object_
        if recovery is not UNSET:
            field_dict["recovery"] = recovery

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_info import ErrorInfo # noqa: PLC0415
        from ..models.recovery import Recovery # noqa: PLC0415
        from ..models.report_row import ReportRow # noqa: PLC0415
        from ..models.result_counts import ResultCounts # noqa: PLC0415
        from ..models.run_generation import RunGeneration # noqa: PLC0415
        from ..models.run_judge import RunJudge # noqa: PLC0415
        from ..models.run_metadata import RunMetadata # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
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




        dataset_id = d.pop("dataset_id")

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


        generation = RunGeneration.from_dict(d.pop("generation"))




        id = d.pop("id")

        judge = RunJudge.from_dict(d.pop("judge"))




        def _parse_limit(data: object) -> float | int | None:
            if data is None:
                return data
            return cast(float | int | None, data)

        limit = _parse_limit(d.pop("limit"))


        metadata = RunMetadata.from_dict(d.pop("metadata"))




        def _parse_model_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model_id = _parse_model_id(d.pop("model_id"))


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        report = []
        _report = d.pop("report")
        for report_item_data in (_report):
            report_item = ReportRow.from_dict(report_item_data)



            report.append(report_item)


        result_counts = ResultCounts.from_dict(d.pop("result_counts"))




        sample_count = d.pop("sample_count")

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


        status = check_run_status(d.pop("status"))




        subsets = cast(list[str], d.pop("subsets"))


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


        object_ = cast(Literal['run'] | Unset , d.pop("object", UNSET))
        if object_ != 'run'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'run', got '{object_}'")

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


        run = cls(
            cluster_by=cluster_by,
            completed_at=completed_at,
            created_at=created_at,
            dataset_id=dataset_id,
            error=error,
            generation=generation,
            id=id,
            judge=judge,
            limit=limit,
            metadata=metadata,
            model_id=model_id,
            name=name,
            report=report,
            result_counts=result_counts,
            sample_count=sample_count,
            started_at=started_at,
            status=status,
            subsets=subsets,
            usage=usage,
            webhook_url=webhook_url,
            candidate_usage=candidate_usage,
            completed_with_errors=completed_with_errors,
            cost_usd=cost_usd,
            object_=object_,
            recovery=recovery,
        )


        run.additional_properties = d
        return run

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
