from typing import Literal

RougeSpecVariant = Literal['1', '2', 'l']

ROUGE_SPEC_VARIANT_VALUES: set[RougeSpecVariant] = { '1', '2', 'l',  }

def check_rouge_spec_variant(value: str) -> RougeSpecVariant:
    if value in ROUGE_SPEC_VARIANT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROUGE_SPEC_VARIANT_VALUES!r}")
