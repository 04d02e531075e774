from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AlignmentCreate")



@_attrs_define
class AlignmentCreate:
    """ Which metric version to align, and how to split its labelled items.

        Attributes:
            metric_version (str): The judged metric version to align.
            held_out_share (float | Unset): The share of labelled items held out to judge the candidate and the current
                version on; the rest propose the candidate. Default: 0.5.
            min_held_out (int | Unset): Refuse (422) when fewer labelled items would be held out. Default: 10.
            seed (int | Unset): Seeds the split. Default: 0.
            webhook_url (None | str | Unset): A registered webhook endpoint's URL; gets the terminal event
                (`alignment.completed`, `alignment.failed` or `alignment.canceled`), as an evaluation's or a run's does.
     """

    metric_version: str
    held_out_share: float | Unset = 0.5
    min_held_out: int | Unset = 10
    seed: int | Unset = 0
    webhook_url: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        metric_version = self.metric_version

        held_out_share = self.held_out_share

        min_held_out = self.min_held_out

        seed = self.seed

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "metric_version": metric_version,
        })
        if held_out_share is not UNSET:
            field_dict["held_out_share"] = held_out_share
        if min_held_out is not UNSET:
            field_dict["min_held_out"] = min_held_out
        if seed is not UNSET:
            field_dict["seed"] = seed
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        metric_version = d.pop("metric_version")

        held_out_share = d.pop("held_out_share", UNSET)

        min_held_out = d.pop("min_held_out", UNSET)

        seed = d.pop("seed", UNSET)

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))


        alignment_create = cls(
            metric_version=metric_version,
            held_out_share=held_out_share,
            min_held_out=min_held_out,
            seed=seed,
            webhook_url=webhook_url,
        )

        return alignment_create

