from typing import Literal

JudgeRefAggregate = Literal['majority', 'mean', 'median']

JUDGE_REF_AGGREGATE_VALUES: set[JudgeRefAggregate] = { 'majority', 'mean', 'median',  }

def check_judge_ref_aggregate(value: str) -> JudgeRefAggregate:
    if value in JUDGE_REF_AGGREGATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JUDGE_REF_AGGREGATE_VALUES!r}")
