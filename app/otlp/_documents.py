"""The documents a trace's retrieval spans returned: the retrieval context of its model calls."""

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from app.otlp import _conventions as conventions
from app.otlp._content import Notes, parse_json
from app.otlp._limits import Limits
from app.otlp._records import Span


def is_retrieval(span: Span) -> bool:
    """Whether the span is a retrieval step (GenAI conventions, or OpenInference's RETRIEVER)."""
    attributes = span.attributes
    return (
        attributes.get("gen_ai.operation.name") == "retrieval"
        or attributes.get("openinference.span.kind") == "RETRIEVER"
    )


def retrieval_documents(spans: Sequence[Span], limits: Limits) -> dict[str, list[tuple[int, str]]]:
    """Retrieved document texts per trace id, each with its retrieval's start, in time order."""
    documents: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for span in spans:
        attributes = span.attributes
        if attributes.get("gen_ai.operation.name") == "retrieval":
            texts = _semconv_documents(attributes.get("gen_ai.retrieval.documents"), limits)
        elif attributes.get("openinference.span.kind") == "RETRIEVER":
            notes = Notes()
            groups = conventions.indexed(
                attributes, "retrieval.documents.", limits.max_documents, notes
            )
            texts = [
                groups[position]["document.content"]
                for position in sorted(groups)
                if isinstance(groups[position].get("document.content"), str)
            ]
        else:
            continue
        documents[span.trace_id].extend((span.start_ns, text) for text in texts)
    for texts in documents.values():
        texts.sort(key=lambda item: item[0])
    return documents


def _semconv_documents(value: Any, limits: Limits) -> list[str]:
    decoded = parse_json(value, "gen_ai.retrieval.documents", Notes(), limits)
    texts = []
    for document in decoded[: limits.max_documents] if isinstance(decoded, list) else []:
        if isinstance(document, str):
            texts.append(document)
        elif isinstance(document, dict):
            for key in ("content", "text", "page_content"):
                if isinstance(document.get(key), str):
                    texts.append(document[key])
                    break
    return texts
