from typing import Literal

PairwiseSpecEvaluationParamsItem = Literal['context', 'input', 'retrieval_context']

PAIRWISE_SPEC_EVALUATION_PARAMS_ITEM_VALUES: set[PairwiseSpecEvaluationParamsItem] = { 'context', 'input', 'retrieval_context',  }

def check_pairwise_spec_evaluation_params_item(value: str) -> PairwiseSpecEvaluationParamsItem:
    if value in PAIRWISE_SPEC_EVALUATION_PARAMS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PAIRWISE_SPEC_EVALUATION_PARAMS_ITEM_VALUES!r}")
