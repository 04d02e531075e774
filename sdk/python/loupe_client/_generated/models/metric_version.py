from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.metric_version_status import check_metric_version_status
from ..models.metric_version_status import MetricVersionStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.metric_version_definition import MetricVersionDefinition





T = TypeVar("T", bound="MetricVersion")



@_attrs_define
class MetricVersion:
    """ 
        Attributes:
            created_at (datetime.datetime):
            definition (MetricVersionDefinition): Exactly what was hashed: `type`, `options` (what the prompt and scoring
                read, defaults left out) and `judge` (model or panel, and samples, aggregate and temperature when judged more
                than once). The threshold is not part of it.
            id (str): `mv_` and 24 hex digits of sha256(tenant id, canonical `definition`).
            name (str): The metric's name when the version was first seen.
            parent_id (None | str): The version an alignment derived this one from; null for one a submission made.
            status (MetricVersionStatus):
            type_ (str): The metric's type, e.g. `g_eval`.
            object_ (Literal['metric_version'] | Unset):  Default: 'metric_version'.
     """

    created_at: datetime.datetime
    definition: MetricVersionDefinition
    id: str
    name: str
    parent_id: None | str
    status: MetricVersionStatus
    type_: str
    object_: Literal['metric_version'] | Unset = 'metric_version'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metric_version_definition import MetricVersionDefinition # noqa: PLC0415
        created_at = self.created_at.isoformat()

        definition = self.definition.to_dict()

        id = self.id

        name = self.name

        parent_id: None | str
        parent_id = self.parent_id

        status: str = self.status

        type_ = self.type_

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "definition": definition,
            "id": id,
            "name": name,
            "parent_id": parent_id,
            "status": status,
            "type": type_,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metric_version_definition import MetricVersionDefinition # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        definition = MetricVersionDefinition.from_dict(d.pop("definition"))




        id = d.pop("id")

        name = d.pop("name")

        def _parse_parent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        parent_id = _parse_parent_id(d.pop("parent_id"))


        status = check_metric_version_status(d.pop("status"))




        type_ = d.pop("type")

        object_ = cast(Literal['metric_version'] | Unset , d.pop("object", UNSET))
        if object_ != 'metric_version'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'metric_version', got '{object_}'")

        metric_version = cls(
            created_at=created_at,
            definition=definition,
            id=id,
            name=name,
            parent_id=parent_id,
            status=status,
            type_=type_,
            object_=object_,
        )


        metric_version.additional_properties = d
        return metric_version

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
