from typing import Literal

OutputItemStatus = Literal['error', 'fail', 'pass']

OUTPUT_ITEM_STATUS_VALUES: set[OutputItemStatus] = { 'error', 'fail', 'pass',  }

def check_output_item_status(value: str) -> OutputItemStatus:
    if value in OUTPUT_ITEM_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {OUTPUT_ITEM_STATUS_VALUES!r}")
