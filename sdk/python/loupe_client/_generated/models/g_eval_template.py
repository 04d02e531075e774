from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GEvalTemplate")



@_attrs_define
class GEvalTemplate:
    """ Your own wording for the three prompts; `{name}` placeholders are filled in.

        Attributes:
            results (None | str | Unset): Placeholders: {steps}, {rubric}, {parameters}, {score_min}, {score_max},
                {test_case} (where the test case goes; appended when absent).
            steps (None | str | Unset): Placeholders: {criteria}, {parameters}.
            strict_results (None | str | Unset): Placeholders: {steps}, {parameters}, {test_case}.
     """

    results: None | str | Unset = UNSET
    steps: None | str | Unset = UNSET
    strict_results: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        results: None | str | Unset
        if isinstance(self.results, Unset):
            results = UNSET
        else:
            results = self.results

        steps: None | str | Unset
        if isinstance(self.steps, Unset):
            steps = UNSET
        else:
            steps = self.steps

        strict_results: None | str | Unset
        if isinstance(self.strict_results, Unset):
            strict_results = UNSET
        else:
            strict_results = self.strict_results


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if results is not UNSET:
            field_dict["results"] = results
        if steps is not UNSET:
            field_dict["steps"] = steps
        if strict_results is not UNSET:
            field_dict["strict_results"] = strict_results

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_results(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        results = _parse_results(d.pop("results", UNSET))


        def _parse_steps(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        steps = _parse_steps(d.pop("steps", UNSET))


        def _parse_strict_results(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        strict_results = _parse_strict_results(d.pop("strict_results", UNSET))


        g_eval_template = cls(
            results=results,
            steps=steps,
            strict_results=strict_results,
        )

        return g_eval_template

