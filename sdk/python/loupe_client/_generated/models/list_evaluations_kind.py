from typing import Literal

ListEvaluationsKind = Literal['eval_run', 'evaluation', 'online']

LIST_EVALUATIONS_KIND_VALUES: set[ListEvaluationsKind] = { 'eval_run', 'evaluation', 'online',  }

def check_list_evaluations_kind(value: str) -> ListEvaluationsKind:
    if value in LIST_EVALUATIONS_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVALUATIONS_KIND_VALUES!r}")
