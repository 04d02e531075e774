"""Judge cache keys: images by content, and no data URL kept alive by the key function."""

import hashlib
import json
import sys
from typing import Any

from app.judges import cache_key


def with_image(url: str, **extra: Any) -> list[dict[str, Any]]:
    part = {"type": "image_url", "image_url": {"url": url}, **extra}
    return [{"role": "user", "content": [{"type": "text", "text": "look"}, part]}]


def big_data_url(fill: str) -> str:
    # Built at run time so each call is a new string object, not a shared constant.
    return "data:image/png;base64," + fill * 2_000_000


class TestImageKeys:
    def test_a_data_url_is_keyed_by_the_hash_of_its_text(self) -> None:
        url = big_data_url("A")
        expected = {
            "model": "m",
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "look"},
                        {"image": hashlib.sha256(url.encode()).hexdigest(), "detail": None},
                    ],
                }
            ],
            "schema": "s",
            "params": {"temperature": 0},
        }
        canonical = json.dumps(expected, sort_keys=True, separators=(",", ":"))
        key = cache_key("m", with_image(url), "s", {"temperature": 0})
        assert key == hashlib.sha256(canonical.encode()).hexdigest()

    def test_equal_urls_give_equal_keys(self) -> None:
        first, second = big_data_url("A"), big_data_url("A")
        assert first is not second
        assert cache_key("m", with_image(first), "s", {}) == cache_key(
            "m", with_image(second), "s", {}
        )
        assert cache_key("m", with_image(first), "s", {}) != cache_key(
            "m", with_image(big_data_url("B")), "s", {}
        )

    def test_no_reference_to_the_url_is_kept(self) -> None:
        # A memo holding the URL (megabytes) would add a reference that outlives the call.
        url = big_data_url("C")
        before = sys.getrefcount(url)
        for _ in range(3):
            cache_key("m", with_image(url), "s", {})
        assert sys.getrefcount(url) == before
