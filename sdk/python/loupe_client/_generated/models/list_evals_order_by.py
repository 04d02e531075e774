from typing import Literal

ListEvalsOrderBy = Literal['created_at', 'updated_at']

LIST_EVALS_ORDER_BY_VALUES: set[ListEvalsOrderBy] = { 'created_at', 'updated_at',  }

def check_list_evals_order_by(value: str) -> ListEvalsOrderBy:
    if value in LIST_EVALS_ORDER_BY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_EVALS_ORDER_BY_VALUES!r}")
