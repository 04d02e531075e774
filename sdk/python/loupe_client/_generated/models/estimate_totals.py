from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="EstimateTotals")



@_attrs_define
class EstimateTotals:
    """ Judge calls, tokens and dollars an estimate expects.

        Attributes:
            calls (int): Requests to the model, as `usage.calls` will count them.
            completion_tokens (int): What each call's answer typically takes.
            prompt_tokens (int): Counted by rendering each call's prompt with the model family's tokenizer (tiktoken),
                images by OpenAI's tile rule.
            usd (float | None): From LOUPE_MODEL_PRICES; null when a model called has no price.
     """

    calls: int
    completion_tokens: int
    prompt_tokens: int
    usd: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        calls = self.calls

        completion_tokens = self.completion_tokens

        prompt_tokens = self.prompt_tokens

        usd: float | None
        usd = self.usd


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "completion_tokens": completion_tokens,
            "prompt_tokens": prompt_tokens,
            "usd": usd,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calls = d.pop("calls")

        completion_tokens = d.pop("completion_tokens")

        prompt_tokens = d.pop("prompt_tokens")

        def _parse_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        usd = _parse_usd(d.pop("usd"))


        estimate_totals = cls(
            calls=calls,
            completion_tokens=completion_tokens,
            prompt_tokens=prompt_tokens,
            usd=usd,
        )


        estimate_totals.additional_properties = d
        return estimate_totals

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
