from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.alignment_decision_type_0 import AlignmentDecisionType0
from ..models.alignment_decision_type_0 import check_alignment_decision_type_0
from ..models.alignment_status import AlignmentStatus
from ..models.alignment_status import check_alignment_status
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.alignment_candidate_metric import AlignmentCandidateMetric
  from ..models.alignment_guidance import AlignmentGuidance
  from ..models.alignment_report import AlignmentReport
  from ..models.alignment_split import AlignmentSplit
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="Alignment")



@_attrs_define
class Alignment:
    """ 
        Attributes:
            active_version (str): The version this alignment leaves active for the metric: the candidate once activated,
                else the parent.
            candidate_metric (AlignmentCandidateMetric): The metric spec of the candidate, guidance included: what a client
                submits to use it once activated (Loupe rewrites no client's metrics).
            candidate_version (str): The version proposed (status `candidate`).
            created_at (datetime.datetime):
            decided_at (datetime.datetime | None):
            decided_by (None | str):
            decision (AlignmentDecisionType0 | None):
            guidance (AlignmentGuidance): What the candidate adds to the prompt: `examples` and `notes`.
            id (str):
            metric_version (str): The version aligned: the candidate's parent.
            notes_usage (UsageTotals):
            report (AlignmentReport | None): Once the judging has completed.
            split (AlignmentSplit): How the labelled items were split (grouped: items sharing an image stay together).
            status (AlignmentStatus): Of the judging of the held-out items (an evaluation of its own).
            usage (UsageTotals):
            webhook_url (None | str): Where its terminal event is sent.
            object_ (Literal['alignment'] | Unset):  Default: 'alignment'.
     """

    active_version: str
    candidate_metric: AlignmentCandidateMetric
    candidate_version: str
    created_at: datetime.datetime
    decided_at: datetime.datetime | None
    decided_by: None | str
    decision: AlignmentDecisionType0 | None
    guidance: AlignmentGuidance
    id: str
    metric_version: str
    notes_usage: UsageTotals
    report: AlignmentReport | None
    split: AlignmentSplit
    status: AlignmentStatus
    usage: UsageTotals
    webhook_url: None | str
    object_: Literal['alignment'] | Unset = 'alignment'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.alignment_candidate_metric import AlignmentCandidateMetric # noqa: PLC0415
        from ..models.alignment_guidance import AlignmentGuidance # noqa: PLC0415
        from ..models.alignment_report import AlignmentReport # noqa: PLC0415
        from ..models.alignment_split import AlignmentSplit # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        active_version = self.active_version

        candidate_metric = self.candidate_metric.to_dict()

        candidate_version = self.candidate_version

        created_at = self.created_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        decided_by: None | str
        decided_by = self.decided_by

        decision: None | str
        if isinstance(self.decision, str):
            decision = self.decision
        else:
            decision = self.decision

        guidance = self.guidance.to_dict()

        id = self.id

        metric_version = self.metric_version

        notes_usage = self.notes_usage.to_dict()

        report: dict[str, Any] | None
        if isinstance(self.report, AlignmentReport):
            report = self.report.to_dict()
        else:
            report = self.report

        split = self.split.to_dict()

        status: str = self.status

        usage = self.usage.to_dict()

        webhook_url: None | str
        webhook_url = self.webhook_url

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "active_version": active_version,
            "candidate_metric": candidate_metric,
            "candidate_version": candidate_version,
            "created_at": created_at,
            "decided_at": decided_at,
            "decided_by": decided_by,
            "decision": decision,
            "guidance": guidance,
            "id": id,
            "metric_version": metric_version,
            "notes_usage": notes_usage,
            "report": report,
            "split": split,
            "status": status,
            "usage": usage,
            "webhook_url": webhook_url,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.alignment_candidate_metric import AlignmentCandidateMetric # noqa: PLC0415
        from ..models.alignment_guidance import AlignmentGuidance # noqa: PLC0415
        from ..models.alignment_report import AlignmentReport # noqa: PLC0415
        from ..models.alignment_split import AlignmentSplit # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
        active_version = d.pop("active_version")

        candidate_metric = AlignmentCandidateMetric.from_dict(d.pop("candidate_metric"))




        candidate_version = d.pop("candidate_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)



                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))


        def _parse_decided_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decided_by = _parse_decided_by(d.pop("decided_by"))


        def _parse_decision(data: object) -> AlignmentDecisionType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_type_0 = check_alignment_decision_type_0(data)



                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AlignmentDecisionType0 | None, data)

        decision = _parse_decision(d.pop("decision"))


        guidance = AlignmentGuidance.from_dict(d.pop("guidance"))




        id = d.pop("id")

        metric_version = d.pop("metric_version")

        notes_usage = UsageTotals.from_dict(d.pop("notes_usage"))




        def _parse_report(data: object) -> AlignmentReport | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                report_type_0 = AlignmentReport.from_dict(data)



                return report_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AlignmentReport | None, data)

        report = _parse_report(d.pop("report"))


        split = AlignmentSplit.from_dict(d.pop("split"))




        status = check_alignment_status(d.pop("status"))




        usage = UsageTotals.from_dict(d.pop("usage"))




        def _parse_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url"))


        object_ = cast(Literal['alignment'] | Unset , d.pop("object", UNSET))
        if object_ != 'alignment'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'alignment', got '{object_}'")

        alignment = cls(
            active_version=active_version,
            candidate_metric=candidate_metric,
            candidate_version=candidate_version,
            created_at=created_at,
            decided_at=decided_at,
            decided_by=decided_by,
            decision=decision,
            guidance=guidance,
            id=id,
            metric_version=metric_version,
            notes_usage=notes_usage,
            report=report,
            split=split,
            status=status,
            usage=usage,
            webhook_url=webhook_url,
            object_=object_,
        )


        alignment.additional_properties = d
        return alignment

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
