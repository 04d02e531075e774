from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.eval_data_source_config import EvalDataSourceConfig
  from ..models.eval_metadata_type_0 import EvalMetadataType0
  from ..models.eval_testing_criteria_item import EvalTestingCriteriaItem





T = TypeVar("T", bound="Eval")



@_attrs_define
class Eval:
    """ 
        Attributes:
            created_at (int):
            data_source_config (EvalDataSourceConfig):
            id (str):
            metadata (EvalMetadataType0 | None):
            name (str):
            testing_criteria (list[EvalTestingCriteriaItem]):
            object_ (Literal['eval'] | Unset):  Default: 'eval'.
     """

    created_at: int
    data_source_config: EvalDataSourceConfig
    id: str
    metadata: EvalMetadataType0 | None
    name: str
    testing_criteria: list[EvalTestingCriteriaItem]
    object_: Literal['eval'] | Unset = 'eval'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.eval_data_source_config import EvalDataSourceConfig # noqa: PLC0415
        from ..models.eval_metadata_type_0 import EvalMetadataType0 # noqa: PLC0415
        from ..models.eval_testing_criteria_item import EvalTestingCriteriaItem # noqa: PLC0415
        created_at = self.created_at

        data_source_config = self.data_source_config.to_dict()

        id = self.id

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, EvalMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name = self.name

        testing_criteria = []
        for testing_criteria_item_data in self.testing_criteria:
            testing_criteria_item = testing_criteria_item_data.to_dict()
            testing_criteria.append(testing_criteria_item)



        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "data_source_config": data_source_config,
            "id": id,
            "metadata": metadata,
            "name": name,
            "testing_criteria": testing_criteria,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.eval_data_source_config import EvalDataSourceConfig # noqa: PLC0415
        from ..models.eval_metadata_type_0 import EvalMetadataType0 # noqa: PLC0415
        from ..models.eval_testing_criteria_item import EvalTestingCriteriaItem # noqa: PLC0415
        d = dict(src_dict)
        created_at = d.pop("created_at")

        data_source_config = EvalDataSourceConfig.from_dict(d.pop("data_source_config"))




        id = d.pop("id")

        def _parse_metadata(data: object) -> EvalMetadataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = EvalMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvalMetadataType0 | None, data)

        metadata = _parse_metadata(d.pop("metadata"))


        name = d.pop("name")

        testing_criteria = []
        _testing_criteria = d.pop("testing_criteria")
        for testing_criteria_item_data in (_testing_criteria):
            testing_criteria_item = EvalTestingCriteriaItem.from_dict(testing_criteria_item_data)



            testing_criteria.append(testing_criteria_item)


        object_ = cast(Literal['eval'] | Unset , d.pop("object", UNSET))
        if object_ != 'eval'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'eval', got '{object_}'")

        eval_ = cls(
            created_at=created_at,
            data_source_config=data_source_config,
            id=id,
            metadata=metadata,
            name=name,
            testing_criteria=testing_criteria,
            object_=object_,
        )


        eval_.additional_properties = d
        return eval_

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
