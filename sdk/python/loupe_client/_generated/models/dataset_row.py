from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.dataset_row_kind import check_dataset_row_kind
from ..models.dataset_row_kind import DatasetRowKind
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.dataset_row_extra_type_0 import DatasetRowExtraType0
  from ..models.dataset_row_messages_item import DatasetRowMessagesItem





T = TypeVar("T", bound="DatasetRow")



@_attrs_define
class DatasetRow:
    """ 
        Attributes:
            answer (None | str):
            extra (DatasetRowExtraType0 | None):
            id (str):
            index (int):
            kind (DatasetRowKind):
            labels (list[str] | None):
            line (int):
            messages (list[DatasetRowMessagesItem]):
            options (list[str] | None):
            subset (str):
            object_ (Literal['dataset.row'] | Unset):  Default: 'dataset.row'.
     """

    answer: None | str
    extra: DatasetRowExtraType0 | None
    id: str
    index: int
    kind: DatasetRowKind
    labels: list[str] | None
    line: int
    messages: list[DatasetRowMessagesItem]
    options: list[str] | None
    subset: str
    object_: Literal['dataset.row'] | Unset = 'dataset.row'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_row_extra_type_0 import DatasetRowExtraType0 # noqa: PLC0415
        from ..models.dataset_row_messages_item import DatasetRowMessagesItem # noqa: PLC0415
        answer: None | str
        answer = self.answer

        extra: dict[str, Any] | None
        if isinstance(self.extra, DatasetRowExtraType0):
            extra = self.extra.to_dict()
        else:
            extra = self.extra

        id = self.id

        index = self.index

        kind: str = self.kind

        labels: list[str] | None
        if isinstance(self.labels, list):
            labels = self.labels


        else:
            labels = self.labels

        line = self.line

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)



        options: list[str] | None
        if isinstance(self.options, list):
            options = self.options


        else:
            options = self.options

        subset = self.subset

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "answer": answer,
            "extra": extra,
            "id": id,
            "index": index,
            "kind": kind,
            "labels": labels,
            "line": line,
            "messages": messages,
            "options": options,
            "subset": subset,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_row_extra_type_0 import DatasetRowExtraType0 # noqa: PLC0415
        from ..models.dataset_row_messages_item import DatasetRowMessagesItem # noqa: PLC0415
        d = dict(src_dict)
        def _parse_answer(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        answer = _parse_answer(d.pop("answer"))


        def _parse_extra(data: object) -> DatasetRowExtraType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                extra_type_0 = DatasetRowExtraType0.from_dict(data)



                return extra_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DatasetRowExtraType0 | None, data)

        extra = _parse_extra(d.pop("extra"))


        id = d.pop("id")

        index = d.pop("index")

        kind = check_dataset_row_kind(d.pop("kind"))




        def _parse_labels(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                labels_type_0 = cast(list[str], data)

                return labels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        labels = _parse_labels(d.pop("labels"))


        line = d.pop("line")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in (_messages):
            messages_item = DatasetRowMessagesItem.from_dict(messages_item_data)



            messages.append(messages_item)


        def _parse_options(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                options_type_0 = cast(list[str], data)

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        options = _parse_options(d.pop("options"))


        subset = d.pop("subset")

        object_ = cast(Literal['dataset.row'] | Unset , d.pop("object", UNSET))
        if object_ != 'dataset.row'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'dataset.row', got '{object_}'")

        dataset_row = cls(
            answer=answer,
            extra=extra,
            id=id,
            index=index,
            kind=kind,
            labels=labels,
            line=line,
            messages=messages,
            options=options,
            subset=subset,
            object_=object_,
        )


        dataset_row.additional_properties = d
        return dataset_row

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
