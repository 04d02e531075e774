from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agreement import Agreement





T = TypeVar("T", bound="StabilitySummary")



@_attrs_define
class StabilitySummary:
    """ A metric judged more than once per test case: how often its judgments disagreed.

        Attributes:
            aggregate (str):
            agreement (Agreement | None): The panel's; null without a panel.
            all_passed (int): Results whose every judgment passed.
            fragile (int): Results whose judgments straddle the threshold.
            members (int | None): Panel members; null without a panel.
            pass_hat_k (float | None): pass^k: `all_passed` / results with a verdict (beside `pass_rate`).
            samples (int):
            incomplete (int | Unset): Results with a verdict some of whose judgments failed (they do not vote): it rests on
                fewer judgments than asked for. A result none of whose judgments was made is an error, counted in the metric's
                `errored` alone. Default: 0.
            self_agreement (Agreement | None | Unset): How far the judge agrees with itself when asked again: Krippendorff's
                alpha (interval level) with each result's samples as its raters (with a panel, each member's samples of each
                result; `raters` is `samples`); null with one sample. Low says one call's verdict is partly a draw.
     """

    aggregate: str
    agreement: Agreement | None
    all_passed: int
    fragile: int
    members: int | None
    pass_hat_k: float | None
    samples: int
    incomplete: int | Unset = 0
    self_agreement: Agreement | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agreement import Agreement # noqa: PLC0415
        aggregate = self.aggregate

        agreement: dict[str, Any] | None
        if isinstance(self.agreement, Agreement):
            agreement = self.agreement.to_dict()
        else:
            agreement = self.agreement

        all_passed = self.all_passed

        fragile = self.fragile

        members: int | None
        members = self.members

        pass_hat_k: float | None
        pass_hat_k = self.pass_hat_k

        samples = self.samples

        incomplete = self.incomplete

        self_agreement: dict[str, Any] | None | Unset
        if isinstance(self.self_agreement, Unset):
            self_agreement = UNSET
        elif isinstance(self.self_agreement, Agreement):
            self_agreement = self.self_agreement.to_dict()
        else:
            self_agreement = self.self_agreement


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "aggregate": aggregate,
            "agreement": agreement,
            "all_passed": all_passed,
            "fragile": fragile,
            "members": members,
            "pass_hat_k": pass_hat_k,
            "samples": samples,
        })
        if incomplete is not UNSET:
            field_dict["incomplete"] = incomplete
        if self_agreement is not UNSET:
            field_dict["self_agreement"] = self_agreement

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agreement import Agreement # noqa: PLC0415
        d = dict(src_dict)
        aggregate = d.pop("aggregate")

        def _parse_agreement(data: object) -> Agreement | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                agreement_type_0 = Agreement.from_dict(data)



                return agreement_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Agreement | None, data)

        agreement = _parse_agreement(d.pop("agreement"))


        all_passed = d.pop("all_passed")

        fragile = d.pop("fragile")

        def _parse_members(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        members = _parse_members(d.pop("members"))


        def _parse_pass_hat_k(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        pass_hat_k = _parse_pass_hat_k(d.pop("pass_hat_k"))


        samples = d.pop("samples")

        incomplete = d.pop("incomplete", UNSET)

        def _parse_self_agreement(data: object) -> Agreement | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                self_agreement_type_0 = Agreement.from_dict(data)



                return self_agreement_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Agreement | None | Unset, data)

        self_agreement = _parse_self_agreement(d.pop("self_agreement", UNSET))


        stability_summary = cls(
            aggregate=aggregate,
            agreement=agreement,
            all_passed=all_passed,
            fragile=fragile,
            members=members,
            pass_hat_k=pass_hat_k,
            samples=samples,
            incomplete=incomplete,
            self_agreement=self_agreement,
        )


        stability_summary.additional_properties = d
        return stability_summary

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
