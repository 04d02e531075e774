from typing import Literal

OnlineRuleTrendBucket = Literal['day', 'hour']

ONLINE_RULE_TREND_BUCKET_VALUES: set[OnlineRuleTrendBucket] = { 'day', 'hour',  }

def check_online_rule_trend_bucket(value: str) -> OnlineRuleTrendBucket:
    if value in ONLINE_RULE_TREND_BUCKET_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ONLINE_RULE_TREND_BUCKET_VALUES!r}")
