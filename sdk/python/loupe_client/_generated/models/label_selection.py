from typing import Literal

LabelSelection = Literal['direct', 'random', 'routed']

LABEL_SELECTION_VALUES: set[LabelSelection] = { 'direct', 'random', 'routed',  }

def check_label_selection(value: str) -> LabelSelection:
    if value in LABEL_SELECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LABEL_SELECTION_VALUES!r}")
