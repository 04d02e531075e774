from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.rouge_spec_statistic import check_rouge_spec_statistic
from ..models.rouge_spec_statistic import RougeSpecStatistic
from ..models.rouge_spec_variant import check_rouge_spec_variant
from ..models.rouge_spec_variant import RougeSpecVariant
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="RougeSpec")



@_attrs_define
class RougeSpec:
    """ 
        Attributes:
            type_ (Literal['rouge']):
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            statistic (RougeSpecStatistic | Unset):  Default: 'r'.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
            variant (RougeSpecVariant | Unset):  Default: 'l'.
     """

    type_: Literal['rouge']
    name: None | str | Unset = UNSET
    statistic: RougeSpecStatistic | Unset = 'r'
    threshold: float | Unset = 0.5
    variant: RougeSpecVariant | Unset = 'l'





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        statistic: str | Unset = UNSET
        if not isinstance(self.statistic, Unset):
            statistic = self.statistic


        threshold = self.threshold

        variant: str | Unset = UNSET
        if not isinstance(self.variant, Unset):
            variant = self.variant



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if statistic is not UNSET:
            field_dict["statistic"] = statistic
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['rouge'] , d.pop("type"))
        if type_ != 'rouge':
            raise ValueError(f"type must match const 'rouge', got '{type_}'")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        _statistic = d.pop("statistic", UNSET)
        statistic: RougeSpecStatistic | Unset
        if isinstance(_statistic,  Unset):
            statistic = UNSET
        else:
            statistic = check_rouge_spec_statistic(_statistic)




        threshold = d.pop("threshold", UNSET)

        _variant = d.pop("variant", UNSET)
        variant: RougeSpecVariant | Unset
        if isinstance(_variant,  Unset):
            variant = UNSET
        else:
            variant = check_rouge_spec_variant(_variant)




        rouge_spec = cls(
            type_=type_,
            name=name,
            statistic=statistic,
            threshold=threshold,
            variant=variant,
        )

        return rouge_spec

