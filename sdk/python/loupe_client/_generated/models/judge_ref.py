from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.judge_ref_aggregate import check_judge_ref_aggregate
from ..models.judge_ref_aggregate import JudgeRefAggregate
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.panel_member import PanelMember





T = TypeVar("T", bound="JudgeRef")



@_attrs_define
class JudgeRef:
    """ Which judge scores the metric, how many times, and with whom: a model the tenant
    registered (POST /v1/models), K independent samples, a panel of judges.

        Attributes:
            aggregate (JudgeRefAggregate | Unset): How the samples' (and members') scores make the score: `median`, `mean`
                (weighted by members' `weight`), or `majority` (the verdict most weight gave; the score is the median of the
                scores that gave it; a tie fails). Default: 'median'.
            model_id (None | str | Unset): A model from /v1/models; omitted: the evaluation's judge, then the server's
                (LOUPE_JUDGE_*).
            panel (list[PanelMember] | None | Unset): Judges that each score the output (`samples` times each); the result
                keeps every member's score and reason, and the evaluation reports their agreement (Krippendorff's alpha). Not
                with `model_id`.
            samples (int | Unset): Independent judge calls on the same output (per panel member), none answered from the
                judge cache; the score is their `aggregate` and each result carries `stability`. The judge calls and cost are
                multiplied by it. Default: 1.
            temperature (float | None | Unset): The sampling temperature of the calls that judge the output, whether it is
                judged once or more (samples or a panel); calls whose answer items share keep the judge's own. Default: the
                judge's own (usually 0, where samples differ only as much as the provider does).
     """

    aggregate: JudgeRefAggregate | Unset = 'median'
    model_id: None | str | Unset = UNSET
    panel: list[PanelMember] | None | Unset = UNSET
    samples: int | Unset = 1
    temperature: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.panel_member import PanelMember # noqa: PLC0415
        aggregate: str | Unset = UNSET
        if not isinstance(self.aggregate, Unset):
            aggregate = self.aggregate


        model_id: None | str | Unset
        if isinstance(self.model_id, Unset):
            model_id = UNSET
        else:
            model_id = self.model_id

        panel: list[dict[str, Any]] | None | Unset
        if isinstance(self.panel, Unset):
            panel = UNSET
        elif isinstance(self.panel, list):
            panel = []
            for panel_type_0_item_data in self.panel:
                panel_type_0_item = panel_type_0_item_data.to_dict()
                panel.append(panel_type_0_item)


        else:
            panel = self.panel

        samples = self.samples

        temperature: float | None | Unset
        if isinstance(self.temperature, Unset):
            temperature = UNSET
        else:
            temperature = self.temperature


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if aggregate is not UNSET:
            field_dict["aggregate"] = aggregate
        if model_id is not UNSET:
            field_dict["model_id"] = model_id
        if panel is not UNSET:
            field_dict["panel"] = panel
        if samples is not UNSET:
            field_dict["samples"] = samples
        if temperature is not UNSET:
            field_dict["temperature"] = temperature

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.panel_member import PanelMember # noqa: PLC0415
        d = dict(src_dict)
        _aggregate = d.pop("aggregate", UNSET)
        aggregate: JudgeRefAggregate | Unset
        if isinstance(_aggregate,  Unset):
            aggregate = UNSET
        else:
            aggregate = check_judge_ref_aggregate(_aggregate)




        def _parse_model_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model_id = _parse_model_id(d.pop("model_id", UNSET))


        def _parse_panel(data: object) -> list[PanelMember] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                panel_type_0 = []
                _panel_type_0 = data
                for panel_type_0_item_data in (_panel_type_0):
                    panel_type_0_item = PanelMember.from_dict(panel_type_0_item_data)



                    panel_type_0.append(panel_type_0_item)

                return panel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PanelMember] | None | Unset, data)

        panel = _parse_panel(d.pop("panel", UNSET))


        samples = d.pop("samples", UNSET)

        def _parse_temperature(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        temperature = _parse_temperature(d.pop("temperature", UNSET))


        judge_ref = cls(
            aggregate=aggregate,
            model_id=model_id,
            panel=panel,
            samples=samples,
            temperature=temperature,
        )

        return judge_ref

