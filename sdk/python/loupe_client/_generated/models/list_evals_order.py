from typing import Literal

ListEvalsOrder = Literal['asc', 'desc']

LIST_EVALS_ORDER_VALUES: set[ListEvalsOrder] = { 'asc', 'desc',  }

def check_list_evals_order(value: str) -> ListEvalsOrder:
    if value in LIST_EVALS_ORDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVALS_ORDER_VALUES!r}")
