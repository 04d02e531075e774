from typing import Literal

ToolCorrectnessSpecArguments = Literal['exact', 'ignore', 'subset']

TOOL_CORRECTNESS_SPEC_ARGUMENTS_VALUES: set[ToolCorrectnessSpecArguments] = { 'exact', 'ignore', 'subset',  }

def check_tool_correctness_spec_arguments(value: str) -> ToolCorrectnessSpecArguments:
    if value in TOOL_CORRECTNESS_SPEC_ARGUMENTS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TOOL_CORRECTNESS_SPEC_ARGUMENTS_VALUES!r}")
