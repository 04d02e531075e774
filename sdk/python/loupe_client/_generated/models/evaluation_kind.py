from typing import Literal

EvaluationKind = Literal['eval_run', 'evaluation', 'run']

EVALUATION_KIND_VALUES: set[EvaluationKind] = { 'eval_run', 'evaluation', 'run',  }

def check_evaluation_kind(value: str) -> EvaluationKind:
    if value in EVALUATION_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVALUATION_KIND_VALUES!r}")
