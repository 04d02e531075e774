from typing import Literal

EvaluationKind = Literal['alignment', 'eval_run', 'evaluation', 'online', 'run']

EVALUATION_KIND_VALUES: set[EvaluationKind] = { 'alignment', 'eval_run', 'evaluation', 'online', 'run',  }

def check_evaluation_kind(value: str) -> EvaluationKind:
    if value in EVALUATION_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVALUATION_KIND_VALUES!r}")
