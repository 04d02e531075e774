from typing import Literal

ListEvalRunsOrder = Literal['asc', 'desc']

LIST_EVAL_RUNS_ORDER_VALUES: set[ListEvalRunsOrder] = { 'asc', 'desc',  }

def check_list_eval_runs_order(value: str) -> ListEvalRunsOrder:
    if value in LIST_EVAL_RUNS_ORDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVAL_RUNS_ORDER_VALUES!r}")
