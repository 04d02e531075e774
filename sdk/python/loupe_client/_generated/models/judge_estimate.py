from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="JudgeEstimate")



@_attrs_define
class JudgeEstimate:
    """ One judge's share of a metric: a panel's members are priced by their own models.

        Attributes:
            calls (int): Requests to the model, as `usage.calls` will count them.
            completion_tokens (int): What each call's answer typically takes.
            encoding (str): The tokenizer the prompts were counted with.
            model (None | str):
            model_id (None | str): The registered model; null: the server's judge.
            prompt_tokens (int): Counted by rendering each call's prompt with the model family's tokenizer (tiktoken),
                images by OpenAI's tile rule.
            usd (float | None): From LOUPE_MODEL_PRICES; null when a model called has no price.
     """

    calls: int
    completion_tokens: int
    encoding: str
    model: None | str
    model_id: None | str
    prompt_tokens: int
    usd: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        calls = self.calls

        completion_tokens = self.completion_tokens

        encoding = self.encoding

        model: None | str
        model = self.model

        model_id: None | str
        model_id = self.model_id

        prompt_tokens = self.prompt_tokens

        usd: float | None
        usd = self.usd


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "completion_tokens": completion_tokens,
            "encoding": encoding,
            "model": model,
            "model_id": model_id,
            "prompt_tokens": prompt_tokens,
            "usd": usd,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calls = d.pop("calls")

        completion_tokens = d.pop("completion_tokens")

        encoding = d.pop("encoding")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))


        def _parse_model_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model_id = _parse_model_id(d.pop("model_id"))


        prompt_tokens = d.pop("prompt_tokens")

        def _parse_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        usd = _parse_usd(d.pop("usd"))


        judge_estimate = cls(
            calls=calls,
            completion_tokens=completion_tokens,
            encoding=encoding,
            model=model,
            model_id=model_id,
            prompt_tokens=prompt_tokens,
            usd=usd,
        )


        judge_estimate.additional_properties = d
        return judge_estimate

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
