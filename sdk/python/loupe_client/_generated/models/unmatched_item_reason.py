from typing import Literal

UnmatchedItemReason = Literal['duplicate_id', 'one_side']

UNMATCHED_ITEM_REASON_VALUES: set[UnmatchedItemReason] = { 'duplicate_id', 'one_side',  }

def check_unmatched_item_reason(value: str) -> UnmatchedItemReason:
    if value in UNMATCHED_ITEM_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {UNMATCHED_ITEM_REASON_VALUES!r}")
