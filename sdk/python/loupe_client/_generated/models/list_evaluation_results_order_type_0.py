from typing import Literal

ListEvaluationResultsOrderType0 = Literal['score_asc', 'score_desc']

LIST_EVALUATION_RESULTS_ORDER_TYPE_0_VALUES: set[ListEvaluationResultsOrderType0] = { 'score_asc', 'score_desc',  }

def check_list_evaluation_results_order_type_0(value: str) -> ListEvaluationResultsOrderType0:
    if value in LIST_EVALUATION_RESULTS_ORDER_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVALUATION_RESULTS_ORDER_TYPE_0_VALUES!r}")
