from typing import Literal

ListEvaluationsStatusType0 = Literal['canceled', 'completed', 'failed', 'in_progress', 'queued']

LIST_EVALUATIONS_STATUS_TYPE_0_VALUES: set[ListEvaluationsStatusType0] = { 'canceled', 'completed', 'failed', 'in_progress', 'queued',  }

def check_list_evaluations_status_type_0(value: str) -> ListEvaluationsStatusType0:
    if value in LIST_EVALUATIONS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVALUATIONS_STATUS_TYPE_0_VALUES!r}")
