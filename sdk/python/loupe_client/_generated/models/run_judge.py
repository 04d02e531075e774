from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_judge_strategy import check_run_judge_strategy
from ..models.run_judge_strategy import RunJudgeStrategy
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunJudge")



@_attrs_define
class RunJudge:
    """ 
        Attributes:
            model (None | str | Unset):
            model_id (None | str | Unset): A model registered with POST /v1/models to call as the judge (its own endpoint
                and key); without it, the server's judge (LOUPE_JUDGE_*).
            strategy (RunJudgeStrategy | Unset): `rule`: BLEU/ROUGE (VQA) or answer extraction (MCQ). `llm`: also a judge's
                A/B verdict (`acc`). `llm_recall`: `acc` is the rule score (ROUGE-L recall for VQA, the extracted answer's
                accuracy for MCQ) when above 0.99, else the judge is asked and `acc` is the better of the two. Default: 'rule'.
     """

    model: None | str | Unset = UNSET
    model_id: None | str | Unset = UNSET
    strategy: RunJudgeStrategy | Unset = 'rule'





    def to_dict(self) -> dict[str, Any]:
        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        model_id: None | str | Unset
        if isinstance(self.model_id, Unset):
            model_id = UNSET
        else:
            model_id = self.model_id

        strategy: str | Unset = UNSET
        if not isinstance(self.strategy, Unset):
            strategy = self.strategy



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if model is not UNSET:
            field_dict["model"] = model
        if model_id is not UNSET:
            field_dict["model_id"] = model_id
        if strategy is not UNSET:
            field_dict["strategy"] = strategy

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_model_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model_id = _parse_model_id(d.pop("model_id", UNSET))


        _strategy = d.pop("strategy", UNSET)
        strategy: RunJudgeStrategy | Unset
        if isinstance(_strategy,  Unset):
            strategy = UNSET
        else:
            strategy = check_run_judge_strategy(_strategy)




        run_judge = cls(
            model=model,
            model_id=model_id,
            strategy=strategy,
        )

        return run_judge

