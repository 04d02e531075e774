from typing import Literal

OnlineRuleUpdateTargetType0 = Literal['conversation', 'span']

ONLINE_RULE_UPDATE_TARGET_TYPE_0_VALUES: set[OnlineRuleUpdateTargetType0] = { 'conversation', 'span',  }

def check_online_rule_update_target_type_0(value: str) -> OnlineRuleUpdateTargetType0:
    if value in ONLINE_RULE_UPDATE_TARGET_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ONLINE_RULE_UPDATE_TARGET_TYPE_0_VALUES!r}")
