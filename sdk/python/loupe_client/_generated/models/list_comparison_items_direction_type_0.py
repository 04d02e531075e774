from typing import Literal

ListComparisonItemsDirectionType0 = Literal['improved', 'regressed']

LIST_COMPARISON_ITEMS_DIRECTION_TYPE_0_VALUES: set[ListComparisonItemsDirectionType0] = { 'improved', 'regressed',  }

def check_list_comparison_items_direction_type_0(value: str) -> ListComparisonItemsDirectionType0:
    if value in LIST_COMPARISON_ITEMS_DIRECTION_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_COMPARISON_ITEMS_DIRECTION_TYPE_0_VALUES!r}")
