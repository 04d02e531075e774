from typing import Literal

RougeSpecStatistic = Literal['f', 'p', 'r']

ROUGE_SPEC_STATISTIC_VALUES: set[RougeSpecStatistic] = { 'f', 'p', 'r',  }

def check_rouge_spec_statistic(value: str) -> RougeSpecStatistic:
    if value in ROUGE_SPEC_STATISTIC_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROUGE_SPEC_STATISTIC_VALUES!r}")
