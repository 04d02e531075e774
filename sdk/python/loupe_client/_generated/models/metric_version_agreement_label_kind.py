from typing import Literal

MetricVersionAgreementLabelKind = Literal['mixed', 'pass_fail', 'score']

METRIC_VERSION_AGREEMENT_LABEL_KIND_VALUES: set[MetricVersionAgreementLabelKind] = { 'mixed', 'pass_fail', 'score',  }

def check_metric_version_agreement_label_kind(value: str) -> MetricVersionAgreementLabelKind:
    if value in METRIC_VERSION_AGREEMENT_LABEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {METRIC_VERSION_AGREEMENT_LABEL_KIND_VALUES!r}")
