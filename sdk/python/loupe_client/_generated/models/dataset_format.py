from typing import Literal

DatasetFormat = Literal['general_vmcq', 'general_vqa', 'vlmeval_mcq', 'vlmeval_vqa']

DATASET_FORMAT_VALUES: set[DatasetFormat] = { 'general_vmcq', 'general_vqa', 'vlmeval_mcq', 'vlmeval_vqa',  }

def check_dataset_format(value: str) -> DatasetFormat:
    if value in DATASET_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DATASET_FORMAT_VALUES!r}")
