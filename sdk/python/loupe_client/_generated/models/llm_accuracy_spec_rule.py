from typing import Literal

LlmAccuracySpecRule = Literal['choice_accuracy', 'rouge']

LLM_ACCURACY_SPEC_RULE_VALUES: set[LlmAccuracySpecRule] = { 'choice_accuracy', 'rouge',  }

def check_llm_accuracy_spec_rule(value: str) -> LlmAccuracySpecRule:
    if value in LLM_ACCURACY_SPEC_RULE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LLM_ACCURACY_SPEC_RULE_VALUES!r}")
