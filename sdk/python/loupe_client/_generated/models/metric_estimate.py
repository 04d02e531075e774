from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.judge_estimate import JudgeEstimate





T = TypeVar("T", bound="MetricEstimate")



@_attrs_define
class MetricEstimate:
    """ One metric's calls: per test case, each sample of each judge makes them all.

        Attributes:
            calls (int): Requests to the model, as `usage.calls` will count them.
            completion_tokens (int): What each call's answer typically takes.
            judges (list[JudgeEstimate]): Per judge (a panel's members).
            metric (str): The metric's name (what its results are reported under).
            multiplier (int): samples x members: how many times each test case is judged (shared answers such as G-Eval
                steps and faithfulness truths are made once per judge).
            panel (int | None): `judge.panel`'s members; null without a panel.
            prompt_tokens (int): Counted by rendering each call's prompt with the model family's tokenizer (tiktoken),
                images by OpenAI's tile rule.
            samples (int): `judge.samples`: judge calls on the same output.
            type_ (str):
            usd (float | None): From LOUPE_MODEL_PRICES; null when a model called has no price.
     """

    calls: int
    completion_tokens: int
    judges: list[JudgeEstimate]
    metric: str
    multiplier: int
    panel: int | None
    prompt_tokens: int
    samples: int
    type_: str
    usd: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.judge_estimate import JudgeEstimate # noqa: PLC0415
        calls = self.calls

        completion_tokens = self.completion_tokens

        judges = []
        for judges_item_data in self.judges:
            judges_item = judges_item_data.to_dict()
            judges.append(judges_item)



        metric = self.metric

        multiplier = self.multiplier

        panel: int | None
        panel = self.panel

        prompt_tokens = self.prompt_tokens

        samples = self.samples

        type_ = self.type_

        usd: float | None
        usd = self.usd


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "completion_tokens": completion_tokens,
            "judges": judges,
            "metric": metric,
            "multiplier": multiplier,
            "panel": panel,
            "prompt_tokens": prompt_tokens,
            "samples": samples,
            "type": type_,
            "usd": usd,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.judge_estimate import JudgeEstimate # noqa: PLC0415
        d = dict(src_dict)
        calls = d.pop("calls")

        completion_tokens = d.pop("completion_tokens")

        judges = []
        _judges = d.pop("judges")
        for judges_item_data in (_judges):
            judges_item = JudgeEstimate.from_dict(judges_item_data)



            judges.append(judges_item)


        metric = d.pop("metric")

        multiplier = d.pop("multiplier")

        def _parse_panel(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        panel = _parse_panel(d.pop("panel"))


        prompt_tokens = d.pop("prompt_tokens")

        samples = d.pop("samples")

        type_ = d.pop("type")

        def _parse_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        usd = _parse_usd(d.pop("usd"))


        metric_estimate = cls(
            calls=calls,
            completion_tokens=completion_tokens,
            judges=judges,
            metric=metric,
            multiplier=multiplier,
            panel=panel,
            prompt_tokens=prompt_tokens,
            samples=samples,
            type_=type_,
            usd=usd,
        )


        metric_estimate.additional_properties = d
        return metric_estimate

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
