from typing import Literal

ConditionOp = Literal['contains', 'eq', 'regex']

CONDITION_OP_VALUES: set[ConditionOp] = { 'contains', 'eq', 'regex',  }

def check_condition_op(value: str) -> ConditionOp:
    if value in CONDITION_OP_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONDITION_OP_VALUES!r}")
