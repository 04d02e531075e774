from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="EvalRunModelUsage")



@_attrs_define
class EvalRunModelUsage:
    """ 
        Attributes:
            completion_tokens (int):
            invocation_count (int):
            model_name (str):
            prompt_tokens (int):
            total_tokens (int):
            cached_tokens (int | Unset):  Default: 0.
     """

    completion_tokens: int
    invocation_count: int
    model_name: str
    prompt_tokens: int
    total_tokens: int
    cached_tokens: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        completion_tokens = self.completion_tokens

        invocation_count = self.invocation_count

        model_name = self.model_name

        prompt_tokens = self.prompt_tokens

        total_tokens = self.total_tokens

        cached_tokens = self.cached_tokens


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "completion_tokens": completion_tokens,
            "invocation_count": invocation_count,
            "model_name": model_name,
            "prompt_tokens": prompt_tokens,
            "total_tokens": total_tokens,
        })
        if cached_tokens is not UNSET:
            field_dict["cached_tokens"] = cached_tokens

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        completion_tokens = d.pop("completion_tokens")

        invocation_count = d.pop("invocation_count")

        model_name = d.pop("model_name")

        prompt_tokens = d.pop("prompt_tokens")

        total_tokens = d.pop("total_tokens")

        cached_tokens = d.pop("cached_tokens", UNSET)

        eval_run_model_usage = cls(
            completion_tokens=completion_tokens,
            invocation_count=invocation_count,
            model_name=model_name,
            prompt_tokens=prompt_tokens,
            total_tokens=total_tokens,
            cached_tokens=cached_tokens,
        )


        eval_run_model_usage.additional_properties = d
        return eval_run_model_usage

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
