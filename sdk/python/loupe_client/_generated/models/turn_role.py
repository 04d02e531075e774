from typing import Literal

TurnRole = Literal['assistant', 'user']

TURN_ROLE_VALUES: set[TurnRole] = { 'assistant', 'user',  }

def check_turn_role(value: str) -> TurnRole:
    if value in TURN_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TURN_ROLE_VALUES!r}")
