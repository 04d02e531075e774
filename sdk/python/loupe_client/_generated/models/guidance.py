from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.guidance_example import GuidanceExample





T = TypeVar("T", bound="Guidance")



@_attrs_define
class Guidance:
    """ Worked examples and rubric notes added to the metric's verdict prompts.

        Attributes:
            examples (list[GuidanceExample] | Unset):
            notes (None | str | Unset):
     """

    examples: list[GuidanceExample] | Unset = UNSET
    notes: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.guidance_example import GuidanceExample # noqa: PLC0415
        examples: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.examples, Unset):
            examples = []
            for examples_item_data in self.examples:
                examples_item = examples_item_data.to_dict()
                examples.append(examples_item)



        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if examples is not UNSET:
            field_dict["examples"] = examples
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.guidance_example import GuidanceExample # noqa: PLC0415
        d = dict(src_dict)
        _examples = d.pop("examples", UNSET)
        examples: list[GuidanceExample] | Unset = UNSET
        if _examples is not UNSET:
            examples = []
            for examples_item_data in _examples:
                examples_item = GuidanceExample.from_dict(examples_item_data)



                examples.append(examples_item)


        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))


        guidance = cls(
            examples=examples,
            notes=notes,
        )

        return guidance

