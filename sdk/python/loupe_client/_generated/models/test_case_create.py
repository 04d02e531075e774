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
  from ..models.image_url_part import ImageUrlPart
  from ..models.test_case_create_metadata_type_0 import TestCaseCreateMetadataType0
  from ..models.text_part import TextPart
  from ..models.tool_call import ToolCall
  from ..models.turn import Turn





T = TypeVar("T", bound="TestCaseCreate")



@_attrs_define
class TestCaseCreate:
    """ A single-turn case (`input`, `actual_output`, ...) or a conversation (`turns` and the
    fields about it); each metric says which it judges, and a case of the other shape is a 422
    naming the case and the field.

        Attributes:
            actual_output (list[ImageUrlPart | str | TextPart] | None | str | Unset): The answer under test; needed by every
                metric that reads it (not contextual_precision, contextual_recall or contextual_relevancy).
            chatbot_role (None | str | Unset): The role the assistant must keep (role_adherence).
            context (list[list[ImageUrlPart | str | TextPart] | str] | None | Unset):
            expected_outcome (list[ImageUrlPart | str | TextPart] | None | str | Unset): What the conversation should
                achieve (conversational_g_eval, task_completion).
            expected_output (list[ImageUrlPart | str | TextPart] | None | str | Unset):
            expected_tools (list[ToolCall] | None | Unset): The tool calls the case (or the whole conversation) should make
                (tool_correctness).
            id (int | None | str | Unset): Your id for the case; defaults to its index in `test_cases`.
            index (int | None | Unset): Ignored (a case's index is its place in `test_cases`): a case read back may be sent
                again as it reads.
            input_ (list[ImageUrlPart | str | TextPart] | None | str | Unset): The request; every single-turn case has one.
            metadata (None | TestCaseCreateMetadataType0 | Unset):
            object_ (Literal['evaluation.test_case'] | None | Unset): Ignored: a case read back may be sent again as it
                reads.
            retrieval_context (list[list[ImageUrlPart | str | TextPart] | str] | None | Unset):
            scenario (list[ImageUrlPart | str | TextPart] | None | str | Unset): A conversation's situation
                (conversational_g_eval).
            tools_called (list[ToolCall] | None | Unset): A single-turn case's tool calls (tool_correctness,
                argument_correctness, task_completion); a conversation's are on its assistant turns.
            turns (list[Turn] | None | Unset): A conversation, in order; a case with turns has no input, actual_output,
                expected_output, context, retrieval_context or tools_called of its own.
            user_description (None | str | Unset): Who the user is (shown to conversational_g_eval).
     """

    actual_output: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    chatbot_role: None | str | Unset = UNSET
    context: list[list[ImageUrlPart | str | TextPart] | str] | None | Unset = UNSET
    expected_outcome: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    expected_output: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    expected_tools: list[ToolCall] | None | Unset = UNSET
    id: int | None | str | Unset = UNSET
    index: int | None | Unset = UNSET
    input_: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    metadata: None | TestCaseCreateMetadataType0 | Unset = UNSET
    object_: Literal['evaluation.test_case'] | None | Unset = UNSET
    retrieval_context: list[list[ImageUrlPart | str | TextPart] | str] | None | Unset = UNSET
    scenario: list[ImageUrlPart | str | TextPart] | None | str | Unset = UNSET
    tools_called: list[ToolCall] | None | Unset = UNSET
    turns: list[Turn] | None | Unset = UNSET
    user_description: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.image_url_part import ImageUrlPart # noqa: PLC0415
        from ..models.test_case_create_metadata_type_0 import TestCaseCreateMetadataType0 # noqa: PLC0415
        from ..models.text_part import TextPart # noqa: PLC0415
        from ..models.tool_call import ToolCall # noqa: PLC0415
        from ..models.turn import Turn # noqa: PLC0415
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

        chatbot_role: None | str | Unset
        if isinstance(self.chatbot_role, Unset):
            chatbot_role = UNSET
        else:
            chatbot_role = self.chatbot_role

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

        expected_outcome: list[dict[str, Any] | str] | None | str | Unset
        if isinstance(self.expected_outcome, Unset):
            expected_outcome = UNSET
        elif isinstance(self.expected_outcome, list):
            expected_outcome = []
            for expected_outcome_type_0_type_1_item_data in self.expected_outcome:
                expected_outcome_type_0_type_1_item: dict[str, Any] | str
                if isinstance(expected_outcome_type_0_type_1_item_data, TextPart):
                    expected_outcome_type_0_type_1_item = expected_outcome_type_0_type_1_item_data.to_dict()
                elif isinstance(expected_outcome_type_0_type_1_item_data, ImageUrlPart):
                    expected_outcome_type_0_type_1_item = expected_outcome_type_0_type_1_item_data.to_dict()
                else:
                    expected_outcome_type_0_type_1_item = expected_outcome_type_0_type_1_item_data
                expected_outcome.append(expected_outcome_type_0_type_1_item)


        else:
            expected_outcome = self.expected_outcome

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

        expected_tools: list[dict[str, Any]] | None | Unset
        if isinstance(self.expected_tools, Unset):
            expected_tools = UNSET
        elif isinstance(self.expected_tools, list):
            expected_tools = []
            for expected_tools_type_0_item_data in self.expected_tools:
                expected_tools_type_0_item = expected_tools_type_0_item_data.to_dict()
                expected_tools.append(expected_tools_type_0_item)


        else:
            expected_tools = self.expected_tools

        id: int | None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        index: int | None | Unset
        if isinstance(self.index, Unset):
            index = UNSET
        else:
            index = self.index

        input_: list[dict[str, Any] | str] | None | str | Unset
        if isinstance(self.input_, Unset):
            input_ = UNSET
        elif isinstance(self.input_, list):
            input_ = []
            for input_type_0_type_1_item_data in self.input_:
                input_type_0_type_1_item: dict[str, Any] | str
                if isinstance(input_type_0_type_1_item_data, TextPart):
                    input_type_0_type_1_item = input_type_0_type_1_item_data.to_dict()
                elif isinstance(input_type_0_type_1_item_data, ImageUrlPart):
                    input_type_0_type_1_item = input_type_0_type_1_item_data.to_dict()
                else:
                    input_type_0_type_1_item = input_type_0_type_1_item_data
                input_.append(input_type_0_type_1_item)


        else:
            input_ = self.input_

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TestCaseCreateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        object_: Literal['evaluation.test_case'] | None | Unset
        if isinstance(self.object_, Unset):
            object_ = UNSET
        else:
            object_ = self.object_

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

        scenario: list[dict[str, Any] | str] | None | str | Unset
        if isinstance(self.scenario, Unset):
            scenario = UNSET
        elif isinstance(self.scenario, list):
            scenario = []
            for scenario_type_0_type_1_item_data in self.scenario:
                scenario_type_0_type_1_item: dict[str, Any] | str
                if isinstance(scenario_type_0_type_1_item_data, TextPart):
                    scenario_type_0_type_1_item = scenario_type_0_type_1_item_data.to_dict()
                elif isinstance(scenario_type_0_type_1_item_data, ImageUrlPart):
                    scenario_type_0_type_1_item = scenario_type_0_type_1_item_data.to_dict()
                else:
                    scenario_type_0_type_1_item = scenario_type_0_type_1_item_data
                scenario.append(scenario_type_0_type_1_item)


        else:
            scenario = self.scenario

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

        turns: list[dict[str, Any]] | None | Unset
        if isinstance(self.turns, Unset):
            turns = UNSET
        elif isinstance(self.turns, list):
            turns = []
            for turns_type_0_item_data in self.turns:
                turns_type_0_item = turns_type_0_item_data.to_dict()
                turns.append(turns_type_0_item)


        else:
            turns = self.turns

        user_description: None | str | Unset
        if isinstance(self.user_description, Unset):
            user_description = UNSET
        else:
            user_description = self.user_description


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if actual_output is not UNSET:
            field_dict["actual_output"] = actual_output
        if chatbot_role is not UNSET:
            field_dict["chatbot_role"] = chatbot_role
        if context is not UNSET:
            field_dict["context"] = context
        if expected_outcome is not UNSET:
            field_dict["expected_outcome"] = expected_outcome
        if expected_output is not UNSET:
            field_dict["expected_output"] = expected_output
        if expected_tools is not UNSET:
            field_dict["expected_tools"] = expected_tools
        if id is not UNSET:
            field_dict["id"] = id
        if index is not UNSET:
            field_dict["index"] = index
        if input_ is not UNSET:
            field_dict["input"] = input_
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if object_ is not UNSET:
            field_dict["object"] = object_
        if retrieval_context is not UNSET:
            field_dict["retrieval_context"] = retrieval_context
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
        from ..models.image_url_part import ImageUrlPart # noqa: PLC0415
        from ..models.test_case_create_metadata_type_0 import TestCaseCreateMetadataType0 # noqa: PLC0415
        from ..models.text_part import TextPart # noqa: PLC0415
        from ..models.tool_call import ToolCall # noqa: PLC0415
        from ..models.turn import Turn # noqa: PLC0415
        d = dict(src_dict)
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


        def _parse_chatbot_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chatbot_role = _parse_chatbot_role(d.pop("chatbot_role", UNSET))


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


        def _parse_expected_outcome(data: object) -> list[ImageUrlPart | str | TextPart] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                expected_outcome_type_0_type_1 = []
                _expected_outcome_type_0_type_1 = data
                for expected_outcome_type_0_type_1_item_data in (_expected_outcome_type_0_type_1):
                    def _parse_expected_outcome_type_0_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            expected_outcome_type_0_type_1_item_type_1 = TextPart.from_dict(data)



                            return expected_outcome_type_0_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            expected_outcome_type_0_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return expected_outcome_type_0_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    expected_outcome_type_0_type_1_item = _parse_expected_outcome_type_0_type_1_item(expected_outcome_type_0_type_1_item_data)

                    expected_outcome_type_0_type_1.append(expected_outcome_type_0_type_1_item)

                return expected_outcome_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | None | str | Unset, data)

        expected_outcome = _parse_expected_outcome(d.pop("expected_outcome", UNSET))


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


        def _parse_expected_tools(data: object) -> list[ToolCall] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                expected_tools_type_0 = []
                _expected_tools_type_0 = data
                for expected_tools_type_0_item_data in (_expected_tools_type_0):
                    expected_tools_type_0_item = ToolCall.from_dict(expected_tools_type_0_item_data)



                    expected_tools_type_0.append(expected_tools_type_0_item)

                return expected_tools_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ToolCall] | None | Unset, data)

        expected_tools = _parse_expected_tools(d.pop("expected_tools", UNSET))


        def _parse_id(data: object) -> int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))


        def _parse_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        index = _parse_index(d.pop("index", UNSET))


        def _parse_input_(data: object) -> list[ImageUrlPart | str | TextPart] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_type_0_type_1 = []
                _input_type_0_type_1 = data
                for input_type_0_type_1_item_data in (_input_type_0_type_1):
                    def _parse_input_type_0_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            input_type_0_type_1_item_type_1 = TextPart.from_dict(data)



                            return input_type_0_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            input_type_0_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return input_type_0_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    input_type_0_type_1_item = _parse_input_type_0_type_1_item(input_type_0_type_1_item_data)

                    input_type_0_type_1.append(input_type_0_type_1_item)

                return input_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | None | str | Unset, data)

        input_ = _parse_input_(d.pop("input", UNSET))


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


        def _parse_object_(data: object) -> Literal['evaluation.test_case'] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            object_type_0 = cast(Literal['evaluation.test_case'] , data)
            if object_type_0 != 'evaluation.test_case':
                raise ValueError(f"object_type_0 must match const 'evaluation.test_case', got '{object_type_0}'")
            return object_type_0
            return cast(Literal['evaluation.test_case'] | None | Unset, data)

        object_ = _parse_object_(d.pop("object", UNSET))


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


        def _parse_scenario(data: object) -> list[ImageUrlPart | str | TextPart] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scenario_type_0_type_1 = []
                _scenario_type_0_type_1 = data
                for scenario_type_0_type_1_item_data in (_scenario_type_0_type_1):
                    def _parse_scenario_type_0_type_1_item(data: object) -> ImageUrlPart | str | TextPart:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            scenario_type_0_type_1_item_type_1 = TextPart.from_dict(data)



                            return scenario_type_0_type_1_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            scenario_type_0_type_1_item_type_2 = ImageUrlPart.from_dict(data)



                            return scenario_type_0_type_1_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(ImageUrlPart | str | TextPart, data)

                    scenario_type_0_type_1_item = _parse_scenario_type_0_type_1_item(scenario_type_0_type_1_item_data)

                    scenario_type_0_type_1.append(scenario_type_0_type_1_item)

                return scenario_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ImageUrlPart | str | TextPart] | None | str | Unset, data)

        scenario = _parse_scenario(d.pop("scenario", UNSET))


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


        def _parse_turns(data: object) -> list[Turn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                turns_type_0 = []
                _turns_type_0 = data
                for turns_type_0_item_data in (_turns_type_0):
                    turns_type_0_item = Turn.from_dict(turns_type_0_item_data)



                    turns_type_0.append(turns_type_0_item)

                return turns_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Turn] | None | Unset, data)

        turns = _parse_turns(d.pop("turns", UNSET))


        def _parse_user_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_description = _parse_user_description(d.pop("user_description", UNSET))


        test_case_create = cls(
            actual_output=actual_output,
            chatbot_role=chatbot_role,
            context=context,
            expected_outcome=expected_outcome,
            expected_output=expected_output,
            expected_tools=expected_tools,
            id=id,
            index=index,
            input_=input_,
            metadata=metadata,
            object_=object_,
            retrieval_context=retrieval_context,
            scenario=scenario,
            tools_called=tools_called,
            turns=turns,
            user_description=user_description,
        )

        return test_case_create

