from typing import Literal

MetricVersionStatus = Literal['active', 'candidate', 'declined']

METRIC_VERSION_STATUS_VALUES: set[MetricVersionStatus] = { 'active', 'candidate', 'declined',  }

def check_metric_version_status(value: str) -> MetricVersionStatus:
    if value in METRIC_VERSION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {METRIC_VERSION_STATUS_VALUES!r}")
