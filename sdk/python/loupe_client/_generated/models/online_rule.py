from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.online_rule_target import check_online_rule_target
from ..models.online_rule_target import OnlineRuleTarget
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.alert import Alert
  from ..models.condition import Condition
  from ..models.judge_config import JudgeConfig
  from ..models.online_rule_metrics_item import OnlineRuleMetricsItem
  from ..models.rule_counts import RuleCounts
  from ..models.sampling import Sampling





T = TypeVar("T", bound="OnlineRule")



@_attrs_define
class OnlineRule:
    """ 
        Attributes:
            alert (Alert | None):
            counts (RuleCounts): What the rule did with the spans it received, since it was created.
            created_at (datetime.datetime):
            daily_usd (float | None):
            enabled (bool):
            export_endpoint (None | str): OTLP/HTTP base URL its scores are sent to as OpenTelemetry
                `gen_ai.evaluation.result` log records (`/v1/logs` is appended), under the webhook address policy; none: the
                server's `LOUPE_OTLP_EXPORT_ENDPOINT`, if set.
            export_header_names (list[str]): The names of the `export_headers` sent to `export_endpoint`; their values are
                stored encrypted and never returned.
            filter_ (list[Condition]):
            id (str):
            judge (JudgeConfig | None):
            metrics (list[OnlineRuleMetricsItem]):
            name (str):
            sampling (Sampling): Which matching calls are judged: a share of traces, chosen by their trace id, so every
                API process samples a trace the same way and a trace's calls are judged together.
            target (OnlineRuleTarget):
            updated_at (datetime.datetime):
            warnings (list[str]): What the rule asks that is not done as asked, in words: `daily_usd` is not enforced while
                a judge model of its metrics has no price in LOUPE_MODEL_PRICES; scores are not exported while its
                `export_headers` cannot be decrypted (the server's LOUPE_SECRET_KEY changed since they were stored: set them
                again).
            object_ (Literal['online_rule'] | Unset):  Default: 'online_rule'.
     """

    alert: Alert | None
    counts: RuleCounts
    created_at: datetime.datetime
    daily_usd: float | None
    enabled: bool
    export_endpoint: None | str
    export_header_names: list[str]
    filter_: list[Condition]
    id: str
    judge: JudgeConfig | None
    metrics: list[OnlineRuleMetricsItem]
    name: str
    sampling: Sampling
    target: OnlineRuleTarget
    updated_at: datetime.datetime
    warnings: list[str]
    object_: Literal['online_rule'] | Unset = 'online_rule'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.alert import Alert # noqa: PLC0415
        from ..models.condition import Condition # noqa: PLC0415
        from ..models.judge_config import JudgeConfig # noqa: PLC0415
        from ..models.online_rule_metrics_item import OnlineRuleMetricsItem # noqa: PLC0415
        from ..models.rule_counts import RuleCounts # noqa: PLC0415
        from ..models.sampling import Sampling # noqa: PLC0415
        alert: dict[str, Any] | None
        if isinstance(self.alert, Alert):
            alert = self.alert.to_dict()
        else:
            alert = self.alert

        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        daily_usd: float | None
        daily_usd = self.daily_usd

        enabled = self.enabled

        export_endpoint: None | str
        export_endpoint = self.export_endpoint

        export_header_names = self.export_header_names



        filter_ = []
        for filter_item_data in self.filter_:
            filter_item = filter_item_data.to_dict()
            filter_.append(filter_item)



        id = self.id

        judge: dict[str, Any] | None
        if isinstance(self.judge, JudgeConfig):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)



        name = self.name

        sampling = self.sampling.to_dict()

        target: str = self.target

        updated_at = self.updated_at.isoformat()

        warnings = self.warnings



        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "alert": alert,
            "counts": counts,
            "created_at": created_at,
            "daily_usd": daily_usd,
            "enabled": enabled,
            "export_endpoint": export_endpoint,
            "export_header_names": export_header_names,
            "filter": filter_,
            "id": id,
            "judge": judge,
            "metrics": metrics,
            "name": name,
            "sampling": sampling,
            "target": target,
            "updated_at": updated_at,
            "warnings": warnings,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.alert import Alert # noqa: PLC0415
        from ..models.condition import Condition # noqa: PLC0415
        from ..models.judge_config import JudgeConfig # noqa: PLC0415
        from ..models.online_rule_metrics_item import OnlineRuleMetricsItem # noqa: PLC0415
        from ..models.rule_counts import RuleCounts # noqa: PLC0415
        from ..models.sampling import Sampling # noqa: PLC0415
        d = dict(src_dict)
        def _parse_alert(data: object) -> Alert | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                alert_type_0 = Alert.from_dict(data)



                return alert_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Alert | None, data)

        alert = _parse_alert(d.pop("alert"))


        counts = RuleCounts.from_dict(d.pop("counts"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_daily_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        daily_usd = _parse_daily_usd(d.pop("daily_usd"))


        enabled = d.pop("enabled")

        def _parse_export_endpoint(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        export_endpoint = _parse_export_endpoint(d.pop("export_endpoint"))


        export_header_names = cast(list[str], d.pop("export_header_names"))


        filter_ = []
        _filter_ = d.pop("filter")
        for filter_item_data in (_filter_):
            filter_item = Condition.from_dict(filter_item_data)



            filter_.append(filter_item)


        id = d.pop("id")

        def _parse_judge(data: object) -> JudgeConfig | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                judge_type_0 = JudgeConfig.from_dict(data)



                return judge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JudgeConfig | None, data)

        judge = _parse_judge(d.pop("judge"))


        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = OnlineRuleMetricsItem.from_dict(metrics_item_data)



            metrics.append(metrics_item)


        name = d.pop("name")

        sampling = Sampling.from_dict(d.pop("sampling"))




        target = check_online_rule_target(d.pop("target"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        warnings = cast(list[str], d.pop("warnings"))


        object_ = cast(Literal['online_rule'] | Unset , d.pop("object", UNSET))
        if object_ != 'online_rule'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'online_rule', got '{object_}'")

        online_rule = cls(
            alert=alert,
            counts=counts,
            created_at=created_at,
            daily_usd=daily_usd,
            enabled=enabled,
            export_endpoint=export_endpoint,
            export_header_names=export_header_names,
            filter_=filter_,
            id=id,
            judge=judge,
            metrics=metrics,
            name=name,
            sampling=sampling,
            target=target,
            updated_at=updated_at,
            warnings=warnings,
            object_=object_,
        )


        online_rule.additional_properties = d
        return online_rule

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
