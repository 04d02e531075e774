from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.judgment_out import JudgmentOut
  from ..models.panel_member_out import PanelMemberOut





T = TypeVar("T", bound="Stability")



@_attrs_define
class Stability:
    """ Every judgment of one output, and whether they agree on the verdict.

        Attributes:
            aggregate (str): How the score was made: median, mean or majority.
            all_passed (bool): Every judgment passed (what pass^k counts).
            errored (int): Judgments that failed (after retries): they do not vote.
            fragile (bool | None): The judgments straddle the threshold: some pass, some fail; null when no judgment was
                made (the result is an error).
            judgments (list[JudgmentOut]):
            panel (list[PanelMemberOut] | None): Per member; null without a panel.
            passed (int): Judgments that reached the threshold.
            samples (int): Judge calls per member (`judge.samples`).
            scored (int):
            scores (list[float | None]): Every judgment's score, member by member.
            spread (float | None): Highest minus lowest score.
            std (float | None): Sample standard deviation of the scores.
            complete (bool | Unset): Every judgment asked for was made (`errored` is 0). Default: True.
            decided_without_judge (bool | Unset): No judge was asked: a rule decided the result (llm_accuracy's
                `rule_first`), once, whatever `samples`. Default: False.
     """

    aggregate: str
    all_passed: bool
    errored: int
    fragile: bool | None
    judgments: list[JudgmentOut]
    panel: list[PanelMemberOut] | None
    passed: int
    samples: int
    scored: int
    scores: list[float | None]
    spread: float | None
    std: float | None
    complete: bool | Unset = True
    decided_without_judge: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.judgment_out import JudgmentOut # noqa: PLC0415
        from ..models.panel_member_out import PanelMemberOut # noqa: PLC0415
        aggregate = self.aggregate

        all_passed = self.all_passed

        errored = self.errored

        fragile: bool | None
        fragile = self.fragile

        judgments = []
        for judgments_item_data in self.judgments:
            judgments_item = judgments_item_data.to_dict()
            judgments.append(judgments_item)



        panel: list[dict[str, Any]] | None
        if isinstance(self.panel, list):
            panel = []
            for panel_type_0_item_data in self.panel:
                panel_type_0_item = panel_type_0_item_data.to_dict()
                panel.append(panel_type_0_item)


        else:
            panel = self.panel

        passed = self.passed

        samples = self.samples

        scored = self.scored

        scores = []
        for scores_item_data in self.scores:
            scores_item: float | None
            scores_item = scores_item_data
            scores.append(scores_item)



        spread: float | None
        spread = self.spread

        std: float | None
        std = self.std

        complete = self.complete

        decided_without_judge = self.decided_without_judge


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "aggregate": aggregate,
            "all_passed": all_passed,
            "errored": errored,
            "fragile": fragile,
            "judgments": judgments,
            "panel": panel,
            "passed": passed,
            "samples": samples,
            "scored": scored,
            "scores": scores,
            "spread": spread,
            "std": std,
        })
        if complete is not UNSET:
            field_dict["complete"] = complete
        if decided_without_judge is not UNSET:
            field_dict["decided_without_judge"] = decided_without_judge

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.judgment_out import JudgmentOut # noqa: PLC0415
        from ..models.panel_member_out import PanelMemberOut # noqa: PLC0415
        d = dict(src_dict)
        aggregate = d.pop("aggregate")

        all_passed = d.pop("all_passed")

        errored = d.pop("errored")

        def _parse_fragile(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        fragile = _parse_fragile(d.pop("fragile"))


        judgments = []
        _judgments = d.pop("judgments")
        for judgments_item_data in (_judgments):
            judgments_item = JudgmentOut.from_dict(judgments_item_data)



            judgments.append(judgments_item)


        def _parse_panel(data: object) -> list[PanelMemberOut] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                panel_type_0 = []
                _panel_type_0 = data
                for panel_type_0_item_data in (_panel_type_0):
                    panel_type_0_item = PanelMemberOut.from_dict(panel_type_0_item_data)



                    panel_type_0.append(panel_type_0_item)

                return panel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PanelMemberOut] | None, data)

        panel = _parse_panel(d.pop("panel"))


        passed = d.pop("passed")

        samples = d.pop("samples")

        scored = d.pop("scored")

        scores = []
        _scores = d.pop("scores")
        for scores_item_data in (_scores):
            def _parse_scores_item(data: object) -> float | None:
                if data is None:
                    return data
                return cast(float | None, data)

            scores_item = _parse_scores_item(scores_item_data)

            scores.append(scores_item)


        def _parse_spread(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        spread = _parse_spread(d.pop("spread"))


        def _parse_std(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        std = _parse_std(d.pop("std"))


        complete = d.pop("complete", UNSET)

        decided_without_judge = d.pop("decided_without_judge", UNSET)

        stability = cls(
            aggregate=aggregate,
            all_passed=all_passed,
            errored=errored,
            fragile=fragile,
            judgments=judgments,
            panel=panel,
            passed=passed,
            samples=samples,
            scored=scored,
            scores=scores,
            spread=spread,
            std=std,
            complete=complete,
            decided_without_judge=decided_without_judge,
        )


        stability.additional_properties = d
        return stability

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
