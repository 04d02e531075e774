from typing import Literal

BodyCreateDatasetFormat = Literal['general_vmcq', 'general_vqa', 'vlmeval_mcq', 'vlmeval_vqa']

BODY_CREATE_DATASET_FORMAT_VALUES: set[BodyCreateDatasetFormat] = { 'general_vmcq', 'general_vqa', 'vlmeval_mcq', 'vlmeval_vqa',  }

def check_body_create_dataset_format(value: str) -> BodyCreateDatasetFormat:
    if value in BODY_CREATE_DATASET_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {BODY_CREATE_DATASET_FORMAT_VALUES!r}")
