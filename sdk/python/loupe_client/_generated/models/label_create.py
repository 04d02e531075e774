from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="LabelCreate")



@_attrs_define
class LabelCreate:
    """ A label for one judged result: named by `result_id`, or by `evaluation_id`,
    `test_case_id` and `metric` (the metric's name) together.

        Attributes:
            value (bool | float): On the metric's own scale (its score range: [0, 1] for most metrics, a score_model's
                `range`), or `true` / `false` for pass / fail.
            evaluation_id (None | str | Unset):
            metric (None | str | Unset): The metric's name.
            rationale (None | str | Unset): Why, in the person's words.
            result_id (None | str | Unset):
            test_case_id (None | str | Unset): The test case's id given at submission.
     """

    value: bool | float
    evaluation_id: None | str | Unset = UNSET
    metric: None | str | Unset = UNSET
    rationale: None | str | Unset = UNSET
    result_id: None | str | Unset = UNSET
    test_case_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        value: bool | float
        value = self.value

        evaluation_id: None | str | Unset
        if isinstance(self.evaluation_id, Unset):
            evaluation_id = UNSET
        else:
            evaluation_id = self.evaluation_id

        metric: None | str | Unset
        if isinstance(self.metric, Unset):
            metric = UNSET
        else:
            metric = self.metric

        rationale: None | str | Unset
        if isinstance(self.rationale, Unset):
            rationale = UNSET
        else:
            rationale = self.rationale

        result_id: None | str | Unset
        if isinstance(self.result_id, Unset):
            result_id = UNSET
        else:
            result_id = self.result_id

        test_case_id: None | str | Unset
        if isinstance(self.test_case_id, Unset):
            test_case_id = UNSET
        else:
            test_case_id = self.test_case_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "value": value,
        })
        if evaluation_id is not UNSET:
            field_dict["evaluation_id"] = evaluation_id
        if metric is not UNSET:
            field_dict["metric"] = metric
        if rationale is not UNSET:
            field_dict["rationale"] = rationale
        if result_id is not UNSET:
            field_dict["result_id"] = result_id
        if test_case_id is not UNSET:
            field_dict["test_case_id"] = test_case_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_value(data: object) -> bool | float:
            return cast(bool | float, data)

        value = _parse_value(d.pop("value"))


        def _parse_evaluation_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        evaluation_id = _parse_evaluation_id(d.pop("evaluation_id", UNSET))


        def _parse_metric(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        metric = _parse_metric(d.pop("metric", UNSET))


        def _parse_rationale(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rationale = _parse_rationale(d.pop("rationale", UNSET))


        def _parse_result_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        result_id = _parse_result_id(d.pop("result_id", UNSET))


        def _parse_test_case_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        test_case_id = _parse_test_case_id(d.pop("test_case_id", UNSET))


        label_create = cls(
            value=value,
            evaluation_id=evaluation_id,
            metric=metric,
            rationale=rationale,
            result_id=result_id,
            test_case_id=test_case_id,
        )

        return label_create

