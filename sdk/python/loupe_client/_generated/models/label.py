from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.label_selection import check_label_selection
from ..models.label_selection import LabelSelection
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime






T = TypeVar("T", bound="Label")



@_attrs_define
class Label:
    """ 
        Attributes:
            actor (str): Who gave it: `person:<id>` or `key:<id>`.
            actor_name (None | str): The person's email, or the API key's name.
            created_at (datetime.datetime):
            evaluation_id (None | str):
            id (str):
            item_key (str): sha256 of the judged test case's content: the same content in another evaluation (a re-run) has
                the same key, and shows this label.
            judge_passed (bool | None): The judge's pass / fail when the label was given (null as judge_score).
            judge_score (float | None): The judge's score when the label was given (null in POST /v1/labels' answer to a
                caller without `read`).
            metric (str):
            metric_version (str): The metric version the label is bound to.
            passed (bool | None): The person's pass/fail: given, or the value against the threshold.
            queue_id (None | str): The review queue it was labelled in, if any.
            rationale (None | str):
            result_id (None | str): The result it was given on (may since be gone).
            selection (LabelSelection): How the item came to be labelled: `direct` (posted or imported), `random` (a review
                queue's audit share) or `routed` (a queue picked it near the threshold, fragile or among the lowest: not a
                random sample, so calibrated means leave it out).
            test_case_id (None | str):
            threshold (float | None):
            updated_at (datetime.datetime):
            value (float | None): The person's value; null for a pass/fail label.
            object_ (Literal['label'] | Unset):  Default: 'label'.
     """

    actor: str
    actor_name: None | str
    created_at: datetime.datetime
    evaluation_id: None | str
    id: str
    item_key: str
    judge_passed: bool | None
    judge_score: float | None
    metric: str
    metric_version: str
    passed: bool | None
    queue_id: None | str
    rationale: None | str
    result_id: None | str
    selection: LabelSelection
    test_case_id: None | str
    threshold: float | None
    updated_at: datetime.datetime
    value: float | None
    object_: Literal['label'] | Unset = 'label'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        actor = self.actor

        actor_name: None | str
        actor_name = self.actor_name

        created_at = self.created_at.isoformat()

        evaluation_id: None | str
        evaluation_id = self.evaluation_id

        id = self.id

        item_key = self.item_key

        judge_passed: bool | None
        judge_passed = self.judge_passed

        judge_score: float | None
        judge_score = self.judge_score

        metric = self.metric

        metric_version = self.metric_version

        passed: bool | None
        passed = self.passed

        queue_id: None | str
        queue_id = self.queue_id

        rationale: None | str
        rationale = self.rationale

        result_id: None | str
        result_id = self.result_id

        selection: str = self.selection

        test_case_id: None | str
        test_case_id = self.test_case_id

        threshold: float | None
        threshold = self.threshold

        updated_at = self.updated_at.isoformat()

        value: float | None
        value = self.value

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actor": actor,
            "actor_name": actor_name,
            "created_at": created_at,
            "evaluation_id": evaluation_id,
            "id": id,
            "item_key": item_key,
            "judge_passed": judge_passed,
            "judge_score": judge_score,
            "metric": metric,
            "metric_version": metric_version,
            "passed": passed,
            "queue_id": queue_id,
            "rationale": rationale,
            "result_id": result_id,
            "selection": selection,
            "test_case_id": test_case_id,
            "threshold": threshold,
            "updated_at": updated_at,
            "value": value,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        actor = d.pop("actor")

        def _parse_actor_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_name = _parse_actor_name(d.pop("actor_name"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_evaluation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        evaluation_id = _parse_evaluation_id(d.pop("evaluation_id"))


        id = d.pop("id")

        item_key = d.pop("item_key")

        def _parse_judge_passed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        judge_passed = _parse_judge_passed(d.pop("judge_passed"))


        def _parse_judge_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        judge_score = _parse_judge_score(d.pop("judge_score"))


        metric = d.pop("metric")

        metric_version = d.pop("metric_version")

        def _parse_passed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        passed = _parse_passed(d.pop("passed"))


        def _parse_queue_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        queue_id = _parse_queue_id(d.pop("queue_id"))


        def _parse_rationale(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rationale = _parse_rationale(d.pop("rationale"))


        def _parse_result_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result_id = _parse_result_id(d.pop("result_id"))


        selection = check_label_selection(d.pop("selection"))




        def _parse_test_case_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        test_case_id = _parse_test_case_id(d.pop("test_case_id"))


        def _parse_threshold(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        threshold = _parse_threshold(d.pop("threshold"))


        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))


        object_ = cast(Literal['label'] | Unset , d.pop("object", UNSET))
        if object_ != 'label'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'label', got '{object_}'")

        label = cls(
            actor=actor,
            actor_name=actor_name,
            created_at=created_at,
            evaluation_id=evaluation_id,
            id=id,
            item_key=item_key,
            judge_passed=judge_passed,
            judge_score=judge_score,
            metric=metric,
            metric_version=metric_version,
            passed=passed,
            queue_id=queue_id,
            rationale=rationale,
            result_id=result_id,
            selection=selection,
            test_case_id=test_case_id,
            threshold=threshold,
            updated_at=updated_at,
            value=value,
            object_=object_,
        )


        label.additional_properties = d
        return label

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
