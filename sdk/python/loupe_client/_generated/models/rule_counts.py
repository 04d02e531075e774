from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.rule_counts_dropped import RuleCountsDropped
  from ..models.rule_counts_skipped import RuleCountsSkipped





T = TypeVar("T", bound="RuleCounts")



@_attrs_define
class RuleCounts:
    """ What the rule did with the spans it received, since it was created.

        Attributes:
            errored (int): Results stored with an error instead (the judge failed after its retries, or its answer could not
                be read): `sent` times the metrics is `judged` plus `errored` plus the results still being judged.
            judged (int): Results its metrics stored with a score or verdict (a call sent gives one result per metric of the
                rule once its judge answered).
            matched (int): Received calls its filter took: the calls it judges from.
            received (int): The tenant's GenAI calls received while it was enabled, whatever their service: every call the
                rule's filter was applied to, so `received` is the same for rules enabled alike; the calls that reached the rule
                are `matched`.
            sampled (int): Matched calls its sampling chose.
            sent (int): Sampled calls stored as test cases and sent to its judge; for a conversation rule, conversations
                (each one test case of all its calls).
            skipped (RuleCountsSkipped): Sampled calls not judged and matched calls not sampled, by reason: `not_sampled`,
                `no_content` (capture is off, or the texts hidden), `image_withheld` (the instrumentation left the image out),
                `unknown_convention`, `malformed_content`, `invalid_ids`, `call_failed` (the call ended in an error: no answer),
                `over_budget` (the rule's or the tenant's daily budget is spent), `image_refused` (the operator's image policy
                refused it), `day_closed`, `duplicate` (a span the rule already stored, sent again), `missing_fields` (one of
                its metrics needs a field the call does not give, e.g. retrieval_context); for a conversation rule also
                `no_conversation_id` (the call names no `gen_ai.conversation.id` or `session.id`), `conversation_id_dropped` (it
                names none and its span dropped attributes: the SDK's attribute limit evicted the oldest), `unfit_for_metric`
                (no reply to a user message to judge), `rule_disabled` (disabled while it held the conversation) and
                `target_changed` (changed to judge single calls while it held it), counting each of the conversation's calls.
            backfilled (int | Unset): Kept calls its backfills took up, each once however often a window is backfilled, but
                those it had judged already (counted here, not in `received`; `matched`, `sampled`, `sent` and `skipped` count
                them too). Default: 0.
            dropped (RuleCountsDropped | Unset): Images left out of judged turns, by reason.
     """

    errored: int
    judged: int
    matched: int
    received: int
    sampled: int
    sent: int
    skipped: RuleCountsSkipped
    backfilled: int | Unset = 0
    dropped: RuleCountsDropped | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rule_counts_dropped import RuleCountsDropped # noqa: PLC0415
        from ..models.rule_counts_skipped import RuleCountsSkipped # noqa: PLC0415
        errored = self.errored

        judged = self.judged

        matched = self.matched

        received = self.received

        sampled = self.sampled

        sent = self.sent

        skipped = self.skipped.to_dict()

        backfilled = self.backfilled

        dropped: dict[str, Any] | Unset = UNSET
        if not isinstance(self.dropped, Unset):
            dropped = self.dropped.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "errored": errored,
            "judged": judged,
            "matched": matched,
            "received": received,
            "sampled": sampled,
            "sent": sent,
            "skipped": skipped,
        })
        if backfilled is not UNSET:
            field_dict["backfilled"] = backfilled
        if dropped is not UNSET:
            field_dict["dropped"] = dropped

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rule_counts_dropped import RuleCountsDropped # noqa: PLC0415
        from ..models.rule_counts_skipped import RuleCountsSkipped # noqa: PLC0415
        d = dict(src_dict)
        errored = d.pop("errored")

        judged = d.pop("judged")

        matched = d.pop("matched")

        received = d.pop("received")

        sampled = d.pop("sampled")

        sent = d.pop("sent")

        skipped = RuleCountsSkipped.from_dict(d.pop("skipped"))




        backfilled = d.pop("backfilled", UNSET)

        _dropped = d.pop("dropped", UNSET)
        dropped: RuleCountsDropped | Unset
        if isinstance(_dropped,  Unset):
            dropped = UNSET
        else:
            dropped = RuleCountsDropped.from_dict(_dropped)




        rule_counts = cls(
            errored=errored,
            judged=judged,
            matched=matched,
            received=received,
            sampled=sampled,
            sent=sent,
            skipped=skipped,
            backfilled=backfilled,
            dropped=dropped,
        )


        rule_counts.additional_properties = d
        return rule_counts

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
