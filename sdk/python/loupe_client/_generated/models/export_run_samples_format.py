from typing import Literal

ExportRunSamplesFormat = Literal['csv', 'jsonl']

EXPORT_RUN_SAMPLES_FORMAT_VALUES: set[ExportRunSamplesFormat] = { 'csv', 'jsonl',  }

def check_export_run_samples_format(value: str) -> ExportRunSamplesFormat:
    if value in EXPORT_RUN_SAMPLES_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_RUN_SAMPLES_FORMAT_VALUES!r}")
