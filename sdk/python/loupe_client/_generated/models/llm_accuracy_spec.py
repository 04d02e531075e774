from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.llm_accuracy_spec_rule import check_llm_accuracy_spec_rule
from ..models.llm_accuracy_spec_rule import LlmAccuracySpecRule
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.judge_ref import JudgeRef





T = TypeVar("T", bound="LlmAccuracySpec")



@_attrs_define
class LlmAccuracySpec:
    """ 
        Attributes:
            type_ (Literal['llm_accuracy']):
            judge (JudgeRef | None | Unset): This metric's own judge, a model registered with POST /v1/models (defaults to
                the evaluation's `judge`, then the server's, LOUPE_JUDGE_*); `samples` to judge each output K times, a `panel`
                of judges.
            labels (list[str] | Unset): With `rule: choice_accuracy`, the valid answer labels; a test case's
                `metadata.labels` overrides them.
            model (None | str | Unset): Judge model; defaults to the evaluation's `judge.model`.
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            rule (LlmAccuracySpecRule | Unset): The rule score `rule_first` uses: `rouge` is ROUGE-L recall (General-VQA),
                `choice_accuracy` the accuracy of the answer label extracted from actual_output (multiple choice). Default:
                'rouge'.
            rule_first (bool | Unset): EvalScope's `llm_recall`: keep the rule score when above 0.99 (no judge call), else
                score max(rule score, judge). Default: False.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
     """

    type_: Literal['llm_accuracy']
    judge: JudgeRef | None | Unset = UNSET
    labels: list[str] | Unset = UNSET
    model: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    rule: LlmAccuracySpecRule | Unset = 'rouge'
    rule_first: bool | Unset = False
    threshold: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        from ..models.judge_ref import JudgeRef # noqa: PLC0415
        type_ = self.type_

        judge: dict[str, Any] | None | Unset
        if isinstance(self.judge, Unset):
            judge = UNSET
        elif isinstance(self.judge, JudgeRef):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        labels: list[str] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels



        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        rule: str | Unset = UNSET
        if not isinstance(self.rule, Unset):
            rule = self.rule


        rule_first = self.rule_first

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if judge is not UNSET:
            field_dict["judge"] = judge
        if labels is not UNSET:
            field_dict["labels"] = labels
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if rule is not UNSET:
            field_dict["rule"] = rule
        if rule_first is not UNSET:
            field_dict["rule_first"] = rule_first
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.judge_ref import JudgeRef # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['llm_accuracy'] , d.pop("type"))
        if type_ != 'llm_accuracy':
            raise ValueError(f"type must match const 'llm_accuracy', got '{type_}'")

        def _parse_judge(data: object) -> JudgeRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                judge_type_0 = JudgeRef.from_dict(data)



                return judge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JudgeRef | None | Unset, data)

        judge = _parse_judge(d.pop("judge", UNSET))


        labels = cast(list[str], d.pop("labels", UNSET))


        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        _rule = d.pop("rule", UNSET)
        rule: LlmAccuracySpecRule | Unset
        if isinstance(_rule,  Unset):
            rule = UNSET
        else:
            rule = check_llm_accuracy_spec_rule(_rule)




        rule_first = d.pop("rule_first", UNSET)

        threshold = d.pop("threshold", UNSET)

        llm_accuracy_spec = cls(
            type_=type_,
            judge=judge,
            labels=labels,
            model=model,
            name=name,
            rule=rule,
            rule_first=rule_first,
            threshold=threshold,
        )

        return llm_accuracy_spec

