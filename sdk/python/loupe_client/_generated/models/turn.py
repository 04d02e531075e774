from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.turn_role import check_turn_role
from ..models.turn_role import TurnRole
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.image_url_part import ImageUrlPart
  from ..models.text_part import TextPart
  from ..models.tool_call import ToolCall
  from ..models.turn_metadata_type_0 import TurnMetadataType0





T = TypeVar("T", bound="Turn")



@_attrs_define
class Turn:
    """ One message of a conversation.

        Attributes:
            role (TurnRole):
            content (list[ImageUrlPart | str | TextPart] | str | Unset): Text, or content parts with images (any turn may
                hold images); an assistant turn that only calls tools may leave it empty. Default: ''.
            metadata (None | TurnMetadataType0 | Unset):
            retrieval_context (list[list[ImageUrlPart | str | TextPart] | str] | None | Unset): Assistant turns only: what
                was retrieved for this answer (turn_faithfulness, turn_contextual_relevancy).
            tools_called (list[ToolCall] | None | Unset): Assistant turns only: the tools called while answering, in order.
     """

    role: TurnRole
    content: list[ImageUrlPart | str | TextPart] | str | Unset = ''
    metadata: None | TurnMetadataType0 | Unset = UNSET
    retrieval_context: list[list[ImageUrlPart | str | TextPart] | str] | None | Unset = UNSET
    tools_called: list[ToolCall] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.image_url_part import ImageUrlPart # noqa: PLC0415
        from ..models.text_part import TextPart # noqa: PLC0415
        from ..models.tool_call import ToolCall # noqa: PLC0415
        from ..models.turn_metadata_type_0 import TurnMetadataType0 # noqa: PLC0415
        role: str = self.role

        content: list[dict[str, Any] | str] | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        elif isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item: dict[str, Any] | str
                if isinstance(content_type_1_item_data, TextPart):
                    content_type_1_item = content_type_1_item_data.to_dict()
                elif isinstance(content_type_1_item_data, ImageUrlPart):
                    content_type_1_item = content_type_1_item_data.to_dict()
                else:
                    content_type_1_item = content_type_1_item_data
                content.append(content_type_1_item)


        else:
            content = self.content

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TurnMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        retrieval_context: list[list[dict[str, Any] | str] | str] | None | Unset
        if isinstance(self.retrieval_context, Unset):
            retrieval_context = UNSET
        elif isinstance(self.retrieval_context, list):
            retrieval_context = []
            for retrieval_context_type_0_item_data in self.retrieval_context:
                retrieval_context_type_0_item: list[dict[str, Any] | str] | str
                if isinstance(retrieval_context_type_0_item_data, list):
                    retrieval_context_type_0_item = []
                    for retrieval_context_type_0_item_type_1_item_data in retrieval_context_type_0_item_data:
                        retrieval_context_type_0_item_type_1_item: dict[str, Any] | str
                        if isinstance(retrieval_context_type_0_item_type_1_item_data, TextPart):
                            retrieval_context_type_0_item_type_1_item = retrieval_context_type_0_item_type_1_item_data.to_dict()
                        elif isinstance(retrieval_context_type_0_item_type_1_item_data, ImageUrlPart):
                            retrieval_context_type_0_item_type_1_item = retrieval_context_type_0_item_type_1_item_data.to_dict()
                        else:
                            retrieval_context_type_0_item_type_1_item = retrieval_context_type_0_item_type_1_item_data
                        retrieval_context_type_0_item.append(retrieval_context_type_0_item_type_1_item)


                else:
                    retrieval_context_type_0_item = retrieval_context_type_0_item_data
                retrieval_context.append(retrieval_context_type_0_item)


        else:
            retrieval_context = self.retrieval_context

        tools_called: list[dict[str, Any]] | None | Unset
        if isinstance(self.tools_called, Unset):
            tools_called = UNSET
        elif isinstance(self.tools_called, list):
            tools_called = []
            for tools_called_type_0_item_data in self.tools_called:
                tools_called_type_0_item = tools_called_type_0_item_data.to_dict()
                tools_called.append(tools_called_type_0_item)


        else:
            tools_called = self.tools_called


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "role": role,
        })
        if content is not UNSET:
            field_dict["content"] = content
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if retrieval_context is not UNSET:
            field_dict["retrieval_context"] = retrieval_context
        if tools_called is not UNSET:
            field_dict["tools_called"] = tools_called

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_url_part import ImageUrlPart # noqa: PLC0415
        from ..models.text_part import TextPart # noqa: PLC0415
        from ..models.tool_call import ToolCall # noqa: PLC0415
        from ..models.turn_metadata_type_0 import TurnMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        role = check_turn_role(d.pop("role"))




        def _parse_content(data: object) -> list[ImageUrlPart | str | TextPart] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in (_content_type_1):
                    def _parse_content_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            content_type_1_item_type_1 = TextPart.from_dict(data)



                            return content_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            content_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return content_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    content_type_1_item = _parse_content_type_1_item(content_type_1_item_data)

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))


        def _parse_metadata(data: object) -> None | TurnMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TurnMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TurnMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        def _parse_retrieval_context(data: object) -> list[list[ImageUrlPart | str | TextPart] | str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                retrieval_context_type_0 = []
                _retrieval_context_type_0 = data
                for retrieval_context_type_0_item_data in (_retrieval_context_type_0):
                    def _parse_retrieval_context_type_0_item(data: object) -> list[ImageUrlPart | str | TextPart] | str:
                        try:
                            if not isinstance(data, list):
                                raise TypeError()
                            retrieval_context_type_0_item_type_1 = []
                            _retrieval_context_type_0_item_type_1 = data
                            for retrieval_context_type_0_item_type_1_item_data in (_retrieval_context_type_0_item_type_1):
                                def _parse_retrieval_context_type_0_item_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                                    try:
                                        if not isinstance(data, dict):
                                            raise TypeError()
                                        retrieval_context_type_0_item_type_1_item_type_1 = TextPart.from_dict(data)



                                        return retrieval_context_type_0_item_type_1_item_type_1
                                    except (TypeError, ValueError, AttributeError, KeyError):
                                        pass
                                    try:
                                        if not isinstance(data, dict):
                                            raise TypeError()
                                        retrieval_context_type_0_item_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                                        return retrieval_context_type_0_item_type_1_item_type_2
                                    except (TypeError, ValueError, AttributeError, KeyError):
                                        pass
                                    return cast(ImageUrlPart | str | TextPart, data)

                                retrieval_context_type_0_item_type_1_item = _parse_retrieval_context_type_0_item_type_1_item(retrieval_context_type_0_item_type_1_item_data)

                                retrieval_context_type_0_item_type_1.append(retrieval_context_type_0_item_type_1_item)

                            return retrieval_context_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(list[ImageUrlPart | str | TextPart] | str, data)

                    retrieval_context_type_0_item = _parse_retrieval_context_type_0_item(retrieval_context_type_0_item_data)

                    retrieval_context_type_0.append(retrieval_context_type_0_item)

                return retrieval_context_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[ImageUrlPart | str | TextPart] | str] | None | Unset, data)

        retrieval_context = _parse_retrieval_context(d.pop("retrieval_context", UNSET))


        def _parse_tools_called(data: object) -> list[ToolCall] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tools_called_type_0 = []
                _tools_called_type_0 = data
                for tools_called_type_0_item_data in (_tools_called_type_0):
                    tools_called_type_0_item = ToolCall.from_dict(tools_called_type_0_item_data)



                    tools_called_type_0.append(tools_called_type_0_item)

                return tools_called_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ToolCall] | None | Unset, data)

        tools_called = _parse_tools_called(d.pop("tools_called", UNSET))


        turn = cls(
            role=role,
            content=content,
            metadata=metadata,
            retrieval_context=retrieval_context,
            tools_called=tools_called,
        )

        return turn

