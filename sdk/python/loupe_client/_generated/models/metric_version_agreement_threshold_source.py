from typing import Literal

MetricVersionAgreementThresholdSource = Literal['labels', 'query', 'scale']

METRIC_VERSION_AGREEMENT_THRESHOLD_SOURCE_VALUES: set[MetricVersionAgreementThresholdSource] = { 'labels', 'query', 'scale',  }

def check_metric_version_agreement_threshold_source(value: str) -> MetricVersionAgreementThresholdSource:
    if value in METRIC_VERSION_AGREEMENT_THRESHOLD_SOURCE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {METRIC_VERSION_AGREEMENT_THRESHOLD_SOURCE_VALUES!r}")
