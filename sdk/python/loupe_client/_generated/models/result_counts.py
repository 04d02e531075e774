from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ResultCounts")



@_attrs_define
class ResultCounts:
    """ Counts of results, one per test case × metric: passed + failed + errored + pending +
    canceled + skipped = total.

        Attributes:
            errored (int): Results whose metric could not score (see `error`).
            failed (int):
            passed (int):
            pending (int): Not scored yet (queued or in progress).
            total (int): Test cases × metrics (a run: samples × scorers).
            canceled (int | Unset): Never scored: the evaluation was canceled. Default: 0.
            skipped (int | Unset): Never scored: the evaluation failed. Default: 0.
     """

    errored: int
    failed: int
    passed: int
    pending: int
    total: int
    canceled: int | Unset = 0
    skipped: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        errored = self.errored

        failed = self.failed

        passed = self.passed

        pending = self.pending

        total = self.total

        canceled = self.canceled

        skipped = self.skipped


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "errored": errored,
            "failed": failed,
            "passed": passed,
            "pending": pending,
            "total": total,
        })
        if canceled is not UNSET:
            field_dict["canceled"] = canceled
        if skipped is not UNSET:
            field_dict["skipped"] = skipped

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        errored = d.pop("errored")

        failed = d.pop("failed")

        passed = d.pop("passed")

        pending = d.pop("pending")

        total = d.pop("total")

        canceled = d.pop("canceled", UNSET)

        skipped = d.pop("skipped", UNSET)

        result_counts = cls(
            errored=errored,
            failed=failed,
            passed=passed,
            pending=pending,
            total=total,
            canceled=canceled,
            skipped=skipped,
        )


        result_counts.additional_properties = d
        return result_counts

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
