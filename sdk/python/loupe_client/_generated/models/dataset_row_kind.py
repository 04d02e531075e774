from typing import Literal

DatasetRowKind = Literal['mcq', 'vqa']

DATASET_ROW_KIND_VALUES: set[DatasetRowKind] = { 'mcq', 'vqa',  }

def check_dataset_row_kind(value: str) -> DatasetRowKind:
    if value in DATASET_ROW_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DATASET_ROW_KIND_VALUES!r}")
