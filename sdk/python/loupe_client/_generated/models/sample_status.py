from typing import Literal

SampleStatus = Literal['canceled', 'pending', 'scored', 'skipped']

SAMPLE_STATUS_VALUES: set[SampleStatus] = { 'canceled', 'pending', 'scored', 'skipped',  }

def check_sample_status(value: str) -> SampleStatus:
    if value in SAMPLE_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SAMPLE_STATUS_VALUES!r}")
