from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="UsageBucket")



@_attrs_define
class UsageBucket:
    """ 
        Attributes:
            candidate (UsageTotals):
            cost_usd (float | None): Judge plus candidate; null when either is.
            judge (UsageTotals):
            key (str): The UTC day (YYYY-MM-DD) or the model name.
     """

    candidate: UsageTotals
    cost_usd: float | None
    judge: UsageTotals
    key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        candidate = self.candidate.to_dict()

        cost_usd: float | None
        cost_usd = self.cost_usd

        judge = self.judge.to_dict()

        key = self.key


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidate": candidate,
            "cost_usd": cost_usd,
            "judge": judge,
            "key": key,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
        candidate = UsageTotals.from_dict(d.pop("candidate"))




        def _parse_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd"))


        judge = UsageTotals.from_dict(d.pop("judge"))




        key = d.pop("key")

        usage_bucket = cls(
            candidate=candidate,
            cost_usd=cost_usd,
            judge=judge,
            key=key,
        )


        usage_bucket.additional_properties = d
        return usage_bucket

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
