from typing import Literal

ListOutputItemsStatusType0 = Literal['error', 'fail', 'failed', 'pass']

LIST_OUTPUT_ITEMS_STATUS_TYPE_0_VALUES: set[ListOutputItemsStatusType0] = { 'error', 'fail', 'failed', 'pass',  }

def check_list_output_items_status_type_0(value: str) -> ListOutputItemsStatusType0:
    if value in LIST_OUTPUT_ITEMS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_OUTPUT_ITEMS_STATUS_TYPE_0_VALUES!r}")
