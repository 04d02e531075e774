from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UsageTotals")



@_attrs_define
class UsageTotals:
    """ 
        Attributes:
            cached_prompt_tokens (int | Unset): Of `prompt_tokens`, those the provider answered from its prompt cache
                (`usage.prompt_tokens_details.cached_tokens`; priced as `cached_input` where set). Default: 0.
            calls (int | Unset): Requests the model answered (billed). Default: 0.
            completion_tokens (int | Unset):  Default: 0.
            cost_usd (float | None | Unset): USD, from LOUPE_MODEL_PRICES; null when a call's model has no price. Default:
                0.0.
            failed_calls (int | Unset): Requests sent that got no answer (an error status, a timeout, no connection), each
                retry counted; not in `calls`, and their tokens are not billed. Default: 0.
            prompt_tokens (int | Unset):  Default: 0.
     """

    cached_prompt_tokens: int | Unset = 0
    calls: int | Unset = 0
    completion_tokens: int | Unset = 0
    cost_usd: float | None | Unset = 0.0
    failed_calls: int | Unset = 0
    prompt_tokens: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        cached_prompt_tokens = self.cached_prompt_tokens

        calls = self.calls

        completion_tokens = self.completion_tokens

        cost_usd: float | None | Unset
        if isinstance(self.cost_usd, Unset):
            cost_usd = UNSET
        else:
            cost_usd = self.cost_usd

        failed_calls = self.failed_calls

        prompt_tokens = self.prompt_tokens


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if cached_prompt_tokens is not UNSET:
            field_dict["cached_prompt_tokens"] = cached_prompt_tokens
        if calls is not UNSET:
            field_dict["calls"] = calls
        if completion_tokens is not UNSET:
            field_dict["completion_tokens"] = completion_tokens
        if cost_usd is not UNSET:
            field_dict["cost_usd"] = cost_usd
        if failed_calls is not UNSET:
            field_dict["failed_calls"] = failed_calls
        if prompt_tokens is not UNSET:
            field_dict["prompt_tokens"] = prompt_tokens

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cached_prompt_tokens = d.pop("cached_prompt_tokens", UNSET)

        calls = d.pop("calls", UNSET)

        completion_tokens = d.pop("completion_tokens", UNSET)

        def _parse_cost_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd", UNSET))


        failed_calls = d.pop("failed_calls", UNSET)

        prompt_tokens = d.pop("prompt_tokens", UNSET)

        usage_totals = cls(
            cached_prompt_tokens=cached_prompt_tokens,
            calls=calls,
            completion_tokens=completion_tokens,
            cost_usd=cost_usd,
            failed_calls=failed_calls,
            prompt_tokens=prompt_tokens,
        )


        usage_totals.additional_properties = d
        return usage_totals

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
