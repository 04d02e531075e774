from typing import Literal

OnlineRuleTarget = Literal['conversation', 'span']

ONLINE_RULE_TARGET_VALUES: set[OnlineRuleTarget] = { 'conversation', 'span',  }

def check_online_rule_target(value: str) -> OnlineRuleTarget:
    if value in ONLINE_RULE_TARGET_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ONLINE_RULE_TARGET_VALUES!r}")
