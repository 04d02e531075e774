from typing import Literal

RunJudgeStrategy = Literal['llm', 'llm_recall', 'rule']

RUN_JUDGE_STRATEGY_VALUES: set[RunJudgeStrategy] = { 'llm', 'llm_recall', 'rule',  }

def check_run_judge_strategy(value: str) -> RunJudgeStrategy:
    if value in RUN_JUDGE_STRATEGY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RUN_JUDGE_STRATEGY_VALUES!r}")
