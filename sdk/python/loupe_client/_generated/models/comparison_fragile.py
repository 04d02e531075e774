from typing import Literal

ComparisonFragile = Literal['exclude', 'include']

COMPARISON_FRAGILE_VALUES: set[ComparisonFragile] = { 'exclude', 'include',  }

def check_comparison_fragile(value: str) -> ComparisonFragile:
    if value in COMPARISON_FRAGILE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COMPARISON_FRAGILE_VALUES!r}")
