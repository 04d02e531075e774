from typing import Literal

ExportLabelsFormat = Literal['csv', 'jsonl']

EXPORT_LABELS_FORMAT_VALUES: set[ExportLabelsFormat] = { 'csv', 'jsonl',  }

def check_export_labels_format(value: str) -> ExportLabelsFormat:
    if value in EXPORT_LABELS_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_LABELS_FORMAT_VALUES!r}")
