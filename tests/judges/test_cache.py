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


def reference_key(model: str, messages: list, schema: str, params: dict) -> str:
    """The key as every earlier version made it: the standard library's canonical JSON."""
    from app.judges._cache import _keyable

    material = {"model": model, "messages": _keyable(messages), "schema": schema, "params": params}
    text = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class TestKeysStayTheSame:
    """Keys are made faster now; every stored entry must still be found by them."""

    MESSAGES = [
        [{"role": "system", "content": "Loupe task: x"}, {"role": "user", "content": "q"}],
        # Every control character, quotes, backslashes, non-ASCII, astral, BOM, keys to sort.
        [{"z": 1, "role": "user", "content": "".join(map(chr, range(32))) + '"\\é✓😀\ufeff\u2028'}],
        [{"role": "user", "content": [{"type": "text", "text": "a"}, {"b": None, "a": True}]}],
        # A float in the messages (the rare case): the standard library writes them.
        [{"role": "tool", "content": "x", "score": 1e-05, "n": [0.1, 2.5e-08, 1e22]}],
        # A key that is not a string, and an integer past 64 bits.
        [{"role": "user", "content": "x", "big": 10**30}],
        with_image("data:image/png;base64,QUJD"),
        with_image("https://example.org/a.png", detail="low"),
    ]

    def test_every_shape_of_message_keeps_its_key(self) -> None:
        params = [
            {"temperature": 0.0, "top_logprobs": None},
            {"temperature": 1e-05, "top_logprobs": 20, "sampling": {"top_p": 0.9, "seed": 7}},
        ]
        for messages in self.MESSAGES:
            for each in params:
                got = cache_key("judge-é", messages, "g_eval_score", each)
                assert got == reference_key("judge-é", messages, "g_eval_score", each), messages

    def test_keys_that_do_not_sort_fall_back_to_the_standard_library(self) -> None:
        messages = [{"role": "user", "content": "x", "map": {1: "a", 2: "b"}}]
        assert cache_key("m", messages, "s", {}) == reference_key("m", messages, "s", {})

    def test_parameters_equal_in_python_but_written_apart_keep_their_keys(self) -> None:
        # 1, 1.0 and True are one key of a dict but three texts: the parameters' texts are
        # remembered, and each must stay its own.
        messages = self.MESSAGES[0]
        for _ in range(2):
            for value in (1, 1.0, True, 0, 0.0, False, None, 1e-05):
                params = {"temperature": value, "top_logprobs": value}
                got = cache_key("m", messages, "s", params)
                assert got == reference_key("m", messages, "s", params), value
