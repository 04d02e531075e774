from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GuidanceExample")



@_attrs_define
class GuidanceExample:
    """ One item people judged, shown to the judge as a worked example.

        Attributes:
            verdict (str): The people's verdict, e.g. `fail` or `pass (0.8)`.
            actual_output (None | str | Unset):
            input_ (None | str | Unset):
            rationale (None | str | Unset): Why, in the people's words.
     """

    verdict: str
    actual_output: None | str | Unset = UNSET
    input_: None | str | Unset = UNSET
    rationale: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        verdict = self.verdict

        actual_output: None | str | Unset
        if isinstance(self.actual_output, Unset):
            actual_output = UNSET
        else:
            actual_output = self.actual_output

        input_: None | str | Unset
        if isinstance(self.input_, Unset):
            input_ = UNSET
        else:
            input_ = self.input_

        rationale: None | str | Unset
        if isinstance(self.rationale, Unset):
            rationale = UNSET
        else:
            rationale = self.rationale


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "verdict": verdict,
        })
        if actual_output is not UNSET:
            field_dict["actual_output"] = actual_output
        if input_ is not UNSET:
            field_dict["input"] = input_
        if rationale is not UNSET:
            field_dict["rationale"] = rationale

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        verdict = d.pop("verdict")

        def _parse_actual_output(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actual_output = _parse_actual_output(d.pop("actual_output", UNSET))


        def _parse_input_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        input_ = _parse_input_(d.pop("input", UNSET))


        def _parse_rationale(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rationale = _parse_rationale(d.pop("rationale", UNSET))


        guidance_example = cls(
            verdict=verdict,
            actual_output=actual_output,
            input_=input_,
            rationale=rationale,
        )

        return guidance_example

