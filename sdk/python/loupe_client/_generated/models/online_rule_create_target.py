from typing import Literal

OnlineRuleCreateTarget = Literal['conversation', 'span']

ONLINE_RULE_CREATE_TARGET_VALUES: set[OnlineRuleCreateTarget] = { 'conversation', 'span',  }

def check_online_rule_create_target(value: str) -> OnlineRuleCreateTarget:
    if value in ONLINE_RULE_CREATE_TARGET_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ONLINE_RULE_CREATE_TARGET_VALUES!r}")
