from typing import Literal

GEvalSpecEvaluationParamsItem = Literal['actual_output', 'chatbot_role', 'context', 'expected_outcome', 'expected_output', 'expected_tools', 'input', 'retrieval_context', 'scenario', 'tools_called', 'turns', 'user_description']

G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES: set[GEvalSpecEvaluationParamsItem] = { 'actual_output', 'chatbot_role', 'context', 'expected_outcome', 'expected_output', 'expected_tools', 'input', 'retrieval_context', 'scenario', 'tools_called', 'turns', 'user_description',  }

def check_g_eval_spec_evaluation_params_item(value: str) -> GEvalSpecEvaluationParamsItem:
    if value in G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES!r}")
