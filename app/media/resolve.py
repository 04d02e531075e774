"""Turn stored blob references back into the image parts judges receive.

Stored test cases carry `{"type": "image_url", "image_url": {"url": "blob:sha256:<hex>"},
"blob": {...sizes...}}`; metrics get `{"type": "image_url", "image_url": {"url":
"data:image/...;base64,..."}, "sha256": <hex>}` with the normalised image (the judge client
drops `sha256` before sending; its cache keys images by it), and results log the sizes.
"""

from collections.abc import Iterable
from typing import Any

from app.media.ingest import CONTENT_FIELDS, NODE_FIELDS, conversation_contents
from app.media.store import BlobStore, digest_of


def _media_url(part: Any) -> str | None:
    """The URL of an image or audio part, else None."""
    if not isinstance(part, dict):
        return None
    if part.get("type") == "image_url":
        return part["image_url"]["url"]
    if part.get("type") == "input_audio":
        return part["input_audio"]["data"]
    return None


def _contents(case: Any) -> Iterable[tuple[str, Any]]:
    """(field location, content) for every content value of a stored test case row."""
    for name in CONTENT_FIELDS:
        yield name, getattr(case, name)
    for name in NODE_FIELDS:
        for index, node in enumerate(getattr(case, name) or []):
            yield f"{name}[{index}]", node
    # A conversation's turns, scenario and expected outcome.
    turns = getattr(case, "turns", None)
    if turns is not None:
        for path, content in conversation_contents(
            turns, getattr(case, "scenario", None), getattr(case, "expected_outcome", None)
        ):
            yield _location(path), content
    # A run's candidate messages (app/runs) carry images and audio too.
    for index, message in enumerate(getattr(case, "messages", None) or []):
        yield f"messages[{index}].content", message.get("content")


def _location(path: list[str | int]) -> str:
    """["turns", 2, "retrieval_context", 0] as `turns[2].retrieval_context[0]`."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


class CaseImages:
    """The data URLs of every image a slice of test cases references, each loaded once."""

    def __init__(self, store: BlobStore, cases: Iterable[Any]) -> None:
        digests = {
            digest
            for case in cases
            for _, content in _contents(case)
            if isinstance(content, list)
            for part in content
            if (url := _media_url(part)) is not None and (digest := digest_of(url)) is not None
        }
        # One string per image, shared by every part that shows it.
        self.data_urls = {
            digest: image.data_url() for digest, image in store.get_many(digests).items()
        }

    def content(self, content: Any, field: str | None = None) -> Any:
        """`content` with blob references replaced by data URLs, in the judge's part shape.

        With `field` (`actual_output`, `retrieval_context[1]`), each image part carries its
        place as `case_field` (`actual_output[2]`, as `media` names it), so a result lists the
        images its metric was shown by place; the judge client strips it with `sha256`.
        """
        if not isinstance(content, list):
            return content
        resolved: list[Any] = []
        for index, part in enumerate(content):
            if isinstance(part, dict) and part.get("type") == "image_url":
                image_url = dict(part["image_url"])
                digest = digest_of(image_url["url"])
                image: dict[str, Any] = {"type": "image_url", "image_url": image_url}
                if digest is not None and digest in self.data_urls:
                    image_url["url"] = self.data_urls[digest]
                    # The judge cache keys images by this; the judge client strips it.
                    image["sha256"] = digest
                if field is not None:
                    image["case_field"] = f"{field}[{index}]"
                resolved.append(image)
            else:
                resolved.append(part)
        return resolved

    def turns(self, turns: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        """A conversation's turns with their images (content and retrieval context) resolved,
        each image part carrying its place (`turns[2].content[1]`)."""
        if turns is None:
            return None
        resolved = []
        for number, turn in enumerate(turns):
            place = f"turns[{number}]"
            out = {**turn, "content": self.content(turn.get("content"), f"{place}.content")}
            if turn.get("retrieval_context") is not None:
                out["retrieval_context"] = self.nodes(
                    turn["retrieval_context"], f"{place}.retrieval_context"
                )
            resolved.append(out)
        return resolved

    def messages(self, messages: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        """Chat messages as a model receives them: images as data URLs, audio as raw base64."""
        resolved = []
        for message in messages or []:
            content = self.content(message.get("content"))
            if isinstance(content, list):
                content = [self._audio(part) for part in content]
            resolved.append({**message, "content": content})
        return resolved

    def _audio(self, part: Any) -> Any:
        if not (isinstance(part, dict) and part.get("type") == "input_audio"):
            return part
        digest = digest_of(part["input_audio"]["data"])
        if digest is None or digest not in self.data_urls:
            return part
        # OpenAI's input_audio takes the bare base64, not a data URL.
        data = self.data_urls[digest].split(",", 1)[1]
        return {"type": "input_audio", "input_audio": {**part["input_audio"], "data": data}}

    def nodes(self, nodes: list[Any] | None, field: str | None = None) -> list[Any] | None:
        if nodes is None:
            return None
        return [
            self.content(node, None if field is None else f"{field}[{index}]")
            for index, node in enumerate(nodes)
        ]

    def media(self, case: Any) -> list[dict[str, Any]]:
        """One log entry per image of a test case: where it is, its original and sent sizes."""
        entries = []
        for location, content in _contents(case):
            if not isinstance(content, list):
                continue
            for index, part in enumerate(content):
                if not (isinstance(part, dict) and part.get("type") == "image_url"):
                    continue
                digest = digest_of(part["image_url"]["url"])
                entry: dict[str, Any] = {"field": f"{location}[{index}]", **part.get("blob", {})}
                if digest is not None and digest not in self.data_urls:
                    entry["error"] = "the stored image is missing"
                entries.append(entry)
        return entries
