"""Turn stored blob references back into the image parts judges receive.

Stored test cases carry `{"type": "image_url", "image_url": {"url": "blob:sha256:<hex>"},
"blob": {...sizes...}}`; metrics get `{"type": "image_url", "image_url": {"url":
"data:image/...;base64,..."}, "sha256": <hex>}` with the normalised image (the judge client
drops `sha256` before sending; its cache keys images by it), and results log the sizes.
"""

from collections.abc import Iterable
from typing import Any

from app.media.ingest import CONTENT_FIELDS, NODE_FIELDS
from app.media.store import BlobStore, digest_of


def _parts(content: Any) -> Iterable[dict[str, Any]]:
    if isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") == "image_url":
                yield part


def _contents(case: Any) -> Iterable[tuple[str, Any]]:
    """(field location, content) for every content value of a stored test case row."""
    for name in CONTENT_FIELDS:
        yield name, getattr(case, name)
    for name in NODE_FIELDS:
        for index, node in enumerate(getattr(case, name) or []):
            yield f"{name}[{index}]", node


class CaseImages:
    """The data URLs of every image a slice of test cases references, each loaded once."""

    def __init__(self, store: BlobStore, cases: Iterable[Any]) -> None:
        digests = {
            digest
            for case in cases
            for _, content in _contents(case)
            for part in _parts(content)
            if (digest := digest_of(part["image_url"]["url"])) is not None
        }
        # One string per image, shared by every part that shows it.
        self.data_urls = {
            digest: image.data_url() for digest, image in store.get_many(digests).items()
        }

    def content(self, content: Any) -> Any:
        """`content` with blob references replaced by data URLs, in the judge's part shape."""
        if not isinstance(content, list):
            return content
        resolved: list[Any] = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "image_url":
                image_url = dict(part["image_url"])
                digest = digest_of(image_url["url"])
                if digest is not None and digest in self.data_urls:
                    image_url["url"] = self.data_urls[digest]
                    # The judge cache keys images by this; the judge client strips it.
                    resolved.append({"type": "image_url", "image_url": image_url, "sha256": digest})
                else:
                    resolved.append({"type": "image_url", "image_url": image_url})
            else:
                resolved.append(part)
        return resolved

    def nodes(self, nodes: list[Any] | None) -> list[Any] | None:
        return None if nodes is None else [self.content(node) for node in nodes]

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
