from typing import Literal

ComparisonKind = Literal['alignment', 'eval_run', 'evaluation', 'online', 'run']

COMPARISON_KIND_VALUES: set[ComparisonKind] = { 'alignment', 'eval_run', 'evaluation', 'online', 'run',  }

def check_comparison_kind(value: str) -> ComparisonKind:
    if value in COMPARISON_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COMPARISON_KIND_VALUES!r}")
