"""Formatting for templates: plain-words errors, content parts to render, histogram geometry.

Pure functions of what services return; no queries here.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from app.media.store import digest_of
from app.plain_errors import pydantic_message

_ROLE_WORDS = {"judge": "The judge model", "candidate": "The candidate model"}
# `<role>_<kind>` error types (app/judges/_errors.py) in words; the message adds the host.
_PROBLEMS = {
    "auth": "refused the API key Loupe sent. Check the endpoint's key setting.",
    "quota": "reported that its account is out of quota.",
    "rate_limited": "kept answering 'too many requests' until Loupe gave up retrying.",
    "server_error": "kept failing on its side (5xx answers) until Loupe gave up retrying.",
    "unavailable": "was unavailable (5xx answers) until Loupe gave up retrying.",
    "timeout": "did not answer in time, on every attempt.",
    "unreachable": "could not be reached: the connection was refused or dropped.",
    "connection": "could not be reached (connection failed on every attempt).",
    "dns": "has a host name that could not be resolved.",
    "tls": "failed the TLS check (certificate or handshake).",
    "malformed": "answered with something Loupe could not use: not a chat completion, or "
    "not the JSON asked for even after Loupe asked it once to repair it.",
    "bad_request": "refused the request as invalid.",
    "error": "answered with an error Loupe does not retry.",
    "blocked": "is at an address the operator's model policy (LOUPE_MODEL_ALLOW) does not "
    "allow, so Loupe did not connect to it.",
}
# Every other error type a result (or an evaluation) can carry, in words. A new type needs
# its sentence here: tests/console/test_pages_audit.py finds the types in app/ and checks.
_PLAIN = {
    "canceled": "The evaluation was canceled before this result was made; the judge calls it "
    "had made count in the evaluation's usage.",
    "invalid_answer": "The judge answered, but its answer did not fit the question (such as "
    "a verdict count other than the items asked about, or a score outside the asked range), "
    "even after Loupe asked it once to correct it, so no score is stored.",
    "invalid_json": "The judge's answer was not the JSON Loupe asked for, even after Loupe "
    "asked it once to repair it.",
    "judge_not_configured": "No judge endpoint is configured (set LOUPE_JUDGE_BASE_URL).",
    "invalid_test_case": "The test case lacks something this metric needs.",
    "input_too_long": "A text is longer than this metric scores (4,096 tokens a side; "
    "fuzzy_match 4,096 characters), so it was not scored.",
    "invalid_image": "An image this metric compares could not be read, or the two images "
    "could not be compared.",
    "empty_text": "A side is empty: the cosine similarity needs a non-empty input and reference.",
    "invalid_embedding": "The embeddings endpoint answered with vectors Loupe could not compare.",
    "non_finite_score": "The metric computed a score that is not a finite number, so no "
    "score is stored.",
    "not_applicable": "The conversation has nothing this metric judges (no reply to a user, "
    "no user turn), so no score is given.",
    "missing_retrieval_context": "No assistant turn of the conversation has a retrieval "
    "context, so there is nothing for this metric to judge.",
    "metric_error": "The metric stopped on an unexpected error inside Loupe.",
    "budget_exceeded": "The tenant's daily budget was spent, so Loupe made no further model "
    "calls for this result.",
    "candidate_missing": "The candidate model was deleted before this sample was answered.",
    "candidate_secret": "The candidate model's stored API key cannot be decrypted with this "
    "server's LOUPE_SECRET_KEY.",
    "render_error": "The grader's template could not be filled in for this row.",
    "template_variable_missing": "The grader's template names a field this row does not have.",
    "image_unavailable": "The grader's template refers to an image this run did not store.",
    "unsupported_content": "The row holds content the grader's template cannot show the model.",
    "model_not_found": "No model by that name is registered for this tenant.",
    "dispatch_exhausted": "The evaluation's jobs were lost too many times (workers stopped or "
    "crashed) and Loupe stopped retrying.",
}
# The sentence for a type no entry above says (a test keeps every stored type listed).
UNKNOWN_ERROR = "The metric failed ({kind})."


def plain_error(error: Any) -> str | None:
    """An error's type said in words a person reads; the message is shown beside it.

    Args:
        error: an `ErrorInfo` as services return it, or a stored `{type, message}` dict.
    """
    if not error:
        return None
    kind = str((error.get("type") if isinstance(error, Mapping) else error.type) or "")
    if kind in _PLAIN:
        return _PLAIN[kind]
    role, _, problem = kind.partition("_")
    if role in _ROLE_WORDS and problem in _PROBLEMS:
        return f"{_ROLE_WORDS[role]} {_PROBLEMS[problem]}"
    return UNKNOWN_ERROR.format(kind=kind or "unknown error")


# Chat roles as a reader names the speakers.
_SPEAKERS = {
    "system": "System",
    "developer": "Developer",
    "user": "User",
    "assistant": "Assistant",
    "tool": "Tool result",
}


def speaker(role: Any) -> str:
    """Who says a chat message, in words (`user` → `User`)."""
    return _SPEAKERS.get(str(role), str(role).replace("_", " ").capitalize())


# llm_accuracy's verdicts (EvalScope's vocabulary), as a reader says them.
_VERDICTS = {"A": "correct", "B": "incorrect"}


def verdict(value: Any) -> str:
    """A judge's verdict in words (`A` → `correct`); an unknown one as it is."""
    return _VERDICTS.get(str(value), str(value))


# Form fields and address parts by the names the pages show.
_FIELD_WORDS = {
    "baseline_id": "Baseline",
    "candidate_id": "Candidate",
    "api_key": "API key",
    "csrf_token": "form token",
    "index": "test case number",
}


