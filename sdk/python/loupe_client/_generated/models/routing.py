from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.lowest import Lowest
  from ..models.near_threshold import NearThreshold





T = TypeVar("T", bound="Routing")



@_attrs_define
class Routing:
    """ Which items are offered: each routed reason picks items, and `audit_share` adds a random
    share of the rest (seeded per item: the same item is always in or out).

        Attributes:
            audit_share (float | Unset): A random share of the items no routed reason picked. Default: 0.0.
            fragile (bool | Unset): Items whose judgments straddle the threshold (`result.fragile`). Default: False.
            lowest (Lowest | None | Unset):
            near_threshold (NearThreshold | None | Unset):
     """

    audit_share: float | Unset = 0.0
    fragile: bool | Unset = False
    lowest: Lowest | None | Unset = UNSET
    near_threshold: NearThreshold | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.lowest import Lowest # noqa: PLC0415
        from ..models.near_threshold import NearThreshold # noqa: PLC0415
        audit_share = self.audit_share

        fragile = self.fragile

        lowest: dict[str, Any] | None | Unset
        if isinstance(self.lowest, Unset):
            lowest = UNSET
        elif isinstance(self.lowest, Lowest):
            lowest = self.lowest.to_dict()
        else:
            lowest = self.lowest

        near_threshold: dict[str, Any] | None | Unset
        if isinstance(self.near_threshold, Unset):
            near_threshold = UNSET
        elif isinstance(self.near_threshold, NearThreshold):
            near_threshold = self.near_threshold.to_dict()
        else:
            near_threshold = self.near_threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if audit_share is not UNSET:
            field_dict["audit_share"] = audit_share
        if fragile is not UNSET:
            field_dict["fragile"] = fragile
        if lowest is not UNSET:
            field_dict["lowest"] = lowest
        if near_threshold is not UNSET:
            field_dict["near_threshold"] = near_threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lowest import Lowest # noqa: PLC0415
        from ..models.near_threshold import NearThreshold # noqa: PLC0415
        d = dict(src_dict)
        audit_share = d.pop("audit_share", UNSET)

        fragile = d.pop("fragile", UNSET)

        def _parse_lowest(data: object) -> Lowest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                lowest_type_0 = Lowest.from_dict(data)



                return lowest_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Lowest | None | Unset, data)

        lowest = _parse_lowest(d.pop("lowest", UNSET))


        def _parse_near_threshold(data: object) -> NearThreshold | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                near_threshold_type_0 = NearThreshold.from_dict(data)



                return near_threshold_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NearThreshold | None | Unset, data)

        near_threshold = _parse_near_threshold(d.pop("near_threshold", UNSET))


        routing = cls(
            audit_share=audit_share,
            fragile=fragile,
            lowest=lowest,
            near_threshold=near_threshold,
        )

        return routing

