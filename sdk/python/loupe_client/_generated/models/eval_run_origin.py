from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="EvalRunOrigin")



@_attrs_define
class EvalRunOrigin:
    """ The OpenAI eval run an evaluation of kind `eval_run` is (`/v1/evals/{eval_id}/runs`).

        Attributes:
            eval_id (str): The eval the run belongs to (`GET /v1/evals/{eval_id}`).
            eval_name (str): The eval's name (empty when it was created without one).
            run_name (None | str): The run's name (also the evaluation's `name`).
     """

    eval_id: str
    eval_name: str
    run_name: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        eval_id = self.eval_id

        eval_name = self.eval_name

        run_name: None | str
        run_name = self.run_name


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "eval_id": eval_id,
            "eval_name": eval_name,
            "run_name": run_name,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        eval_id = d.pop("eval_id")

        eval_name = d.pop("eval_name")

        def _parse_run_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_name = _parse_run_name(d.pop("run_name"))


        eval_run_origin = cls(
            eval_id=eval_id,
            eval_name=eval_name,
            run_name=run_name,
        )


        eval_run_origin.additional_properties = d
        return eval_run_origin

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
