from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.eval_run_object_status import check_eval_run_object_status
from ..models.eval_run_object_status import EvalRunObjectStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.eval_run_criterion_counts import EvalRunCriterionCounts
  from ..models.eval_run_error import EvalRunError
  from ..models.eval_run_model_usage import EvalRunModelUsage
  from ..models.eval_run_object_data_source import EvalRunObjectDataSource
  from ..models.eval_run_object_metadata_type_0 import EvalRunObjectMetadataType0
  from ..models.eval_run_result_counts import EvalRunResultCounts
  from ..models.recovery import Recovery





T = TypeVar("T", bound="EvalRunObject")



@_attrs_define
class EvalRunObject:
    """ 
        Attributes:
            created_at (int):
            data_source (EvalRunObjectDataSource):
            error (EvalRunError | None):
            eval_id (str):
            id (str):
            metadata (EvalRunObjectMetadataType0 | None):
            model (None | str):
            name (str):
            per_model_usage (list[EvalRunModelUsage]):
            per_testing_criteria_results (list[EvalRunCriterionCounts]):
            report_url (str):
            result_counts (EvalRunResultCounts):
            status (EvalRunObjectStatus):
            object_ (Literal['eval.run'] | Unset):  Default: 'eval.run'.
            recovery (None | Recovery | Unset): Set while a running run waits on or runs in recovery.
     """

    created_at: int
    data_source: EvalRunObjectDataSource
    error: EvalRunError | None
    eval_id: str
    id: str
    metadata: EvalRunObjectMetadataType0 | None
    model: None | str
    name: str
    per_model_usage: list[EvalRunModelUsage]
    per_testing_criteria_results: list[EvalRunCriterionCounts]
    report_url: str
    result_counts: EvalRunResultCounts
    status: EvalRunObjectStatus
    object_: Literal['eval.run'] | Unset = 'eval.run'
    recovery: None | Recovery | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.eval_run_criterion_counts import EvalRunCriterionCounts # noqa: PLC0415
        from ..models.eval_run_error import EvalRunError # noqa: PLC0415
        from ..models.eval_run_model_usage import EvalRunModelUsage # noqa: PLC0415
        from ..models.eval_run_object_data_source import EvalRunObjectDataSource # noqa: PLC0415
        from ..models.eval_run_object_metadata_type_0 import EvalRunObjectMetadataType0 # noqa: PLC0415
        from ..models.eval_run_result_counts import EvalRunResultCounts # noqa: PLC0415
        from ..models.recovery import Recovery # noqa: PLC0415
        created_at = self.created_at

        data_source = self.data_source.to_dict()

        error: dict[str, Any] | None
        if isinstance(self.error, EvalRunError):
            error = self.error.to_dict()
        else:
            error = self.error

        eval_id = self.eval_id

        id = self.id

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, EvalRunObjectMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        model: None | str
        model = self.model

        name = self.name

        per_model_usage = []
        for per_model_usage_item_data in self.per_model_usage:
            per_model_usage_item = per_model_usage_item_data.to_dict()
            per_model_usage.append(per_model_usage_item)



        per_testing_criteria_results = []
        for per_testing_criteria_results_item_data in self.per_testing_criteria_results:
            per_testing_criteria_results_item = per_testing_criteria_results_item_data.to_dict()
            per_testing_criteria_results.append(per_testing_criteria_results_item)



        report_url = self.report_url

        result_counts = self.result_counts.to_dict()

        status: str = self.status

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
            "created_at": created_at,
            "data_source": data_source,
            "error": error,
            "eval_id": eval_id,
            "id": id,
            "metadata": metadata,
            "model": model,
            "name": name,
            "per_model_usage": per_model_usage,
            "per_testing_criteria_results": per_testing_criteria_results,
            "report_url": report_url,
            "result_counts": result_counts,
            "status": status,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_
        if recovery is not UNSET:
            field_dict["recovery"] = recovery

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eval_run_criterion_counts import EvalRunCriterionCounts # noqa: PLC0415
        from ..models.eval_run_error import EvalRunError # noqa: PLC0415
        from ..models.eval_run_model_usage import EvalRunModelUsage # noqa: PLC0415
        from ..models.eval_run_object_data_source import EvalRunObjectDataSource # noqa: PLC0415
        from ..models.eval_run_object_metadata_type_0 import EvalRunObjectMetadataType0 # noqa: PLC0415
        from ..models.eval_run_result_counts import EvalRunResultCounts # noqa: PLC0415
        from ..models.recovery import Recovery # noqa: PLC0415
        d = dict(src_dict)
        created_at = d.pop("created_at")

        data_source = EvalRunObjectDataSource.from_dict(d.pop("data_source"))




        def _parse_error(data: object) -> EvalRunError | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = EvalRunError.from_dict(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvalRunError | None, data)

        error = _parse_error(d.pop("error"))


        eval_id = d.pop("eval_id")

        id = d.pop("id")

        def _parse_metadata(data: object) -> EvalRunObjectMetadataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = EvalRunObjectMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvalRunObjectMetadataType0 | None, data)

        metadata = _parse_metadata(d.pop("metadata"))


        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))


        name = d.pop("name")

        per_model_usage = []
        _per_model_usage = d.pop("per_model_usage")
        for per_model_usage_item_data in (_per_model_usage):
            per_model_usage_item = EvalRunModelUsage.from_dict(per_model_usage_item_data)



            per_model_usage.append(per_model_usage_item)


        per_testing_criteria_results = []
        _per_testing_criteria_results = d.pop("per_testing_criteria_results")
        for per_testing_criteria_results_item_data in (_per_testing_criteria_results):
            per_testing_criteria_results_item = EvalRunCriterionCounts.from_dict(per_testing_criteria_results_item_data)



            per_testing_criteria_results.append(per_testing_criteria_results_item)


        report_url = d.pop("report_url")

        result_counts = EvalRunResultCounts.from_dict(d.pop("result_counts"))




        status = check_eval_run_object_status(d.pop("status"))




        object_ = cast(Literal['eval.run'] | Unset , d.pop("object", UNSET))
        if object_ != 'eval.run'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'eval.run', got '{object_}'")

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


        eval_run_object = cls(
            created_at=created_at,
            data_source=data_source,
            error=error,
            eval_id=eval_id,
            id=id,
            metadata=metadata,
            model=model,
            name=name,
            per_model_usage=per_model_usage,
            per_testing_criteria_results=per_testing_criteria_results,
            report_url=report_url,
            result_counts=result_counts,
            status=status,
            object_=object_,
            recovery=recovery,
        )


        eval_run_object.additional_properties = d
        return eval_run_object

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
