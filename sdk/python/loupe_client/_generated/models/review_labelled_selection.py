from typing import Literal

ReviewLabelledSelection = Literal['random', 'routed']

REVIEW_LABELLED_SELECTION_VALUES: set[ReviewLabelledSelection] = { 'random', 'routed',  }

def check_review_labelled_selection(value: str) -> ReviewLabelledSelection:
    if value in REVIEW_LABELLED_SELECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_LABELLED_SELECTION_VALUES!r}")
