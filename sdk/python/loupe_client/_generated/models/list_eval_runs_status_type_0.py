from typing import Literal

ListEvalRunsStatusType0 = Literal['canceled', 'completed', 'failed', 'in_progress', 'queued']

LIST_EVAL_RUNS_STATUS_TYPE_0_VALUES: set[ListEvalRunsStatusType0] = { 'canceled', 'completed', 'failed', 'in_progress', 'queued',  }

def check_list_eval_runs_status_type_0(value: str) -> ListEvalRunsStatusType0:
    if value in LIST_EVAL_RUNS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVAL_RUNS_STATUS_TYPE_0_VALUES!r}")
