from typing import Literal

UnmatchedItemSide = Literal['baseline', 'candidate']

UNMATCHED_ITEM_SIDE_VALUES: set[UnmatchedItemSide] = { 'baseline', 'candidate',  }

def check_unmatched_item_side(value: str) -> UnmatchedItemSide:
    if value in UNMATCHED_ITEM_SIDE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {UNMATCHED_ITEM_SIDE_VALUES!r}")
