from typing import Literal

CalibratedMeanEstimand = Literal['mean', 'pass_rate']

CALIBRATED_MEAN_ESTIMAND_VALUES: set[CalibratedMeanEstimand] = { 'mean', 'pass_rate',  }

def check_calibrated_mean_estimand(value: str) -> CalibratedMeanEstimand:
    if value in CALIBRATED_MEAN_ESTIMAND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CALIBRATED_MEAN_ESTIMAND_VALUES!r}")
