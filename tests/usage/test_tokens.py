"""Tokens counted before a call is made (app/usage/tokens.py): OpenAI's tokenizers from the
shipped ranks, the model families, OpenAI's chat overhead and its image tile rule."""

import random

import pytest

from app.usage import tokens


class TestEncodings:
    def test_the_shipped_ranks_are_openais(self) -> None:
        # tiktoken's own README example, in both encodings.
        assert tokens.encoding("cl100k_base").encode("tiktoken is great!") == [
            83,
            1609,
            5963,
            374,
            2294,
            0,
        ]
        assert tokens.encoding("o200k_base").encode("tiktoken is great!") == [
            83,
            8251,
            2488,
            382,
            2212,
            0,
        ]

    @pytest.mark.parametrize(
        ("model", "expected"),
        [
            ("gpt-4o", ("o200k_base", True)),
            ("gpt-4o-mini-2024-07-18", ("o200k_base", True)),
            ("gpt-4.1-nano", ("o200k_base", True)),
            ("o3-mini", ("o200k_base", True)),
            ("gpt-5", ("o200k_base", True)),
            ("openai/gpt-4o", ("o200k_base", True)),
            ("gpt-4", ("cl100k_base", True)),
            ("gpt-4-turbo", ("cl100k_base", True)),
            ("gpt-3.5-turbo", ("cl100k_base", True)),
            ("text-embedding-3-large", ("cl100k_base", True)),
            ("llama-3.1-70b", ("o200k_base", False)),
            (None, ("o200k_base", False)),
        ],
    )
    def test_model_families(self, model: str | None, expected: tuple[str, bool]) -> None:
        assert tokens.encoding_for(model) == expected

    def test_special_token_spellings_are_text(self) -> None:
        assert tokens.count_text("<|endoftext|>", "o200k_base") > 1


class TestMessages:
    def test_openais_chat_overhead(self) -> None:
        messages = [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Hi"},
        ]
        content = tokens.count_text("You are a helpful assistant.", "o200k_base")
        roles = tokens.count_text("system", "o200k_base") + tokens.count_text("user", "o200k_base")
        hi = tokens.count_text("Hi", "o200k_base")
        assert tokens.count_messages(messages, "o200k_base") == (
            2 * 3 + roles + content + hi + 3,
            0,
        )

    def test_images_by_size_and_unknown_ones_at_the_most(self) -> None:
        sizes = {"data:a": tokens.ImageSize(1024, 1024)}
        parts = [
            {"type": "text", "text": "Look:"},
            {"type": "image_url", "image_url": {"url": "data:a"}},
            {"type": "image_url", "image_url": {"url": "https://example.test/b.png"}},
            {"type": "image_url", "image_url": {"url": "data:a", "detail": "low"}},
        ]
        total, unknown = tokens.count_messages(
            [{"role": "user", "content": parts}], "o200k_base", sizes.get
        )
        text = (
            3 + tokens.count_text("user", "o200k_base") + tokens.count_text("Look:", "o200k_base")
        )
        assert (total, unknown) == (3 + text + 765 + 1445 + 85, 1)


class TestImageRule:
    # OpenAI's own worked examples (vision guide, "Calculating costs").
    @pytest.mark.parametrize(
        ("size", "detail", "expected"),
        [
            ((1024, 1024), None, 765),
            ((2048, 4096), "high", 1105),
            ((4096, 8192), "low", 85),
            ((512, 512), None, 255),
            ((600, 300), None, 425),
        ],
    )
    def test_tiles(self, size: tuple[int, int], detail: str | None, expected: int) -> None:
        assert tokens.image_tokens(tokens.ImageSize(*size), detail) == expected

    def test_unknown_size_is_the_most_an_image_costs(self) -> None:
        assert (
            tokens.image_tokens(None) == 1445 == tokens.image_tokens(tokens.ImageSize(9000, 3000))
        )


class TestLongTexts:
    """A long text is counted by stretches cut after a line break followed by a letter, each
    stretch's count remembered: the sum must be the whole text's count, whatever the text."""

    PIECES = [
        *"abcXYZ019 \t\n\n\r.,'/-_!?éÉßñ漢字ㅎ\u0301\u00b2Ⅻ😀ǅʰـ\u00a0\u3000\u2028\x85\x0b\x0c",
        "'s",
        "'ll",
        "  ",
        "Turn 3 (user):\n",
        "http://x/y",
    ]

    @pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
    def test_the_stretches_add_up_to_the_whole(self, encoding: str) -> None:
        rng = random.Random(20261128)
        whole = tokens.encoding(encoding)
        for _ in range(500):
            text = "".join(rng.choice(self.PIECES) for _ in range(rng.randint(1, 300)))
            text = (text * (tokens._REMEMBERED_LENGTH // len(text) + rng.randint(1, 3)))[:9000]
            assert tokens.count_text(text, encoding) == len(whole.encode_ordinary(text)), text

    def test_a_conversations_turns_repeated_in_many_prompts(self) -> None:
        turns = [f"Turn {n} (user):\n" + "word. " * 300 + f"end {n}.\n" for n in range(40)]
        for first in range(30):
            prompt = "Earlier turns:\n" + "".join(turns[first : first + 10]) + "Judge it."
            expected = len(tokens.encoding("o200k_base").encode_ordinary(prompt))
            assert tokens.count_text(prompt, "o200k_base") == expected
