from typing import Literal

AlignmentStatus = Literal['canceled', 'completed', 'failed', 'in_progress', 'queued']

ALIGNMENT_STATUS_VALUES: set[AlignmentStatus] = { 'canceled', 'completed', 'failed', 'in_progress', 'queued',  }

def check_alignment_status(value: str) -> AlignmentStatus:
    if value in ALIGNMENT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALIGNMENT_STATUS_VALUES!r}")
