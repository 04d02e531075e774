from typing import Literal

ListEvaluationResultsStatusType0 = Literal['errored', 'failed', 'passed']

LIST_EVALUATION_RESULTS_STATUS_TYPE_0_VALUES: set[ListEvaluationResultsStatusType0] = { 'errored', 'failed', 'passed',  }

def check_list_evaluation_results_status_type_0(value: str) -> ListEvaluationResultsStatusType0:
    if value in LIST_EVALUATION_RESULTS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVALUATION_RESULTS_STATUS_TYPE_0_VALUES!r}")
