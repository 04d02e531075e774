from typing import Literal

ExportEvaluationResultsStatusType0 = Literal['errored', 'failed', 'passed']

EXPORT_EVALUATION_RESULTS_STATUS_TYPE_0_VALUES: set[ExportEvaluationResultsStatusType0] = { 'errored', 'failed', 'passed',  }

def check_export_evaluation_results_status_type_0(value: str) -> ExportEvaluationResultsStatusType0:
    if value in EXPORT_EVALUATION_RESULTS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_EVALUATION_RESULTS_STATUS_TYPE_0_VALUES!r}")
