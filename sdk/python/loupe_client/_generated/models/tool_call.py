from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.tool_call_input_parameters_type_0 import ToolCallInputParametersType0





T = TypeVar("T", bound="ToolCall")



@_attrs_define
class ToolCall:
    """ A tool call an assistant made (or is expected to make).

        Attributes:
            name (str):
            description (None | str | Unset):
            input_parameters (None | ToolCallInputParametersType0 | Unset): The arguments, as the tool was called with them.
            output (Any | Unset): What the tool returned.
            reasoning (None | str | Unset): Why the assistant called it (shown, never scored).
     """

    name: str
    description: None | str | Unset = UNSET
    input_parameters: None | ToolCallInputParametersType0 | Unset = UNSET
    output: Any | Unset = UNSET
    reasoning: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.tool_call_input_parameters_type_0 import ToolCallInputParametersType0 # noqa: PLC0415
        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        input_parameters: dict[str, Any] | None | Unset
        if isinstance(self.input_parameters, Unset):
            input_parameters = UNSET
        elif isinstance(self.input_parameters, ToolCallInputParametersType0):
            input_parameters = self.input_parameters.to_dict()
        else:
            input_parameters = self.input_parameters

        output = self.output

        reasoning: None | str | Unset
        if isinstance(self.reasoning, Unset):
            reasoning = UNSET
        else:
            reasoning = self.reasoning


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if input_parameters is not UNSET:
            field_dict["input_parameters"] = input_parameters
        if output is not UNSET:
            field_dict["output"] = output
        if reasoning is not UNSET:
            field_dict["reasoning"] = reasoning

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tool_call_input_parameters_type_0 import ToolCallInputParametersType0 # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_input_parameters(data: object) -> None | ToolCallInputParametersType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                input_parameters_type_0 = ToolCallInputParametersType0.from_dict(data)



                return input_parameters_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ToolCallInputParametersType0 | Unset, data)

        input_parameters = _parse_input_parameters(d.pop("input_parameters", UNSET))


        output = d.pop("output", UNSET)

        def _parse_reasoning(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reasoning = _parse_reasoning(d.pop("reasoning", UNSET))


        tool_call = cls(
            name=name,
            description=description,
            input_parameters=input_parameters,
            output=output,
            reasoning=reasoning,
        )

        return tool_call

