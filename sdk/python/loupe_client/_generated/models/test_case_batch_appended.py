from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="TestCaseBatchAppended")



@_attrs_define
class TestCaseBatchAppended:
    """ Where an appended batch went: its cases' indices and the evaluation's count after it.

        Attributes:
            count (int): Test cases in the batch.
            evaluation_id (str):
            first_index (int): The index of the batch's first test case.
            test_case_count (int): The evaluation's test cases, this batch included.
            object_ (Literal['test_case_batch'] | Unset):  Default: 'test_case_batch'.
     """

    count: int
    evaluation_id: str
    first_index: int
    test_case_count: int
    object_: Literal['test_case_batch'] | Unset = 'test_case_batch'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        evaluation_id = self.evaluation_id

        first_index = self.first_index

        test_case_count = self.test_case_count

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "evaluation_id": evaluation_id,
            "first_index": first_index,
            "test_case_count": test_case_count,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        evaluation_id = d.pop("evaluation_id")

        first_index = d.pop("first_index")

        test_case_count = d.pop("test_case_count")

        object_ = cast(Literal['test_case_batch'] | Unset , d.pop("object", UNSET))
        if object_ != 'test_case_batch'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'test_case_batch', got '{object_}'")

        test_case_batch_appended = cls(
            count=count,
            evaluation_id=evaluation_id,
            first_index=first_index,
            test_case_count=test_case_count,
            object_=object_,
        )


        test_case_batch_appended.additional_properties = d
        return test_case_batch_appended

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
