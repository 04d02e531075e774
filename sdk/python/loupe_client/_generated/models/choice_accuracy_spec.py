from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="ChoiceAccuracySpec")



@_attrs_define
class ChoiceAccuracySpec:
    """ 
        Attributes:
            type_ (Literal['choice_accuracy']):
            labels (list[str] | Unset): The valid answer labels; a test case's `metadata.labels` overrides them (questions
                with different numbers of options).
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
     """

    type_: Literal['choice_accuracy']
    labels: list[str] | Unset = UNSET
    name: None | str | Unset = UNSET
    threshold: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        labels: list[str] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels



        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if labels is not UNSET:
            field_dict["labels"] = labels
        if name is not UNSET:
            field_dict["name"] = name
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['choice_accuracy'] , d.pop("type"))
        if type_ != 'choice_accuracy':
            raise ValueError(f"type must match const 'choice_accuracy', got '{type_}'")

        labels = cast(list[str], d.pop("labels", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        threshold = d.pop("threshold", UNSET)

        choice_accuracy_spec = cls(
            type_=type_,
            labels=labels,
            name=name,
            threshold=threshold,
        )

        return choice_accuracy_spec

