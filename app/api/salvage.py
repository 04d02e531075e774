"""A request body read field by field, for checking what it can past a failed schema."""

from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

M = TypeVar("M", bound=BaseModel)


@lru_cache(maxsize=256)
def _field_adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    info = model.model_fields[name]
    if not info.metadata:
        return TypeAdapter(info.annotation)
    return TypeAdapter(Annotated[(info.annotation, *info.metadata)])  # type: ignore[valid-type]


def salvage(model: type[M], body: Mapping[str, Any]) -> tuple[M, frozenset[str]]:
    """The model built from the fields of `body` that pass their own schema (absent ones take
    their defaults), and the names of the fields that do not, or are required and absent.

    Model validators do not run: their errors are the schema's to report; a check of the
    salvaged model leaves the refused fields alone.
    """
    values: dict[str, Any] = {}
    refused: set[str] = set()
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key not in body:
            if info.is_required():
                refused.add(name)
            else:
                values[name] = info.get_default(call_default_factory=True)
            continue
        try:
            values[name] = _field_adapter(model, name).validate_python(body[key])
        except ValidationError:
            refused.add(name)
    return model.model_construct(**values), frozenset(refused)


def items(value: Any) -> list[Any]:
    """A body's list field as a list (anything else: none), for checking item by item."""
    return value if isinstance(value, list) else []


def valid(adapter: TypeAdapter[Any], raw: Any) -> tuple[Any, bool]:
    """`raw` through `adapter`, and whether it passed (None and False when it did not)."""
    try:
        return adapter.validate_python(raw), True
    except ValidationError:
        return None, False
