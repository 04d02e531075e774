from typing import Literal

AlignmentDecisionType0 = Literal['activated', 'declined']

ALIGNMENT_DECISION_TYPE_0_VALUES: set[AlignmentDecisionType0] = { 'activated', 'declined',  }

def check_alignment_decision_type_0(value: str) -> AlignmentDecisionType0:
    if value in ALIGNMENT_DECISION_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALIGNMENT_DECISION_TYPE_0_VALUES!r}")
