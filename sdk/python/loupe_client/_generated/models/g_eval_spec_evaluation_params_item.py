from typing import Literal

GEvalSpecEvaluationParamsItem = Literal['actual_output', 'context', 'expected_output', 'input', 'retrieval_context']

G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES: set[GEvalSpecEvaluationParamsItem] = { 'actual_output', 'context', 'expected_output', 'input', 'retrieval_context',  }

def check_g_eval_spec_evaluation_params_item(value: str) -> GEvalSpecEvaluationParamsItem:
    if value in G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {G_EVAL_SPEC_EVALUATION_PARAMS_ITEM_VALUES!r}")
