from typing import Literal

ConversationalGEvalSpecEvaluationParamsItem = Literal['chatbot_role', 'content', 'expected_outcome', 'retrieval_context', 'role', 'scenario', 'tools_called', 'user_description']

CONVERSATIONAL_G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES: set[ConversationalGEvalSpecEvaluationParamsItem] = { 'chatbot_role', 'content', 'expected_outcome', 'retrieval_context', 'role', 'scenario', 'tools_called', 'user_description',  }

def check_conversational_g_eval_spec_evaluation_params_item(value: str) -> ConversationalGEvalSpecEvaluationParamsItem:
    if value in CONVERSATIONAL_G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONVERSATIONAL_G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES!r}")
