from typing import Literal

ExportEvaluationResultsFormat = Literal['csv', 'jsonl']

EXPORT_EVALUATION_RESULTS_FORMAT_VALUES: set[ExportEvaluationResultsFormat] = { 'csv', 'jsonl',  }

def check_export_evaluation_results_format(value: str) -> ExportEvaluationResultsFormat:
    if value in EXPORT_EVALUATION_RESULTS_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_EVALUATION_RESULTS_FORMAT_VALUES!r}")
