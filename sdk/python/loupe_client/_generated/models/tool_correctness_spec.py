from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.tool_correctness_spec_arguments import check_tool_correctness_spec_arguments
from ..models.tool_correctness_spec_arguments import ToolCorrectnessSpecArguments
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="ToolCorrectnessSpec")



@_attrs_define
class ToolCorrectnessSpec:
    """ 
        Attributes:
            type_ (Literal['tool_correctness']):
            arguments (ToolCorrectnessSpecArguments | Unset): `ignore`: names only; `exact`: input_parameters equal too;
                `subset`: every expected argument present with an equal value, extra arguments allowed at any depth (a nested
                object may hold more keys; lists match item by item, same length). Default: 'ignore'.
            check_output (bool | Unset): A call matches only when its output equals the expected one. Default: False.
            consider_ordering (bool | Unset): Count only calls made in the expected order (the longest common subsequence of
                matching calls); the others are listed as out of order. Default: False.
            exact_match (bool | Unset): 1 only when the calls match the expected ones position by position, same length;
                else 0 (ordering is then considered). Default: False.
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            penalize_extra_calls (bool | Unset): Divide by max(expected, made) instead of expected, so calls nobody expected
                lower the score (deepeval never penalises them). Default: False.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
     """

    type_: Literal['tool_correctness']
    arguments: ToolCorrectnessSpecArguments | Unset = 'ignore'
    check_output: bool | Unset = False
    consider_ordering: bool | Unset = False
    exact_match: bool | Unset = False
    name: None | str | Unset = UNSET
    penalize_extra_calls: bool | Unset = False
    threshold: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        arguments: str | Unset = UNSET
        if not isinstance(self.arguments, Unset):
            arguments = self.arguments


        check_output = self.check_output

        consider_ordering = self.consider_ordering

        exact_match = self.exact_match

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        penalize_extra_calls = self.penalize_extra_calls

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if arguments is not UNSET:
            field_dict["arguments"] = arguments
        if check_output is not UNSET:
            field_dict["check_output"] = check_output
        if consider_ordering is not UNSET:
            field_dict["consider_ordering"] = consider_ordering
        if exact_match is not UNSET:
            field_dict["exact_match"] = exact_match
        if name is not UNSET:
            field_dict["name"] = name
        if penalize_extra_calls is not UNSET:
            field_dict["penalize_extra_calls"] = penalize_extra_calls
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['tool_correctness'] , d.pop("type"))
        if type_ != 'tool_correctness':
            raise ValueError(f"type must match const 'tool_correctness', got '{type_}'")

        _arguments = d.pop("arguments", UNSET)
        arguments: ToolCorrectnessSpecArguments | Unset
        if isinstance(_arguments,  Unset):
            arguments = UNSET
        else:
            arguments = check_tool_correctness_spec_arguments(_arguments)




        check_output = d.pop("check_output", UNSET)

        consider_ordering = d.pop("consider_ordering", UNSET)

        exact_match = d.pop("exact_match", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        penalize_extra_calls = d.pop("penalize_extra_calls", UNSET)

        threshold = d.pop("threshold", UNSET)

        tool_correctness_spec = cls(
            type_=type_,
            arguments=arguments,
            check_output=check_output,
            consider_ordering=consider_ordering,
            exact_match=exact_match,
            name=name,
            penalize_extra_calls=penalize_extra_calls,
            threshold=threshold,
        )

        return tool_correctness_spec

