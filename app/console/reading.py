"""Formatting for the test-case and comparison pages: scales, counted words, what a verdict is
about (a statement, a node, an image), comparison notes in plain words.

Pure functions of what services return; no queries here.
"""

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.console.views import parts


def plural(count: int | None, word: str, words: str | None = None) -> str:
    """`1 call`, `2 calls`; `words` for an irregular plural (`1 was`, `2 were`)."""
    number = count or 0
    return f"{number} {word if number == 1 else words or word + 's'}"


def _number(value: Any) -> str:
    return f"{float(value):g}"


def score_scale(metric_type: str, spec: Mapping[str, Any] | None) -> str:
    """The range a metric's stored score lies in, as the page says it (`0–1`, `0–100 dB`)."""
    spec = spec or {}
    if metric_type == "psnr":
        return f"0–{_number(spec.get('max_db', 100))} dB"
    if metric_type == "ssim":
        return "−1–1"
    if metric_type == "score_model":
        low, high = spec.get("range") or (0, 1)
        return f"{_number(low)}–{_number(high)}"
    return "0–1"


def judge_scale(logs: Mapping[str, Any]) -> str:
    """The range a G-Eval judge scored in: its rubric's span, else 0–10."""
    rubric = logs.get("rubric") or []
    if rubric:
        low = min(item["score_range"][0] for item in rubric)
        high = max(item["score_range"][1] for item in rubric)
        return f"{_number(low)}–{_number(high)}"
    return "0–10"


_WHERE = {
    "input": "the input",
    "actual_output": "the actual output",
    "expected_output": "the expected output",
    "retrieval_context": "the retrieval context",
    "context": "the context",
}


def _field_images(result: Any, case: Any, field: str) -> list[str]:
    """The digests of a field's images, in order: those the metric was shown (`logs.media`),
    else (results stored before it listed them per metric) the field's own."""
    media = (getattr(result, "logs", None) or {}).get("media") or []
    shown = [
        entry["sha256"]
        for entry in media
        if isinstance(entry, Mapping)
        and entry.get("sha256")
        and str(entry.get("field", "")).split("[", 1)[0] == field
    ]
    if shown:
        return shown
    value = getattr(case, field, None) if case is not None else None
    contents = value if field in ("context", "retrieval_context") else [value]
    return [
        part["digest"]
        for content in contents or []
        for part in parts(content)
        if part["kind"] == "image" and part.get("digest")
    ]


def _image(digests: list[str], number: int, field: str) -> dict[str, Any]:
    return {
        "image": {
            "digest": digests[number - 1] if 0 < number <= len(digests) else None,
            "number": number,
            "count": len(digests),
            "where": _WHERE.get(field, field.replace("_", " ")),
        }
    }


def _context_nodes(case: Any) -> list[tuple[str, Any]]:
    """The retrieval context as the judge numbers its nodes (app.metrics._render.nodes): each
    text run and each image of a passage is a node; ("text", words) or ("image", number)."""
    nodes: list[tuple[str, Any]] = []
    images = 0
    for passage in getattr(case, "retrieval_context", None) or []:
        pending: list[str] = []
        for part in parts(passage):
            if part["kind"] == "text":
                pending.append(part["text"])
                continue
            if pending:
                nodes.append(("text", "\n".join(pending)))
                pending = []
            if part["kind"] == "image":
                images += 1
                nodes.append(("image", images))
        if pending:
            nodes.append(("text", "\n".join(pending)))
    return nodes


def verdict_subjects(result: Any, case: Any) -> list[dict[str, Any] | None]:
    """What each of a result's verdicts judged, in order: `{"text": ...}` (a claim, statement or
    text node) or `{"image": {digest, number, count, where}}`; None when the logs do not say."""
    logs = getattr(result, "logs", None) or {}
    verdicts = logs.get("verdicts")
    if not isinstance(verdicts, list):
        return []
    subjects: list[dict[str, Any] | None] = []
    if getattr(result, "type", None) == "contextual_precision":
        nodes = _context_nodes(case)
        digests = _field_images(result, case, "retrieval_context")
        for index, _ in enumerate(verdicts):
            if index >= len(nodes):
                subjects.append(None)
            elif nodes[index][0] == "image":
                subjects.append(_image(digests, nodes[index][1], "retrieval_context"))
            else:
                subjects.append({"text": nodes[index][1]})
        return subjects
    digests: list[str] | None = None
    for verdict in verdicts:
        said = (
            verdict.get("claim") or verdict.get("statement") if isinstance(verdict, dict) else None
        )
        if said:
            subjects.append({"text": said})
        elif isinstance(verdict, dict) and isinstance(verdict.get("image"), int):
            # answer_relevancy judges each image of the output as a statement of its own.
            if digests is None:
                digests = _field_images(result, case, "actual_output")
            subjects.append(_image(digests, verdict["image"], "actual_output"))
        else:
            subjects.append(None)
    return subjects


def image_scores(result: Any, case: Any) -> list[dict[str, Any]]:
    """image_coherence / helpfulness / reference: each judged image of the output with its
    score on the judge's 0–10 scale and the judge's reasoning."""
    logs = getattr(result, "logs", None) or {}
    images = logs.get("images")
    if not isinstance(images, list):
        return []
    digests = _field_images(result, case, "actual_output")
    return [
        {
            **_image(digests, number, "actual_output"),
            "judge_score": item.get("score") * 10
            if isinstance(item.get("score"), int | float)
            else None,
            "reasoning": item.get("reasoning"),
        }
        for number, item in enumerate(images, start=1)
        if isinstance(item, dict)
    ]


