from typing import Literal

StoredDataSourceConfigType = Literal['logs', 'stored_completions']

STORED_DATA_SOURCE_CONFIG_TYPE_VALUES: set[StoredDataSourceConfigType] = { 'logs', 'stored_completions',  }

def check_stored_data_source_config_type(value: str) -> StoredDataSourceConfigType:
    if value in STORED_DATA_SOURCE_CONFIG_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STORED_DATA_SOURCE_CONFIG_TYPE_VALUES!r}")
