from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.judgment_out_error_type_0 import JudgmentOutErrorType0





T = TypeVar("T", bound="JudgmentOut")



@_attrs_define
class JudgmentOut:
    """ One judge call's verdict on the output.

        Attributes:
            error (JudgmentOutErrorType0 | None): Why this judgment failed (type, message).
            member (int | None): Its panel member's place in `panel`; null: no panel.
            passed (bool | None):
            reason (None | str):
            sample (int): Which of the member's samples (from 0).
            score (float | None):
     """

    error: JudgmentOutErrorType0 | None
    member: int | None
    passed: bool | None
    reason: None | str
    sample: int
    score: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.judgment_out_error_type_0 import JudgmentOutErrorType0 # noqa: PLC0415
        error: dict[str, Any] | None
        if isinstance(self.error, JudgmentOutErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        member: int | None
        member = self.member

        passed: bool | None
        passed = self.passed

        reason: None | str
        reason = self.reason

        sample = self.sample

        score: float | None
        score = self.score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "error": error,
            "member": member,
            "passed": passed,
            "reason": reason,
            "sample": sample,
            "score": score,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.judgment_out_error_type_0 import JudgmentOutErrorType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_error(data: object) -> JudgmentOutErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = JudgmentOutErrorType0.from_dict(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JudgmentOutErrorType0 | None, data)

        error = _parse_error(d.pop("error"))


        def _parse_member(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        member = _parse_member(d.pop("member"))


        def _parse_passed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        passed = _parse_passed(d.pop("passed"))


        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        sample = d.pop("sample")

        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        judgment_out = cls(
            error=error,
            member=member,
            passed=passed,
            reason=reason,
            sample=sample,
            score=score,
        )


        judgment_out.additional_properties = d
        return judgment_out

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
