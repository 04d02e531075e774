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
  from ..models.test_case_metadata_type_0 import TestCaseMetadataType0





T = TypeVar("T", bound="TestCase")



@_attrs_define
class TestCase:
    """ A submitted test case as stored: images are `image_url` parts whose URL is
    `GET /v1/media/{sha256}` (send the API key), with what was done to them under `blob`.

        Attributes:
            actual_output (Any):
            context (list[Any] | None):
            expected_output (Any | None):
            id (str): The id given at submission, else the case's index.
            index (int):
            input_ (Any):
            metadata (None | TestCaseMetadataType0):
            retrieval_context (list[Any] | None):
            chatbot_role (None | str | Unset):
            expected_outcome (Any | None | Unset):
            expected_tools (list[Any] | None | Unset):
            object_ (Literal['evaluation.test_case'] | Unset):  Default: 'evaluation.test_case'.
            scenario (Any | None | Unset):
            tools_called (list[Any] | None | Unset):
            turns (list[Any] | None | Unset): A conversation's turns.
            user_description (None | str | Unset):
     """

    actual_output: Any
    context: list[Any] | None
    expected_output: Any | None
    id: str
    index: int
    input_: Any
    metadata: None | TestCaseMetadataType0
    retrieval_context: list[Any] | None
    chatbot_role: None | str | Unset = UNSET
    expected_outcome: Any | None | Unset = UNSET
    expected_tools: list[Any] | None | Unset = UNSET
    object_: Literal['evaluation.test_case'] | Unset = 'evaluation.test_case'
    scenario: Any | None | Unset = UNSET
    tools_called: list[Any] | None | Unset = UNSET
    turns: list[Any] | None | Unset = UNSET
    user_description: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.test_case_metadata_type_0 import TestCaseMetadataType0 # noqa: PLC0415
        actual_output = self.actual_output

        context: list[Any] | None
        if isinstance(self.context, list):
            context = self.context


        else:
            context = self.context

        expected_output: Any | None
        expected_output = self.expected_output

        id = self.id

        index = self.index

        input_ = self.input_

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, TestCaseMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        retrieval_context: list[Any] | None
        if isinstance(self.retrieval_context, list):
            retrieval_context = self.retrieval_context


        else:
            retrieval_context = self.retrieval_context

        chatbot_role: None | str | Unset
        if isinstance(self.chatbot_role, Unset):
            chatbot_role = UNSET
        else:
            chatbot_role = self.chatbot_role

        expected_outcome: Any | None | Unset
        if isinstance(self.expected_outcome, Unset):
            expected_outcome = UNSET
        else:
            expected_outcome = self.expected_outcome

        expected_tools: list[Any] | None | Unset
        if isinstance(self.expected_tools, Unset):
            expected_tools = UNSET
        elif isinstance(self.expected_tools, list):
            expected_tools = self.expected_tools


        else:
            expected_tools = self.expected_tools

        object_ = self.object_

        scenario: Any | None | Unset
        if isinstance(self.scenario, Unset):
            scenario = UNSET
        else:
            scenario = self.scenario

        tools_called: list[Any] | None | Unset
        if isinstance(self.tools_called, Unset):
            tools_called = UNSET
        elif isinstance(self.tools_called, list):
            tools_called = self.tools_called


        else:
            tools_called = self.tools_called

        turns: list[Any] | None | Unset
        if isinstance(self.turns, Unset):
            turns = UNSET
        elif isinstance(self.turns, list):
            turns = self.turns


        else:
            turns = self.turns

        user_description: None | str | Unset
        if isinstance(self.user_description, Unset):
            user_description = UNSET
        else:
            user_description = self.user_description


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actual_output": actual_output,
            "context": context,
            "expected_output": expected_output,
            "id": id,
            "index": index,
            "input": input_,
            "metadata": metadata,
            "retrieval_context": retrieval_context,
        })
        if chatbot_role is not UNSET:
            field_dict["chatbot_role"] = chatbot_role
        if expected_outcome is not UNSET:
            field_dict["expected_outcome"] = expected_outcome
        if expected_tools is not UNSET:
            field_dict["expected_tools"] = expected_tools
        if object_ is not UNSET:
            field_dict["object"] = object_
        if scenario is not UNSET:
            field_dict["scenario"] = scenario
        if tools_called is not UNSET:
            field_dict["tools_called"] = tools_called
        if turns is not UNSET:
            field_dict["turns"] = turns
        if user_description is not UNSET:
            field_dict["user_description"] = user_description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_case_metadata_type_0 import TestCaseMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        actual_output = d.pop("actual_output")

        def _parse_context(data: object) -> list[Any] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                context_type_0 = cast(list[Any], data)

                return context_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None, data)

        context = _parse_context(d.pop("context"))


        def _parse_expected_output(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        expected_output = _parse_expected_output(d.pop("expected_output"))


        id = d.pop("id")

        index = d.pop("index")

        input_ = d.pop("input")

        def _parse_metadata(data: object) -> None | TestCaseMetadataType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TestCaseMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TestCaseMetadataType0, data)

        metadata = _parse_metadata(d.pop("metadata"))


        def _parse_retrieval_context(data: object) -> list[Any] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                retrieval_context_type_0 = cast(list[Any], data)

                return retrieval_context_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None, data)

        retrieval_context = _parse_retrieval_context(d.pop("retrieval_context"))


        def _parse_chatbot_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chatbot_role = _parse_chatbot_role(d.pop("chatbot_role", UNSET))


        def _parse_expected_outcome(data: object) -> Any | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Any | None | Unset, data)

        expected_outcome = _parse_expected_outcome(d.pop("expected_outcome", UNSET))


        def _parse_expected_tools(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                expected_tools_type_0 = cast(list[Any], data)

                return expected_tools_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        expected_tools = _parse_expected_tools(d.pop("expected_tools", UNSET))


        object_ = cast(Literal['evaluation.test_case'] | Unset , d.pop("object", UNSET))
        if object_ != 'evaluation.test_case'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'evaluation.test_case', got '{object_}'")

        def _parse_scenario(data: object) -> Any | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Any | None | Unset, data)

        scenario = _parse_scenario(d.pop("scenario", UNSET))


        def _parse_tools_called(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tools_called_type_0 = cast(list[Any], data)

                return tools_called_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        tools_called = _parse_tools_called(d.pop("tools_called", UNSET))


        def _parse_turns(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                turns_type_0 = cast(list[Any], data)

                return turns_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        turns = _parse_turns(d.pop("turns", UNSET))


        def _parse_user_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_description = _parse_user_description(d.pop("user_description", UNSET))


        test_case = cls(
            actual_output=actual_output,
            context=context,
            expected_output=expected_output,
            id=id,
            index=index,
            input_=input_,
            metadata=metadata,
            retrieval_context=retrieval_context,
            chatbot_role=chatbot_role,
            expected_outcome=expected_outcome,
            expected_tools=expected_tools,
            object_=object_,
            scenario=scenario,
            tools_called=tools_called,
            turns=turns,
            user_description=user_description,
        )


        test_case.additional_properties = d
        return test_case

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
