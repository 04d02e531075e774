from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="ExactMatchSpec")



@_attrs_define
class ExactMatchSpec:
    """ 
        Attributes:
            type_ (Literal['exact_match']):
            case_sensitive (bool | Unset):  Default: True.
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            strip (bool | Unset): Ignore leading and trailing whitespace. Default: True.
            threshold (float | Unset):  Default: 1.0.
     """

    type_: Literal['exact_match']
    case_sensitive: bool | Unset = True
    name: None | str | Unset = UNSET
    strip: bool | Unset = True
    threshold: float | Unset = 1.0





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        case_sensitive = self.case_sensitive

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        strip = self.strip

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if case_sensitive is not UNSET:
            field_dict["case_sensitive"] = case_sensitive
        if name is not UNSET:
            field_dict["name"] = name
        if strip is not UNSET:
            field_dict["strip"] = strip
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['exact_match'] , d.pop("type"))
        if type_ != 'exact_match':
            raise ValueError(f"type must match const 'exact_match', got '{type_}'")

        case_sensitive = d.pop("case_sensitive", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        strip = d.pop("strip", UNSET)

        threshold = d.pop("threshold", UNSET)

        exact_match_spec = cls(
            type_=type_,
            case_sensitive=case_sensitive,
            name=name,
            strip=strip,
            threshold=threshold,
        )

        return exact_match_spec

