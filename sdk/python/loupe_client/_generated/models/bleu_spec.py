from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="BleuSpec")



@_attrs_define
class BleuSpec:
    """ 
        Attributes:
            type_ (Literal['bleu']):
            n (int | Unset): n-gram order of the individual BLEU. Default: 1.
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
     """

    type_: Literal['bleu']
    n: int | Unset = 1
    name: None | str | Unset = UNSET
    threshold: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        n = self.n

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
        if n is not UNSET:
            field_dict["n"] = n
        if name is not UNSET:
            field_dict["name"] = name
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['bleu'] , d.pop("type"))
        if type_ != 'bleu':
            raise ValueError(f"type must match const 'bleu', got '{type_}'")

        n = d.pop("n", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        threshold = d.pop("threshold", UNSET)

        bleu_spec = cls(
            type_=type_,
            n=n,
            name=name,
            threshold=threshold,
        )

        return bleu_spec

