from typing import Literal

OnlineRuleUpdateTarget = Literal['conversation', 'span']

ONLINE_RULE_UPDATE_TARGET_VALUES: set[OnlineRuleUpdateTarget] = { 'conversation', 'span',  }

def check_online_rule_update_target(value: str) -> OnlineRuleUpdateTarget:
    if value in ONLINE_RULE_UPDATE_TARGET_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ONLINE_RULE_UPDATE_TARGET_VALUES!r}")
