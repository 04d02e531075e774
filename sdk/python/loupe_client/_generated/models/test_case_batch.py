from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.test_case_create import TestCaseCreate





T = TypeVar("T", bound="TestCaseBatch")



@_attrs_define
class TestCaseBatch:
    """ One batch of test cases for an open evaluation, checked as a submit's are.

        Attributes:
            test_cases (list[TestCaseCreate]): At most LOUPE_MAX_TEST_CASES (default 10,000) per batch, and
                LOUPE_MAX_EVALUATION_TEST_CASES (default 1,000,000) in all; ids unique across batches.
     """

    test_cases: list[TestCaseCreate]





    def to_dict(self) -> dict[str, Any]:
        from ..models.test_case_create import TestCaseCreate # noqa: PLC0415
        test_cases = []
        for test_cases_item_data in self.test_cases:
            test_cases_item = test_cases_item_data.to_dict()
            test_cases.append(test_cases_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "test_cases": test_cases,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_case_create import TestCaseCreate # noqa: PLC0415
        d = dict(src_dict)
        test_cases = []
        _test_cases = d.pop("test_cases")
        for test_cases_item_data in (_test_cases):
            test_cases_item = TestCaseCreate.from_dict(test_cases_item_data)



            test_cases.append(test_cases_item)


        test_case_batch = cls(
            test_cases=test_cases,
        )

        return test_case_batch