def invalid_request(errors: Sequence[Mapping[str, Any]]) -> str:
    """What is wrong with a form or an address a page could not read, field by field."""
    said = []
    for error in errors[:3]:
        where, *path = error.get("loc") or ("request",)
        name = str(path[-1]) if path else str(where)
        words = _FIELD_WORDS.get(name, name.replace("_", " "))
        limits = error.get("ctx") or {}
        kind = error.get("type")
        if kind == "string_too_long":
            why = f"is longer than {limits.get('max_length')} characters"
        elif kind == "less_than_equal":
            why = f"must be at most {limits.get('le')}"
        elif kind == "greater_than_equal":
            why = f"must be at least {limits.get('ge')}"
        elif kind == "int_parsing":
            why = "must be a whole number"
        elif kind == "missing":
            why = "is missing"
        else:
            why = f"is not valid ({pydantic_message(error)})"
        if where == "body":
            said.append(f"The form's {words} field {why}.")
        else:
            said.append(f"The {words} in the address {why}.")
    return " ".join(said) or "The request has a value this page does not understand."


def outcome(passed: bool | None, error: Any) -> str:
    """`passed`, `failed` or `errored`: how a result is labelled and filtered."""
    if error:
        return "errored"
    return "passed" if passed else "failed" if passed is False else "unscored"


def parts(content: Any) -> list[dict[str, Any]]:
    """Stored content as a list of parts to render: text, image (a digest) or audio; each
    image and clip carries its `number` among the images (or clips) only, for its alt text."""
    rendered = _parts(content)
    counts: dict[str, int] = {}
    for part in rendered:
        if part["kind"] != "text":
            counts[part["kind"]] = part["number"] = counts.get(part["kind"], 0) + 1
    return rendered


def _parts(content: Any) -> list[dict[str, Any]]:
    if content is None:
        return []
    if isinstance(content, str):
        return [{"kind": "text", "text": content}]
    if isinstance(content, dict) and "content" in content:  # a chat message
        return _parts(content["content"])
    rendered: list[dict[str, Any]] = []
    for part in content if isinstance(content, list) else [content]:
        if isinstance(part, str):
            rendered.append({"kind": "text", "text": part})
        elif not isinstance(part, dict):
            rendered.append({"kind": "text", "text": str(part)})
        elif part.get("type") == "text":
            rendered.append({"kind": "text", "text": part.get("text", "")})
        elif part.get("type") == "image_url":
            url = part["image_url"].get("url", "")
            sent = (part.get("blob") or {}).get("sent") or {}
            rendered.append(
                {"kind": "image", "digest": digest_of(url), "url": url, "size": sent or None}
            )
        elif part.get("type") == "input_audio":
            audio = part["input_audio"]
            rendered.append(
                {"kind": "audio", "digest": digest_of(audio.get("data") or ""), "format": audio}
            )
        else:
            rendered.append({"kind": "text", "text": str(part)})
    return rendered


def histogram_bars(
    counts: list[int], width: int = 200, height: int = 48
) -> list[dict[str, float | int | str]]:
    """SVG rectangles for score bins over [0, 1] (attributes, not styles: the CSP allows none)."""
    tallest = max(counts) if counts and max(counts) else 1
    step = width / max(len(counts), 1)
    bars = []
    for index, count in enumerate(counts):
        bar = round(height * count / tallest, 1)
        low, high = index / len(counts), (index + 1) / len(counts)
        bars.append(
            {
                "x": round(index * step + 1, 1),
                "y": round(height - bar, 1),
                "width": round(step - 2, 1),
                "height": bar,
                "label": f"{low:.1f}–{high:.1f}: {count}",
            }
        )
    return bars


def pretty_json(value: Any) -> str:
    """JSON for a person to read in a <pre>: indented, characters as themselves (é, <, not
    \\u00e9 escapes); the template's autoescaping makes it safe as HTML."""
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f}%"


def score(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"


# The results table's thumbnails fit this square (CSS px); the full image is one click away.
THUMBNAIL_SIDE = 64


def first_image(case: Any) -> dict[str, Any] | None:
    """A test case's first stored image (input, then outputs, then the messages a candidate
    got) as a thumbnail: its digest and a width and height that fit THUMBNAIL_SIDE."""
    if case is None:
        return None
    turns = [turn.get("content") for turn in getattr(case, "turns", None) or []]
    for content in (case.input, case.actual_output, case.expected_output, case.messages, *turns):
        found = _first_image_part(content)
        if found is not None:
            digest, size = found
            width, height = size.get("width") or 0, size.get("height") or 0
            scale = THUMBNAIL_SIDE / max(width, height, 1)
            if not width or not height:
                width = height = THUMBNAIL_SIDE
            elif scale < 1:
                width, height = max(round(width * scale), 1), max(round(height * scale), 1)
            return {"digest": digest, "width": width, "height": height}
    return None


def _first_image_part(content: Any) -> tuple[str, dict[str, Any]] | None:
    if isinstance(content, list):
        for item in content:
            found = _first_image_part(item)
            if found is not None:
                return found
    elif isinstance(content, dict):
        if content.get("type") == "image_url":
            digest = digest_of((content.get("image_url") or {}).get("url") or "")
            if digest:
                return digest, (content.get("blob") or {}).get("sent") or {}
        elif "content" in content:  # a chat message
            return _first_image_part(content["content"])
    return None


def case_groups(results: Sequence[Any]) -> list[dict[str, Any]]:
    """Results as the table shows them: one group per test case (consecutive results of the
    same case; sorted by score, a case may come back later), its metrics under it."""
    groups: list[dict[str, Any]] = []
    for result in results:
        if not groups or groups[-1]["index"] != result.test_case_index:
            groups.append(
                {"index": result.test_case_index, "id": result.test_case_id, "results": []}
            )
        groups[-1]["results"].append(result)
    return groups
