"""EvalScope 1.14.1's single-answer extraction, written from the reference's description
(../shared/reference/evalscope-formats.md §6) and nothing else, so tests can compare Loupe's
reading with EvalScope's instead of with constants of their own.

1. Every `ANSWER:` marker (any case, `**` allowed after the colon), last first. After it,
   LaTeX wrappers are skipped, then a bracketed label list or else a run of letters, digits,
   spaces, commas and slashes is taken, and only its leading part made of this sample's
   labels (upper case; separators, and `and`/`or` between two labels) is kept. The first
   marker whose leading part is not empty decides: exactly one label is the answer, anything
   else is no answer, and no fallback is tried.
2. No marker decided: the last upper-case character anywhere is the answer if it is a label,
   else there is no answer.
"""

import re

_MARKER = re.compile(r"ANSWER\s*:\**", re.IGNORECASE)
_WRAPPERS = ("$", "\\(", "\\boxed{", "\\text{", "\\textbf{", "\\mathbf{", "\\mathrm{", "\\fbox{")
_BRACKETED = re.compile(r"[(\[（【]\s*([A-Za-z0-9]+(?:\s*,\s*[A-Za-z0-9]+)*)\s*[)\]）】]")
_RUN = re.compile(r"[A-Za-z0-9 ,/]+")


def _skip_wrappers(text: str) -> str:
    text = text.lstrip(" *")
    while True:
        for wrapper in _WRAPPERS:
            if text.startswith(wrapper):
                text = text[len(wrapper) :].lstrip(" *")
                break
        else:
            return text


def _leading_labels(candidate: str, labels: list[str]) -> str:
    label = "|".join(re.escape(name) for name in sorted(labels, key=len, reverse=True))
    between = r"(?:\s*[,/]\s*|\s+(?:and|or)\s+|\s*)"
    match = re.match(rf"\s*(?:{label})(?:{between}(?:{label}))*", candidate)
    return match.group(0) if match else ""


def evalscope_answer(completion: str, labels: list[str]) -> str | None:
    """The label EvalScope 1.14.1 extracts from `completion`, or None for no answer."""
    for marker in reversed(list(_MARKER.finditer(completion))):
        rest = _skip_wrappers(completion[marker.end() :])
        bracketed = _BRACKETED.match(rest)
        run = bracketed.group(1) if bracketed else (m.group(0) if (m := _RUN.match(rest)) else "")
        leading = _leading_labels(run, labels).strip().rstrip(".")
        if leading:
            return leading if leading in labels else None
    for char in reversed(completion):
        if char.isupper():
            return char if char in labels else None
    return None
