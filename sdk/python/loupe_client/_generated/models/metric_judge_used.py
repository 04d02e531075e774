from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.judge_panel_member import JudgePanelMember





T = TypeVar("T", bound="MetricJudgeUsed")



@_attrs_define
class MetricJudgeUsed:
    """ The judge a metric resolved to when it was submitted: one model, or a panel.

        Attributes:
            host (None | str): The judge endpoint's host.
            model (None | str): The model name sent to the judge endpoint.
            model_id (None | str): The tenant's registered model (/v1/models); null: the server's judge.
            panel (list[JudgePanelMember] | None | Unset): A metric judged by a panel (`judge.panel`): every member, in the
                order given; `model`, `model_id` and `host` above then name the first. Null for one judge.
     """

    host: None | str
    model: None | str
    model_id: None | str
    panel: list[JudgePanelMember] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.judge_panel_member import JudgePanelMember # noqa: PLC0415
        host: None | str
        host = self.host

        model: None | str
        model = self.model

        model_id: None | str
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


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "host": host,
            "model": model,
            "model_id": model_id,
        })
        if panel is not UNSET:
            field_dict["panel"] = panel

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.judge_panel_member import JudgePanelMember # noqa: PLC0415
        d = dict(src_dict)
        def _parse_host(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        host = _parse_host(d.pop("host"))


        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))


        def _parse_model_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model_id = _parse_model_id(d.pop("model_id"))


        def _parse_panel(data: object) -> list[JudgePanelMember] | None | Unset:
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
                    panel_type_0_item = JudgePanelMember.from_dict(panel_type_0_item_data)



                    panel_type_0.append(panel_type_0_item)

                return panel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[JudgePanelMember] | None | Unset, data)

        panel = _parse_panel(d.pop("panel", UNSET))


        metric_judge_used = cls(
            host=host,
            model=model,
            model_id=model_id,
            panel=panel,
        )


        metric_judge_used.additional_properties = d
        return metric_judge_used

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
