from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sample_status import check_sample_status
from ..models.sample_status import SampleStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.sample_candidate_type_0 import SampleCandidateType0
  from ..models.sample_error import SampleError
  from ..models.sample_scores import SampleScores





T = TypeVar("T", bound="Sample")



@_attrs_define
class Sample:
    """ 
        Attributes:
            candidate (None | SampleCandidateType0):
            errors (list[SampleError]):
            extracted_answer (None | str):
            id (str):
            index (int):
            prediction (None | str):
            reasoning (None | str):
            reference (None | str):
            row_index (int):
            scores (SampleScores):
            status (SampleStatus): scored: every scorer stored its result (errored ones included); else pending while the
                run goes on, canceled or skipped (never to come: the run was canceled or failed).
            subset (str):
            verdict (None | str):
            object_ (Literal['run.sample'] | Unset):  Default: 'run.sample'.
     """

    candidate: None | SampleCandidateType0
    errors: list[SampleError]
    extracted_answer: None | str
    id: str
    index: int
    prediction: None | str
    reasoning: None | str
    reference: None | str
    row_index: int
    scores: SampleScores
    status: SampleStatus
    subset: str
    verdict: None | str
    object_: Literal['run.sample'] | Unset = 'run.sample'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sample_candidate_type_0 import SampleCandidateType0 # noqa: PLC0415
        from ..models.sample_error import SampleError # noqa: PLC0415
        from ..models.sample_scores import SampleScores # noqa: PLC0415
        candidate: dict[str, Any] | None
        if isinstance(self.candidate, SampleCandidateType0):
            candidate = self.candidate.to_dict()
        else:
            candidate = self.candidate

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)



        extracted_answer: None | str
        extracted_answer = self.extracted_answer

        id = self.id

        index = self.index

        prediction: None | str
        prediction = self.prediction

        reasoning: None | str
        reasoning = self.reasoning

        reference: None | str
        reference = self.reference

        row_index = self.row_index

        scores = self.scores.to_dict()

        status: str = self.status

        subset = self.subset

        verdict: None | str
        verdict = self.verdict

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidate": candidate,
            "errors": errors,
            "extracted_answer": extracted_answer,
            "id": id,
            "index": index,
            "prediction": prediction,
            "reasoning": reasoning,
            "reference": reference,
            "row_index": row_index,
            "scores": scores,
            "status": status,
            "subset": subset,
            "verdict": verdict,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sample_candidate_type_0 import SampleCandidateType0 # noqa: PLC0415
        from ..models.sample_error import SampleError # noqa: PLC0415
        from ..models.sample_scores import SampleScores # noqa: PLC0415
        d = dict(src_dict)
        def _parse_candidate(data: object) -> None | SampleCandidateType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                candidate_type_0 = SampleCandidateType0.from_dict(data)



                return candidate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SampleCandidateType0, data)

        candidate = _parse_candidate(d.pop("candidate"))


        errors = []
        _errors = d.pop("errors")
        for errors_item_data in (_errors):
            errors_item = SampleError.from_dict(errors_item_data)



            errors.append(errors_item)


        def _parse_extracted_answer(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        extracted_answer = _parse_extracted_answer(d.pop("extracted_answer"))


        id = d.pop("id")

        index = d.pop("index")

        def _parse_prediction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prediction = _parse_prediction(d.pop("prediction"))


        def _parse_reasoning(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reasoning = _parse_reasoning(d.pop("reasoning"))


        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))


        row_index = d.pop("row_index")

        scores = SampleScores.from_dict(d.pop("scores"))




        status = check_sample_status(d.pop("status"))




        subset = d.pop("subset")

        def _parse_verdict(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        verdict = _parse_verdict(d.pop("verdict"))


        object_ = cast(Literal['run.sample'] | Unset , d.pop("object", UNSET))
        if object_ != 'run.sample'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'run.sample', got '{object_}'")

        sample = cls(
            candidate=candidate,
            errors=errors,
            extracted_answer=extracted_answer,
            id=id,
            index=index,
            prediction=prediction,
            reasoning=reasoning,
            reference=reference,
            row_index=row_index,
            scores=scores,
            status=status,
            subset=subset,
            verdict=verdict,
            object_=object_,
        )


        sample.additional_properties = d
        return sample

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
