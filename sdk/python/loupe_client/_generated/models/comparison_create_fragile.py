from typing import Literal

ComparisonCreateFragile = Literal['exclude', 'include']

COMPARISON_CREATE_FRAGILE_VALUES: set[ComparisonCreateFragile] = { 'exclude', 'include',  }

def check_comparison_create_fragile(value: str) -> ComparisonCreateFragile:
    if value in COMPARISON_CREATE_FRAGILE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COMPARISON_CREATE_FRAGILE_VALUES!r}")
