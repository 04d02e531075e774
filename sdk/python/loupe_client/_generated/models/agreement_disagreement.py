from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.person_label import PersonLabel





T = TypeVar("T", bound="AgreementDisagreement")



@_attrs_define
class AgreementDisagreement:
    """ An item where the judge and the people differ.

        Attributes:
            evaluation_id (None | str):
            gap (float): |score − people|, on the scale (or in share).
            item_key (str):
            judge_passed (bool):
            labels (list[PersonLabel]):
            people (float): The people's mean label (pass/fail labels: the share passing it).
            people_passed (bool): The people's majority (a tie passes).
            result_id (None | str): The result the newest label was given on.
            score (float): The judge's score (the labels' snapshot of it).
            test_case_id (None | str):
            test_case_index (int | None | Unset): The test case's position in its evaluation; null once the evaluation is
                deleted (the labels stay).
     """

    evaluation_id: None | str
    gap: float
    item_key: str
    judge_passed: bool
    labels: list[PersonLabel]
    people: float
    people_passed: bool
    result_id: None | str
    score: float
    test_case_id: None | str
    test_case_index: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.person_label import PersonLabel # noqa: PLC0415
        evaluation_id: None | str
        evaluation_id = self.evaluation_id

        gap = self.gap

        item_key = self.item_key

        judge_passed = self.judge_passed

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)



        people = self.people

        people_passed = self.people_passed

        result_id: None | str
        result_id = self.result_id

        score = self.score

        test_case_id: None | str
        test_case_id = self.test_case_id

        test_case_index: int | None | Unset
        if isinstance(self.test_case_index, Unset):
            test_case_index = UNSET
        else:
            test_case_index = self.test_case_index


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "evaluation_id": evaluation_id,
            "gap": gap,
            "item_key": item_key,
            "judge_passed": judge_passed,
            "labels": labels,
            "people": people,
            "people_passed": people_passed,
            "result_id": result_id,
            "score": score,
            "test_case_id": test_case_id,
        })
        if test_case_index is not UNSET:
            field_dict["test_case_index"] = test_case_index

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.person_label import PersonLabel # noqa: PLC0415
        d = dict(src_dict)
        def _parse_evaluation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        evaluation_id = _parse_evaluation_id(d.pop("evaluation_id"))


        gap = d.pop("gap")

        item_key = d.pop("item_key")

        judge_passed = d.pop("judge_passed")

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in (_labels):
            labels_item = PersonLabel.from_dict(labels_item_data)



            labels.append(labels_item)


        people = d.pop("people")

        people_passed = d.pop("people_passed")

        def _parse_result_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result_id = _parse_result_id(d.pop("result_id"))


        score = d.pop("score")

        def _parse_test_case_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        test_case_id = _parse_test_case_id(d.pop("test_case_id"))


        def _parse_test_case_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        test_case_index = _parse_test_case_index(d.pop("test_case_index", UNSET))


        agreement_disagreement = cls(
            evaluation_id=evaluation_id,
            gap=gap,
            item_key=item_key,
            judge_passed=judge_passed,
            labels=labels,
            people=people,
            people_passed=people_passed,
            result_id=result_id,
            score=score,
            test_case_id=test_case_id,
            test_case_index=test_case_index,
        )


        agreement_disagreement.additional_properties = d
        return agreement_disagreement

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
