from typing import Literal

EvalRunObjectStatus = Literal['canceled', 'completed', 'failed', 'in_progress', 'queued']

EVAL_RUN_OBJECT_STATUS_VALUES: set[EvalRunObjectStatus] = { 'canceled', 'completed', 'failed', 'in_progress', 'queued',  }

def check_eval_run_object_status(value: str) -> EvalRunObjectStatus:
    if value in EVAL_RUN_OBJECT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVAL_RUN_OBJECT_STATUS_VALUES!r}")
