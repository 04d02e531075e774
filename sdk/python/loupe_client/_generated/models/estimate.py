from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.estimate_totals import EstimateTotals
  from ..models.metric_estimate import MetricEstimate





T = TypeVar("T", bound="Estimate")



@_attrs_define
class Estimate:
    """ What a submission would cost before it runs: nothing is stored, no model is called.

        Attributes:
            calls (int): Requests to the model, as `usage.calls` will count them.
            completion_tokens (int): What each call's answer typically takes.
            metrics (list[MetricEstimate]):
            notes (list[str]): Where the figures are bounds or guesses (judge cache, unknown tokenizer, images of unknown
                size).
            prompt_tokens (int): Counted by rendering each call's prompt with the model family's tokenizer (tiktoken),
                images by OpenAI's tile rule.
            usd (float | None): From LOUPE_MODEL_PRICES; null when a model called has no price.
            candidate (EstimateTotals | None | Unset): A run's candidate model: one call per sample.
            object_ (Literal['estimate'] | Unset):  Default: 'estimate'.
     """

    calls: int
    completion_tokens: int
    metrics: list[MetricEstimate]
    notes: list[str]
    prompt_tokens: int
    usd: float | None
    candidate: EstimateTotals | None | Unset = UNSET
    object_: Literal['estimate'] | Unset = 'estimate'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.estimate_totals import EstimateTotals # noqa: PLC0415
        from ..models.metric_estimate import MetricEstimate # noqa: PLC0415
        calls = self.calls

        completion_tokens = self.completion_tokens

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)



        notes = self.notes



        prompt_tokens = self.prompt_tokens

        usd: float | None
        usd = self.usd

        candidate: dict[str, Any] | None | Unset
        if isinstance(self.candidate, Unset):
            candidate = UNSET
        elif isinstance(self.candidate, EstimateTotals):
            candidate = self.candidate.to_dict()
        else:
            candidate = self.candidate

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "completion_tokens": completion_tokens,
            "metrics": metrics,
            "notes": notes,
            "prompt_tokens": prompt_tokens,
            "usd": usd,
        })
        if candidate is not UNSET:
            field_dict["candidate"] = candidate
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.estimate_totals import EstimateTotals # noqa: PLC0415
        from ..models.metric_estimate import MetricEstimate # noqa: PLC0415
        d = dict(src_dict)
        calls = d.pop("calls")

        completion_tokens = d.pop("completion_tokens")

        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = MetricEstimate.from_dict(metrics_item_data)



            metrics.append(metrics_item)


        notes = cast(list[str], d.pop("notes"))


        prompt_tokens = d.pop("prompt_tokens")

        def _parse_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        usd = _parse_usd(d.pop("usd"))


        def _parse_candidate(data: object) -> EstimateTotals | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                candidate_type_0 = EstimateTotals.from_dict(data)



                return candidate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EstimateTotals | None | Unset, data)

        candidate = _parse_candidate(d.pop("candidate", UNSET))


        object_ = cast(Literal['estimate'] | Unset , d.pop("object", UNSET))
        if object_ != 'estimate'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'estimate', got '{object_}'")

        estimate = cls(
            calls=calls,
            completion_tokens=completion_tokens,
            metrics=metrics,
            notes=notes,
            prompt_tokens=prompt_tokens,
            usd=usd,
            candidate=candidate,
            object_=object_,
        )


        estimate.additional_properties = d
        return estimate

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
