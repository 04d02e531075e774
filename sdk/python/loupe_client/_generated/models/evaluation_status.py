from typing import Literal

EvaluationStatus = Literal['canceled', 'completed', 'failed', 'in_progress', 'queued']

EVALUATION_STATUS_VALUES: set[EvaluationStatus] = { 'canceled', 'completed', 'failed', 'in_progress', 'queued',  }

def check_evaluation_status(value: str) -> EvaluationStatus:
    if value in EVALUATION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVALUATION_STATUS_VALUES!r}")
