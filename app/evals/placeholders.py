"""The `{{ path }}` placeholders of a criterion or of a completions run's template, checked at
create: one that is no path into a namespace its place has (`{{ answer }}`, `{{ samples.x }}`,
`{{ sample.output_text }}` in what the model is asked) would error every row with
`template_variable_missing`, so it is a 400 naming the field it was written in instead."""

from typing import Any

from app.metrics import TemplateError, path_steps, template_paths
from app.problems import Collected, bad_request

Path = list[str | int]


def message_strings(messages: Any, base: Path) -> list[tuple[Path, str]]:
    """Every templated string of EvalItem messages with its place: string content, a part's
    `text` or `image_url`, a bare string part."""
    found: list[tuple[Path, str]] = []
    for position, message in enumerate(messages if isinstance(messages, list) else []):
        content = message.get("content") if isinstance(message, dict) else None
        at: Path = [*base, position, "content"]
        if isinstance(content, str):
            found.append((at, content))
            continue
        if isinstance(content, dict):
            parts: list[tuple[Path, Any]] = [([], content)]
        elif isinstance(content, list):
            parts = [([index], part) for index, part in enumerate(content)]
        else:
            parts = []
        for where, part in parts:
            if isinstance(part, str):
                found.append(([*at, *where], part))
            elif isinstance(part, dict):
                found.extend(
                    ([*at, *where, field], part[field])
                    for field in ("text", "image_url")
                    if isinstance(part.get(field), str)
                )
    return found


def check(strings: list[tuple[Path, str]], namespaces: tuple[str, ...], why: str) -> None:
    """Raise one 400 naming every string with a placeholder that is not a path into one of
    `namespaces`; `why` says why no row could fill it."""
    allowed = " or ".join(f"{name}.*" for name in namespaces)
    problems = Collected()
    for path, template in strings:
        try:
            placeholders = template_paths(template)
        except TemplateError as error:
            placeholders = [error.path]  # not a path at all, or into no namespace
        for placeholder in placeholders:
            try:
                known = path_steps(placeholder)[0] in namespaces
            except TemplateError:
                known = False
            if not known:
                message = f"template variable {{{{ {placeholder} }}}} is not a path into {allowed}"
                problems.add(bad_request(f"{message}: {why}", path))
                break
    problems.raise_if_any()
