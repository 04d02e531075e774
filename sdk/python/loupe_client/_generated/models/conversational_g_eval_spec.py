from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.conversational_g_eval_spec_evaluation_params_item import check_conversational_g_eval_spec_evaluation_params_item
from ..models.conversational_g_eval_spec_evaluation_params_item import ConversationalGEvalSpecEvaluationParamsItem
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.guidance import Guidance
  from ..models.judge_ref import JudgeRef
  from ..models.rubric_item import RubricItem





T = TypeVar("T", bound="ConversationalGEvalSpec")



@_attrs_define
class ConversationalGEvalSpec:
    """ 
        Attributes:
            name (str): Results are reported under this name.
            type_ (Literal['conversational_g_eval']):
            criteria (None | str | Unset):
            evaluation_params (list[ConversationalGEvalSpecEvaluationParamsItem] | Unset): What the judge looks at: turn
                fields (content, role, tools_called, retrieval_context) and the conversation's (scenario, expected_outcome,
                chatbot_role, user_description). Each turn's role and content are always shown; a conversation field named here
                must be on every case.
            evaluation_steps (list[str] | None | Unset):
            guidance (Guidance | None | Unset): People's worked examples (`examples`: input, actual_output, their verdict
                and rationale) and rubric `notes`, added to every verdict prompt of the metric; usually proposed by an alignment
                (`POST /v1/alignments`). Part of the metric's version: a spec with guidance is a new version.
            judge (JudgeRef | None | Unset): This metric's own judge, a model registered with POST /v1/models (defaults to
                the evaluation's `judge`, then the server's, LOUPE_JUDGE_*); `samples` to judge each output K times, a `panel`
                of judges.
            model (None | str | Unset): Judge model; defaults to the evaluation's `judge.model`.
            rubric (list[RubricItem] | None | Unset):
            strict_mode (bool | Unset): Binary scoring: threshold becomes 1 and lower scores become 0. Default: False.
            threshold (float | Unset): `passed = score >= threshold`. Default: 0.5.
            top_logprobs (int | Unset):  Default: 20.
     """

    name: str
    type_: Literal['conversational_g_eval']
    criteria: None | str | Unset = UNSET
    evaluation_params: list[ConversationalGEvalSpecEvaluationParamsItem] | Unset = UNSET
    evaluation_steps: list[str] | None | Unset = UNSET
    guidance: Guidance | None | Unset = UNSET
    judge: JudgeRef | None | Unset = UNSET
    model: None | str | Unset = UNSET
    rubric: list[RubricItem] | None | Unset = UNSET
    strict_mode: bool | Unset = False
    threshold: float | Unset = 0.5
    top_logprobs: int | Unset = 20





    def to_dict(self) -> dict[str, Any]:
        from ..models.guidance import Guidance # noqa: PLC0415
        from ..models.judge_ref import JudgeRef # noqa: PLC0415
        from ..models.rubric_item import RubricItem # noqa: PLC0415
        name = self.name

        type_ = self.type_

        criteria: None | str | Unset
        if isinstance(self.criteria, Unset):
            criteria = UNSET
        else:
            criteria = self.criteria

        evaluation_params: list[str] | Unset = UNSET
        if not isinstance(self.evaluation_params, Unset):
            evaluation_params = []
            for evaluation_params_item_data in self.evaluation_params:
                evaluation_params_item: str = evaluation_params_item_data
                evaluation_params.append(evaluation_params_item)



        evaluation_steps: list[str] | None | Unset
        if isinstance(self.evaluation_steps, Unset):
            evaluation_steps = UNSET
        elif isinstance(self.evaluation_steps, list):
            evaluation_steps = self.evaluation_steps


        else:
            evaluation_steps = self.evaluation_steps

        guidance: dict[str, Any] | None | Unset
        if isinstance(self.guidance, Unset):
            guidance = UNSET
        elif isinstance(self.guidance, Guidance):
            guidance = self.guidance.to_dict()
        else:
            guidance = self.guidance

        judge: dict[str, Any] | None | Unset
        if isinstance(self.judge, Unset):
            judge = UNSET
        elif isinstance(self.judge, JudgeRef):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        rubric: list[dict[str, Any]] | None | Unset
        if isinstance(self.rubric, Unset):
            rubric = UNSET
        elif isinstance(self.rubric, list):
            rubric = []
            for rubric_type_0_item_data in self.rubric:
                rubric_type_0_item = rubric_type_0_item_data.to_dict()
                rubric.append(rubric_type_0_item)


        else:
            rubric = self.rubric

        strict_mode = self.strict_mode

        threshold = self.threshold

        top_logprobs = self.top_logprobs


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "type": type_,
        })
        if criteria is not UNSET:
            field_dict["criteria"] = criteria
        if evaluation_params is not UNSET:
            field_dict["evaluation_params"] = evaluation_params
        if evaluation_steps is not UNSET:
            field_dict["evaluation_steps"] = evaluation_steps
        if guidance is not UNSET:
            field_dict["guidance"] = guidance
        if judge is not UNSET:
            field_dict["judge"] = judge
        if model is not UNSET:
            field_dict["model"] = model
        if rubric is not UNSET:
            field_dict["rubric"] = rubric
        if strict_mode is not UNSET:
            field_dict["strict_mode"] = strict_mode
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if top_logprobs is not UNSET:
            field_dict["top_logprobs"] = top_logprobs

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.guidance import Guidance # noqa: PLC0415
        from ..models.judge_ref import JudgeRef # noqa: PLC0415
        from ..models.rubric_item import RubricItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        type_ = cast(Literal['conversational_g_eval'] , d.pop("type"))
        if type_ != 'conversational_g_eval':
            raise ValueError(f"type must match const 'conversational_g_eval', got '{type_}'")

        def _parse_criteria(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        criteria = _parse_criteria(d.pop("criteria", UNSET))


        _evaluation_params = d.pop("evaluation_params", UNSET)
        evaluation_params: list[ConversationalGEvalSpecEvaluationParamsItem] | Unset = UNSET
        if _evaluation_params is not UNSET:
            evaluation_params = []
            for evaluation_params_item_data in _evaluation_params:
                evaluation_params_item = check_conversational_g_eval_spec_evaluation_params_item(evaluation_params_item_data)



                evaluation_params.append(evaluation_params_item)


        def _parse_evaluation_steps(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                evaluation_steps_type_0 = cast(list[str], data)

                return evaluation_steps_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        evaluation_steps = _parse_evaluation_steps(d.pop("evaluation_steps", UNSET))


        def _parse_guidance(data: object) -> Guidance | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                guidance_type_0 = Guidance.from_dict(data)



                return guidance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Guidance | None | Unset, data)

        guidance = _parse_guidance(d.pop("guidance", UNSET))


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


        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_rubric(data: object) -> list[RubricItem] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                rubric_type_0 = []
                _rubric_type_0 = data
                for rubric_type_0_item_data in (_rubric_type_0):
                    rubric_type_0_item = RubricItem.from_dict(rubric_type_0_item_data)



                    rubric_type_0.append(rubric_type_0_item)

                return rubric_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RubricItem] | None | Unset, data)

        rubric = _parse_rubric(d.pop("rubric", UNSET))


        strict_mode = d.pop("strict_mode", UNSET)

        threshold = d.pop("threshold", UNSET)

        top_logprobs = d.pop("top_logprobs", UNSET)

        conversational_g_eval_spec = cls(
            name=name,
            type_=type_,
            criteria=criteria,
            evaluation_params=evaluation_params,
            evaluation_steps=evaluation_steps,
            guidance=guidance,
            judge=judge,
            model=model,
            rubric=rubric,
            strict_mode=strict_mode,
            threshold=threshold,
            top_logprobs=top_logprobs,
        )

        return conversational_g_eval_spec

