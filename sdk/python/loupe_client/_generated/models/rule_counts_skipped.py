from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RuleCountsSkipped")



@_attrs_define
class RuleCountsSkipped:
    """ Sampled calls not judged and matched calls not sampled, by reason: `not_sampled`, `no_content` (capture is off, or
    the texts hidden), `image_withheld` (the instrumentation left the image out), `unknown_convention`,
    `malformed_content`, `invalid_ids`, `call_failed` (the call ended in an error: no answer), `over_budget` (the rule's
    or the tenant's daily budget is spent), `image_refused` (the operator's image policy refused it), `day_closed`,
    `duplicate` (a span the rule already stored, sent again), `missing_fields` (one of its metrics needs a field the
    call does not give, e.g. retrieval_context); for a conversation rule also `no_conversation_id` (the call names no
    `gen_ai.conversation.id` or `session.id`), `conversation_id_dropped` (it names none and its span dropped attributes:
    the SDK's attribute limit evicted the oldest), `unfit_for_metric` (no reply to a user message to judge),
    `rule_disabled` (disabled while it held the conversation) and `target_changed` (changed to judge single calls while
    it held it), counting each of the conversation's calls.

     """

    additional_properties: dict[str, int] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        
        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rule_counts_skipped = cls(
        )


        rule_counts_skipped.additional_properties = d
        return rule_counts_skipped

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> int:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
