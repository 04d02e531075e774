from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.condition_op import check_condition_op
from ..models.condition_op import ConditionOp
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Condition")



@_attrs_define
class Condition:
    """ One test on a span: its attribute (a span attribute, else a resource attribute such as
    `service.name`; `model` and `operation` name the GenAI call's model and operation in
    whichever convention the span uses) equals, contains or matches (RE2 syntax) `value`.

        Attributes:
            attribute (str):
            value (str):
            op (ConditionOp | Unset):  Default: 'eq'.
     """

    attribute: str
    value: str
    op: ConditionOp | Unset = 'eq'





    def to_dict(self) -> dict[str, Any]:
        attribute = self.attribute

        value = self.value

        op: str | Unset = UNSET
        if not isinstance(self.op, Unset):
            op = self.op



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attribute": attribute,
            "value": value,
        })
        if op is not UNSET:
            field_dict["op"] = op

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attribute = d.pop("attribute")

        value = d.pop("value")

        _op = d.pop("op", UNSET)
        op: ConditionOp | Unset
        if isinstance(_op,  Unset):
            op = UNSET
        else:
            op = check_condition_op(_op)




        condition = cls(
            attribute=attribute,
            value=value,
            op=op,
        )

        return condition

