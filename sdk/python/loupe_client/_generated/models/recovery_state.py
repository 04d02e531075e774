from typing import Literal

RecoveryState = Literal['recovering', 'stalled']

RECOVERY_STATE_VALUES: set[RecoveryState] = { 'recovering', 'stalled',  }

def check_recovery_state(value: str) -> RecoveryState:
    if value in RECOVERY_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RECOVERY_STATE_VALUES!r}")