# Spec settings by the words a reader knows them by.
_SETTINGS = {
    "criteria": "criteria",
    "evaluation_steps": "evaluation steps",
    "evaluation_params": "test-case fields shown to the judge",
    "rubric": "rubrics",
    "judge": "judges",
    "model": "judge models",
    "strict_mode": "strict-mode settings",
    "include_reason": "reason settings",
    "top_logprobs": "log-probability settings",
    "evaluation_template": "prompt templates",
    "max_db": "PSNR caps",
    "n": "n-gram orders",
}
_THRESHOLDS = re.compile(r"^thresholds differ \(baseline (?P<b>[^,]*), candidate (?P<c>[^)]*)\)")
_SETTINGS_NOTE = re.compile(r"^the metric's settings differ \((?P<keys>[^)]*)\)")
_NO_SPREAD = "no minimum detectable effect: every item's difference is the same"
_UNDECIDED = "the verdict is undecided"
_NOTHING_COMPARED = "the verdict is undecided: no item was scored on both sides"
_TOO_FEW = re.compile(r"^no interval from (?P<n>\d+) (?:pair|pairs): at least (?P<m>\d+)")
_FRAGILE_COUNTED = "fragile items (the judgments straddle the threshold)"
_FRAGILE_SET_ASIDE = re.compile(r"^(?P<n>\d+) matched items? fragile on either side")
_ALPHA_HIGH = re.compile(r"^no minimum detectable effect at alpha (?P<a>[\d.eE+-]+)")
_ALPHA_SMALL = re.compile(
    r"^no minimum detectable effect: alpha (?P<a>[\d.eE+-]+) is too small for n = (?P<n>\d+)"
)


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plain_notes(comparison: Any) -> list[str]:
    """A metric comparison's notes as sentences a person reads (the API's notes name fields
    and statistics); a note without a known shape is shown as it is, as a sentence."""
    name = getattr(comparison, "metric", "")
    said = []
    for note in getattr(comparison, "notes", None) or []:
        text = str(note)
        if found := _THRESHOLDS.match(text):
            said.append(
                f"The two evaluations pass {name} at different thresholds ({found['b']} on the "
                f"baseline, {found['c']} on the candidate), so their pass rates are not compared; "
                "the scores are."
            )
        elif found := _SETTINGS_NOTE.match(text):
            keys = getattr(comparison, "settings_differ", None) or [
                key.strip() for key in found["keys"].split(",") if key.strip()
            ]
            words = [_SETTINGS.get(key, key.replace("_", " ")) for key in keys]
            said.append(
                f"The two evaluations judged {name} with different {_listed(words)}, so their "
                "scores may not be comparable."
            )
        elif text.startswith(_NOTHING_COMPARED):
            said.append(
                "No test case was scored on both sides (no shared id, or every shared one "
                "errored on a side), so nothing was compared and there is no verdict."
            )
        elif text.startswith(_UNDECIDED):
            if any(_TOO_FEW.match(str(other)) for other in comparison.notes):
                continue  # the count of pairs says why; the badge says undecided
            said.append(
                "No verdict: without a 95% interval of the difference, a change cannot be told "
                "from noise, so this comparison does not say whether anything changed."
            )
        elif found := _TOO_FEW.match(text):
            pairs = int(found["n"])
            said.append(
                f"Only {pairs} test case{'' if pairs == 1 else 's'} scored on both sides: at "
                f"least {found['m']} are needed for an honest 95% interval of the difference."
            )
        elif text.startswith(_NO_SPREAD):
            said.append(
                "Every test case's score differs by the same amount between the two sides, so "
                "there is no spread to tell how small a change this comparison could have noticed."
            )
        elif text.startswith(_FRAGILE_COUNTED):
            counts = getattr(comparison, "fragile", None)
            base, cand = getattr(counts, "baseline", 0), getattr(counts, "candidate", 0)
            said.append(
                f"{base} test case{'' if base == 1 else 's'} on the baseline and {cand} on the "
                "candidate are fragile: judged several times, they passed some times and failed "
                "others, so whether they pass is as much the judge's doing as the output's. "
                "Compare again with fragile items set aside to see the others alone."
            )
        elif found := _FRAGILE_SET_ASIDE.match(text):
            aside = int(found["n"])
            said.append(
                f"{aside} test case{' was' if aside == 1 else 's were'} set aside as fragile on "
                "either side (judged several times, passing some times and failing others): "
                f"the figures cover the other {getattr(comparison, 'n', 0)}."
            )
        elif found := _ALPHA_HIGH.match(text):
            said.append(
                f"At a significance level of {found['a']} a change would be reported most of "
                "the time even when nothing changed, so no smallest noticeable change is given."
            )
        elif found := _ALPHA_SMALL.match(text):
            said.append(
                f"A significance level of {found['a']} is too strict for {found['n']} test "
                "cases to say how small a change this comparison could have noticed."
            )
        else:
            sentence = text[:1].upper() + text[1:]
            said.append(sentence if sentence.endswith(".") else sentence + ".")
    return said


def subject_header(subjects: Sequence[dict[str, Any] | None], text_word: str) -> str | None:
    """The heading of the column saying what each verdict judged (None: nothing to say)."""
    texts = any(subject and "text" in subject for subject in subjects)
    images = any(subject and "image" in subject for subject in subjects)
    if texts and images:
        return f"{text_word} or image"
    return "Image" if images else text_word if texts else None


# Metrics judged against the retrieval context: their changes are shown beside it.
RETRIEVAL_METRICS = frozenset(
    {"faithfulness", "contextual_precision", "contextual_recall", "contextual_relevancy"}
)


def by_test_case(items: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """Moved items grouped by test case, in the order each case first appears (largest change
    first), so a case and its images are shown once with every metric that moved on it."""
    groups: dict[str, list[Any]] = {}
    for item in items:
        groups.setdefault(item.test_case_id, []).append(item)
    return list(groups.items())
