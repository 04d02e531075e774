from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.backfill_skipped import BackfillSkipped





T = TypeVar("T", bound="Backfill")



@_attrs_define
class Backfill:
    """ What a backfill did: the kept calls it considered, through the rule's filter and
    sampling; those not already judged by the rule are appended to its day and sent to its
    judge. The rule's `counts` take up each kept call once, however often it is backfilled.

        Attributes:
            already_judged (int): Sampled calls the rule has judged already.
            considered (int): Kept calls received in the window (each span once).
            evaluation_id (None | str): The rule's evaluation of today, which the calls judged were appended to.
            matched (int): Considered calls the rule's filter takes.
            next_after (None | str):
            rule_id (str):
            sampled (int): Matched calls its sampling chooses.
            sent (int): Sampled calls appended to the rule's day and sent to its judge.
            since (datetime.datetime):
            skipped (BackfillSkipped): Considered calls not sent, by reason: `not_sampled`, `over_budget`, `day_closed`.
            truncated (bool): More kept calls are in the window than one backfill considers (LOUPE_BACKFILL_MAX_CALLS,
                10,000 by default): send `next_after` as `after` to go on.
            until (datetime.datetime):
            object_ (Literal['online_rule_backfill'] | Unset):  Default: 'online_rule_backfill'.
     """

    already_judged: int
    considered: int
    evaluation_id: None | str
    matched: int
    next_after: None | str
    rule_id: str
    sampled: int
    sent: int
    since: datetime.datetime
    skipped: BackfillSkipped
    truncated: bool
    until: datetime.datetime
    object_: Literal['online_rule_backfill'] | Unset = 'online_rule_backfill'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.backfill_skipped import BackfillSkipped # noqa: PLC0415
        already_judged = self.already_judged

        considered = self.considered

        evaluation_id: None | str
        evaluation_id = self.evaluation_id

        matched = self.matched

        next_after: None | str
        next_after = self.next_after

        rule_id = self.rule_id

        sampled = self.sampled

        sent = self.sent

        since = self.since.isoformat()

        skipped = self.skipped.to_dict()

        truncated = self.truncated

        until = self.until.isoformat()

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "already_judged": already_judged,
            "considered": considered,
            "evaluation_id": evaluation_id,
            "matched": matched,
            "next_after": next_after,
            "rule_id": rule_id,
            "sampled": sampled,
            "sent": sent,
            "since": since,
            "skipped": skipped,
            "truncated": truncated,
            "until": until,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.backfill_skipped import BackfillSkipped # noqa: PLC0415
        d = dict(src_dict)
        already_judged = d.pop("already_judged")

        considered = d.pop("considered")

        def _parse_evaluation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        evaluation_id = _parse_evaluation_id(d.pop("evaluation_id"))


        matched = d.pop("matched")

        def _parse_next_after(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_after = _parse_next_after(d.pop("next_after"))


        rule_id = d.pop("rule_id")

        sampled = d.pop("sampled")

        sent = d.pop("sent")

        since = datetime.datetime.fromisoformat(d.pop("since"))




        skipped = BackfillSkipped.from_dict(d.pop("skipped"))




        truncated = d.pop("truncated")

        until = datetime.datetime.fromisoformat(d.pop("until"))




        object_ = cast(Literal['online_rule_backfill'] | Unset , d.pop("object", UNSET))
        if object_ != 'online_rule_backfill'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'online_rule_backfill', got '{object_}'")

        backfill = cls(
            already_judged=already_judged,
            considered=considered,
            evaluation_id=evaluation_id,
            matched=matched,
            next_after=next_after,
            rule_id=rule_id,
            sampled=sampled,
            sent=sent,
            since=since,
            skipped=skipped,
            truncated=truncated,
            until=until,
            object_=object_,
        )


        backfill.additional_properties = d
        return backfill

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
