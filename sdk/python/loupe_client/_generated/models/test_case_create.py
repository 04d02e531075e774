from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.image_url_part import ImageUrlPart
  from ..models.test_case_create_metadata_type_0 import TestCaseCreateMetadataType0
  from ..models.text_part import TextPart





T = TypeVar("T", bound="TestCaseCreate")



@_attrs_define
class TestCaseCreate:
    """ 
        Attributes:
            input_ (list[ImageUrlPart | str | TextPart] | str):
            actual_output (list[ImageUrlPart | str | TextPart] | None | str | Unset): The answer under test; needed by every
                metric that reads it (not contextual_precision, contextual_recall or contextual_relevancy).
            context (list[list[ImageUrlPart | str | TextPart] | str] | None | Unset):
            expected_output (list[ImageUrlPart | str | TextPart] | None | str | Unset):
            id (int | None | str | Unset): Your id for the case; defaults to its index in `test_cases`.
            metadata (None | TestCaseCreateMetadataType0 | Unset):
            retrieval_context (list[list[ImageUrlPart | str | TextPart] | str] | None | Unset):
     """

    input_: list[ImageUrlPart | str | TextPart] | str
    actual_output: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    context: list[list[ImageUrlPart | str | TextPart] | str] | None | Unset = UNSET
    expected_output: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    id: int | None | str | Unset = UNSET
    metadata: None | TestCaseCreateMetadataType0 | Unset = UNSET
    retrieval_context: list[list[ImageUrlPart | str | TextPart] | str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.image_url_part import ImageUrlPart # noqa: PLC0415
        from ..models.test_case_create_metadata_type_0 import TestCaseCreateMetadataType0 # noqa: PLC0415
        from ..models.text_part import TextPart # noqa: PLC0415
        input_: list[dict[str, Any] | str] | str
        if isinstance(self.input_, list):
            input_ = []
            for input_type_1_item_data in self.input_:
                input_type_1_item: dict[str, Any] | str
                if isinstance(input_type_1_item_data, TextPart):
                    input_type_1_item = input_type_1_item_data.to_dict()
                elif isinstance(input_type_1_item_data, ImageUrlPart):
                    input_type_1_item = input_type_1_item_data.to_dict()
                else:
                    input_type_1_item = input_type_1_item_data
                input_.append(input_type_1_item)


        else:
            input_ = self.input_

        actual_output: list[dict[str, Any] | str] | None | str | Unset
        if isinstance(self.actual_output, Unset):
            actual_output = UNSET
        elif isinstance(self.actual_output, list):
            actual_output = []
            for actual_output_type_0_type_1_item_data in self.actual_output:
                actual_output_type_0_type_1_item: dict[str, Any] | str
                if isinstance(actual_output_type_0_type_1_item_data, TextPart):
                    actual_output_type_0_type_1_item = actual_output_type_0_type_1_item_data.to_dict()
                elif isinstance(actual_output_type_0_type_1_item_data, ImageUrlPart):
                    actual_output_type_0_type_1_item = actual_output_type_0_type_1_item_data.to_dict()
                else:
                    actual_output_type_0_type_1_item = actual_output_type_0_type_1_item_data
                actual_output.append(actual_output_type_0_type_1_item)


        else:
            actual_output = self.actual_output

        context: list[list[dict[str, Any] | str] | str] | None | Unset
        if isinstance(self.context, Unset):
            context = UNSET
        elif isinstance(self.context, list):
            context = []
            for context_type_0_item_data in self.context:
                context_type_0_item: list[dict[str, Any] | str] | str
                if isinstance(context_type_0_item_data, list):
                    context_type_0_item = []
                    for context_type_0_item_type_1_item_data in context_type_0_item_data:
                        context_type_0_item_type_1_item: dict[str, Any] | str
                        if isinstance(context_type_0_item_type_1_item_data, TextPart):
                            context_type_0_item_type_1_item = context_type_0_item_type_1_item_data.to_dict()
                        elif isinstance(context_type_0_item_type_1_item_data, ImageUrlPart):
                            context_type_0_item_type_1_item = context_type_0_item_type_1_item_data.to_dict()
                        else:
                            context_type_0_item_type_1_item = context_type_0_item_type_1_item_data
                        context_type_0_item.append(context_type_0_item_type_1_item)


                else:
                    context_type_0_item = context_type_0_item_data
                context.append(context_type_0_item)


        else:
            context = self.context

        expected_output: list[dict[str, Any] | str] | None | str | Unset
        if isinstance(self.expected_output, Unset):
            expected_output = UNSET
        elif isinstance(self.expected_output, list):
            expected_output = []
            for expected_output_type_0_type_1_item_data in self.expected_output:
                expected_output_type_0_type_1_item: dict[str, Any] | str
                if isinstance(expected_output_type_0_type_1_item_data, TextPart):
                    expected_output_type_0_type_1_item = expected_output_type_0_type_1_item_data.to_dict()
                elif isinstance(expected_output_type_0_type_1_item_data, ImageUrlPart):
                    expected_output_type_0_type_1_item = expected_output_type_0_type_1_item_data.to_dict()
                else:
                    expected_output_type_0_type_1_item = expected_output_type_0_type_1_item_data
                expected_output.append(expected_output_type_0_type_1_item)


        else:
            expected_output = self.expected_output

        id: int | None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TestCaseCreateMetadataType0):
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


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "input": input_,
        })
        if actual_output is not UNSET:
            field_dict["actual_output"] = actual_output
        if context is not UNSET:
            field_dict["context"] = context
        if expected_output is not UNSET:
            field_dict["expected_output"] = expected_output
        if id is not UNSET:
            field_dict["id"] = id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if retrieval_context is not UNSET:
            field_dict["retrieval_context"] = retrieval_context

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_url_part import ImageUrlPart # noqa: PLC0415
        from ..models.test_case_create_metadata_type_0 import TestCaseCreateMetadataType0 # noqa: PLC0415
        from ..models.text_part import TextPart # noqa: PLC0415
        d = dict(src_dict)
        def _parse_input_(data: object) -> list[ImageUrlPart | str | TextPart] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_type_1 = []
                _input_type_1 = data
                for input_type_1_item_data in (_input_type_1):
                    def _parse_input_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            input_type_1_item_type_1 = TextPart.from_dict(data)



                            return input_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            input_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return input_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    input_type_1_item = _parse_input_type_1_item(input_type_1_item_data)

                    input_type_1.append(input_type_1_item)

                return input_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | str, data)

        input_ = _parse_input_(d.pop("input"))


        def _parse_actual_output(data: object) -> list[ImageUrlPart | str | TextPart] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                actual_output_type_0_type_1 = []
                _actual_output_type_0_type_1 = data
                for actual_output_type_0_type_1_item_data in (_actual_output_type_0_type_1):
                    def _parse_actual_output_type_0_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            actual_output_type_0_type_1_item_type_1 = TextPart.from_dict(data)



                            return actual_output_type_0_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            actual_output_type_0_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return actual_output_type_0_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    actual_output_type_0_type_1_item = _parse_actual_output_type_0_type_1_item(actual_output_type_0_type_1_item_data)

                    actual_output_type_0_type_1.append(actual_output_type_0_type_1_item)

                return actual_output_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | None | str | Unset, data)

        actual_output = _parse_actual_output(d.pop("actual_output", UNSET))


        def _parse_context(data: object) -> list[list[ImageUrlPart | str | TextPart] | str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                context_type_0 = []
                _context_type_0 = data
                for context_type_0_item_data in (_context_type_0):
                    def _parse_context_type_0_item(data: object) -> list[ImageUrlPart | str | TextPart] | str:
                        try:
                            if not isinstance(data, list):
                                raise TypeError()
                            context_type_0_item_type_1 = []
                            _context_type_0_item_type_1 = data
                            for context_type_0_item_type_1_item_data in (_context_type_0_item_type_1):
                                def _parse_context_type_0_item_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                                    try:
                                        if not isinstance(data, dict):
                                            raise TypeError()
                                        context_type_0_item_type_1_item_type_1 = TextPart.from_dict(data)



                                        return context_type_0_item_type_1_item_type_1
                                    except (TypeError, ValueError, AttributeError, KeyError):
                                        pass
                                    try:
                                        if not isinstance(data, dict):
                                            raise TypeError()
                                        context_type_0_item_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                                        return context_type_0_item_type_1_item_type_2
                                    except (TypeError, ValueError, AttributeError, KeyError):
                                        pass
                                    return cast(ImageUrlPart | str | TextPart, data)

                                context_type_0_item_type_1_item = _parse_context_type_0_item_type_1_item(context_type_0_item_type_1_item_data)

                                context_type_0_item_type_1.append(context_type_0_item_type_1_item)

                            return context_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(list[ImageUrlPart | str | TextPart] | str, data)

                    context_type_0_item = _parse_context_type_0_item(context_type_0_item_data)

                    context_type_0.append(context_type_0_item)

                return context_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[ImageUrlPart | str | TextPart] | str] | None | Unset, data)

        context = _parse_context(d.pop("context", UNSET))


        def _parse_expected_output(data: object) -> list[ImageUrlPart | str | TextPart] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                expected_output_type_0_type_1 = []
                _expected_output_type_0_type_1 = data
                for expected_output_type_0_type_1_item_data in (_expected_output_type_0_type_1):
                    def _parse_expected_output_type_0_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            expected_output_type_0_type_1_item_type_1 = TextPart.from_dict(data)



                            return expected_output_type_0_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            expected_output_type_0_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return expected_output_type_0_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    expected_output_type_0_type_1_item = _parse_expected_output_type_0_type_1_item(expected_output_type_0_type_1_item_data)

                    expected_output_type_0_type_1.append(expected_output_type_0_type_1_item)

                return expected_output_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | None | str | Unset, data)

        expected_output = _parse_expected_output(d.pop("expected_output", UNSET))


        def _parse_id(data: object) -> int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))


        def _parse_metadata(data: object) -> None | TestCaseCreateMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TestCaseCreateMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TestCaseCreateMetadataType0 | Unset, data)

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


        test_case_create = cls(
            input_=input_,
            actual_output=actual_output,
            context=context,
            expected_output=expected_output,
            id=id,
            metadata=metadata,
            retrieval_context=retrieval_context,
        )

        return test_case_create

