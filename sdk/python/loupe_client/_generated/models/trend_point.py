from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="TrendPoint")



@_attrs_define
class TrendPoint:
    """ One metric's results of one bucket (a UTC hour or day), read from the rule's rollups.

        Attributes:
            bucket_start (datetime.datetime): The bucket's first instant (UTC).
            count (int): Results stored in the bucket.
            errored (int): Of them, results with an error (no score).
            failed (int):
            mean (float | None): The mean score; null without a scored result.
            mean_ci95 (list[float] | None): 95% interval of the mean, inside the metric's score range; null with `mean_note`
                when there is too little to tell.
            mean_method (None | str): `wilson` when every score is at a bound of the range (from 2 scores), else `t`
                (Student's t from the bucket's sums, clipped to the range, from 10 scores; of no width with `mean_note` when
                they are all equal); null below that, with `mean_note`.
            pass_rate (float | None): passed / (passed + failed); null without one.
            pass_rate_ci95 (list[float] | None): Wilson 95% interval of the pass rate; null below two verdicts.
            passed (int):
            scored (int): Of them, results with a score.
            mean_note (None | str | Unset):
     """

    bucket_start: datetime.datetime
    count: int
    errored: int
    failed: int
    mean: float | None
    mean_ci95: list[float] | None
    mean_method: None | str
    pass_rate: float | None
    pass_rate_ci95: list[float] | None
    passed: int
    scored: int
    mean_note: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bucket_start = self.bucket_start.isoformat()

        count = self.count

        errored = self.errored

        failed = self.failed

        mean: float | None
        mean = self.mean

        mean_ci95: list[float] | None
        if isinstance(self.mean_ci95, list):
            mean_ci95 = []
            for mean_ci95_type_0_item_data in self.mean_ci95:
                mean_ci95_type_0_item: float
                mean_ci95_type_0_item = mean_ci95_type_0_item_data
                mean_ci95.append(mean_ci95_type_0_item)


        else:
            mean_ci95 = self.mean_ci95

        mean_method: None | str
        mean_method = self.mean_method

        pass_rate: float | None
        pass_rate = self.pass_rate

        pass_rate_ci95: list[float] | None
        if isinstance(self.pass_rate_ci95, list):
            pass_rate_ci95 = []
            for pass_rate_ci95_type_0_item_data in self.pass_rate_ci95:
                pass_rate_ci95_type_0_item: float
                pass_rate_ci95_type_0_item = pass_rate_ci95_type_0_item_data
                pass_rate_ci95.append(pass_rate_ci95_type_0_item)


        else:
            pass_rate_ci95 = self.pass_rate_ci95

        passed = self.passed

        scored = self.scored

        mean_note: None | str | Unset
        if isinstance(self.mean_note, Unset):
            mean_note = UNSET
        else:
            mean_note = self.mean_note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bucket_start": bucket_start,
            "count": count,
            "errored": errored,
            "failed": failed,
            "mean": mean,
            "mean_ci95": mean_ci95,
            "mean_method": mean_method,
            "pass_rate": pass_rate,
            "pass_rate_ci95": pass_rate_ci95,
            "passed": passed,
            "scored": scored,
        })
        if mean_note is not UNSET:
            field_dict["mean_note"] = mean_note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bucket_start = datetime.datetime.fromisoformat(d.pop("bucket_start"))




        count = d.pop("count")

        errored = d.pop("errored")

        failed = d.pop("failed")

        def _parse_mean(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean = _parse_mean(d.pop("mean"))


        def _parse_mean_ci95(data: object) -> list[float] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                mean_ci95_type_0 = []
                _mean_ci95_type_0 = data
                for mean_ci95_type_0_item_data in (_mean_ci95_type_0):
                    def _parse_mean_ci95_type_0_item(data: object) -> float:
                        return cast(float, data)

                    mean_ci95_type_0_item = _parse_mean_ci95_type_0_item(mean_ci95_type_0_item_data)

                    mean_ci95_type_0.append(mean_ci95_type_0_item)

                return mean_ci95_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None, data)

        mean_ci95 = _parse_mean_ci95(d.pop("mean_ci95"))


        def _parse_mean_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        mean_method = _parse_mean_method(d.pop("mean_method"))


        def _parse_pass_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate"))


        def _parse_pass_rate_ci95(data: object) -> list[float] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                pass_rate_ci95_type_0 = []
                _pass_rate_ci95_type_0 = data
                for pass_rate_ci95_type_0_item_data in (_pass_rate_ci95_type_0):
                    def _parse_pass_rate_ci95_type_0_item(data: object) -> float:
                        return cast(float, data)

                    pass_rate_ci95_type_0_item = _parse_pass_rate_ci95_type_0_item(pass_rate_ci95_type_0_item_data)

                    pass_rate_ci95_type_0.append(pass_rate_ci95_type_0_item)

                return pass_rate_ci95_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None, data)

        pass_rate_ci95 = _parse_pass_rate_ci95(d.pop("pass_rate_ci95"))


        passed = d.pop("passed")

        scored = d.pop("scored")

        def _parse_mean_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mean_note = _parse_mean_note(d.pop("mean_note", UNSET))


        trend_point = cls(
            bucket_start=bucket_start,
            count=count,
            errored=errored,
            failed=failed,
            mean=mean,
            mean_ci95=mean_ci95,
            mean_method=mean_method,
            pass_rate=pass_rate,
            pass_rate_ci95=pass_rate_ci95,
            passed=passed,
            scored=scored,
            mean_note=mean_note,
        )


        trend_point.additional_properties = d
        return trend_point

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
