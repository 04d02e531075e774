"""An evaluation submitted again: its stored test cases, metrics and judge as a new submission.

Images come back from the blob store as data URLs (they are taken in again, and stored once
by content, so a re-run stores no image twice). The console shows the submission's estimate
before it is made.
"""

from typing import Any

from sqlalchemy.orm import Session

from app.evaluations import reads
from app.evaluations.schemas import EvaluationCreate
from app.media.store import DatabaseBlobStore, digest_of
from app.models import Evaluation, Tenant

_PAGE = 1000
_CONTENT = ("input", "actual_output", "expected_output")
_NODES = ("context", "retrieval_context")
_CONVERSATION = ("scenario", "expected_outcome")
_PLAIN = ("tools_called", "expected_tools", "chatbot_role", "user_description")


def resubmission(session: Session, tenant: Tenant, evaluation: Evaluation) -> EvaluationCreate:
    """The body that submits `evaluation` again (no webhook: the re-run is watched here)."""
    rows: list[Any] = []
    after = None
    while True:
        page = reads.test_case_page(session, tenant, evaluation, after, _PAGE) or []
        rows.extend(page[:_PAGE])
        if len(page) <= _PAGE:
            break
        after = page[_PAGE - 1].id
    store = DatabaseBlobStore(session)
    wanted: set[str] = set()
    for row in rows:
        for name in (*_CONTENT, *_NODES, *_CONVERSATION, "turns"):
            wanted.update(_digests(getattr(row, name)))
    images = {digest: image.data_url() for digest, image in store.get_many(wanted).items()}
    cases = []
    for row in rows:
        case: dict[str, Any] = {"id": row.client_id, "metadata": row.metadata_}
        for name in _CONTENT:
            case[name] = _content(getattr(row, name), images)
        for name in _NODES:
            nodes = getattr(row, name)
            case[name] = None if nodes is None else [_content(node, images) for node in nodes]
        for name in _CONVERSATION:
            case[name] = _content(getattr(row, name), images)
        for name in _PLAIN:
            case[name] = getattr(row, name)
        if row.turns is not None:
            case["turns"] = [_turn(turn, images) for turn in row.turns]
        cases.append(case)
    record = evaluation.judge or {}
    judge = None
    if record.get("model_id"):
        judge = {"model_id": record["model_id"], "model": record.get("model")}
    elif record.get("model"):
        judge = {"model": record["model"]}
    name = f"{evaluation.name or evaluation.id} (re-run)"[:256]
    return EvaluationCreate.model_validate(
        {
            "name": name,
            "metadata": evaluation.metadata_ or None,
            "test_cases": cases,
            "metrics": evaluation.metrics,
            "judge": judge,
            "cache": evaluation.use_cache,
            "cluster_by": evaluation.cluster_by,
        }
    )


def _turn(turn: dict[str, Any], images: dict[str, str]) -> dict[str, Any]:
    out = {**turn, "content": _content(turn.get("content"), images)}
    if turn.get("retrieval_context") is not None:
        out["retrieval_context"] = [_content(node, images) for node in turn["retrieval_context"]]
    return out


def _digests(content: Any) -> list[str]:
    if isinstance(content, dict) and content.get("type") != "image_url":
        # A conversation's turn: its content and retrieval context.
        return _digests(content.get("content")) + _digests(content.get("retrieval_context"))
    if isinstance(content, list):
        return [digest for item in content for digest in _digests(item)]
    if isinstance(content, dict) and content.get("type") == "image_url":
        digest = digest_of(content["image_url"]["url"])
        return [digest] if digest else []
    return []


def _content(content: Any, images: dict[str, str]) -> Any:
    """Stored content as a submission carries it: blob references as data URLs."""
    if not isinstance(content, list):
        return content
    parts = []
    for part in content:
        if isinstance(part, dict) and part.get("type") == "image_url":
            image = dict(part["image_url"])
            digest = digest_of(image["url"])
            if digest is not None:
                image["url"] = images[digest]
            parts.append({"type": "image_url", "image_url": image})
        else:
            parts.append(part)
    return parts
